import { decide } from "@workmetrics/domain";
import { COMMISSION_STATEMENT_ACCESS, periodOf } from "@workmetrics/domain/commission";
import { Dec } from "@workmetrics/domain/documents/decimal";
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { type Doc, ok, rpc } from "./documents-helpers.ts";
import { locationsByCode, openingStock, ownServer } from "./own-server-helpers.ts";
import { restFetch } from "./rest-helpers.ts";

// Issue 12 "Commission": statements computed from the documents (excluded categories left out, a credit note
// reversing commission in the period it is issued, the collected basis following receipts, tiers), approval
// freezing a period and posting Dr 6000 / Cr 2400, payment clearing 2400, overlaps refused, gating per tier, a
// salesperson's own scope, and isolation. A server of its own: it writes documents in past months and moves
// workspace pro to Premium for the isolation test.

const ADMIN = "admin@demo.test";
const FINANCE = "finance@demo.test";
const MANAGER = "manager@demo.test";
const SALES = "sales@demo.test";
const DRIVER = "driver@demo.test";
const PRO = "admin@pro.test";

const own = ownServer();
const { q } = own;
type Row = Record<string, string | number | null>;
type Report = { rows: Row[]; totals: Record<string, string | number>; drill: unknown[] };

let users: Record<string, string> = {};
let kept: { id: number; category_id: number };
let left: { id: number; category_id: number }; // its category is excluded from the salespeople's rule
let customerId = 0;
const today = new Date();
const monthsAgo = (n: number) =>
  periodOf(
    "monthly",
    new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth() - n, 15)).toISOString().slice(0, 10),
  );
const M2 = monthsAgo(2);
const M1 = monthsAgo(1);
const day = (p: { from: string }, d: number) => `${p.from.slice(0, 8)}${String(d).padStart(2, "0")}`;
const d = (v: string | number) => new Dec(v);
const m = (v: InstanceType<typeof Dec>) => v.toDecimalPlaces(2, Dec.ROUND_HALF_UP).toFixed(2);

const report = async (email: string, params: Record<string, string>) =>
  rpc(email, "report", { name: "commission_statement", ...params });
const readReport = async (email: string, params: Record<string, string>): Promise<Report> => {
  const res = await report(email, params);
  expect(res.status, res.text).toBe(200);
  return res.body as Report;
};
const message = (res: { body: unknown }) => (res.body as { message: string }).message;
const journal = (id: number) =>
  q<{ entry: string; account_code: string; debit: string; credit: string; entry_date: string }>(sql`
    select e.id::text as entry, e.entry_date::text as entry_date, l.account_code, l.debit::text, l.credit::text
    from journal_entry e join journal_line l on l.workspace_id = e.workspace_id and l.entry_id = e.id
    where e.workspace_id = ${own.ws}::uuid and e.source_type = 'commission_statement' and e.source_id = ${id}
    order by e.id, l.line_no`);

// An invoice made from a sales order the salesperson wrote (the manager confirms and invoices it), dated `date`.
async function soldBySales(date: string, lines: Array<{ product_id: number; qty: string }>): Promise<Doc> {
  const so = await ok(SALES, "document_save", {
    type: "sales_order",
    header: { company_id: customerId, doc_date: date },
    lines,
  });
  await ok(MANAGER, "document_transition", { type: "sales_order", id: so.id, action: "submit" });
  const inv = await ok(MANAGER, "document_convert", {
    type: "sales_order",
    id: so.id,
    to: "invoice",
    header: { doc_date: date },
  });
  return ok(MANAGER, "document_transition", { type: "invoice", id: inv.id, action: "submit" });
}

const netOf = (inv: Doc, productId: number) =>
  d(String(inv.lines.find((l) => l.product_id === productId)?.net_amount ?? "0"));

let i1: Doc;
let i2: Doc;
let creditNote: Doc;
let statementId = 0;

