import { dec, money, sum } from "@workmetrics/domain/documents/decimal";
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { f5Boxes } from "../src/modules/reports/financial/gst-f5.report.ts";
import { trialBalance } from "../src/modules/reports/financial/trial-balance.report.ts";
import { inRequest } from "../src/platform/db/database.ts";
import { act, type Doc, ok, rpc } from "./documents-helpers.ts";
import { ownServer } from "./own-server-helpers.ts";
import { company, report } from "./reports-helpers.ts";
import { restFetch } from "./rest-helpers.ts";

// Issue 12 "Accounting" and "GST F5": the financial reports over documents made here through the engine, in a year
// of their own (2031) so the seed's postings never sit inside the period: the trial balance balances, the P&L's net
// profit is the change in equity between two balance sheets, the balance sheet balances on several dates, the GST
// F5 boxes are the documents' values and tax by code (one line of each code, a credit note, a debit note, a supplier
// invoice; a cancelled invoice and the next quarter's left out), a P&L figure drills to the general ledger and on to
// the invoice, filing posts the settlement and refuses the same quarter twice; Premium only, finance roles only; and
// no report ever sums another workspace's rows (the workspace filter and row-level security, each alone).

const ADMIN = "admin@demo.test"; // Premium
const FINANCE = "finance@demo.test";
const ACCOUNTS = "accounts@demo.test";
const SALES = "sales@demo.test";
const PRO = "owner@pro.test";
const LITE = "owner@lite.test";
const Q1 = { from: "2031-01-01", to: "2031-03-31" };
const own = ownServer();

async function submitted(email: string, type: string, header: Record<string, unknown>, lines: unknown[]): Promise<Doc> {
  const doc = await ok(email, "document_save", { type, header, lines });
  const res = await act(email, type, doc.id, "submit");
  expect(res.status, res.text).toBe(200);
  return res.body as Doc;
}

const message = (res: { body: unknown }) => (res.body as { message?: string }).message;

const line = (description: string, amount: string, tax_code: string) => ({
  description,
  qty: "1",
  unit_price: amount,
  tax_code,
});

let customerId = 0;
let liteWs = "";
const docs: Record<string, Doc> = {};

beforeAll(async () => {
  customerId = await company(ADMIN, "Ledger Fixture Pte Ltd", "is_customer");
  const supplierId = await company(ADMIN, "Fixture Landlord Pte Ltd", "is_supplier");
  docs.invoice = await submitted(ADMIN, "invoice", { company_id: customerId, doc_date: "2031-02-10" }, [
    line("Standard-rated goods", "1000", "SR"),
    line("Export", "500", "ZR"),
    line("Financial service", "200", "ES"),
    line("Overseas service", "300", "OS"),
  ]);
  docs.credit = await submitted(
    ADMIN,
    "credit_note",
    { company_id: customerId, invoice_id: docs.invoice.id, doc_date: "2031-03-05" },
    [line("Price correction", "100", "SR")],
  );
  docs.debit = await submitted(
    ADMIN,
    "debit_note",
    { company_id: customerId, invoice_id: docs.invoice.id, doc_date: "2031-03-10" },
    [line("Delivery charge", "50", "SR")],
  );
  docs.bill = await submitted(
    ACCOUNTS,
    "supplier_invoice",
    { company_id: supplierId, doc_date: "2031-02-20", supplier_invoice_number: `RENT-${Date.now()}` },
    [line("Office rent", "400", "SR"), line("Imported service, zero-rated", "100", "ZR")],
  );
  docs.cancelled = await submitted(ADMIN, "invoice", { company_id: customerId, doc_date: "2031-03-15" }, [
    line("Cancelled sale", "999", "SR"),
  ]);
  const cancel = await act(ADMIN, "invoice", docs.cancelled.id, "cancel", "Raised in error");
  expect(cancel.status, cancel.text).toBe(200);
  docs.nextQuarter = await submitted(ADMIN, "invoice", { company_id: customerId, doc_date: "2031-04-15" }, [
    line("Next quarter's sale", "700", "SR"),
  ]);
  // Another workspace's postings in the same period, which no report of the demo workspace may count.
  const liteCustomer = await company(LITE, "Elsewhere Pte Ltd", "is_customer");
  await submitted(LITE, "invoice", { company_id: liteCustomer, doc_date: "2031-02-11" }, [
    line("Another workspace's sale", "12345", "SR"),
  ]);
  liteWs = ((await own.db.execute(sql`select id from workspace where slug = 'lite'`)).rows[0] as { id: string }).id;
}, 120_000);

