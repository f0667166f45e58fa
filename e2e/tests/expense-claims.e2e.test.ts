import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { restFetch } from "../../apps/server/test/rest-helpers.ts";
import { appUrl, hasChromium, screenshot, signIn as signInForm, useFreshBrowser } from "../browser.ts";

// Issue 24 "OCR and expense claims": a salesperson on a phone (390×844) photographs a taxi receipt into a new expense
// claim — a future date is refused by name, then corrected — and submits it; the sales manager on a desktop opens
// the receipt and approves it (Dr 6400 / Dr 1300 / Cr 2410); finance reimburses it with the transfer's reference.

const SALES = "sales@demo.test";
const MANAGER = "manager@demo.test";
const FINANCE = "finance@demo.test";
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
  "base64",
);

// Whoever was signed in before is signed out first.
async function signIn(page: Page, email: string) {
  await page.context().clearCookies();
  if (page.url().startsWith("http")) await page.evaluate(() => [localStorage.clear(), sessionStorage.clear()]);
  await signInForm(page, email);
}

const status = (page: Page, label: string) => page.locator("h1 + [data-status]", { hasText: label }).waitFor();
const act = (page: Page, name: string) =>
  page.getByTestId("doc-actions").getByRole("button", { name, exact: true }).click();

describe.skipIf(!hasChromium)("an expense claim in Chromium", () => {
  const t = useFreshBrowser();

  it("is photographed on a phone, submitted, approved on a desktop and reimbursed", async () => {
    const page = t.page;
    const merchant = `Taxi ${Date.now() % 100000}`;
    try {
      await page.setViewportSize({ width: 390, height: 844 });
      await signIn(page, SALES);
      await page.goto(appUrl("/dashboard/expense-claims/new"));
      await page.getByRole("button", { name: "Save draft" }).waitFor();
      // An employee's claim has no currency or terms (what they paid here, paid back as claimed): not on its form.
      expect(await page.getByLabel("Currency", { exact: true }).count()).toBe(0);
      expect(await page.getByLabel("Terms", { exact: true }).count()).toBe(0);
      const line = page.getByTestId("expense-line-1");
      await line.getByLabel("Merchant").fill(merchant);
      await line.getByLabel("Date on receipt").fill("2099-01-01");
      await line.getByLabel(/Amount paid/).fill("21.80");
      await line.getByText("GST 1.80").waitFor();
      await line.locator('input[type="file"][capture="environment"]').setInputFiles({
        name: "receipt.png",
        mimeType: "image/png",
        buffer: PNG,
      });
      await line.getByRole("img", { name: "Receipt" }).waitFor();
      await page.getByTestId("expense-total").getByText("21.80").waitFor();
      await screenshot(page, "expense-claim-phone-draft");

      // A receipt dated in the future is refused, naming the line and the field; nothing is saved.
      await page.getByRole("button", { name: "Save draft" }).click();
      await page.getByText("Line 1: the receipt's date cannot be in the future").first().waitFor();
      expect(page.url()).toMatch(/\/new$/);
      const today = new Date().toLocaleDateString("en-CA");
      await line.getByLabel("Date on receipt").fill(today);
      await page.getByRole("button", { name: "Save draft" }).click();
      await page.waitForURL(/\/dashboard\/expense-claims\/\d+$/);
      const claimUrl = page.url();
      await act(page, "Submit");
      await status(page, "To Approve");
      expect(await page.getByText("Currency", { exact: true }).count()).toBe(0);
      expect(await page.getByText("Terms", { exact: true }).count()).toBe(0);
      const number = ((await page.getByTestId("doc-title").textContent()) ?? "").replace("Expense claim", "").trim();
      expect(number).toMatch(/^EXP-\d{4}-\d{5}$/);
      await screenshot(page, "expense-claim-phone-submitted");

      // The sales manager, on a desktop, opens the receipt and approves.
      await page.setViewportSize({ width: 1440, height: 900 });
      await signIn(page, MANAGER);
      await page.goto(appUrl("/dashboard/expense-claims"));
      await page.getByRole("row", { name: new RegExp(number) }).waitFor();
      await page.goto(claimUrl);
      await status(page, "To Approve");
      await page.getByRole("button", { name: "View receipt" }).click();
      await page.getByRole("dialog").getByRole("img", { name: "Receipt" }).waitFor();
      await screenshot(page, "expense-claim-manager-receipt");
      await page.keyboard.press("Escape");
      await act(page, "Approve");
      await status(page, "To Reimburse");
      await screenshot(page, "expense-claim-manager-approved");

      // Finance reimburses it with the transfer's reference.
      await signIn(page, FINANCE);
      await page.goto(claimUrl);
      await status(page, "To Reimburse");
      await act(page, "Reimburse");
      const dialog = page.getByRole("dialog");
      await dialog.getByLabel("Payment reference").fill("FAST-E2E-1");
      await dialog.getByRole("button", { name: "Reimburse" }).click();
      await status(page, "Reimbursed");
      await screenshot(page, "expense-claim-reimbursed");

      const id = Number(claimUrl.split("/").pop());
      const res = await restFetch(FINANCE, `expense_claim?id=eq.${id}&select=status,total,payment_reference`);
      expect(res.body).toEqual([{ status: "paid", total: "21.80", payment_reference: "FAST-E2E-1" }]);
    } catch (err) {
      await screenshot(page, "expense-claim-failed");
      throw err;
    }
  });
});
