import * as OTPAuth from "otpauth";
import type { Page } from "playwright-core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
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

const code = (secret: string) =>
  new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret), digits: 6, period: 30 }).generate();

describe.skipIf(!hasChromium)("workspaces, hosts and tiers in Chromium", () => {
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

  it("a new company signs up with a coupon, confirms, lands on its own host, turns on MFA and signs out", async () => {
    await page.goto(appUrl("/pricing"));
    await page.getByTestId("tier-pro").getByRole("link", { name: "Start with Pro" }).click();
    await page.getByRole("heading", { name: "Create your workspace" }).waitFor();
    await page.getByLabel("Company name").fill("Tampines Tools Pte Ltd");
    expect(await page.getByLabel("Workspace address").inputValue()).toBe("tampines-tools-pte-ltd");
    await page.getByLabel("Workspace address").fill("tampines-tools");
    await page.getByText("Available").waitFor();
    await page.getByLabel("Your name").fill("Kelvin Ong");
    await page.getByLabel("Work e-mail").fill("kelvin@tampines.example");
    await page.getByLabel("Password").fill("password");
    await page.getByLabel("Coupon code").fill("WELCOME10");
    await page.getByRole("button", { name: "Apply" }).click();
    await page.getByTestId("summary-discount").waitFor();
    expect(await page.getByTestId("summary-total").textContent()).toBe("S$ 134.10");
    await page.getByRole("button", { name: "Create workspace" }).click();
    await page
      .getByText(/too common|weak|guess/i)
      .first()
      .waitFor();
    await screenshot(page, "signup-errors");
    await page.getByLabel("Password").fill("east-coast-park-2026");
    await page.getByRole("button", { name: "Create workspace" }).click();
    await page.getByRole("status").getByText("kelvin@tampines.example").waitFor();
    await screenshot(page, "signup-done");

    const link = await linkFromMailbox(page, "kelvin@tampines.example", /verify/);
    await page.goto(link);
    await page.waitForURL((u) => u.hostname === "tampines-tools.localhost" && u.pathname === "/auth/success");
    await page.getByRole("link", { name: "Continue to the dashboard" }).click();
    await page.getByRole("heading", { name: "Welcome back, Kelvin" }).waitFor();
    expect(await page.getByTestId("plan-chip").textContent()).toBe("Pro");

    await page.goto(appUrl("/dashboard/settings/account", "tampines-tools"));
    await page.getByRole("button", { name: "Set up authenticator" }).click();
    const secret = (await page.getByTestId("totp-secret").textContent()) ?? "";
    await page.getByLabel("6-digit code").fill(code(secret));
    await page.getByRole("button", { name: "Verify and turn on" }).click();
    await page.getByText("Two-step verification is on").first().waitFor();
    await page.getByRole("button", { name: "Account menu" }).click();
    await page.getByRole("menuitem", { name: "Sign out" }).click();
    await page.waitForURL(/\/auth\/login/);
    // The only failed request is the weak password refused on purpose above.
    expect(errors).toEqual(["422 POST /api/public/signup"]);
  });

  it("the root of a workspace host is the login page", async () => {
    await page.goto(appUrl("/", "demo"));
    await page.waitForURL((u) => u.pathname === "/auth/login");
  });

  it("driver@lite.test on lite.driver.localhost is signed out with the lite-tier message", async () => {
    await signIn(page, "driver@lite.test", { sub: "lite.driver" });
    await page.getByText("The lite tier has no permission to access the website!").first().waitFor();
    expect(new URL(page.url()).pathname).toBe("/auth/login");
    await screenshot(page, "host-lite-driver");
  });

  it("pos@pro.test on pro.pos.localhost is signed out with the premium message; pos@demo.test works on demo.pos", async () => {
    await signIn(page, "pos@pro.test", { sub: "pro.pos" });
    await page.getByText("Only the premium users have permission to access the website!").first().waitFor();
    await signIn(page, "pos@demo.test", { sub: "demo.pos" });
    await page.getByRole("heading", { name: /Welcome back/ }).waitFor();
  });

  it("sales@demo.test on pro.localhost is sent to demo.localhost; owner@demo.test is not", async () => {
    await signIn(page, "sales@demo.test", { sub: "pro" });
    await page.waitForURL((u) => u.hostname === "demo.localhost");
    const owner = await browser.context.newPage();
    await signIn(owner, "owner@demo.test", { sub: "pro" });
    await owner.getByRole("heading", { name: /Welcome back, Olivia/ }).waitFor();
    expect(new URL(owner.url()).hostname).toBe("pro.localhost");
  });
});