describe("trial balance, P&L and balance sheet", () => {
  it("the trial balance balances, over a period and as of a date", async () => {
    for (const args of [{ as_of: "2031-06-30" }, Q1, { from: "2031-03-01", to: "2031-12-31" }]) {
      const tb = await report(FINANCE, { name: "trial_balance", ...args });
      expect(tb.totals.debit).toBe(tb.totals.credit);
      expect(tb.totals.closing_debit).toBe(tb.totals.closing_credit);
      expect(tb.key).toBe("account_code");
      expect(tb.drill?.[0]).toMatchObject({ report: "general_ledger", params: { account: tb.rows[0].account_code } });
      // Each account: closing = opening + the period's movement on its natural side.
      for (const r of tb.rows) {
        const moved = dec(String(r.debit)).minus(String(r.credit));
        const natural = r.root === "asset" || r.root === "expense" ? moved : moved.negated();
        expect(money(dec(String(r.opening)).plus(natural)), String(r.account_code)).toBe(r.closing);
      }
    }
  });

  it("month sums (journal_month) equal the lines', and a period cut mid-month sums exactly its lines", async () => {
    // Postings at the same moment add to stripes of their own (migration journal_month_stripes): the sums still hold.
    const parallel = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        ok(ADMIN, "document_save", {
          type: "invoice",
          header: { company_id: customerId, doc_date: "2033-06-15" }, // a year no other test reads
          lines: [line(`Parallel ${i}`, String(100 + i), "SR")],
        }),
      ),
    );
    const submits = await Promise.all(parallel.map((d) => act(ADMIN, "invoice", d.id, "submit")));
    expect(submits.map((r) => r.status)).toEqual(submits.map(() => 200));
    const drift = await own.db.execute(sql`with lines as (
        select l.workspace_id, l.account_code, date_trunc('month', e.entry_date)::date as month,
          sum(l.debit) as debit, sum(l.credit) as credit
        from journal_line l join journal_entry e on e.workspace_id = l.workspace_id and e.id = l.entry_id
        group by 1, 2, 3)
        , months as (select workspace_id, account_code, month, sum(debit) as debit, sum(credit) as credit
          from journal_month group by 1, 2, 3)
      select * from lines full join months m using (workspace_id, account_code, month)
      where coalesce(lines.debit, 0) <> coalesce(m.debit, 0) or coalesce(lines.credit, 0) <> coalesce(m.credit, 0)`);
    expect(drift.rows).toEqual([]);
    for (const range of [
      { from: "2031-02-15", to: "2031-03-07" },
      { from: "2031-02-11", to: "2031-02-20" },
      { from: "2030-12-31", to: "2031-04-30" },
    ]) {
      const tb = await report(FINANCE, { name: "trial_balance", ...range });
      const raw = await own.q<{ account_code: string; debit: string; credit: string }>(sql`
        select l.account_code, sum(l.debit)::numeric(16,2)::text as debit, sum(l.credit)::numeric(16,2)::text as credit
        from journal_line l join journal_entry e on e.workspace_id = l.workspace_id and e.id = l.entry_id
        where l.workspace_id = ${own.ws}::uuid and e.entry_date between ${range.from}::date and ${range.to}::date
        group by l.account_code order by l.account_code`);
      const moved = tb.rows.filter((r) => r.debit !== "0.00" || r.credit !== "0.00");
      expect(
        moved.map((r) => ({ account_code: r.account_code, debit: r.debit, credit: r.credit })),
        range.from,
      ).toEqual(raw);
    }
  });

  it("the P&L of Q1 shows the fixture's income and its net profit is the change in equity between two balance sheets", async () => {
    const pl = await report(FINANCE, { name: "profit_and_loss", ...Q1 });
    const sales = pl.rows.find((r) => r.account_code === "4000");
    // Invoice 1,000 + 500 + 200 + 300, the debit note's 50 and the cancelled invoice's 999 (the books reverse it on
    // the day it was cancelled, today, long before 2031); the credit note's 100 in Sales Returns.
    expect(sales?.amount).toBe("3049.00");
    expect(pl.rows.find((r) => r.account_code === "4100")?.amount).toBe("-100.00");
    expect(pl.totals.income).toBe("2949.00");
    expect(pl.totals.net_profit).toBe(money(dec(String(pl.totals.income)).minus(String(pl.totals.expenses))));
    expect(pl.rows.at(-1)).toMatchObject({ row_kind: "total", line: "net_profit", amount: pl.totals.net_profit });

    const before = await report(FINANCE, { name: "balance_sheet", as_of: "2030-12-31" });
    const after = await report(FINANCE, { name: "balance_sheet", as_of: "2031-03-31" });
    expect(money(dec(String(after.totals.equity)).minus(String(before.totals.equity)))).toBe(pl.totals.net_profit);
  });

  it("the balance sheet balances on any date, the period's profit in equity", async () => {
    for (const as_of of ["2030-12-31", "2031-02-10", "2031-02-28", "2031-03-31", "2031-04-15", "2031-12-31"]) {
      const bs = await report(FINANCE, { name: "balance_sheet", as_of });
      expect(bs.totals.assets, as_of).toBe(money(sum([String(bs.totals.liabilities), String(bs.totals.equity)])));
      const profit = bs.rows.find((r) => r.line === "current_profit");
      expect(profit?.balance).toBe(bs.totals.current_profit);
    }
  });

  it("a P&L figure drills to the general ledger, whose lines sum to it, and a line to the invoice", async () => {
    const pl = await report(FINANCE, { name: "profit_and_loss", ...Q1 });
    const i = pl.rows.findIndex((r) => r.account_code === "4000");
    const to = pl.drill?.[i] as { report: string; params: Record<string, string> };
    expect(to).toEqual({ report: "general_ledger", params: { account: "4000", ...Q1 } });
    const gl = await report(FINANCE, { name: to.report, ...to.params });
    const opening = gl.rows[0];
    expect(opening).toMatchObject({ row_kind: "opening", balance: gl.totals.opening });
    const lines = gl.rows.filter((r) => r.row_kind === "line");
    expect(money(sum(lines.map((r) => String(r.credit))).minus(sum(lines.map((r) => String(r.debit)))))).toBe(
      pl.rows[i].amount,
    );
    expect(lines.at(-1)?.balance).toBe(money(sum([String(opening.balance), String(pl.rows[i].amount)])));
    expect(gl.totals.closing).toBe(lines.at(-1)?.balance);
    const k = gl.rows.findIndex((r) => r.number === docs.invoice.number);
    expect(gl.drill?.[k]).toEqual({ document: { type: "invoice", id: docs.invoice.id, number: docs.invoice.number } });
    // journal_drill answers the same lines for the same figure.
    const drilled = await report(FINANCE, { name: "journal_drill", account: "4000", ...Q1 });
    expect(
      money(sum(drilled.rows.map((r) => String(r.credit))).minus(sum(drilled.rows.map((r) => String(r.debit))))),
    ).toBe(pl.rows[i].amount);
  });

  it("the general ledger pages a busy account and says what is left", async () => {
    const all = await report(FINANCE, { name: "general_ledger", account: "1100", ...Q1 });
    const n = Number(all.totals.lines);
    expect(n).toBeGreaterThanOrEqual(3);
    const page = await report(FINANCE, { name: "general_ledger", account: "1100", ...Q1, limit: 1, offset: 1 });
    const shown = page.rows.filter((r) => r.row_kind === "line");
    expect(shown).toHaveLength(1);
    expect(shown[0].balance).toBe(all.rows.filter((r) => r.row_kind === "line")[1].balance);
    expect(page.rows.at(-1)?.row_kind).toBe("note");
    const missing = await rpc(FINANCE, "report", { name: "general_ledger", account: "9999" });
    expect(missing.status).toBe(404);
    expect(message(missing)).toBe("There is no account 9999 in this workspace's chart of accounts");
  });
});

