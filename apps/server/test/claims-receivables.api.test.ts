import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { dec, money, sum } from "@workmetrics/domain/documents/decimal";
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { type Doc, ok, read } from "./documents-helpers.ts";
import { ownServer } from "./own-server-helpers.ts";
import { company, report } from "./reports-helpers.ts";
import { tokenFor } from "./rest-helpers.ts";

// Issue 12: a submitted progressive claim is owed like an invoice — in the AR ageing (what it makes payable now, its
// retention held until a release claim bills it), its drill-down leading to the claim, the customer's statement; the
// ageing then agrees with 1100 Trade debtors: ageing total = 1100 + the customers' unapplied credit (receipts not
// allocated, credit notes not applied) + what is owed back on over-credited documents. And an overdue claim partly
// paid reads Overdue, as an invoice does.

const MANAGER = "manager@demo.test";
const FINANCE = "finance@demo.test";
const own = ownServer();
let customer = 0;

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

// A submitted contract of one SR line of `amount`, claimed at `percent` (5% retention) on `date`.
async function claim(amount: string, percent: string, date: string): Promise<Doc> {
  const so = await ok(MANAGER, "document_save", {
    type: "sales_order",
    header: { company_id: customer },
    lines: [{ description: "Fit-out works", qty: "1", unit_price: amount, tax_code: "SR" }],
  });
  await ok(MANAGER, "document_transition", { type: "sales_order", id: so.id, action: "submit" });
  const made = await ok(MANAGER, "document_convert", { type: "sales_order", id: so.id, to: "progressive_claim" });
  const d = await read(MANAGER, "progressive_claim", made.id);
  await ok(MANAGER, "document_save", {
    type: "progressive_claim",
    id: d.id,
    header: { company_id: customer, doc_date: date },
    lines: d.lines.map((l) => ({ source_line_id: l.source_line_id, cumulative_percent: percent, tax_code: "SR" })),
  });
  return ok(MANAGER, "document_transition", { type: "progressive_claim", id: d.id, action: "submit" });
}

async function invoice(amount: string): Promise<Doc> {
  const d = await ok(MANAGER, "document_save", {
    type: "invoice",
    header: { company_id: customer },
    lines: [{ description: "Site survey", qty: "1", unit_price: amount, tax_code: "ZR" }],
  });
  return ok(MANAGER, "document_transition", { type: "invoice", id: d.id, action: "submit" });
}

const pay = (amount: string, allocations: Array<{ document_type: string; document_id: number; amount: string }>) =>
  ok(FINANCE, "record_payment", {
    type: "receipt",
    company_id: customer,
    amount,
    date: day(0),
    method: "bank_transfer",
    allocations,
  });

let recent: Doc;
let late: Doc;
let inv: Doc;

beforeAll(async () => {
  customer = await company(MANAGER, "Claims Debtor Pte Ltd", "is_customer");
  recent = await claim("100000", "30", day(0)); // 30,000 − 1,500 retention + 9% GST = 31,065.00
  late = await claim("20000", "50", day(-60)); // 10,000 − 500 + GST = 10,355.00, payment due 28 days later
  inv = await invoice("2000");
  await pay("5000", [{ document_type: "progressive_claim", document_id: late.id, amount: "5000" }]);
  // 700 more than the invoice: the customer's credit, on 1100 but owed on no document.
  await pay("2700", [{ document_type: "invoice", document_id: inv.id, amount: "2000" }]);
}, 600_000);

