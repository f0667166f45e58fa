import { describe, expect, it } from "vitest";
import { appUrl, hasChromium, linkFromMailbox, openBrowser, screenshot, signIn, useFreshBrowser } from "../browser.ts";

describe.skipIf(!hasChromium)("sign-in and sessions in Chromium", () => {
  const t = useFreshBrowser();

  it("a protected URL while signed out lands on the redirect with redirectedFrom", async () => {
    await t.page.goto(appUrl("/dashboard/settings/account"));
    await t.page.waitForURL((u) => u.pathname === "/");
    expect(new URL(t.page.url()).searchParams.get("redirectedFrom")).toBe("/dashboard/settings/account");
    // The header's Sign in keeps the page to return to (issue 21 §1: it dropped it).
    const header = t.page.getByRole("banner").getByRole("link", { name: "Sign in" });
    expect(await header.getAttribute("href")).toBe("/auth/login?redirectedFrom=%2Fdashboard%2Fsettings%2Faccount");
  });

  it("owner signs in, sees the dashboard, stays signed in across a reload, and signs out", async () => {
    await signIn(t.page, "owner@demo.test");
    await t.page.getByRole("heading", { name: "Welcome back, Olivia" }).waitFor();
    // Every request of the sign-in ends, the auth callback's included (its answer is read): the page goes idle.
    await t.page.waitForLoadState("networkidle", { timeout: 10_000 });
    expect(await t.page.getByTestId("plan-chip").textContent()).toBe("Premium");
    // A platform banner scheduled for dashboards shows, and stays dismissed for the session.
    await t.page
      .getByTestId("dashboard-banner")
      .filter({ hasText: "Year-end stock take" })
      .getByRole("button", { name: "Close" })
      .click();
    expect(await t.page.getByTestId("dashboard-banner").count()).toBe(0);
    await screenshot(t.page, "dashboard-home");
    await t.page.reload();
    await t.page.getByRole("heading", { name: "Welcome back, Olivia" }).waitFor();
    const cookies = await t.browser.context.cookies();
    expect(cookies.some((c) => c.name.startsWith("sb") && c.httpOnly && c.sameSite === "Lax")).toBe(true);

    // Another workspace's address shows the same page of one's own, under one's own address (issue 21 §1: it
    // showed demo's products under lite's address).
    await t.page.goto(appUrl("/_workspaces/lite/dashboard/products"));
    await t.page.waitForURL((u) => u.pathname === "/_workspaces/demo/dashboard/products");

    await t.page.getByRole("button", { name: "Account menu" }).click();
    await t.page.getByRole("menuitem", { name: "Sign out" }).click();
    await t.page.waitForURL(/\/auth\/login/);
    // The page leaves as soon as the session is gone; the cookie goes when the sign-out's requests answer.
    await expect.poll(async () => (await t.browser.context.cookies()).some((c) => c.name.startsWith("sb"))).toBe(false);
    await t.page.goto(appUrl("/dashboard"));
    await t.page.waitForURL((u) => u.pathname === "/" && u.searchParams.has("redirectedFrom"));
    expect(t.errors).toEqual([]);
  });

  it("shows the server's error for a wrong password and for missing fields", async () => {
    await t.page.goto(appUrl("/auth/login"));
    await t.page.getByRole("button", { name: "Sign in" }).click();
    await t.page.getByText("You must provide either an email or phone number and a password").waitFor();
    await t.page.getByLabel("E-mail or phone").fill("owner@demo.test");
    await t.page.getByLabel("Password", { exact: true }).fill("wrong-password");
    await t.page.getByRole("button", { name: "Sign in" }).click();
    await t.page
      .getByRole("alert")
      .getByText(/invalid login credentials/i)
      .waitFor();
    await screenshot(t.page, "login-error");
  });

  it("recovers a password through the e-mailed link", async () => {
    await t.page.goto(appUrl("/auth/recover"));
    // A user no other journey signs in as: the journeys of a shard share one server, and this changes the password.
    await t.page.getByLabel("E-mail").fill("owner@lite.test");
    await t.page.getByRole("button", { name: "Send reset link" }).click();
    await t.page.getByRole("status").getByText("a reset link is on its way").waitFor();
    const link = await linkFromMailbox(t.page, "owner@lite.test", /verify|reset/);
    await t.page.goto(link);
    await t.page.getByRole("heading", { name: "Choose a new password" }).waitFor();
    await t.page.getByLabel("New password", { exact: true }).fill("harbour-lights-2027");
    await t.page.getByLabel("Repeat new password").fill("harbour-lights-2027");
    await t.page.getByRole("button", { name: "Save password" }).click();
    await t.page.waitForURL(/\/dashboard/);
    await t.page.getByRole("heading", { name: /Welcome back/ }).waitFor();

    // The new password works from a fresh browser, the old one no longer does.
    const other = await openBrowser();
    const p2 = await other.context.newPage();
    await signIn(p2, "owner@lite.test", { password: "harbour-lights-2027" });
    await other.close();
  });

  it("lists sessions on the account page and signs another one out", async () => {
    const other = await openBrowser();
    const p2 = await other.context.newPage();
    await signIn(p2, "manager@demo.test");
    await signIn(t.page, "manager@demo.test");
    await t.page.goto(appUrl("/dashboard/settings/account"));
    await t.page.getByTestId("session-row").nth(1).waitFor();
    const rows = t.page.getByTestId("session-row");
    expect(await rows.count()).toBeGreaterThanOrEqual(2);
    await screenshot(t.page, "account-settings");
    const otherRow = rows.filter({ hasNotText: "This device" }).first();
    await otherRow.getByRole("button", { name: "Sign out" }).click();
    await t.page.getByRole("dialog").getByRole("button", { name: "Sign out" }).click();
    await t.page.getByText("Signed out of that session").waitFor();

    // The other browser's session is gone: its next page load goes back to sign-in.
    await p2.goto(appUrl("/dashboard/settings/account"));
    await p2.waitForURL((u) => u.pathname === "/auth/login" || u.searchParams.has("redirectedFrom"), {
      timeout: 15_000,
    });
    await other.close();
  });
});
