import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { invoicePdf } from "../../apps/server/src/modules/scan/test-fixtures.ts";
import { restFetch } from "../../apps/server/test/rest-helpers.ts";
import { appUrl, hasChromium, screenshot, signIn, useFreshBrowser } from "../browser.ts";

// Issue 24 "OCR": finance scans a supplier's PDF invoice from the supplier invoice list — a text file is refused in
// words and makes nothing — the draft opens with what was read and why it needs review (the printed total is 10.00
// off), the clerk corrects their invoice number and submits it.

const FINANCE = "finance@demo.test";
const ADMIN = "admin@demo.test";

const status = (page: Page, label: string) => page.locator("h1 + [data-status]", { hasText: label }).waitFor();
const act = (page: Page, name: string) =>
  page.getByTestId("doc-actions").getByRole("button", { name, exact: true }).click();

describe.skipIf(!hasChromium)("a scanned supplier invoice in Chromium", () => {
  const t = useFreshBrowser();

  it("becomes a draft with what was read, is corrected and submitted", async () => {
    const page = t.page;
    const stamp = Date.now() % 100000;
    const supplier = `Scanned Supplies ${stamp} Pte Ltd`;
    const uen = `2025${String(stamp).padStart(5, "0")}K`;
    const made = await restFetch(ADMIN, "company", {
      method: "POST",
      body: JSON.stringify({ name: supplier, uen, is_supplier: true }),
    });
    expect(made.status, made.text).toBe(201);
    const pdf = await invoicePdf({
      kind: "invoice",
      supplier,
      uen,
      number: `SS-${stamp}`,
      date: "2026-11-20",
      due: "2026-12-20",
      lines: [
        { description: "Cable ties 300mm", qty: 20, price: 3.2 },
        { description: "Safety gloves", qty: 12, price: 2.8 },
      ],
      gst: true,
      layout: 0,
      totalError: 10,
    });
    try {
      await page.setViewportSize({ width: 1440, height: 900 });
      await signIn(page, FINANCE);
      await page.goto(appUrl("/dashboard/supplier-invoices"));
      const input = page.getByLabel("Invoice file to scan");
      await page.getByRole("button", { name: "Scan an invoice" }).waitFor();
      await screenshot(page, "scan-list");

      // A file that is no invoice: refused in words, nothing opens.
      await input.setInputFiles({ name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("just notes") });
      await page.getByText("A text/plain cannot be read: upload a PDF, PNG, JPEG or WebP").first().waitFor();
      expect(page.url()).toMatch(/\/dashboard\/supplier-invoices$/);

      await input.setInputFiles({ name: "invoice.pdf", mimeType: "application/pdf", buffer: pdf });
      await page.waitForURL(/\/dashboard\/supplier-invoices\/\d+$/, { timeout: 90_000 });
      const panel = page.getByLabel("Read from the scan");
      await panel.getByText("Needs review").waitFor();
      await panel.getByText("97.60 + GST 8.78 is 106.38, but the total reads 116.38").waitFor();
      await panel.getByText(`Supplier: ${supplier}`).first().waitFor();
      await status(page, "Draft");
      await screenshot(page, "scan-draft");

      // The clerk corrects their number against the paper, saves and submits.
      const number = page.getByLabel("Supplier's number");
      expect(await number.inputValue()).toBe(`SS-${stamp}`);
      await number.fill(`SS-${stamp}-A`);
      await page.getByRole("button", { name: /^Save/ }).first().click();
      await page.getByText("Saved").first().waitFor();
      await act(page, "Submit");
      await status(page, "Unpaid");
      await screenshot(page, "scan-submitted");

      const id = Number(page.url().split("/").pop());
      const res = await restFetch(FINANCE, `supplier_invoice?id=eq.${id}&select=status,supplier_invoice_number,total`);
      expect(res.body).toEqual([{ status: "unpaid", supplier_invoice_number: `SS-${stamp}-A`, total: "106.38" }]);
    } catch (err) {
      await screenshot(page, "scan-failed");
      throw err;
    }
  });
});