beforeAll(async () => {
  const u = await q<{ id: string; email: string }>(
    sql`select id, email from "user" where workspace_id = ${own.ws}::uuid`,
  );
  users = Object.fromEntries(u.map((x) => [x.email, x.id]));
  const leaves = await q<{ id: number; category_id: number }>(sql`select distinct on (p.category_id) p.id,
      p.category_id from product p
    where p.workspace_id = ${own.ws}::uuid and p.active and p.cost > 0 and p.category_id is not null
      and not exists (select 1 from category c where c.workspace_id = p.workspace_id and c.parent_id = p.category_id)
    order by p.category_id, p.id limit 2`);
  [kept, left] = leaves.map((p) => ({ id: Number(p.id), category_id: Number(p.category_id) }));
  customerId = Number(
    (
      await q<{ id: number }>(sql`select id from company where workspace_id = ${own.ws}::uuid and is_customer
      order by id limit 1`)
    )[0].id,
  );
  await openingStock(own, [kept, left], (await locationsByCode(ADMIN))["WH-TUAS"], 1000);
  // The salespeople's role: 5% of what they invoice, the second category left out.
  await ok(FINANCE, "commission_rule_save", {
    role_id: 3,
    basis: "invoiced",
    rate_percent: "5",
    period: "monthly",
    excluded_category_ids: [left.category_id],
  });
  // The sales manager: 10% of what is collected on their own invoices.
  await ok(FINANCE, "commission_rule_save", {
    user_id: users[MANAGER],
    basis: "collected",
    rate_percent: "10",
    period: "monthly",
  });
  i1 = await soldBySales(day(M2, 10), [
    { product_id: kept.id, qty: "10" },
    { product_id: left.id, qty: "5" },
  ]);
}, 120_000);

