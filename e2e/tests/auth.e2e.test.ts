import type { Page } from "playwright-core";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  appUrl,
  type Browser,
  hasChromium,
  linkFromMailbox,
  openBrowser,
  screenshot,
  signIn,
  watchErrors,
} from "../browser.ts";

describe.skipIf(!hasChromium)("sign-in and sessions in Chromium", () => {
  let browser: Browser;
  let page: Page;
  let errors: string[];

  beforeEach(async () => {
    browser = await openBrowser();
    page = await browser.context.newPage();
    errors = watchErrors(page);
  });
  afterEach(async () => {
    await browser?.close();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it("a protected URL while signed out lands on the redirect with redirectedFrom", async () => {
    await page.goto(appUrl("/dashboard/settings/account"));
    await page.waitForURL((u) => u.pathname === "/");
    expect(new URL(page.url()).searchParams.get("redirectedFrom")).toBe("/dashboard/settings/account");
  });

  it("owner signs in, sees the dashboard, stays signed in across a reload, and signs out", async () => {
    await signIn(page, "owner@demo.test");
    await page.getByRole("heading", { name: "Welcome back, Olivia" }).waitFor();
    expect(await page.getByTestId("plan-chip").textContent()).toBe("Premium");
    // A platform banner scheduled for dashboards shows, and stays dismissed for the session.
    await page
      .getByTestId("dashboard-banner")
      .filter({ hasText: "Year-end stock take" })
      .getByRole("button", { name: "Close" })
      .click();
    expect(await page.getByTestId("dashboard-banner").count()).toBe(0);
    await screenshot(page, "dashboard-home");
    await page.reload();
    await page.getByRole("heading", { name: "Welcome back, Olivia" }).waitFor();
    const cookies = await browser.context.cookies();
    expect(cookies.some((c) => c.name.startsWith("sb") && c.httpOnly && c.sameSite === "Lax")).toBe(true);

    await page.getByRole("button", { name: "Account menu" }).click();
    await page.getByRole("menuitem", { name: "Sign out" }).click();
    await page.waitForURL(/\/auth\/login/);
    expect((await browser.context.cookies()).some((c) => c.name.startsWith("sb"))).toBe(false);
    await page.goto(appUrl("/dashboard"));
    await page.waitForURL((u) => u.pathname === "/" && u.searchParams.has("redirectedFrom"));
    expect(errors).toEqual([]);
  });

  it("shows the server's error for a wrong password and for missing fields", async () => {
    await page.goto(appUrl("/auth/login"));
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByText("You must provide either an email or phone number and a password").waitFor();
    await page.getByLabel("E-mail or phone").fill("owner@demo.test");
    await page.getByLabel("Password", { exact: true }).fill("wrong-password");
    await page.getByRole("button", { name: "Sign in" }).click();
    await page
      .getByRole("alert")
      .getByText(/invalid login credentials/i)
      .waitFor();
    await screenshot(page, "login-error");
  });

  it("recovers a password through the e-mailed link", async () => {
    await page.goto(appUrl("/auth/recover"));
    await page.getByLabel("E-mail").fill("accounts@demo.test");
    await page.getByRole("button", { name: "Send reset link" }).click();
    await page.getByRole("status").getByText("a reset link is on its way").waitFor();
    const link = await linkFromMailbox(page, "accounts@demo.test", /verify|reset/);
    await page.goto(link);
    await page.getByRole("heading", { name: "Choose a new password" }).waitFor();
    await page.getByLabel("New password", { exact: true }).fill("harbour-lights-2027");
    await page.getByLabel("Repeat new password").fill("harbour-lights-2027");
    await page.getByRole("button", { name: "Save password" }).click();
    await page.waitForURL(/\/dashboard/);
    await page.getByRole("heading", { name: /Welcome back/ }).waitFor();

    // The new password works from a fresh browser, the old one no longer does.
    const other = await openBrowser();
    const p2 = await other.context.newPage();
    await signIn(p2, "accounts@demo.test", { password: "harbour-lights-2027" });
    await other.close();
  });

  it("lists sessions on the account page and signs another one out", async () => {
    const other = await openBrowser();
    const p2 = await other.context.newPage();
    await signIn(p2, "manager@demo.test");
    await signIn(page, "manager@demo.test");
    await page.goto(appUrl("/dashboard/settings/account"));
    await page.getByTestId("session-row").nth(1).waitFor();
    const rows = page.getByTestId("session-row");
    expect(await rows.count()).toBeGreaterThanOrEqual(2);
    await screenshot(page, "account-settings");
    const otherRow = rows.filter({ hasNotText: "This device" }).first();
    await otherRow.getByRole("button", { name: "Sign out" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Sign out" }).click();
    await page.getByText("Signed out of that session").waitFor();

    // The other browser's session is gone: its next page load goes back to sign-in.
    await p2.goto(appUrl("/dashboard/settings/account"));
    await p2.waitForURL((u) => u.pathname === "/auth/login" || u.searchParams.has("redirectedFrom"), {
      timeout: 15_000,
    });
    await other.close();
  });
});