describe("progressive claims in receivables", () => {
  it("an overdue claim partly paid reads Overdue, as an invoice does", async () => {
    const after = await read(MANAGER, "progressive_claim", late.id);
    expect(after).toMatchObject({ total: "10355.00", outstanding: "5355.00", status: "overdue" });
  });

  it("are in the customer's ageing at what is payable now, each row leading to its claim", async () => {
    const detail = await report(FINANCE, { name: "ar_ageing", company_id: customer });
    expect(detail.rows.map((r) => [r.number, r.total])).toEqual([
      [late.number, "5355.00"],
      [recent.number, "31065.00"],
    ]);
    const lateRow = detail.rows[0];
    expect(lateRow.days_31_60).toBe("5355.00"); // due 28 days after a claim dated 60 days ago: 32 days past due
    expect(detail.drill).toEqual([
      { document: { type: "progressive_claim", id: late.id, number: late.number } },
      { document: { type: "progressive_claim", id: recent.id, number: recent.number } },
    ]);
    expect(detail.totals.total).toBe("36420.00");
    const summary = await report(FINANCE, { name: "ar_ageing" });
    expect(summary.rows.find((r) => r.company_id === customer)).toMatchObject({ invoices: 2, total: "36420.00" });
  });

  it("are charged on the customer's statement with their due dates", async () => {
    const s = await report(FINANCE, { name: "customer_statement", company_id: customer, from: day(-90), to: day(0) });
    const claims = s.rows.filter((r) => r.type === "progressive_claim");
    expect(claims.map((r) => [r.number, r.debit, r.reference])).toEqual([
      [late.number, "10355.00", `Due ${late.due_date}`],
      [recent.number, "31065.00", `Due ${recent.due_date}`],
    ]);
    // Charged 10,355 + 31,065 + 2,000, paid 5,000 + 2,700: owed 35,720 (the ageing's 36,420 less the 700 credit).
    expect(s.totals).toMatchObject({ opening: "0.00", closing: "35720.00", outstanding: "36420.00" });
    const drilled = s.rows.findIndex((r) => r.number === late.number);
    expect(s.drill?.[drilled]).toEqual({ document: { type: "progressive_claim", id: late.id, number: late.number } });

    // The printed statement says what each claim is and when it is due; its ageing is the report's.
    const res = await fetch(`${own.server.url}/api/documents/statement/${customer}/pdf?from=${day(-90)}&to=${day(0)}`, {
      headers: { authorization: `Bearer ${await tokenFor(FINANCE)}` },
    });
    expect(res.status).toBe(200);
    const dir = process.env.PDF_OUT ?? mkdtempSync(path.join(os.tmpdir(), "workmetrics-statement-"));
    const file = path.join(dir, "statement-with-claims.pdf");
    writeFileSync(file, Buffer.from(await res.arrayBuffer()));
    const text = execFileSync("pdftotext", ["-layout", file, "-"], { encoding: "utf8" }).replace(/\s+/g, " ");
    expect(text).toMatch(new RegExp(`${late.number} Progressive claim, due .* 10,355\\.00`));
    expect(text).toContain("Unapplied credit"); // the 700 paid beyond the invoice
    expect(text).toContain("35,720.00");
  });

  it("the ageing agrees with 1100 Trade debtors, the customers' credit aside", async () => {
    const asOf = "2099-12-31"; // everything the workspace has, whatever its date
    const ageing = await report(FINANCE, { name: "ar_ageing", as_of: asOf });
    const [books] = await own.q<{ ledger: string; credit: string; unapplied: string; owed_back: string }>(sql`select
        (select coalesce(sum(debit - credit), 0) from journal_line where account_code = '1100')::text as ledger,
        (select coalesce(sum(unallocated), 0) from receipt where status <> 'cancelled')::text as credit,
        (select coalesce(sum(unapplied), 0) from credit_note where status = 'issued')::text as unapplied,
        (select coalesce(sum(-round(outstanding * rate, 2)), 0) from (
          select outstanding, rate, status from invoice union all select outstanding, rate, status from debit_note
          union all select outstanding, rate, status from progressive_claim) d
          where d.status not in ('draft', 'cancelled') and d.outstanding < 0)::text as owed_back`);
    expect(dec(books.credit).greaterThanOrEqualTo(700)).toBe(true);
    expect(ageing.totals.total).toBe(money(sum([books.ledger, books.credit, books.unapplied, books.owed_back])));
    // And the claims' retention is not in it: it sits on 1110 until a release claim bills it.
    const [held] = await own.q<{ retention: string }>(sql`select coalesce(sum(debit - credit), 0)::text as retention
      from journal_line where account_code = '1110'`);
    expect(dec(held.retention).greaterThanOrEqualTo(2000)).toBe(true);
  });
});
