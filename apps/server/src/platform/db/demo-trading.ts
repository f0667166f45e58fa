import { decide } from "@workmetrics/domain";
import { orderForm, orderFormItem } from "@workmetrics/domain/db/schema";
import { dec, money } from "@workmetrics/domain/documents/decimal";
import { costTotal, type PostingRule } from "@workmetrics/domain/documents/postings";
import { sql } from "drizzle-orm";
import { recordPayment } from "../../modules/documents/record-payment.ts";
import { registerModules } from "../../modules/index.ts";
import { type FoundForm, receiveOrder } from "../../modules/orders/order-form.store.ts";
import { runConvert } from "../documents/convert.ts";
import { postJournal } from "../documents/ledger.ts";
import { documentSpec } from "../documents/registry.ts";
import { saveDraft } from "../documents/save.ts";
import { type StockMove, writeStockMoves } from "../documents/stock.ts";
import { runTransition } from "../documents/transition.ts";
import { type Caller, loadMember, memberOf } from "../rest/access.ts";
import type { Tx } from "./database.ts";

// Issue 10 §4: a believable year of trading in a demo workspace, made through the document engine's own commands
// (save, transition, convert, record_payment: what the RPCs run), so the seed proves the engine: quotations sent,
// won, lost, expired and cancelled; orders delivered in one or two parts, billed, held, closed; invoices paid by
// receipts that often settle several at once, partly paid, overdue; one overpayment left as the customer's credit.
// Every document is dated on its day over the last twelve months, relative to the database's today; the plan comes
// from a seeded PRNG, so the same day gives the same data. Before it, every active stocked product gets opening stock
// (Dr 1200 Stock In Hand / Cr 3000 Share Capital: the goods the owners put in), so every delivery finds its goods.

// How much trading each demo workspace gets; `showcase`: the last weeks hold every state a document can be in.
export type TradingScale = {
  quotations: number;
  orders: number; // repeat orders without a quotation
  counterSales: number;
  serviceInvoices: number;
  showcase: boolean;
};

export const TRADING: Record<string, TradingScale> = {
  demo: { quotations: 36, orders: 10, counterSales: 5, serviceInvoices: 3, showcase: true },
  pro: { quotations: 6, orders: 3, counterSales: 1, serviceInvoices: 1, showcase: false },
  lite: { quotations: 2, orders: 1, counterSales: 1, serviceInvoices: 0, showcase: false },
};

const OPENING_STOCK_RULE: PostingRule = {
  name: "opening_stock",
  memo: "Opening stock",
  legs: [
    { side: "debit", account: "1200", role: "stock", amount: "cost_total" },
    { side: "credit", account: "3000", role: "equity", amount: "cost_total" },
  ],
};

const LOST_REASONS = [
  "The customer went with a cheaper supplier",
  "Lead time too long for the site schedule",
  "Project postponed by the client",
  "Customer bought from their usual supplier",
  "Specification changed after the site survey",
];
const HOLD_REASONS = [
  "Customer asked us to hold until the site is ready",
  "Credit check: waiting for the overdue invoices to be paid",
];
const METHODS = ["bank_transfer", "bank_transfer", "paynow", "cheque"];
// Who signed for a delivery at the customer's.
const RECEIVERS = ["Tan Ah Kow", "Siti Rahimah", "R. Kumar", "Lim Wei Ling", "Store 2 receiving"];

// mulberry32: small, fast and the same everywhere.
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Product = { id: number; unit: string };
type Customer = { id: number; terms: number; contactId: number | null };
type Step = { at: number; phase: number; seq: number; run: () => Promise<void> };

// A deal's steps run in date order; a step that would fall after today ends the deal there (so recent deals are the
// open ones), and every later step of the deal is dropped with it.
class Chain {
  private open = true;
  // clamp: the deal must reach its end by today (the showcase of recent states), so its gaps shrink to fit.
  constructor(
    private readonly plan: Plan,
    public at: number,
    private readonly clamp = false,
  ) {}
  fit(gap: number): number {
    return this.clamp ? Math.min(Math.max(0, gap), this.at) : Math.max(0, gap);
  }
  step(after: number, run: () => Promise<void>): boolean {
    const at = this.at - this.fit(after);
    if (!this.open || at < 0) {
      this.open = false;
      return false;
    }
    this.at = at;
    this.plan.add(at, 0, run);
    return true;
  }
}

class Plan {
  steps: Step[] = [];
  private seq = 0;
  add(at: number, phase: number, run: () => Promise<void>) {
    this.steps.push({ at, phase, seq: this.seq++, run });
  }
  ordered() {
    return [...this.steps].sort((a, b) => b.at - a.at || a.phase - b.phase || a.seq - b.seq);
  }
}