describe("the statement from the documents", () => {
  it("counts the salesperson's invoices net of GST, leaving out the excluded category's lines", async () => {
    const net = netOf(i1, kept.id).plus(netOf(i1, left.id));
    const base = netOf(i1, kept.id);
    const mine = await readReport(FINANCE, { ...M2, salesperson: users[SALES] });
    expect(mine.rows).toEqual([
      expect.objectContaining({
        doc_type: "invoice",
        number: i1.number,
        net: m(net),
        excluded: m(netOf(i1, left.id)),
        base: m(base),
      }),
    ]);
    expect(mine.drill).toEqual([{ document: { type: "invoice", id: i1.id, number: i1.number } }]);
    expect(mine.totals).toMatchObject({ base: m(base), rate_percent: "5.00", commission: m(base.times(0.05)) });
    expect(mine.totals.status).toBe("open");
    const all = await readReport(FINANCE, M2);
    expect(all.rows.find((r) => r.salesperson_id === users[SALES])).toMatchObject({
      base: m(base),
      commission: m(base.times(0.05)),
      status: "open",
      rule: "Role: Salesperson",
    });
  });

  it("approval freezes the period and posts Dr 6000 Commission / Cr 2400 Commission payable on its last day", async () => {
    const commission = m(netOf(i1, kept.id).times(0.05));
    const res = await rpc(FINANCE, "commission_approve", { salesperson: users[SALES], ...M2 });
    expect(res.status, res.text).toBe(200);
    const s = res.body as { id: number; status: string; commission: string };
    statementId = s.id;
    expect(s).toMatchObject({ status: "approved", commission });
    expect(await journal(s.id)).toEqual([
      expect.objectContaining({ account_code: "6000", debit: commission, credit: "0.00", entry_date: M2.to }),
      expect.objectContaining({ account_code: "2400", debit: "0.00", credit: commission, entry_date: M2.to }),
    ]);
  });

  it("refuses approving an overlapping period again, naming the earlier statement; nothing is written", async () => {
    const before = await q<{ n: number }>(sql`select count(*)::int as n from commission_statement`);
    const again = await rpc(FINANCE, "commission_approve", { salesperson: users[SALES], ...M2 });
    expect(again.status).toBe(409);
    expect(message(again)).toContain(`is already approved (statement ${statementId})`);
    const part = await rpc(FINANCE, "commission_approve", {
      salesperson: users[SALES],
      from: M2.from,
      to: day(M2, 20),
    });
    expect(part.status).toBe(422);
    expect(message(part)).toContain("approve a whole month");
    expect(await q(sql`select count(*)::int as n from commission_statement`)).toEqual(before);
  });

  it("a later credit note on the approved period's invoice is a negative line in the period it is issued", async () => {
    i2 = await soldBySales(day(M1, 5), [{ product_id: kept.id, qty: "3" }]);
    const line = i1.lines.find((l) => l.product_id === kept.id) as { id: number };
    const cn = await ok(MANAGER, "document_convert", {
      type: "invoice",
      id: i1.id,
      to: "credit_note",
      header: { doc_date: day(M1, 12) },
      lines: [{ line_id: line.id, qty: "2" }],
    });
    creditNote = await ok(MANAGER, "document_transition", { type: "credit_note", id: cn.id, action: "submit" });
    const credited = d(String(creditNote.lines[0].net_amount));
    const base = netOf(i2, kept.id).minus(credited);
    const next = await readReport(FINANCE, { ...M1, salesperson: users[SALES] });
    expect(next.rows.map((r) => [r.doc_type, r.number, r.base])).toEqual([
      ["invoice", i2.number, m(netOf(i2, kept.id))],
      ["credit_note", creditNote.number, m(credited.negated())],
    ]);
    expect(next.rows[1].reference).toBe(i1.number);
    expect(next.totals).toMatchObject({ base: m(base), commission: m(base.times(0.05)), status: "open" });
    // The approved period keeps its frozen figures.
    const frozen = await readReport(FINANCE, { ...M2, salesperson: users[SALES] });
    expect(frozen.totals).toMatchObject({ status: "approved", commission: m(netOf(i1, kept.id).times(0.05)) });
    expect(frozen.rows).toHaveLength(1);
  });

  it("the collected basis follows receipts: the share of each invoice's net that the receipt paid", async () => {
    const inv = await ok(MANAGER, "document_save", {
      type: "invoice",
      header: { company_id: customerId, doc_date: day(M2, 3) },
      lines: [{ product_id: kept.id, qty: "4" }],
    });
    const issued = await ok(MANAGER, "document_transition", { type: "invoice", id: inv.id, action: "submit" });
    const half = m(d(String(issued.total)).div(2));
    const paid = await rpc(FINANCE, "record_payment", {
      type: "receipt",
      company_id: customerId,
      amount: half,
      date: day(M1, 8),
      method: "bank_transfer",
      allocations: [{ document_type: "invoice", document_id: issued.id, amount: half }],
    });
    expect(paid.status, paid.text).toBe(200);
    expect((await readReport(FINANCE, { ...M2, salesperson: users[MANAGER] })).totals.base).toBe("0.00");
    const m1 = await readReport(FINANCE, { ...M1, salesperson: users[MANAGER] });
    const share = d(half)
      .div(d(String(issued.total)))
      .times(d(String(issued.net_total)));
    expect(m1.rows).toEqual([
      expect.objectContaining({ doc_type: "receipt", reference: issued.number, base: m(share) }),
    ]);
    // A receipt has no page of its own: its line opens the invoice it paid.
    expect(m1.drill).toEqual([{ document: { type: "invoice", id: issued.id, number: issued.number } }]);
    expect(m1.totals).toMatchObject({
      basis: "collected",
      rate_percent: "10.00",
      commission: m(d(m(share)).times(0.1)),
    });
  });

  it("a salesperson's own rule wins over their role's; tiers apply the rate reached to the whole base", async () => {
    const base = d(String((await readReport(FINANCE, { ...M1, salesperson: users[SALES] })).totals.base));
    const saved = await ok(FINANCE, "commission_rule_save", {
      user_id: users[SALES],
      basis: "invoiced",
      rate_percent: "3",
      period: "monthly",
      target: m(base.div(0.9)), // 90% of target reached
      tiers: [
        { from_percent: "0", rate_percent: "3" },
        { from_percent: "80", rate_percent: "5" },
        { from_percent: "100", rate_percent: "7" },
      ],
    });
    const tiered = await readReport(FINANCE, { ...M1, salesperson: users[SALES] });
    expect(tiered.totals).toMatchObject({ rule: "Own rule", rate_percent: "5.00", commission: m(base.times(0.05)) });
    expect(Number(tiered.totals.achievement_percent)).toBeCloseTo(90, 1);
    await ok(FINANCE, "commission_rule_save", { ...saved, target: m(base) }); // 100%: the top tier
    expect((await readReport(FINANCE, { ...M1, salesperson: users[SALES] })).totals).toMatchObject({
      rate_percent: "7.00",
      commission: m(base.times(0.07)),
    });
    await ok(FINANCE, "commission_rule_delete", { id: saved.id });
    expect((await readReport(FINANCE, { ...M1, salesperson: users[SALES] })).totals.rule).toBe("Role: Salesperson");
    // Each change is in the rule's history.
    const events = await q<{ action: string }>(sql`select action from document_event
      where workspace_id = ${own.ws}::uuid and doc_type = 'commission_rule' and doc_id = ${saved.id} order by id`);
    expect(events.map((e) => e.action)).toEqual(["create", "update", "delete"]);
  });

  it("paying posts Dr 2400 / Cr the bank and clears what approval owed; paying twice is refused", async () => {
    const bad = await rpc(FINANCE, "commission_pay", { statement_id: statementId, date: day(M1, 1), account: "4000" });
    expect(bad.status).toBe(422);
    expect(message(bad)).toBe("Choose a bank or cash account to pay from");
    const res = await rpc(FINANCE, "commission_pay", { statement_id: statementId, date: day(M1, 1) });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ status: "paid", paid_date: day(M1, 1), paid_account: "1010" });
    const legs = await journal(statementId);
    const payable = legs
      .filter((l) => l.account_code === "2400")
      .reduce((a, l) => a.plus(l.credit).minus(l.debit), d(0));
    expect(payable.toFixed(2)).toBe("0.00");
    expect(legs.find((l) => l.account_code === "1010")?.credit).toBe(m(netOf(i1, kept.id).times(0.05)));
    const twice = await rpc(FINANCE, "commission_pay", { statement_id: statementId, date: day(M1, 2) });
    expect(twice.status).toBe(409);
    expect(message(twice)).toBe(`This statement was already paid on ${day(M1, 1)}`);
    const list = await ok(FINANCE, "commission_statements", {});
    expect(list).toEqual([expect.objectContaining({ id: statementId, status: "paid", salesperson_id: users[SALES] })]);
  });

  it("refuses bad rules with the field and words a clerk understands", async () => {
    const bad = await rpc(FINANCE, "commission_rule_save", {
      role_id: 3,
      basis: "invoiced",
      rate_percent: "150",
      period: "monthly",
    });
    expect(bad.status).toBe(422);
    expect(message(bad)).toBe("The rate must be at most 100%");
    const twice = await rpc(FINANCE, "commission_rule_save", {
      role_id: 3,
      basis: "invoiced",
      rate_percent: "4",
      period: "monthly",
    });
    expect(twice.status).toBe(409);
    expect(message(twice)).toBe("This role already has a rule; change that one");
    const tiers = await rpc(FINANCE, "commission_rule_save", {
      user_id: users[SALES],
      basis: "invoiced",
      rate_percent: "3",
      period: "monthly",
      tiers: [{ from_percent: "0", rate_percent: "3" }],
    });
    expect(message(tiers)).toBe("Tiers need a target per period");
  });
});