describe("GST F5", () => {
  it("boxes 1–8 are the documents' values and tax by code; credit notes lower, debit notes raise, cancelled left out", async () => {
    const f5 = await report(FINANCE, { name: "gst_f5", ...Q1 });
    expect(f5.totals).toMatchObject({
      box1: "950.00", // 1,000 − 100 + 50
      box2: "500.00",
      box3: "200.00",
      box4: "1650.00",
      box5: "500.00", // rent 400 (SR) + 100 (ZR)
      box6: "85.50", // 90 − 9 + 4.50
      box7: "36.00",
      box8: "49.50",
    });
    // Box 6 ties to the books: what the documents credited to GST Output Tax in the period.
    const tb = await report(FINANCE, { name: "trial_balance", ...Q1 });
    expect(tb.rows.find((r) => r.account_code === "2200")?.closing).toBe("85.50");
    expect(tb.rows.find((r) => r.account_code === "1300")?.closing).toBe("36.00");
    expect(f5.rows.map((r) => r.box)).toEqual(["1", "2", "3", "4", "5", "6", "7", "8"]);
    expect(f5.drill?.[0]).toEqual({ report: "journal_drill", params: { box: "1", ...Q1 } });
  });

  it("a box drills to the documents behind it, which sum to it", async () => {
    const box1 = await report(FINANCE, { name: "journal_drill", box: "1", ...Q1 });
    expect(box1.totals.amount).toBe("950.00");
    expect(box1.rows.map((r) => [r.number, r.amount])).toEqual([
      [docs.invoice.number, "1000.00"],
      [docs.credit.number, "-100.00"],
      [docs.debit.number, "50.00"],
    ]);
    expect(box1.drill?.[0]).toEqual({
      document: { type: "invoice", id: docs.invoice.id, number: docs.invoice.number },
    });
    const box7 = await report(FINANCE, { name: "journal_drill", box: "7", ...Q1 });
    expect(box7.rows.map((r) => [r.number, r.amount])).toEqual([[docs.bill.number, "36.00"]]);
  });
});

