import { periodOf } from "@workmetrics/domain/commission";
import { describe, expect, it } from "vitest";
import { restFetch } from "../../apps/server/test/rest-helpers.ts";
import { appUrl, hasChromium, openBrowser, screenshot, signIn, useFreshBrowser } from "../browser.ts";

// Issue 12 "Commission": the finance manager opens last month's commission (a sale made for it below), reads the
// salesperson's statement with its documents, approves it and marks it paid; a salesperson sees only their own.

const FINANCE = "finance@demo.test";
const SALES = "sales@demo.test";
const MANAGER = "manager@demo.test";

const lastMonth = () => {
  const now = new Date();
  return periodOf(
    "monthly",
    new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 15)).toISOString().slice(0, 10),
  );
};

async function call(email: string, fn: string, args: unknown) {
  const res = await restFetch(email, `rpc/${fn}`, { method: "POST", body: JSON.stringify(args) });
  expect([200, 409], `${fn}: ${res.text}`).toContain(res.status);
  return res.body as { id: number };
}

// The suite's server has no year of trading: the salespeople's rule (if no journey made it yet) and one invoice of
// last month from a sales order the salesperson wrote.
async function soldLastMonth(p: { from: string }) {
  await call(FINANCE, "commission_rule_save", { role_id: 3, basis: "invoiced", rate_percent: "5", period: "monthly" });
  const day = `${p.from.slice(0, 8)}12`;
  const customer = (
    (await restFetch(SALES, "company?select=id&is_customer=is.true&order=id&limit=1")).body as Array<{
      id: number;
    }>
  )[0];
  const product = (
    (await restFetch(SALES, "product?select=id,cost&cost=gt.0&order=id&limit=1")).body as Array<{
      id: number;
      cost: string;
    }>
  )[0];
  // Priced well above cost: the product's moving average cost follows what other journeys received, and a line below
  // cost needs a manager's approval.
  const price = (Number(product.cost) * 2).toFixed(2);
  const so = await call(SALES, "document_save", {
    type: "sales_order",
    header: { company_id: customer.id, doc_date: day },
    lines: [{ product_id: product.id, qty: "3", unit_price: price }],
  });
  await call(MANAGER, "document_transition", { type: "sales_order", id: so.id, action: "submit" });
  const inv = await call(MANAGER, "document_convert", {
    type: "sales_order",
    id: so.id,
    to: "invoice",
    header: { doc_date: day },
  });
  await call(MANAGER, "document_transition", { type: "invoice", id: inv.id, action: "submit" });
}

describe.skipIf(!hasChromium)("commission in Chromium", () => {
  const t = useFreshBrowser();

  it("the finance manager approves a salesperson's month and marks it paid", async () => {
    const page = t.page;
    const users = (await restFetch(FINANCE, "user?select=id,name,email&email=eq.sales%40demo.test")).body as Array<{
      id: string;
      name: string;
    }>;
    const [sales] = users;
    const p = lastMonth();
    await soldLastMonth(p);
    await signIn(page, FINANCE);
    await page.goto(appUrl(`/dashboard/reports/commission?from=${p.from}&to=${p.to}`));
    const all = page.getByRole("table", { name: "Commission by salesperson" });
    await all.getByRole("row", { name: new RegExp(sales.name) }).waitFor();
    await screenshot(page, "commission-summary");
    await all.getByRole("row", { name: new RegExp(sales.name) }).click();
    const docs = page.getByRole("table", { name: "Documents behind the commission" });
    await docs.getByRole("link", { name: /^INV-/ }).first().waitFor();
    await page.getByRole("button", { name: "Approve" }).click();
    const confirm = page.getByRole("dialog", { name: "Approve this commission?" });
    await confirm.getByRole("button", { name: "Approve" }).click();
    await page.getByText(`Commission of ${sales.name} approved`).waitFor();
    const approved = page.getByRole("table", { name: "Approved statements" });
    const row = approved.getByRole("row", { name: new RegExp(`${sales.name}.*Approved`) }).first();
    await row.waitFor();
    await screenshot(page, "commission-approved");
    await row.getByRole("button", { name: "Mark paid" }).click();
    const pay = page.getByRole("dialog", { name: "Mark commission paid" });
    await pay.getByRole("button", { name: "Mark paid" }).click();
    await page.getByText(`Commission of ${sales.name} marked paid`).waitFor();
    // The list is read again after the payment: the row turns Paid, with the date and the account paid from.
    await approved
      .getByRole("row", { name: new RegExp(`${sales.name}.*Paid.*from 1010`) })
      .first()
      .waitFor();
    await screenshot(page, "commission-paid");
    expect(t.errors).toEqual([]);

    // The salesperson, in a browser of their own, reads their own statement, with no Approve and no one else's.
    const other = await openBrowser();
    try {
      const mine = await other.context.newPage();
      await signIn(mine, SALES);
      await mine.goto(appUrl(`/dashboard/reports/commission?from=${p.from}&to=${p.to}`));
      await mine.getByRole("table", { name: "Documents behind the commission" }).waitFor();
      await expect(mine.getByRole("button", { name: "Approve" }).count()).resolves.toBe(0);
      await expect(mine.getByLabel("Salesperson").count()).resolves.toBe(0);
      await screenshot(mine, "commission-salesperson");
    } finally {
      await other.close();
    }
  }, 240_000);
});
