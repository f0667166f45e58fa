import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { restFetch } from "../../apps/server/test/rest-helpers.ts";
import { appUrl, hasChromium, openBrowser, screenshot, signIn, watchErrors } from "../browser.ts";

// Issue 22 "One app shell" at 390×844: a storekeeper signed in to the back office opens the warehouse app from the
// user menu without the password; the app is installable (its manifest, icons and a service worker that controls
// the page after a reload); cut from the network, a reload still opens the app from the worker's cache; the back
// office opens again from the app's menu, signed in. Light and dark, screenshots looked at.

const STORE = "warehouse@demo.test";
const DRIVER = "driver@demo.test";
const ADMIN = "admin@demo.test";

type Manifest = {
  name: string;
  short_name: string;
  start_url: string;
  display: string;
  theme_color: string;
  icons: Array<{ src: string; sizes: string; type: string }>;
};

async function openMenu(page: Page) {
  await page.getByRole("button", { name: "Account menu" }).click();
}

describe.skipIf(!hasChromium)("the role-app shell in Chromium (390×844)", () => {
  it("hands the session over, installs, works offline and hands it back", async () => {
    const browser = await openBrowser({ width: 390, height: 844 });
    const page = await browser.context.newPage();
    const errors = watchErrors(page);
    const logins: string[] = [];
    page.on("framenavigated", (f) => {
      if (f === page.mainFrame() && f.url().includes("/auth/login")) logins.push(f.url());
    });
    try {
      await signIn(page, STORE, { sub: "demo" });
      logins.length = 0;

      // The back office's menu opens the warehouse app on its own host, signed in.
      await openMenu(page);
      await page.getByRole("menuitem", { name: "Open the warehouse app" }).click();
      await page.waitForURL(/\/\/demo\.warehouse\.localhost:\d+\/dashboard/);
      await page.getByRole("heading", { name: "Warehouse", level: 1 }).waitFor();
      expect(logins).toEqual([]);

      // Installable: the manifest it names, with real icons.
      const manifest = await page.evaluate(async () => {
        const link = document.querySelector<HTMLLinkElement>('link[rel="manifest"]');
        if (!link) return null;
        const res = await fetch(link.href);
        return { type: res.headers.get("content-type"), body: (await res.json()) as unknown };
      });
      expect(manifest?.type).toMatch(/^application\/manifest\+json/);
      const m = manifest?.body as Manifest;
      expect(m).toMatchObject({
        short_name: "Warehouse",
        start_url: "/dashboard",
        display: "standalone",
        name: "Warehouse · Harbourline Trading Pte Ltd",
      });
      const sizes = await page.evaluate(
        (icons) =>
          Promise.all(
            icons.map(
              (i) =>
                new Promise<string>((resolve) => {
                  const img = new Image();
                  img.onload = () => resolve(`${img.naturalWidth}x${img.naturalHeight}`);
                  img.onerror = () => resolve("broken");
                  img.src = i.src;
                }),
            ),
          ),
        m.icons,
      );
      expect(sizes).toEqual(m.icons.map((i) => i.sizes));

      // The service worker installs and, after a reload, controls the page.
      expect(await page.evaluate(() => navigator.serviceWorker.ready.then((r) => r.scope))).toBe(
        appUrl("/", "demo.warehouse"),
      );
      await page.reload();
      await page.getByRole("heading", { name: "Warehouse", level: 1 }).waitFor();
      await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
      await page.getByRole("button", { name: "Outbox: everything is sent" }).waitFor();
      await screenshot(page, "roleapp-shell-light");
      // A counter tablet: the same frame, wider.
      await page.setViewportSize({ width: 1024, height: 768 });
      await screenshot(page, "roleapp-shell-tablet");
      await page.setViewportSize({ width: 390, height: 844 });

      await openMenu(page);
      await page.getByRole("menuitem", { name: "Dark theme" }).click();
      await page.locator(".MuiPopover-root").waitFor({ state: "detached" }); // faded out
      expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe("rgb(17, 17, 17)");
      await screenshot(page, "roleapp-shell-dark");
      await openMenu(page);
      await page.getByRole("menuitem", { name: "Light theme" }).click();
      await page.locator(".MuiPopover-root").waitFor({ state: "detached" }); // faded out

      // No network: a reload opens the app from the worker's cache, and says it is offline.
      await browser.context.setOffline(true);
      await page.reload();
      await page.getByRole("heading", { name: "Warehouse", level: 1 }).waitFor();
      await page.getByRole("status").filter({ hasText: "Offline" }).waitFor();
      await page.getByRole("button", { name: "Outbox: everything is sent" }).click();
      await page.getByText("Everything you did has reached the server.").waitFor();
      // The sheet has finished sliding up before the picture.
      await page.locator(".MuiDrawer-paper").evaluate((el) => Promise.all(el.getAnimations().map((a) => a.finished)));
      await screenshot(page, "roleapp-shell-offline");
      await page.getByRole("button", { name: "Close" }).click();
      await browser.context.setOffline(false);

      // And back to the back office from the app's menu, signed in there too.
      await openMenu(page);
      await page.getByRole("menuitem", { name: "Open the back office" }).click();
      await page.waitForURL(/\/\/demo\.localhost:\d+\/dashboard/);
      await page.getByRole("button", { name: "Account menu" }).waitFor();
      expect(logins).toEqual([]);
      expect(errors.filter((e) => !/^(Failed|TypeError: Failed to fetch|net::)/.test(e))).toEqual([]);
    } finally {
      await browser.close();
    }
  });

  it("shows a manager what a role app's replay was refused, and resolves it", async () => {
    const label = `Delivered DO-E2E-${Date.now()}`;
    const reported = await restFetch(DRIVER, "rpc/offline_conflict_report", {
      method: "POST",
      body: JSON.stringify({
        app: "driver",
        command: "delivery_deliver",
        label,
        args_summary: '{"id":4242}',
        code: "P0001",
        message: "DO-E2E was cancelled: do not deliver it (ask dispatch)",
        key: `e2e-${Date.now()}`,
        acted_at: new Date().toISOString(),
      }),
    });
    expect(reported.status, reported.text).toBe(200);
    const browser = await openBrowser({ width: 1440, height: 900 });
    const page = await browser.context.newPage();
    const errors = watchErrors(page);
    try {
      await signIn(page, ADMIN, { sub: "demo" });
      await page.goto(appUrl("/dashboard/offline-conflicts", "demo"));
      await page.getByRole("heading", { name: "Offline conflicts", level: 1 }).waitFor();
      const item = page.getByRole("listitem").filter({ hasText: label });
      await item.getByText("DO-E2E was cancelled: do not deliver it (ask dispatch)").waitFor();
      await item.getByText(/Dinesh Kumar/).waitFor();
      await screenshot(page, "offline-conflicts");
      await item.getByRole("button", { name: "Mark resolved" }).click();
      await page.getByLabel("What was done (optional)").fill("Customer called, delivery cancelled");
      await page.getByRole("dialog").getByRole("button", { name: "Mark resolved" }).click();
      await page.getByRole("dialog").waitFor({ state: "hidden" });
      await expect.poll(() => page.getByRole("listitem").filter({ hasText: label }).count()).toBe(0);
      await page.getByRole("tab", { name: "Resolved" }).click();
      await page
        .getByRole("listitem")
        .filter({ hasText: label })
        .getByText(/Resolved by Aaron Lim .*: Customer called, delivery cancelled/)
        .waitFor();
      expect(errors).toEqual([]);
    } finally {
      await browser.close();
    }
  });
});