// Days ago → ISO date, relative to the database's today (so the same day gives the same data).
export async function demoCalendar(tx: Tx): Promise<(daysAgo: number) => string> {
  const todayRow = await tx.execute(sql`select current_date::text as d`);
  const today = new Date(`${(todayRow.rows[0] as { d: string }).d}T00:00:00Z`);
  return (daysAgo: number) => new Date(today.getTime() - daysAgo * 86_400_000).toISOString().slice(0, 10);
}

// Who does what: the team member whose role allows it, else the owner.
export async function demoTeam(
  tx: Tx,
  ws: string,
  slug: string,
): Promise<(permission: string, ...prefer: string[]) => Caller> {
  const users = (
    await tx.execute(sql`select u.id, u.email, u.role_id from "user" u
    where u.workspace_id = ${ws}::uuid and u.active order by u.role_id, u.email`)
  ).rows as Array<{
    id: string;
    email: string;
  }>;
  const callers: Caller[] = [];
  for (const u of users) {
    const m = await loadMember(tx, u.id, ws);
    callers.push({ kind: "member", userId: u.id, workspaceId: ws, isOperator: false, ...m });
  }
  const who = (permission: string, ...prefer: string[]): Caller => {
    const may = (c: Caller) =>
      decide(memberOf(c), { audience: "member", permission, feature: "erp", subject: "", does: "" }).allowed;
    for (const local of [...prefer, "owner"]) {
      const c = callers.find((_, i) => users[i].email.startsWith(`${local}@`));
      if (c && may(c)) return c;
    }
    const any = callers.find(may);
    if (!any) throw new Error(`No demo user of ${slug} may ${permission}`);
    return any;
  };
  return who;
}

