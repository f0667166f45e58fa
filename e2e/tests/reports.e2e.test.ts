import { describe, expect, it } from "vitest";
import { restFetch } from "../../apps/server/test/rest-helpers.ts";
import { appUrl, hasChromium, screenshot, signIn, useFreshBrowser } from "../browser.ts";

// Issue 12 "Reports": an accountant (the demo's finance manager, Premium) reads the profit and loss, compares it
// with the period before and drills from a figure to the ledger and on to an invoice; exports it; files a GST F5
// quarter; a period that runs backwards is refused in words; every report opens (a screenshot of each); a Lite
// workspace sees the financial and analytics reports locked with the plan that has them.

const FINANCE = "finance@demo.test";

const iso = (d: Date) => d.toISOString().slice(0, 10);

async function rpc(email: string, fn: string, args: unknown) {
  const res = await restFetch(email, `rpc/${fn}`, { method: "POST", body: JSON.stringify(args) });
  expect(res.status, res.text).toBe(200);
  return res.body as { id: number; number: string };
}

// The journeys' server has no year of trading (SEED=basic): an invoice of today's date puts a sale in this year's
// P&L, for the drill-down to find.
async function todaysInvoice(): Promise<{ id: number; number: string }> {
  const company = await restFetch("manager@demo.test", "company", {
    method: "POST",
    body: JSON.stringify({ name: `Reports Customer ${Date.now()}`, is_customer: true }),
    headers: { prefer: "return=representation" },
  });
  expect(company.status, company.text).toBe(201);
  const draft = await rpc(FINANCE, "document_save", {
    type: "invoice",
    header: { company_id: (company.body as Array<{ id: number }>)[0].id, doc_date: iso(new Date()) },
    lines: [{ description: "Consulting", qty: "2", unit_price: "450", tax_code: "SR" }],
  });
  return rpc(FINANCE, "document_transition", { type: "invoice", id: draft.id, action: "submit" });
}

// The latest calendar quarter that is over and overlaps no return filed yet (the demo may have filed some).
async function unfiledQuarter(): Promise<{ from: string; to: string }> {
  const res = await restFetch(FINANCE, "gst_return?select=period_from,period_to");
  expect(res.status, res.text).toBe(200);
  const filed = res.body as Array<{ period_from: string; period_to: string }>;
  const now = new Date();
  let y = now.getUTCFullYear();
  let q = Math.floor(now.getUTCMonth() / 3); // the current quarter's index; step back to the last one over
  for (let i = 0; i < 12; i++) {
    q -= 1;
    if (q < 0) {
      q = 3;
      y -= 1;
    }
    const from = iso(new Date(Date.UTC(y, q * 3, 1)));
    const to = iso(new Date(Date.UTC(y, q * 3 + 3, 0)));
    if (!filed.some((f) => f.period_from <= to && f.period_to >= from)) return { from, to };
  }
  throw new Error("Every recent quarter is filed");
}