describe("who reads and approves", () => {
  it("a salesperson reads only their own statement and cannot approve or change rules", async () => {
    const mine = await readReport(SALES, M1);
    expect(mine.totals.salesperson_id).toBe(users[SALES]);
    const theirs = await report(SALES, { ...M1, salesperson: users[MANAGER] });
    expect(theirs.status).toBe(403);
    expect(message(theirs)).toBe("You may read only your own commission statements");
    expect((await ok(SALES, "commission_statements", {})) as unknown as Row[]).toEqual([
      expect.objectContaining({ salesperson_id: users[SALES] }),
    ]);
    const approve = await rpc(SALES, "commission_approve", { salesperson: users[SALES], ...M1 });
    expect(approve.status).toBe(403);
    expect((await rpc(SALES, "commission_rules", {})).status).toBe(403);
  });

  it("the sales manager reads everyone's; a driver is refused, not shown an empty list", async () => {
    const all = await readReport(MANAGER, M1);
    expect(all.rows.map((r) => r.salesperson_id)).toEqual(expect.arrayContaining([users[SALES], users[MANAGER]]));
    const driver = await report(DRIVER, M1);
    expect(driver.status).toBe(403);
    expect(message(driver)).toBe("You do not have permission to read commission statements");
  });

  // Issue 10/12: the defaults live in the permission matrix (the Commission row), editable; the next request obeys.
  it("a grant changed in the matrix gives or takes away reading, approving and reading one's own", async () => {
    const roles = await q<{ id: number; base_role_id: number; permissions: string[] }>(
      sql`select id, base_role_id, permissions from workspace_role where workspace_id = ${own.ws}::uuid and is_system`,
    );
    const role = (base: number) => roles.find((r) => r.base_role_id === base)!;
    const save = async (base: number, permissions: string[]) => {
      const res = await restFetch(ADMIN, `workspace_role?id=eq.${role(base).id}`, {
        method: "PATCH",
        body: JSON.stringify({ permissions }),
      });
      expect(res.status, res.text).toBeLessThan(300);
    };
    const WAREHOUSE = "warehouse@demo.test";
    const ACCOUNTS = "accounts@demo.test";
    const later = periodOf("monthly", `${today.getUTCFullYear() + 1}-06-15`);
    try {
      // Warehouse staff read no commission by default; ticking Commission: read lets them read everyone's.
      expect(message(await report(WAREHOUSE, M1))).toBe("You do not have permission to read commission statements");
      await save(6, [...role(6).permissions, "commission.read"]);
      expect((await readReport(WAREHOUSE, M1)).rows.length).toBeGreaterThan(0);
      // Accounts read statements but do not approve; ticking Approve / Pay lets them (the period has not ended yet).
      const refused = await rpc(ACCOUNTS, "commission_approve", { salesperson: users[MANAGER], ...later });
      expect(message(refused)).toBe("You do not have permission to approve commission");
      await save(42, [...role(42).permissions, "commission.approve"]);
      const asked = await rpc(ACCOUNTS, "commission_approve", { salesperson: users[MANAGER], ...later });
      expect(message(asked)).toBe(`The period ends on ${later.to}; approve it once it has ended`);
      // A salesperson whose Read own is unticked reads not even their own.
      await save(
        3,
        role(3)
          .permissions.filter((p) => !p.startsWith("!commission.") && p !== "commission.read_own")
          .concat("!commission.*"),
      );
      expect(message(await report(SALES, M1))).toBe("You do not have permission to read commission statements");
    } finally {
      for (const base of [6, 42, 3]) await save(base, role(base).permissions);
    }
    // Unticked again: refused again.
    expect((await report(WAREHOUSE, M1)).status).toBe(403);
    expect((await rpc(ACCOUNTS, "commission_approve", { salesperson: users[MANAGER], ...later })).status).toBe(403);
    expect((await report(SALES, M1)).status).toBe(200);
  });

  it("a Pro workspace is refused with the tier message; Premium is allowed", async () => {
    const decision = decide({ kind: "member", permissions: ["*"], features: ["erp"] }, COMMISSION_STATEMENT_ACCESS) as {
      message: string;
    };
    const res = await report(PRO, M1);
    expect(res.status).toBe(403);
    expect(message(res)).toBe(decision.message);
    expect(message(res)).toContain("Premium");
    const rules = await rpc(PRO, "commission_rules", {});
    expect(rules.status).toBe(403);
    expect((res.body as { code: string }).code).toBe("tier_required");
    expect((await report(ADMIN, M1)).status).toBe(200);
  });
});

describe("isolation", () => {
  it("another Premium workspace sees, pays and deletes none of this workspace's rules or statements", async () => {
    await own.db.execute(sql`update workspace set tier_id = 12 where slug = 'pro'`);
    const rules = await rpc(PRO, "commission_rules", {});
    expect(rules.status, rules.text).toBe(200);
    expect(rules.body).toEqual([]);
    expect((await ok(PRO, "commission_statements", {})) as unknown).toEqual([]);
    expect(((await readReport(PRO, M2)).rows as Row[]).length).toBe(0);
    const ours = await q<{ id: number }>(sql`select id from commission_rule where workspace_id = ${own.ws}::uuid`);
    const del = await rpc(PRO, "commission_rule_delete", { id: Number(ours[0].id) });
    expect(del.status).toBe(404);
    const pay = await rpc(PRO, "commission_pay", { statement_id: statementId, date: day(M1, 3) });
    expect(pay.status).toBe(404);
    const theirs = await report(PRO, { ...M2, salesperson: users[SALES] });
    expect(theirs.status).toBe(422);
    expect(await q(sql`select count(*)::int as n from commission_rule where workspace_id = ${own.ws}::uuid`)).toEqual([
      { n: ours.length },
    ]);
  });
});