describe("GST F5 and progressive claims", () => {
  it("a claim counts this claim less its retention in box 1 and its GST in box 6, as it posted", async () => {
    const manager = "manager@demo.test";
    const so = await submitted(manager, "sales_order", { company_id: customerId }, [
      line("Works package", "10000", "SR"),
    ]);
    const made = await rpc(manager, "document_convert", { type: "sales_order", id: so.id, to: "progressive_claim" });
    expect(made.status, made.text).toBe(200);
    const draft = (
      (
        await restFetch(
          manager,
          `progressive_claim?id=eq.${(made.body as Doc).id}&select=*,lines:progressive_claim_line(*)`,
        )
      ).body as Doc[]
    )[0];
    const saved = await ok(manager, "document_save", {
      type: "progressive_claim",
      id: draft.id,
      header: { company_id: customerId, doc_date: "2031-05-20" },
      lines: draft.lines.map((l) => ({
        description: l.description,
        source_line_id: l.source_line_id,
        contract_amount: l.contract_amount,
        cumulative_percent: "30",
        tax_code: "SR",
      })),
    });
    const res = await act(manager, "progressive_claim", saved.id, "submit");
    expect(res.status, res.text).toBe(200);
    const claim = res.body as Doc;
    // 30% of 10,000 less 5% retention = 2,850.00; GST 256.50.
    expect(claim).toMatchObject({ subtotal: "2850.00", tax_total: "256.50" });
    const may = { from: "2031-05-01", to: "2031-05-31" };
    const f5 = await report(FINANCE, { name: "gst_f5", ...may });
    expect(f5.totals).toMatchObject({ box1: "2850.00", box6: "256.50", box8: "256.50" });
    const tb = await report(FINANCE, { name: "trial_balance", ...may });
    expect(tb.rows.find((r) => r.account_code === "2200")?.credit).toBe("256.50");
    const box1 = await report(FINANCE, { name: "journal_drill", box: "1", ...may });
    expect(box1.drill).toEqual([{ document: { type: "progressive_claim", id: claim.id, number: claim.number } }]);
  });
});

