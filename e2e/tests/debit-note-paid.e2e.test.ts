import { describe, expect, it } from "vitest";
import { restFetch } from "../../apps/server/test/rest-helpers.ts";
import { appUrl, hasChromium, screenshot, signIn, useFreshBrowser } from "../browser.ts";

// Walk findings 3 and 4: a paid debit note shows the receipt that paid it (its Payments panel) and offers Cancel only
// disabled, saying why — never a button that only leads to a refusal. An unpaid one's Cancel asks with buttons that
// name what they do ("Cancel debit note", "Keep it") and says what is reversed: a journal entry, no stock moves. The
// invoice they stand against says so when its Cancel is opened (issue 20 §3).

const FINANCE = "finance@demo.test";

async function rpc<T = { id: number; number: string; status: string }>(fn: string, args: unknown): Promise<T> {
  const res = await restFetch(FINANCE, `rpc/${fn}`, { method: "POST", body: JSON.stringify(args) });
  expect(res.status, res.text).toBe(200);
  return res.body as T;
}

async function debitNote(companyId: number, invoiceId: number) {
  const draft = await rpc("document_save", {
    type: "debit_note",
    header: { company_id: companyId, invoice_id: invoiceId },
    lines: [{ description: "Late delivery surcharge", qty: "1", unit_price: "85", tax_code: "SR" }],
  });
  return rpc<{ id: number; number: string; total: string }>("document_transition", {
    type: "debit_note",
    id: draft.id,
    action: "submit",
  });
}

describe.skipIf(!hasChromium)("a paid debit note in Chromium", () => {
  const t = useFreshBrowser();

  it("shows the receipt that paid it and Cancel disabled with the reason; an unpaid one asks plainly", async () => {
    const company = await restFetch("manager@demo.test", "company", {
      method: "POST",
      body: JSON.stringify({ name: `Surcharged ${Date.now()}`, is_customer: true }),
      headers: { prefer: "return=representation" },
    });
    expect(company.status, company.text).toBe(201);
    const companyId = (company.body as Array<{ id: number }>)[0].id;
    const inv = await rpc("document_save", {
      type: "invoice",
      header: { company_id: companyId },
      lines: [{ description: "Installation", qty: "1", unit_price: "500" }],
    });
    const invoice = await rpc("document_transition", { type: "invoice", id: inv.id, action: "submit" });
    const paid = await debitNote(companyId, invoice.id);
    const receipt = await rpc<{ number: string }>("record_payment", {
      type: "receipt",
      company_id: companyId,
      amount: paid.total,
      method: "paynow",
      reference: "PN-4471",
      allocations: [{ document_type: "debit_note", document_id: paid.id, amount: paid.total }],
    });
    const unpaid = await debitNote(companyId, invoice.id);

    const page = t.page;
    try {
      await page.setViewportSize({ width: 1400, height: 900 });
      await signIn(page, FINANCE);
      await page.goto(appUrl(`/dashboard/debit-notes/${paid.id}`));
      await page.locator("h1 + [data-status]", { hasText: "Paid" }).waitFor();
      const payments = page.getByRole("table", { name: "Payments" });
      await payments.getByRole("row", { name: new RegExp(`Receipt ${receipt.number}.*PayNow.*PN-4471`) }).waitFor();
      const cancel = page.getByTestId("doc-actions").getByRole("button", { name: "Cancel", exact: true });
      expect(await cancel.isDisabled()).toBe(true);
      await cancel.locator("xpath=..").hover();
      await page
        .getByRole("tooltip", { name: /is paid: a debit note with a payment allocated cannot be cancelled/ })
        .waitFor();
      await screenshot(page, "debit-note-paid");

      await page.goto(appUrl(`/dashboard/debit-notes/${unpaid.id}`));
      await page.locator("h1 + [data-status]", { hasText: "Unpaid" }).waitFor();
      expect(await page.getByRole("table", { name: "Payments" }).count()).toBe(0);
      await page.getByTestId("doc-actions").getByRole("button", { name: "Cancel", exact: true }).click();
      const dialog = page.getByRole("dialog");
      await dialog.getByText("Its journal entry is reversed. This cannot be undone.").waitFor();
      await dialog.getByRole("button", { name: "Cancel debit note" }).waitFor();
      await screenshot(page, "debit-note-cancel-dialog");
      await dialog.getByRole("button", { name: "Keep it" }).click();
      await dialog.waitFor({ state: "detached" });

      // Issue 20 §3: what stands against the invoice (its debit notes) is asked when Cancel is opened, not tried on
      // every read of the page; the dialog says why and offers only the way back.
      await page.goto(appUrl(`/dashboard/invoices/${invoice.id}`));
      await page.locator("h1 + [data-status]", { hasText: "Unpaid" }).waitFor();
      await page.getByTestId("doc-actions").getByRole("button", { name: "Cancel", exact: true }).click();
      const refused = page.getByRole("dialog");
      await refused
        .getByTestId("action-blocked")
        .filter({ hasText: `Debit note ${paid.number} stands against this invoice: cancel the debit note first` })
        .waitFor();
      expect(await refused.getByRole("button", { name: "Cancel invoice" }).count()).toBe(0);
      await screenshot(page, "invoice-cancel-blocked");
      await refused.getByRole("button", { name: "Keep it" }).click();
      await refused.waitFor({ state: "detached" });
    } catch (err) {
      await screenshot(page, "debit-note-paid-failed");
      throw err;
    }
  });
});