export async function seedTrading(tx: Tx, workspaceId: string, slug: string): Promise<void> {
  const scale = TRADING[slug];
  if (!scale) return;
  registerModules();
  const ws = workspaceId;
  const rnd = prng([...slug].reduce((h, c) => Math.imul(h ^ c.charCodeAt(0), 16777619), 2166136261));
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)];
  const between = (lo: number, hi: number) => lo + Math.floor(rnd() * (hi - lo + 1));
  const chance = (p: number) => rnd() < p;

  const date = await demoCalendar(tx);
  const who = await demoTeam(tx, ws, slug);
  const sales = who("quotation.submit", "sales", "manager");
  // The sales manager quotes too (every fourth quotation): the salesperson sees their own only.
  const senior = who("quotation.submit", "manager");
  const converter = who("sales_order.create", "sales", "manager");
  const manager = who("sales_order.submit", "manager");
  const warehouse = who("delivery_order.submit", "warehouse", "manager");
  const accounts = who("invoice.submit", "accounts", "finance");
  const cashier = who("receipt.create", "finance", "accounts");
  const storekeeper = who("goods_return_note.submit", "warehouse", "manager");
  const driver = who("delivery_order.complete", "driver");
  const creditor = who("credit_note.submit", "accounts", "finance");
  await tx.execute(sql`select set_config('app.workspace_id', ${ws}, true)`);

  // Master data the documents use.
  const products = (
    await tx.execute(sql`select id, unit from product where workspace_id = ${ws}::uuid and active and is_stock_tracked
      and cost > 0 order by id`)
  ).rows.map((r) => ({ id: Number((r as Product).id), unit: String((r as Product).unit) }));
  const services = (
    await tx.execute(sql`select id from service where workspace_id = ${ws}::uuid order by id`)
  ).rows.map((r) => Number((r as { id: number }).id));
  const locations = (
    await tx.execute(sql`select id from location where workspace_id = ${ws}::uuid order by id`)
  ).rows.map((r) => Number((r as { id: number }).id));
  const customers = (
    await tx.execute(sql`select c.id, c.payment_terms_days as terms, (select k.id from contact k
        where k.workspace_id = c.workspace_id and k.company_id = c.id order by k.is_primary desc, k.id limit 1) as contact
      from company c where c.workspace_id = ${ws}::uuid and c.is_customer order by c.id`)
  ).rows.map((r) => {
    const row = r as { id: number; terms: number; contact: number | null };
    return {
      id: Number(row.id),
      terms: Number(row.terms),
      contactId: row.contact == null ? null : Number(row.contact),
    };
  });
  const walkIn = customers.find((c) => c.contactId == null) ?? customers[0];
  const accountsCustomers = customers.filter((c) => c !== walkIn);
  if (products.length === 0 || locations.length === 0 || accountsCustomers.length === 0) return;
  const [main, second] = locations;

  // Opening stock, a year and a day ago: every active stocked product at the main warehouse, every third one at the
  // second as well.
  const opening: StockMove[] = [];
  for (const [i, p] of products.entries()) {
    opening.push({
      product_id: p.id,
      location_id: main,
      qty: String(between(20, 60) * 10),
      unit_cost: "0",
      doc_line_id: 0,
    });
    if (second && i % 3 === 0) {
      opening.push({
        product_id: p.id,
        location_id: second,
        qty: String(between(4, 12) * 10),
        unit_cost: "0",
        doc_line_id: 0,
      });
    }
  }
  const costs = new Map(
    (await tx.execute(sql`select id, cost::text as cost from product where workspace_id = ${ws}::uuid`)).rows.map(
      (r) => [Number((r as { id: number }).id), String((r as { cost: string }).cost)],
    ),
  );
  opening.forEach((m, i) => {
    m.unit_cost = costs.get(m.product_id) ?? "0";
    m.doc_line_id = i + 1;
  });
  const openingRef = { type: "opening_stock", id: 1 };
  const owner = who("invoice.read", "owner");
  await writeStockMoves(tx, owner, openingRef, opening, "open");
  await postJournal(tx, owner, { ...openingRef, number: null, date: date(366) }, OPENING_STOCK_RULE, {
    cost_total: costTotal(opening),
  });

  // ---- the commands, as the RPCs run them ----------------------------------------------------------------------
  const save = (caller: Caller, type: string, header: Record<string, unknown>, lines: Record<string, unknown>[]) =>
    saveDraft(tx, caller, documentSpec(type), { header, lines });
  const act = (caller: Caller, type: string, id: number, action: string, reason?: string) =>
    runTransition(tx, caller, documentSpec(type), { id, action, reason: reason ?? null });
  const convert = (
    caller: Caller,
    type: string,
    id: number,
    to: string,
    header: Record<string, unknown>,
    lines?: { line_id: number; qty: string }[],
  ) => runConvert(tx, caller, documentSpec(type), documentSpec(to, "to"), { id, header, lines });
  const orderLines = async (orderId: number) =>
    (
      await tx.execute(sql`select id, qty::text as qty, (qty - qty_delivered)::text as left from sales_order_line
        where workspace_id = ${ws}::uuid and sales_order_id = ${orderId} and product_id is not null order by line_no`)
    ).rows as Array<{ id: number; qty: string; left: string }>;
  const debitNoteTotal = async (id: number) =>
    String(
      (
        (await tx.execute(sql`select total::text as t from debit_note where workspace_id = ${ws}::uuid and id = ${id}`))
          .rows[0] as { t: string }
      ).t,
    );
  const invoiceTotal = async (id: number) =>
    String(
      (
        (await tx.execute(sql`select total::text as t from invoice where workspace_id = ${ws}::uuid and id = ${id}`))
          .rows[0] as { t: string }
      ).t,
    );

  const qtyFor = (p: Product) =>
    String(
      p.unit === "box"
        ? between(2, 30)
        : p.unit === "roll"
          ? between(1, 6)
          : p.unit === "tin"
            ? between(2, 16)
            : between(1, 10),
    );
  const goodsLines = (n: number) => {
    const chosen = new Set<Product>();
    while (chosen.size < Math.min(n, products.length)) chosen.add(pick(products));
    return [...chosen].map((p) => ({
      product_id: p.id,
      qty: qtyFor(p),
      ...(chance(0.15) ? { discount_percent: "5" } : {}),
    }));
  };
  const headerFor = (c: Customer, at: number, extra: Record<string, unknown> = {}) => ({
    company_id: c.id,
    contact_id: c.contactId,
    doc_date: date(at),
    ...extra,
  });

  // ---- payments: each customer pays on a weekly run, so one receipt often settles several invoices -----------------
  // The invoice's id is known once its step has run; a share of its total is paid.
  type Payable = { id?: number };
  type Batch = {
    customer: Customer;
    at: number;
    items: { invoice: Payable; share: number }[];
    extra: string;
    cash: boolean;
  };
  const batches = new Map<string, Batch>();
  const plan = new Plan();
  let overpaid = false;
  const payLater = (c: Customer, at: number, invoice: Payable, share = 1, cash = false) => {
    if (at < 0) return;
    const key = `${c.id}:${at}`;
    let batch = batches.get(key);
    if (!batch) {
      batch = { customer: c, at, items: [], extra: "0", cash };
      // The one overpayment: a customer pays a round sum two to four months ago; the rest waits as its credit.
      if (!overpaid && !cash && at >= 60 && at <= 120) {
        overpaid = true;
        batch.extra = "500.00";
      }
      batches.set(key, batch);
      const b = batch;
      plan.add(at, 1, async () => {
        const allocations: { document_type: "invoice"; document_id: number; amount: string }[] = [];
        for (const { invoice, share } of b.items) {
          if (invoice.id == null) continue;
          const total = dec(await invoiceTotal(invoice.id));
          const amount = money(total.times(share).toDecimalPlaces(2));
          if (dec(amount).greaterThan(0))
            allocations.push({ document_type: "invoice", document_id: invoice.id, amount });
        }
        if (allocations.length === 0) return;
        const amount = money(allocations.reduce((s, a) => s.plus(a.amount), dec(b.extra)));
        await recordPayment(tx, cashier, {
          type: "receipt",
          company_id: b.customer.id,
          amount,
          date: date(b.at),
          method: b.cash ? "cash" : pick(METHODS),
          reference: b.cash ? null : `TT${date(b.at).replaceAll("-", "")}${b.customer.id}`,
          notes: dec(b.extra).isZero() ? null : "Paid a round sum; the rest is kept as credit",
          allocations,
        });
      });
    }
    batch.items.push({ invoice, share });
  };

  // An invoice's payment fate: paid around its due date, partly paid, or left open (then overdue once due).
  // Offsets are days ago: a due offset of 1 or more is a due date already passed.
  type PayFate = "paid" | "partly" | "open";
  const weekly = (at: number) => Math.floor(Math.max(0, at) / 7) * 7;
  const settle = (c: Customer, invoicedAt: number, item: Payable, fate?: PayFate) => {
    const due = invoicedAt - c.terms;
    const r = rnd();
    if (due <= 0) {
      // Not yet due: some pay early, some pay half now.
      if (invoicedAt < 2) return;
      const f = fate ?? (r < 0.25 ? "partly" : r < 0.45 ? "paid" : "open");
      const at = fate ? invoicedAt - 1 : weekly(between(1, invoicedAt - 1));
      if (f !== "open") payLater(c, at, item, f === "partly" ? 0.5 : 1);
      return;
    }
    const around = (at: number) => weekly(Math.min(invoicedAt - 1, Math.max(0, at)));
    const f = fate ?? (r < 0.8 ? "paid" : r < 0.88 ? "partly" : "open");
    if (f === "paid") payLater(c, around(due + between(-12, 10)), item);
    else if (f === "partly") payLater(c, around(due), item, 0.4);
    // open: never paid, overdue.
  };

  // ---- the deals -------------------------------------------------------------------------------------------------
  type Ref = { id?: number };
  const makeInvoice = (chain: Chain, type: string, source: Ref, wanted: number, submit: boolean, inv: Ref) => {
    const gap = chain.fit(wanted);
    const at = chain.at - gap;
    return chain.step(gap, async () => {
      if (source.id == null) return;
      inv.id = await convert(accounts, type, source.id, "invoice", { doc_date: date(at) });
      if (submit) await act(accounts, "invoice", inv.id, "submit");
    });
  };
  const invoiceFrom = (chain: Chain, c: Customer, type: string, source: Ref, gap: number, pay?: PayFate | "cash") => {
    const inv: Payable = {};
    if (!makeInvoice(chain, type, source, gap, true, inv)) return;
    if (pay === "cash") payLater(c, chain.at, inv, 1, true);
    else settle(c, chain.at, inv, pay);
  };

  // What becomes of an order once it is made.
  type OrderFate =
    | "draft" // never submitted
    | "complete" // delivered in one part, invoiced, paid as its customer pays
    | "two_parts" // delivered in two parts, each invoiced
    | "part_delivered" // the first of two parts delivered and invoiced; the rest waits
    | "part_billed" // both parts delivered, only the first invoiced
    | "close" // first part delivered and invoiced, then closed
    | "advance" // invoiced before delivery (To Deliver)
    | "hold"
    | "cancel"
    | "unbilled" // delivered, the invoice forgotten (To Bill)
    | "draft_delivery"
    | "cancel_delivery" // delivered, cancelled (picked wrong), delivered again
    | "draft_invoice"
    | "cancel_invoice" // invoiced at a wrong price, cancelled, invoiced again
    | "return"; // delivered and invoiced; the customer returns a damaged unit, credited
  const randomFate = (): OrderFate => {
    const r = rnd();
    if (r < 0.03) return "cancel";
    if (r < 0.06) return "hold";
    if (r < 0.1) return "unbilled";
    if (r < 0.18) return "two_parts";
    if (r < 0.2) return "close";
    return "complete";
  };

  // Deliveries of an order: `parts` deliveries, the first of two taking half of each line (a line of one goes with
  // the second).
  const deliver = (chain: Chain, order: Ref, wanted: number, half: boolean, delivery: Ref, submit = true) => {
    const gap = chain.fit(wanted);
    const at = chain.at - gap;
    const made = chain.step(gap, async () => {
      const left = (await orderLines(order.id as number)).filter((l) => dec(l.left).greaterThan(0));
      if (left.length === 0) return;
      const lines = half
        ? left
            .map((l) => ({ line_id: Number(l.id), qty: String(Math.floor(Number(l.left) / 2)) }))
            .filter((l) => l.qty !== "0")
        : undefined;
      if (lines && lines.length === 0) return;
      // The last weeks' deliveries go out with the driver, who records the handover.
      const driven = at <= 45 ? { driver_id: driver.userId } : {};
      delivery.id = await convert(
        warehouse,
        "sales_order",
        order.id as number,
        "delivery_order",
        { doc_date: date(at), location_id: main, ...driven },
        lines,
      );
      if (!submit) return;
      await act(warehouse, "delivery_order", delivery.id, "submit");
      if (at >= 1 && at <= 45) await handOver(delivery.id, at);
    });
    return made;
  };

  // One unit of the delivery's first line comes back damaged: a goods return note into the main warehouse, and a
  // credit note made from it against the invoice.
  const returnOne = (chain: Chain, delivery: Ref) => {
    const grn: Ref = {};
    const at = chain.at - chain.fit(3);
    const returned = chain.step(3, async () => {
      if (delivery.id == null) return;
      const [line] = (
        await tx.execute(sql`select id from delivery_order_line where workspace_id = ${ws}::uuid
          and delivery_order_id = ${delivery.id} order by line_no limit 1`)
      ).rows as Array<{ id: number }>;
      grn.id = await convert(
        storekeeper,
        "delivery_order",
        delivery.id,
        "goods_return_note",
        { doc_date: date(at), location_id: main, notes: "Damaged in transit" },
        [{ line_id: Number(line.id), qty: "1" }],
      );
      await act(storekeeper, "goods_return_note", grn.id, "submit");
    });
    if (!returned) return;
    const creditAt = chain.at - chain.fit(1);
    chain.step(1, async () => {
      if (grn.id == null) return;
      const note = await convert(accounts, "goods_return_note", grn.id, "credit_note", { doc_date: date(creditAt) });
      await act(creditor, "credit_note", note, "submit");
    });
  };

  // The driver completes a delivery: who received it and when (the afternoon of its day, Singapore time).
  const handOver = (id: number, at: number) =>
    runTransition(tx, driver, documentSpec("delivery_order"), {
      id,
      action: "complete",
      reason: null,
      values: { received_by: RECEIVERS[id % RECEIVERS.length], received_at: `${date(at)}T15:30:00+08:00` },
    });

  const orderFlow = (chain: Chain, c: Customer, order: Ref, fate: OrderFate, pay?: PayFate | "cash") => {
    if (fate === "draft") return;
    const so = () => order.id as number;
    if (!chain.step(0, () => act(manager, "sales_order", so(), "submit"))) return;
    const quick = pay === "cash";
    switch (fate) {
      case "cancel":
        chain.step(between(1, 10), () => act(manager, "sales_order", so(), "cancel"));
        return;
      case "hold":
        chain.step(between(1, 10), () => act(manager, "sales_order", so(), "hold", pick(HOLD_REASONS)));
        return;
      case "advance":
        invoiceFrom(chain, c, "sales_order", order, between(0, 3), pay);
        return;
      case "draft_delivery":
        deliver(chain, order, between(0, 2), false, {}, false);
        return;
      case "cancel_delivery": {
        const wrong: Ref = {};
        if (!deliver(chain, order, between(0, 2), false, wrong)) return;
        chain.step(1, async () => {
          if (wrong.id != null) await act(warehouse, "delivery_order", wrong.id, "cancel");
        });
        const again: Ref = {};
        if (deliver(chain, order, 1, false, again)) invoiceFrom(chain, c, "delivery_order", again, between(0, 2), pay);
        return;
      }
    }
    const two = fate === "two_parts" || fate === "part_delivered" || fate === "part_billed" || fate === "close";
    const first: Ref = {};
    if (!deliver(chain, order, quick ? 0 : between(1, 8), two, first)) return;
    if (fate === "unbilled") return;
    if (fate === "draft_invoice") {
      makeInvoice(chain, "delivery_order", first, between(0, 2), false, {});
      return;
    }
    if (fate === "cancel_invoice") {
      const wrong: Ref = {};
      if (!makeInvoice(chain, "delivery_order", first, between(0, 2), true, wrong)) return;
      chain.step(1, async () => {
        if (wrong.id != null) await act(accounts, "invoice", wrong.id, "cancel");
      });
      invoiceFrom(chain, c, "delivery_order", first, 0, pay);
      return;
    }
    invoiceFrom(chain, c, "delivery_order", first, quick ? 0 : between(0, 4), pay);
    if (fate === "return") {
      returnOne(chain, first);
      return;
    }
    if (!two) return;
    if (fate === "close") {
      chain.step(between(3, 15), () => act(manager, "sales_order", so(), "close"));
      return;
    }
    if (fate === "part_delivered") return;
    const second: Ref = {};
    if (!deliver(chain, order, between(5, 20), false, second)) return;
    if (fate === "part_billed") return;
    invoiceFrom(chain, c, "delivery_order", second, between(0, 4), pay);
  };

  // Quotations to the account customers: sent, then won (an order follows), lost, cancelled or expired.
  type QuoteFate = "draft" | "sent" | "won" | "lost" | "cancel" | "expire" | "expire_lost";
  const quotation = (at: number, i: number, fate: QuoteFate) => {
    const c = pick(accountsCustomers);
    const q: Ref = {};
    const chain = new Chain(plan, at);
    const lines = goodsLines(between(1, 4));
    const seller = i % 4 === 3 ? senior : sales;
    chain.step(0, async () => {
      q.id = await save(seller, "quotation", headerFor(c, at, { valid_until: date(at - 30) }), lines);
      if (fate !== "draft") await act(seller, "quotation", q.id, "submit");
    });
    const quote = () => q.id as number;
    switch (fate) {
      case "won": {
        const order: Ref = {};
        const orderAt = at - between(2, 20);
        const made = chain.step(at - orderAt, async () => {
          order.id = await convert(seller === sales ? converter : senior, "quotation", quote(), "sales_order", {
            doc_date: date(orderAt),
            customer_po: `PO-${c.id}${String(i + 1).padStart(4, "0")}`,
            delivery_date: date(orderAt - 7),
          });
        });
        if (made) orderFlow(chain, c, order, randomFate());
        return;
      }
      case "lost":
        chain.step(between(3, 25), () => act(seller, "quotation", quote(), "mark_lost", pick(LOST_REASONS)));
        return;
      case "cancel":
        chain.step(between(0, 5), () => act(seller, "quotation", quote(), "cancel"));
        return;
      case "expire":
      case "expire_lost":
        if (!chain.step(31, () => act(seller, "quotation", quote(), "expire"))) return;
        if (fate === "expire_lost") {
          chain.step(between(1, 10), () => act(seller, "quotation", quote(), "mark_lost", pick(LOST_REASONS)));
        }
        return;
    }
  };
  for (let i = 0; i < scale.quotations; i++) {
    const at = Math.floor(((scale.quotations - i) / scale.quotations) * 360) - between(0, 2);
    const r = rnd();
    // A quotation still valid (sent in the last month) waits for its answer; an older one has one.
    const fate: QuoteFate =
      r < 0.55
        ? "won"
        : r < 0.72
          ? "lost"
          : r < 0.8
            ? "cancel"
            : at <= 30
              ? "sent"
              : r < 0.95
                ? "expire"
                : "expire_lost";
    if (at > 0) quotation(at, i, fate);
  }
  if (scale.showcase) {
    const fates: Array<[number, QuoteFate]> = [
      [70, "expire_lost"],
      [50, "expire"],
      [20, "lost"],
      [9, "cancel"],
      [4, "sent"],
      [1, "draft"],
    ];
    for (const [at, fate] of fates) quotation(at, scale.quotations + at, fate);
  }

  // Repeat orders without a quotation; the last few weeks' orders show every state an order can be in.
  const directOrder = (at: number, c: Customer, fate: OrderFate, pay?: PayFate | "cash", n = 3, clamp = false) => {
    const order: Ref = {};
    const chain = new Chain(plan, at, clamp);
    const lines = goodsLines(between(1, n));
    const po = pay === "cash" ? {} : { customer_po: `PO-${c.id}R${String(at).padStart(3, "0")}` };
    chain.step(0, async () => {
      order.id = await save(sales, "sales_order", headerFor(c, at, { ...po, delivery_date: date(at - 5) }), lines);
    });
    orderFlow(chain, c, order, fate, pay);
  };
  for (let i = 0; i < scale.orders; i++) {
    const at = Math.floor(((scale.orders - i) / scale.orders) * 340) - between(0, 5);
    if (at > 40) directOrder(at, pick(accountsCustomers), randomFate(), undefined, 5);
  }
  const longTerms = [...accountsCustomers].sort((a, b) => b.terms - a.terms)[0];
  const recent: Array<[number, OrderFate, PayFate?]> = [
    [38, "part_billed"],
    [33, "close"],
    [30, "complete", "paid"],
    [27, "part_delivered"],
    [24, "complete", "partly"],
    [21, "cancel_invoice", "open"],
    [18, "advance", "open"],
    [16, "hold"],
    [14, "complete", "partly"],
    [13, "return", "open"],
    [12, "cancel_delivery", "open"],
    [10, "unbilled"],
    [8, "complete", "open"],
    [6, "cancel"],
    [5, "draft_invoice"],
    [3, "draft_delivery"],
    [2, "complete", "open"],
    [1, "draft"],
  ];
  for (const [at, fate, pay] of scale.showcase ? recent : []) {
    directOrder(at, pay === "partly" ? longTerms : pick(accountsCustomers), fate, pay, 3, true);
  }

  // Counter sales to walk-in customers: ordered, delivered, invoiced and paid in cash on the day.
  for (let i = 0; i < scale.counterSales; i++) {
    directOrder(Math.floor(((scale.counterSales - i) / scale.counterSales) * 350) + 1, walkIn, "complete", "cash");
  }

  // Service work billed directly: installation, surveys, testing.
  for (let i = 0; i < scale.serviceInvoices; i++) {
    const at = Math.floor(((scale.serviceInvoices - i) / scale.serviceInvoices) * 330) - between(0, 6);
    if (at < 0 || services.length === 0) continue;
    const c = pick(accountsCustomers);
    const inv: Payable = {};
    const chain = new Chain(plan, at);
    const lines = [0, 1]
      .slice(0, between(1, 2))
      .map(() => ({ service_id: pick(services), qty: String(between(1, 8)) }));
    chain.step(0, async () => {
      inv.id = await save(accounts, "invoice", headerFor(c, at), lines);
      await act(accounts, "invoice", inv.id, "submit");
    });
    settle(c, at, inv);
  }

  if (scale.showcase) showcaseMore();

  // Deliveries planned ahead (warehouse tracking): an instruction picked and delivered by the driver, one released
  // for tomorrow, one still a draft; and debit notes charging extra on an invoice, one paid. Planned after every
  // earlier draw of the PRNG, so the rest of the year stays as it was.
  function showcaseMore() {
    for (const [k, at, stage] of [
      [0, 12, "delivered"],
      [1, 4, "released"],
      [2, 2, "draft"],
    ] as const) {
      const c = accountsCustomers[k % accountsCustomers.length];
      const order: Ref = {};
      const di: Ref = {};
      const chain = new Chain(plan, at, true);
      const lines = goodsLines(2);
      chain.step(0, async () => {
        order.id = await save(sales, "sales_order", headerFor(c, at, { delivery_date: date(at - 3) }), lines);
        await act(manager, "sales_order", order.id, "submit");
        di.id = await convert(warehouse, "sales_order", order.id, "delivery_instruction", {
          doc_date: date(at),
          planned_date: date(Math.max(0, at - 1)),
          driver_id: driver.userId,
          location_id: main,
          notes: "Call the site office 30 minutes before arrival",
        });
        if (stage === "draft") return;
        await act(warehouse, "delivery_instruction", di.id, "release");
      });
      if (stage !== "delivered") continue;
      chain.step(1, async () => {
        if (di.id == null) return;
        await act(warehouse, "delivery_instruction", di.id, "pick");
        const id = await convert(warehouse, "delivery_instruction", di.id, "delivery_order", {
          doc_date: date(at - 1),
          location_id: main,
          driver_id: driver.userId,
        });
        await act(warehouse, "delivery_order", id, "submit");
        await handOver(id, at - 1);
      });
    }
    for (const [k, at, paid] of [
      [3, 20, true],
      [4, 7, false],
    ] as const) {
      const c = accountsCustomers[k % accountsCustomers.length];
      const note: Payable = {};
      new Chain(plan, at).step(0, async () => {
        const [inv] = (
          await tx.execute(sql`select id from invoice where workspace_id = ${ws}::uuid and company_id = ${c.id}
            and status in ('unpaid', 'partly_paid', 'overdue', 'paid') and doc_date <= ${date(at)}::date
            order by doc_date desc, id desc limit 1`)
        ).rows as Array<{ id: number }>;
        if (!inv) return;
        note.id = await save(accounts, "debit_note", headerFor(c, at, { invoice_id: Number(inv.id) }), [
          { description: "Re-delivery: site closed on the first attempt", qty: "1", unit_price: "85.00" },
        ]);
        await act(accounts, "debit_note", note.id, "submit");
        if (!paid) return;
        await recordPayment(tx, cashier, {
          type: "receipt",
          company_id: c.id,
          amount: await debitNoteTotal(note.id),
          date: date(at - 2),
          method: "paynow",
          reference: `PN${date(at - 2).replaceAll("-", "")}${c.id}`,
          notes: null,
          allocations: [{ document_type: "debit_note", document_id: note.id, amount: await debitNoteTotal(note.id) }],
        });
      });
    }
  }

  // PGlite has no autovacuum: without statistics the planner reads every line of the workspace to find a few by
  // source line, and the year gets slower as it grows. Analyze the document tables as they fill.
  const analyze = () =>
    tx.execute(sql`analyze sales_order, sales_order_line, delivery_order, delivery_order_line, invoice, invoice_line,
      payment_allocation, stock_move`);
  for (const [i, step] of plan.ordered().entries()) {
    if (i % 200 === 100) await analyze();
    await step.run();
  }

  // ---- order forms and the orders customers sent through them ---------------------------------------------------
  // Three forms (one for anyone with the link, one for a customer's standing order, one switched off) and five
  // orders: written as the public page writes them (receiveOrder, under the guest's role for those statements
  // only), then confirmed into a sales order or rejected by staff through the engine.
  const formProducts = (
    await tx.execute(sql`select id, price::text as price from product where workspace_id = ${ws}::uuid and active
      and is_stock_tracked and price > 0 order by id limit 6`)
  ).rows as Array<{ id: number; price: string }>;
  if (formProducts.length < 3) return;
  const standing = accountsCustomers[0];
  const forms = await tx
    .insert(orderForm)
    .values([
      {
        workspaceId: ws,
        title: "Contractor reorder form",
        intro: "Order our most-asked-for items; we confirm by e-mail within a working day.",
      },
      { workspaceId: ws, title: "Standing order", intro: "Your agreed prices.", companyId: standing.id },
      { workspaceId: ws, title: "Year-end promotion", intro: "Ended.", active: false },
    ])
    .returning({ id: orderForm.id, title: orderForm.title, intro: orderForm.intro, companyId: orderForm.companyId });
  await tx.insert(orderFormItem).values(
    forms.flatMap((f, n) =>
      formProducts.slice(0, n === 1 ? 3 : 6).map((p, i) => ({
        workspaceId: ws,
        orderFormId: f.id,
        productId: Number(p.id),
        // The standing order's agreed prices are 5% under the list.
        price: n === 1 ? money(dec(p.price).times("0.95")) : p.price,
        minQty: i === 0 ? "10" : "1",
        sortOrder: i,
      })),
    ),
  );
  const found = (i: number): FoundForm => ({
    workspace_id: ws,
    id: Number(forms[i].id),
    title: forms[i].title,
    intro: forms[i].intro,
    company_id: forms[i].companyId == null ? null : Number(forms[i].companyId),
    active: i !== 2,
    workspace_name: "",
    logo: null,
    primary_color: null,
    currency: "SGD",
    suspended: false,
  });
  const guestOrder = async (
    form: FoundForm,
    who: { name: string; company: string | null; email: string },
    qty: string[],
  ) => {
    const was = (
      await tx.execute(sql`select current_setting('app.user_id', true) as u, current_setting('app.role', true) as r`)
    ).rows[0] as { u: string | null; r: string | null };
    await tx.execute(sql`select set_config('app.user_id', '', true), set_config('app.role', 'anon', true),
      set_config('role', 'workmetrics_app', true)`);
    try {
      return await receiveOrder(tx, form, {
        ...who,
        phone: "+65 6123 4567",
        delivery_address: "12 Tuas Avenue 3, Singapore 639412",
        note: null,
        items: qty.map((q, i) => ({ product_id: Number(formProducts[i].id), qty: q })),
      });
    } finally {
      await tx.execute(sql`select set_config('role', 'none', true), set_config('app.user_id', ${was.u ?? ""}, true),
        set_config('app.role', ${was.r ?? ""}, true)`);
    }
  };
  const open = found(0);
  await guestOrder(open, { name: "Ravi Kumar", company: "Kumar Renovation", email: "ravi@kumar-reno.test" }, [
    "10",
    "4",
  ]);
  await guestOrder(open, { name: "Siti Rahman", company: null, email: "siti.rahman@mail.test" }, ["0", "2", "6"]);
  const twice = await guestOrder(
    open,
    { name: "Ravi Kumar", company: "Kumar Renovation", email: "ravi@kumar-reno.test" },
    ["10", "4"],
  );
  await act(manager, "customer_order", twice.id, "reject", "Sent twice: the same order as the one received earlier");
  const mine = found(1);
  const agreed = await guestOrder(mine, { name: "Procurement", company: null, email: "purchasing@customer.test" }, [
    "20",
    "5",
    "5",
  ]);
  await convert(converter, "customer_order", agreed.id, "sales_order", {});
  await guestOrder(mine, { name: "Procurement", company: null, email: "purchasing@customer.test" }, ["12", "0", "3"]);
}
