import * as OTPAuth from "otpauth";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appUrl, type Browser, hasChromium, openBrowser, screenshot, signIn, watchErrors } from "../browser.ts";

// A code for the step after `lastStep`: the server refuses a code whose time step was already used.
function code(secret: string): string {
  return new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret), digits: 6, period: 30 }).generate();
}

describe.skipIf(!hasChromium)("two-step verification in Chromium", () => {
  let browser: Browser;
  let page: Page;
  let errors: string[];

  beforeAll(async () => {
    browser = await openBrowser();
    page = await browser.context.newPage();
    errors = watchErrors(page);
  });
  afterAll(async () => {
    await browser?.close();
  });

  it("turns TOTP on from the account page, then asks for a code at the next sign-in", async () => {
    await signIn(page, "procurement@demo.test");
    await page.goto(appUrl("/dashboard/settings/account"));
    await page.getByRole("button", { name: "Set up authenticator" }).click();
    await page.getByRole("img", { name: "QR code for your authenticator app" }).waitFor();
    const secret = (await page.getByTestId("totp-secret").textContent()) ?? "";
    expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
    await screenshot(page, "mfa-enroll");

    await page.getByLabel("6-digit code").fill("000000");
    await page.getByRole("button", { name: "Verify and turn on" }).click();
    await page.getByRole("alert").waitFor();

    await page.getByLabel("6-digit code").fill(code(secret));
    await page.getByRole("button", { name: "Verify and turn on" }).click();
    await page.getByText("Two-step verification is on").first().waitFor();

    await page.getByRole("button", { name: "Account menu" }).click();
    await page.getByRole("menuitem", { name: "Sign out" }).click();
    await page.waitForURL(/\/auth\/login/);

    await page.getByLabel("E-mail or phone").fill("procurement@demo.test");
    await page.getByLabel("Password", { exact: true }).fill("demo-pass-2026");
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("heading", { name: "Two-step verification" }).waitFor();
    await screenshot(page, "mfa-login-step");
    // Wait for the next 30 s step so the code differs from the one used to enrol.
    const now = Date.now();
    await new Promise((r) => setTimeout(r, 30_000 - (now % 30_000) + 500));
    await page.getByLabel("Authentication code").fill(code(secret));
    await page.getByRole("button", { name: "Verify" }).click();
    await page.waitForURL(/\/dashboard/);
    await page.getByRole("heading", { name: /Welcome back/ }).waitFor();

    await page.goto(appUrl("/dashboard/settings/account"));
    await page.getByRole("button", { name: "Turn off" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Turn off" }).click();
    await page.getByRole("button", { name: "Set up authenticator" }).waitFor();
    // The only failed request is the wrong code entered on purpose above.
    expect(errors).toEqual([expect.stringMatching(/^422 POST \/auth\/v1\/factors\/.+\/verify$/)]);
  });
});