describe.skipIf(!hasChromium)("the reports page in Chromium", () => {
  const t = useFreshBrowser();

  it("the accountant reads the P&L, compares it, drills from a figure down to an invoice, and exports it", async () => {
    const page = t.page;
    page.setDefaultTimeout(90_000);
    const sold = await todaysInvoice();
    await signIn(page, FINANCE);
    await page.goto(appUrl("/dashboard/reports"));
    await page.getByRole("heading", { name: "Reports", exact: true }).waitFor();
    for (const area of ["Accounting", "Sales", "Purchasing", "Stock"]) {
      await page.getByRole("list", { name: `${area} reports` }).waitFor();
    }
    await screenshot(page, "reports-index");

    await page.getByTestId("report-profit_and_loss").click();
    await page.getByRole("heading", { name: "Profit and loss" }).waitFor();
    await page.getByRole("combobox", { name: "Period" }).click();
    await page.getByRole("option", { name: "This year" }).click();
    await page.waitForURL(/from=\d{4}-01-01&to=\d{4}-12-31/);
    const table = page.getByTestId("report-table");
    await table.waitFor();
    await page.getByTestId("report-chart").waitFor();
    await page.getByLabel("Compare with previous period").click(); // the address changes, then the switch follows it
    await page.waitForURL(/compare=1/);
    await table
      .getByRole("columnheader", { name: /previous/ })
      .first()
      .waitFor();
    await screenshot(page, "reports-profit-and-loss-compare");

    const csv = page.waitForEvent("download");
    await page.getByRole("button", { name: "Export CSV" }).click();
    expect((await csv).suggestedFilename()).toMatch(/^profit_and_loss-\d{4}-01-01-\d{4}-12-31\.csv$/);
    await expect(page.getByRole("link", { name: "PDF" }).getAttribute("href")).resolves.toMatch(
      /^\/api\/reports\/profit_and_loss\/pdf\?from=\d{4}-01-01&to=\d{4}-12-31$/,
    );

    // A figure (an income account's line) opens the journal lines behind it, and a line its invoice.
    const income = table.getByRole("row", { name: /Sales/ }).getByRole("link").first();
    await income.click();
    await page.waitForURL(/\/dashboard\/reports\/(general_ledger|journal_drill)\?/);
    await page
      .getByRole("navigation", { name: "Where this report was opened from" })
      .getByRole("link", { name: /Profit and loss/ })
      .waitFor();
    const lines = page.getByTestId("report-table");
    await lines.waitFor();
    await screenshot(page, "reports-drill-ledger");
    await lines.getByRole("link", { name: sold.number }).first().click();
    await page.waitForURL(new RegExp(`/dashboard/invoices/${sold.id}$`));
    await page.getByText(sold.number).first().waitFor();
  }, 300_000);

  it("files GST F5 for a quarter", async () => {
    const page = t.page;
    const { from, to } = await unfiledQuarter();
    await signIn(page, FINANCE);
    await page.goto(appUrl(`/dashboard/reports/gst_f5?from=${from}&to=${to}`));
    await page.getByRole("heading", { name: "GST F5" }).waitFor();
    const table = page.getByTestId("report-table");
    await table.getByRole("cell", { name: "8", exact: true }).waitFor();
    await screenshot(page, "reports-gst-f5");
    await page.getByRole("button", { name: "File this return" }).click();
    await page.getByRole("button", { name: "File return" }).click();
    await page
      .getByTestId("gst-filed")
      .getByText(/^Filed on/)
      .waitFor();
    await expect(page.getByRole("button", { name: "File this return" }).count()).resolves.toBe(0);
    await screenshot(page, "reports-gst-f5-filed");
  });

  it("a period that runs backwards is refused in words, not shown as an empty table", async () => {
    const page = t.page;
    await signIn(page, FINANCE);
    await page.goto(appUrl("/dashboard/reports/sales_by_month?from=2026-05-01&to=2026-04-01"));
    await page
      .getByTestId("report-error")
      .getByText(/from date is after its to date/)
      .waitFor();
    await expect(page.getByTestId("report-table").count()).resolves.toBe(0);
    await screenshot(page, "reports-bad-period");
  });

  it("every report the accountant may read opens, in light and dark", async () => {
    const page = t.page;
    await signIn(page, FINANCE);
    await page.goto(appUrl("/dashboard/reports"));
    page.setDefaultTimeout(90_000);
    // The reports this page opens itself (not those with a page of their own, as accounts receivable).
    const links = page.locator("a[data-testid^='report-']:not([data-own-page])");
    await links.first().waitFor();
    const hrefs = await links.evaluateAll((as) => as.map((a) => a.getAttribute("href") ?? ""));
    for (const href of hrefs) {
      await page.goto(appUrl(href));
      const name = href.split("/").pop() as string;
      await page
        .getByTestId("report-table")
        .or(page.getByTestId("report-empty"))
        .or(page.getByText(/^Pick the/))
        .first()
        .waitFor();
      await expect(page.getByTestId("report-error").count(), name).resolves.toBe(0);
      await screenshot(page, `reports-${name}`);
    }
    await page.evaluate(() => localStorage.setItem("userPreferences", JSON.stringify({ mode: "dark" })));
    await page.goto(appUrl("/dashboard/reports/sales_by_month"));
    await page.getByTestId("report-table").waitFor();
    await screenshot(page, "reports-sales-by-month-dark");
  }, 300_000);

  it("a Lite workspace sees the financial and analytics reports locked, its ledgers open", async () => {
    const page = t.page;
    await signIn(page, "admin@lite.test");
    await page.goto(appUrl("/dashboard/reports"));
    await page.getByTestId("report-locked-profit_and_loss").getByText("Premium plan").waitFor();
    await page.getByTestId("report-locked-sales_by_month").getByText("Pro plan").waitFor();
    await page.getByTestId("report-ar_ageing").waitFor();
    await screenshot(page, "reports-lite-locked");
    await page.goto(appUrl("/dashboard/reports/trial_balance"));
    await page.getByText("Trial balance needs the Premium plan").waitFor();
  });
});