describe("filing GST F5", () => {
  const Q3 = { from: "2025-07-01", to: "2025-09-30" };
  let filed: Record<string, unknown> = {};

  it("records the return as the report stands and posts the settlement dated the period's end", async () => {
    await submitted(ADMIN, "invoice", { company_id: customerId, doc_date: "2025-08-10" }, [line("Sale", "200", "SR")]);
    const f5 = await report(FINANCE, { name: "gst_f5", ...Q3 });
    expect(dec(String(f5.totals.box6)).greaterThan(0)).toBe(true);
    const res = await rpc(FINANCE, "gst_f5_file", Q3);
    expect(res.status, res.text).toBe(200);
    filed = res.body as Record<string, unknown>;
    for (const b of [1, 2, 3, 4, 5, 6, 7, 8]) expect(filed[`box${b}`], `box${b}`).toBe(f5.totals[`box${b}`]);
    expect(filed.entry_number).toMatch(/^JE-2025-\d{5}$/);
    const legs = await own.q<{ account_code: string; debit: string; credit: string; entry_date: string }>(sql`
      select l.account_code, l.debit::text, l.credit::text, e.entry_date::text from journal_line l
      join journal_entry e on e.workspace_id = l.workspace_id and e.id = l.entry_id
      where e.id = ${Number(filed.entry_id)} order by l.line_no`);
    const net = dec(String(f5.totals.box8));
    expect(legs).toEqual(
      [
        { account_code: "2200", debit: f5.totals.box6, credit: "0.00", entry_date: Q3.to },
        ...(dec(String(f5.totals.box7)).isZero()
          ? []
          : [{ account_code: "1300", debit: "0.00", credit: f5.totals.box7, entry_date: Q3.to }]),
        net.isNegative()
          ? { account_code: "2210", debit: money(net.negated()), credit: "0.00", entry_date: Q3.to }
          : { account_code: "2210", debit: "0.00", credit: money(net), entry_date: Q3.to },
      ].filter((l) => l.debit !== "0.00" || l.credit !== "0.00"),
    );
    // The page reads the filed returns over REST: "Filed on … by …".
    const rest = await restFetch(
      FINANCE,
      `gst_return?select=period_from,period_to,box8,filed_by,filed_at&id=eq.${filed.id}`,
    );
    expect(rest.status).toBe(200);
    expect(rest.body).toMatchObject([{ period_from: Q3.from, period_to: Q3.to, box8: f5.totals.box8 }]);
    expect((await restFetch(SALES, "gst_return?select=id")).status).toBe(403);
  });

  it("refuses an overlapping period, naming the earlier return, and writes nothing", async () => {
    const count = async () => (await own.q<{ n: number }>(sql`select count(*)::int as n from gst_return`))[0].n;
    const before = await count();
    const again = await rpc(ACCOUNTS, "gst_f5_file", { from: "2025-09-01", to: "2025-10-31" });
    expect(again.status).toBe(409);
    expect(message(again)).toMatch(
      /^The GST return for 1 Jul 2025 – 30 Sep 2025 was filed on \d{1,2} \w{3} \d{4}: a period is filed once$/,
    );
    expect(await count()).toBe(before);
  });

  it("files a zero return without an entry, refuses a period not yet over, and only finance files", async () => {
    const zero = await rpc(ACCOUNTS, "gst_f5_file", { from: "2019-01-01", to: "2019-03-31" });
    expect(zero.status, zero.text).toBe(200);
    expect(zero.body).toMatchObject({ box8: "0.00", entry_id: null });
    const early = await rpc(FINANCE, "gst_f5_file", Q1);
    expect(early.status).toBe(422);
    expect(message(early)).toBe("The period ends on 31 Mar 2031: a GST return is filed once its period is over");
    const sales = await rpc(SALES, "gst_f5_file", { from: "2018-01-01", to: "2018-03-31" });
    expect(sales.status).toBe(403);
    expect(message(sales)).toBe("You do not have permission to file GST returns");
    const pro = await rpc(PRO, "gst_f5_file", { from: "2018-01-01", to: "2018-03-31" });
    expect(pro.status).toBe(403);
    expect(pro.body).toMatchObject({ code: "tier_required", hint: "Upgrade to Premium" });
  });
});

