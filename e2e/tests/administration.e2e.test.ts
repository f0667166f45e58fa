import { describe, expect, it } from "vitest";
import { appUrl, hasChromium, linkFromMailbox, openBrowser, screenshot, signIn, useFreshBrowser } from "../browser.ts";

describe.skipIf(!hasChromium)("workspace and platform administration in Chromium", () => {
  const t = useFreshBrowser();

  it("an admin re-themes the workspace with a live preview and sees the plan", async () => {
    await signIn(t.page, "admin@pro.test");
    await t.page.goto(appUrl("/dashboard/settings/workspace"));
    await t.page.getByTestId("plan-title").filter({ hasText: "Pro" }).waitFor();
    await t.page
      .getByTestId("storage-usage")
      .filter({ hasText: /^Storage: .+ of 10 GB used$/ })
      .waitFor();
    await t.page.getByLabel("Primary colour").click();
    await t.page.getByRole("option", { name: "Purple" }).click();
    const preview = await t.page
      .getByTestId("brand-preview")
      .getByText("New quotation")
      .evaluate((el) => getComputedStyle(el).backgroundColor);
    expect(preview).toBe("rgb(123, 31, 162)");
    await t.page.getByRole("button", { name: "Save name and colours" }).click();
    await t.page.getByText("Workspace saved").waitFor();
    await screenshot(t.page, "workspace-settings");
    // The app itself takes the colour: the primary button now renders purple (pointer away, not hovered).
    await t.page.mouse.move(0, 0);
    await expect
      .poll(() =>
        t.page
          .getByRole("button", { name: "Save name and colours" })
          .evaluate((el) => getComputedStyle(el).backgroundColor),
      )
      .toBe("rgb(123, 31, 162)");
    await t.page.getByLabel("Workspace address").fill("pos");
    await t.page.getByRole("button", { name: "Change address" }).click();
    await t.page.getByText("That address is reserved; choose another").waitFor();
    expect(t.errors).toEqual([]);
  });

  it("an admin invites a colleague with a role; the invitee sets a password and lands in the workspace; deactivation signs them out", async () => {
    await signIn(t.page, "admin@pro.test");
    await t.page.goto(appUrl("/dashboard/users"));
    await t.page.getByTestId("user-row").first().waitFor();
    await t.page.getByRole("button", { name: "Invite" }).click();
    const dialog = t.page.getByRole("dialog");
    await dialog.getByRole("button", { name: "Send invitation" }).click();
    await dialog.getByText("Enter a valid e-mail address").waitFor();
    await dialog.getByLabel("Name").fill("Hana Rahman");
    await dialog.getByLabel("E-mail").fill("hana@pro.example");
    await dialog.getByLabel("Role").click();
    await t.page.getByRole("option", { name: "Warehouse Staff" }).click();
    await dialog.getByRole("button", { name: "Send invitation" }).click();
    await t.page.getByText("Invitation sent to hana@pro.example").waitFor();
    await t.page.getByTestId("user-row").filter({ hasText: "Hana Rahman" }).waitFor();
    await screenshot(t.page, "users");

    const invitee = await openBrowser();
    const p2 = await invitee.context.newPage();
    const link = await linkFromMailbox(p2, "hana@pro.example", /verify/);
    await p2.goto(link);
    await p2.getByRole("heading", { name: "Choose a new password" }).waitFor();
    await p2.getByLabel("New password", { exact: true }).fill("tiong-bahru-market-88");
    await p2.getByLabel("Repeat new password").fill("tiong-bahru-market-88");
    await p2.getByRole("button", { name: "Save password" }).click();
    await p2.getByRole("heading", { name: "Welcome back, Hana" }).waitFor();

    await t.page
      .getByTestId("user-row")
      .filter({ hasText: "Hana Rahman" })
      .getByRole("button", { name: "Deactivate" })
      .click();
    await t.page.getByRole("dialog").getByRole("button", { name: "Deactivate" }).click();
    await t.page.getByText("Hana Rahman is deactivated and signed out").waitFor();
    await p2.reload();
    await p2.waitForURL((u) => u.pathname === "/auth/login" || u.searchParams.has("redirectedFrom"), {
      timeout: 15_000,
    });
    await invitee.close();
  });

  it("a permission change takes effect on the next request", async () => {
    await signIn(t.page, "admin@pro.test");
    await t.page.goto(appUrl("/dashboard/permissions"));
    await t.page.getByRole("combobox", { name: "Role" }).click();
    await t.page.getByRole("option", { name: "Driver", exact: true }).click();
    const box = t.page.getByRole("checkbox", { name: "Products: create" });
    expect(await box.isChecked()).toBe(false);
    await box.check();
    await t.page.getByRole("button", { name: "Save permissions" }).click();
    await t.page.getByText("Permissions of Driver saved").waitFor();
    await screenshot(t.page, "permissions");

    const driver = await openBrowser();
    const p2 = await driver.context.newPage();
    await signIn(p2, "driver@pro.test");
    const created = await p2.evaluate(async () => {
      const key = Object.keys(sessionStorage)
        .concat(Object.keys(localStorage))
        .find((k) => k.startsWith("sb-"));
      const raw = (key && (sessionStorage.getItem(key) ?? localStorage.getItem(key))) || "{}";
      const token = JSON.parse(raw).access_token;
      const cfg = await (await fetch("/api/config")).json();
      const res = await fetch("/rest/v1/product", {
        method: "POST",
        headers: { apikey: cfg.anonKey, authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify({ sku: "DRV-1", name: "Driver-made product", price: "1.00", cost: "0.50", unit: "pc" }),
      });
      return res.status;
    });
    expect(created).toBe(201);
    await driver.close();
  });

  it("the permission matrix fits a phone: every column in its card, the area names in view when it scrolls", async () => {
    await t.page.setViewportSize({ width: 390, height: 844 });
    await signIn(t.page, "admin@pro.test");
    await t.page.goto(appUrl("/dashboard/permissions"));
    const matrix = t.page.getByRole("table", { name: /^Permissions of / });
    await matrix.getByRole("checkbox").first().waitFor();
    const right = async (name: RegExp) => {
      const box = await matrix.getByRole("columnheader", { name }).boundingBox();
      return (box?.x ?? 0) + (box?.width ?? Number.POSITIVE_INFINITY);
    };
    for (const column of [/^read$/i, /^create$/i, /^change$/i, /^delete$/i]) {
      expect(await right(column), String(column)).toBeLessThanOrEqual(390);
    }
    await screenshot(t.page, "permissions-phone");
    // Narrower still, the card scrolls sideways (never the page) and each row keeps its name.
    await t.page.setViewportSize({ width: 320, height: 844 });
    await matrix.getByRole("columnheader", { name: /^delete$/i }).scrollIntoViewIfNeeded();
    expect(await right(/^delete$/i)).toBeLessThanOrEqual(320);
    const area = await matrix.getByRole("rowheader", { name: "Products", exact: true }).boundingBox();
    expect(area?.x).toBeGreaterThanOrEqual(0);
    expect(await t.page.evaluate(() => document.documentElement.scrollWidth)).toBe(320);
  });

  it("a Lite workspace sees roles and permissions locked with an upgrade path", async () => {
    await signIn(t.page, "admin@lite.test");
    await t.page.goto(appUrl("/dashboard/permissions"));
    await t.page.getByText(/Pro/).first().waitFor();
    expect(await t.page.getByRole("checkbox").count()).toBe(0);
    await screenshot(t.page, "permissions-locked");
  });

  it("the platform operator sees the platform pages, not a workspace's", async () => {
    await signIn(t.page, "platform@workmetrics.test");
    const nav = t.page.getByRole("navigation", { name: "Dashboard" });
    await nav.getByText("Coupons").waitFor();
    expect(await nav.getByText("Products").count()).toBe(0);
    await nav.getByText("Coupons").click();
    await t.page.getByText("WELCOME10").waitFor();
    await screenshot(t.page, "platform-coupons");
    await nav.getByText("Demo requests").click();
    await t.page.getByRole("heading", { name: /Demo requests/ }).waitFor();
  });
});
