import { describe, expect, it } from "vitest";
import { appUrl, hasChromium, screenshot, useFreshBrowser } from "../browser.ts";

// Issue 21 §3: a visitor presses "Try it now" on the landing page and, without signing up, is the owner of a sandbox
// of their own — a copy of the demo's year of trading on its own host — that says on every page it is a sandbox.

describe.skipIf(!hasChromium)("the try-it sandbox in Chromium", () => {
  const t = useFreshBrowser();

  it("Try it now lands on a dashboard of one's own, signed in, with the sandbox banner", async () => {
    const { page } = t;
    page.setDefaultTimeout(120_000); // the copy of a year of trading is made on the spot
    await page.goto(appUrl("/"));
    await page.getByRole("link", { name: "Try it now, no sign-up" }).click();
    await page.waitForURL(/^http:\/\/try-[a-z0-9]{8}\.localhost:\d+\/dashboard/);
    const banner = page.getByTestId("sandbox-banner");
    await banner.waitFor();
    await expect(banner.textContent()).resolves.toMatch(
      /^This is a sandbox — a copy of the demo data .* It is removed on /,
    );
    // The demo's figures are there, and this visitor owns them.
    await page.goto(new URL("/dashboard/invoices", page.url()).toString());
    await page.getByRole("row").nth(5).waitFor();
    await expect(page.getByTestId("sandbox-banner").isVisible()).resolves.toBe(true);
    // From the sandbox, "Start my company" goes to sign-up.
    await expect(
      page.getByTestId("sandbox-banner").getByRole("link", { name: "Start my company" }).getAttribute("href"),
    ).resolves.toBe("/pricing/signup");
    await screenshot(page, "sandbox-invoices");
  });
});
