import { describe, expect, it } from "vitest";
import { restFetch } from "../../apps/server/test/rest-helpers.ts";
import { appUrl, hasChromium, screenshot, signIn, useFreshBrowser } from "../browser.ts";

// Issue 10 §2–3: finance reads what customers owe by age, opens one customer's open invoices and goes to one,
// exports the table as CSV; the dashboard home shows the overdue figure; a salesperson is told the page is not
// theirs.

const FINANCE = "finance@demo.test";

async function rpc(email: string, fn: string, args: unknown) {
  const res = await restFetch(email, `rpc/${fn}`, { method: "POST", body: JSON.stringify(args) });
  expect(res.status, res.text).toBe(200);
  return res.body as { id: number; number: string };
}

// A customer of its own with one invoice 45 days past due, so the page has a row whatever else the demo holds.
async function overdueCustomer(): Promise<{ name: string; invoice: { id: number; number: string } }> {
  const name = `Slow Payer ${Date.now()}`;
  const company = await restFetch("manager@demo.test", "company", {
    method: "POST",
    body: JSON.stringify({ name, is_customer: true }),
    headers: { prefer: "return=representation" },
  });
  expect(company.status, company.text).toBe(201);
  const companyId = (company.body as Array<{ id: number }>)[0].id;
  const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
  const draft = await rpc(FINANCE, "document_save", {
    type: "invoice",
    header: { company_id: companyId, doc_date: day(-75), due_date: day(-45) },
    lines: [{ description: "Installation", qty: "1", unit_price: "1234.50", tax_code: "ZR" }],
  });
  const invoice = await rpc(FINANCE, "document_transition", { type: "invoice", id: draft.id, action: "submit" });
  return { name, invoice };
}

describe.skipIf(!hasChromium)("accounts receivable in Chromium", () => {
  const t = useFreshBrowser();

  it("finance ages the receivables, drills into a customer and opens its invoice; CSV exports", async () => {
    const { name, invoice } = await overdueCustomer();
    const page = t.page;
    await signIn(page, FINANCE);
    await page.getByTestId("figure-overdue_receivables").waitFor();
    await screenshot(page, "receivables-home-figures");
    await page.goto(appUrl("/dashboard/accounts-receivable"));
    await page.getByRole("heading", { name: "Accounts receivable" }).waitFor();
    const table = page.getByTestId("ageing-table");
    await table.waitFor();
    const row = table.getByRole("row", { name: new RegExp(name) });
    await expect(row.getByRole("cell").filter({ hasText: "1,234.50" }).count()).resolves.toBeGreaterThanOrEqual(2);
    await expect(page.getByTestId("ageing-totals").textContent()).resolves.toMatch(/^Total/);
    await screenshot(page, "receivables-ageing");

    await row.click();
    const drill = page.getByRole("table", { name: `Open receivables of ${name}` });
    await drill.getByRole("link", { name: invoice.number }).waitFor();
    await expect(page.getByRole("link", { name: "Statement" }).getAttribute("href")).resolves.toMatch(
      /^\/api\/documents\/statement\/\d+\/pdf\?from=\d{4}-\d{2}-01&to=\d{4}-\d{2}-\d{2}$/,
    );
    await screenshot(page, "receivables-drilldown");

    const download = page.waitForEvent("download");
    await page.getByRole("button", { name: "Export CSV" }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^accounts-receivable-\d{4}-\d{2}-\d{2}\.csv$/);

    await drill.getByRole("link", { name: invoice.number }).click();
    await page.waitForURL(new RegExp(`/dashboard/invoices/${invoice.id}$`));
  });

  it("a salesperson is told the page is not theirs", async () => {
    const page = t.page;
    await signIn(page, "sales@demo.test");
    await page.goto(appUrl("/dashboard/accounts-receivable"));
    await page.getByText("You do not have permission to read accounts receivable").waitFor();
    await expect(page.getByTestId("ageing-table").count()).resolves.toBe(0);
    await screenshot(page, "receivables-refused");
  });
});