describe("who may read them", () => {
  it("Lite and Pro are refused with the upgrade; Premium's finance roles read them; a salesperson is refused", async () => {
    for (const name of [
      "trial_balance",
      "profit_and_loss",
      "balance_sheet",
      "gst_f5",
      "general_ledger",
      "journal_drill",
    ]) {
      const args = { name, ...Q1, account: "1100" };
      for (const email of [PRO, LITE]) {
        const res = await rpc(email, "report", name === "gst_f5" ? { name, ...Q1 } : args);
        expect(res.status, `${name} ${email}`).toBe(403);
        expect(res.body, name).toMatchObject({ code: "tier_required", hint: "Upgrade to Premium" });
      }
      const sales = await rpc(SALES, "report", args);
      expect(sales.status, name).toBe(403);
      expect(message(sales), name).toBe("You do not have permission to read financial reports");
    }
    for (const email of [ADMIN, FINANCE, ACCOUNTS]) {
      expect((await rpc(email, "report", { name: "trial_balance" })).status, email).toBe(200);
    }
  });

  it("refuses bad parameters with 422", async () => {
    const backwards = await rpc(FINANCE, "report", { name: "profit_and_loss", from: "2031-03-31", to: "2031-01-01" });
    expect(backwards.status).toBe(422);
    expect(message(backwards)).toBe("The period must start on or before it ends");
    const both = await rpc(FINANCE, "report", { name: "journal_drill", account: "1100", box: "1", ...Q1 });
    expect(both.status).toBe(422);
    expect((await rpc(FINANCE, "report", { name: "gst_f5", from: "2031-01-01" })).status).toBe(422);
  });
});

describe("isolation", () => {
  it("no report counts another workspace's postings: the workspace filter alone, and row-level security alone", async () => {
    const f5 = await report(FINANCE, { name: "gst_f5", ...Q1 });
    expect(f5.totals.box1).toBe("950.00"); // the other workspace's 12,345 never counted
    // The workspace filter alone: run without row-level security (the owner's connection), for the demo workspace.
    const unguarded = await own.db.transaction((tx) => f5Boxes(tx, own.ws, Q1.from, Q1.to));
    expect(unguarded.box1).toBe("950.00");
    const caller = { workspaceId: own.ws } as Parameters<typeof trialBalance.run>[2];
    const tbFiltered = await own.db.transaction((tx) => trialBalance.run(tx, Q1, caller));
    expect(tbFiltered.totals).toEqual((await report(FINANCE, { name: "trial_balance", ...Q1 })).totals);
    // Row-level security alone: the demo workspace's session asking for the other workspace's rows sees none.
    const leaked = await inRequest(own.db, { workspaceId: own.ws, userId: null, role: "authenticated" }, (tx) =>
      f5Boxes(tx, liteWs, Q1.from, Q1.to),
    );
    expect(leaked.box1).toBe("0.00");
    const leakedTb = await inRequest(own.db, { workspaceId: own.ws, userId: null, role: "authenticated" }, (tx) =>
      trialBalance.run(tx, Q1, { ...caller, workspaceId: liteWs }),
    );
    expect(leakedTb.rows).toEqual([]);
    // The filed returns likewise: the other workspace's session sees none of the demo workspace's.
    const filed = await inRequest(own.db, { workspaceId: liteWs, userId: null, role: "authenticated" }, (tx) =>
      tx.execute(sql`select count(*)::int as n from gst_return`),
    );
    expect((filed.rows[0] as { n: number }).n).toBe(0);
    expect((await own.q<{ n: number }>(sql`select count(*)::int as n from gst_return`))[0].n).toBeGreaterThan(0);
    // And the other workspace's own return sees its sale.
    const theirs = await own.db.transaction((tx) => f5Boxes(tx, liteWs, Q1.from, Q1.to));
    expect(theirs.box1).toBe("12345.00");
  });
});
