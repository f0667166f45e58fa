import { dec } from "@workmetrics/domain/documents/decimal";
import { sql } from "drizzle-orm";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { type Doc, type Product, products, read, rpc } from "./documents-helpers.ts";
import { locationsByCode, openingStock, ownServer } from "./own-server-helpers.ts";
import { report } from "./reports-helpers.ts";
import { restFetch } from "./rest-helpers.ts";

// Issue 20 §5 (STYLE "Transitions validated at load … a property test runs random command sequences"): random
// sequences of save, submit, convert, pay, credit, cancel, transfer and receive on random documents, through the real
// API, on a server of its own. After each sequence: every journal entry balances and so does the trial balance; a
// cancelled document's moves and postings net to nothing; stock is Σ moves (as stock_on_hand answers it) and no
// stock-tracked product goes below zero at a location; no drawn quantity passes its source line; numbers are gapless
// per type and year. Every answer is a success or a 4xx with a message, never a 500.
// The seed is printed; PROPERTY_SEED=<n> replays it (PROPERTY_RUNS, PROPERTY_STEPS widen the search).

const ADMIN = "admin@demo.test";
const SEED = Number(process.env.PROPERTY_SEED ?? Date.now() % 2_147_483_647);
const RUNS = Number(process.env.PROPERTY_RUNS ?? 8);
const STEPS = Number(process.env.PROPERTY_STEPS ?? 30);
const VERBOSE = process.env.PROPERTY_VERBOSE === "1";

const own = ownServer();
const { q } = own;
let items: Product[] = [];
let customer = 0;
let supplier = 0;
let locations: number[] = [];

beforeAll(async () => {
  items = await products(ADMIN, 3);
  const first = async (filter: string) =>
    ((await restFetch(ADMIN, `company?select=id&${filter}=is.true&order=id&limit=1`)).body as Array<{ id: number }>)[0]
      .id;
  customer = await first("is_customer");
  supplier = await first("is_supplier");
  const locs = await locationsByCode(ADMIN);
  locations = [locs["WH-TUAS"], locs["WH-UBI"]];
  await openingStock(own, items, locations[0], 40);
  await openingStock(own, items, locations[1], 15);
}, 120_000);

// A command of the sequence; `pick` and `n` choose among the documents made so far and the quantities.
type Step =
  | { op: "save"; type: (typeof NEW_TYPES)[number]; item: number; qty: number; at: number; submit: boolean }
  | { op: "resave"; pick: number; qty: number }
  | { op: "submit"; pick: number }
  | { op: "convert"; pick: number; to: number; part: number | null; at: number; submit: boolean }
  | { op: "pay"; pick: number; half: boolean }
  | { op: "credit"; pick: number; part: number | null }
  | { op: "cancel"; pick: number }
  | { op: "transfer"; item: number; qty: number; from: number }
  | { op: "transfer_receive"; pick: number; short: boolean }
  | { op: "receive"; pick: number; part: number | null };

const NEW_TYPES = ["quotation", "sales_order", "invoice", "purchase_order"] as const;

// What each type converts into (DESIGN §2.3.1's chains, both directions of a goods return note).
const CONVERTS: Record<string, readonly string[]> = {
  quotation: ["sales_order"],
  sales_order: ["delivery_order", "invoice"],
  delivery_order: ["invoice", "goods_return_note"],
  invoice: ["credit_note", "debit_note"],
  goods_return_note: ["credit_note"],
  purchase_order: ["supplier_delivery_order"],
  supplier_delivery_order: ["supplier_invoice", "goods_return_note"],
};

const pick = fc.nat(1000);
const qty = fc.integer({ min: 1, max: 6 });
const part = fc.option(fc.integer({ min: 1, max: 3 }), { nil: null });
const step: fc.Arbitrary<Step> = fc.oneof(
  {
    arbitrary: fc.record({
      op: fc.constant("save"),
      type: fc.constantFrom(...NEW_TYPES),
      item: fc.nat(2),
      qty,
      at: fc.nat(1),
      submit: fc.boolean(),
    }),
    weight: 4,
  },
  { arbitrary: fc.record({ op: fc.constant("resave"), pick, qty }), weight: 1 },
  { arbitrary: fc.record({ op: fc.constant("submit"), pick }), weight: 6 },
  {
    arbitrary: fc.record({
      op: fc.constant("convert"),
      pick,
      to: fc.nat(1),
      part,
      at: fc.nat(1),
      submit: fc.boolean(),
    }),
    weight: 5,
  },
  { arbitrary: fc.record({ op: fc.constant("pay"), pick, half: fc.boolean() }), weight: 2 },
  { arbitrary: fc.record({ op: fc.constant("credit"), pick, part }), weight: 2 },
  { arbitrary: fc.record({ op: fc.constant("cancel"), pick }), weight: 2 },
  { arbitrary: fc.record({ op: fc.constant("transfer"), item: fc.nat(2), qty, from: fc.nat(1) }), weight: 1 },
  { arbitrary: fc.record({ op: fc.constant("transfer_receive"), pick, short: fc.boolean() }), weight: 1 },
  { arbitrary: fc.record({ op: fc.constant("receive"), pick, part }), weight: 2 },
) as fc.Arbitrary<Step>;

type Ref = { type: string; id: number };
type Answer = { status: number; body: unknown; text: string };

// The documents the sequences made, across runs (the database is one for the whole file).
const made: Ref[] = [];
const tally = new Map<string, number>();
let invoices = 0;

const count = (key: string) => tally.set(key, (tally.get(key) ?? 0) + 1);

// A command's answer: a success or a refusal a clerk can read, never a server error.
async function call(fn: string, args: Record<string, unknown>, label: string): Promise<Answer> {
  const res = await rpc(ADMIN, fn, args);
  expect(res.status, `${label}: ${fn} ${JSON.stringify(args)} answered ${res.text}`).toBeLessThan(500);
  if (res.status >= 400) expect((res.body as { message?: string }).message, res.text).toBeTruthy();
  count(`${label} ${res.status < 400 ? "ok" : res.status}`);
  if (VERBOSE && res.status >= 400) console.log(`${label}: ${(res.body as { message?: string }).message}`);
  return res;
}

// One of the latest documents of the types (the older ones are mostly settled or cancelled by then).
const of = (types: readonly string[], n: number): Ref | undefined => {
  const pool = made.filter((d) => types.includes(d.type));
  return pool.length ? pool[pool.length - 1 - (n % Math.min(pool.length, 4))] : undefined;
};

async function keep(res: Answer): Promise<Doc | null> {
  if (res.status >= 400) return null;
  const doc = res.body as Doc & { type?: string };
  return doc;
}

async function convert(source: Ref, to: string, partQty: number | null, at: number, label: string) {
  const src = await read(ADMIN, source.type, source.id);
  const lines =
    partQty == null ? undefined : src.lines.slice(0, 1).map((l) => ({ line_id: l.id as number, qty: String(partQty) }));
  const header: Record<string, unknown> = {};
  if (to === "delivery_order" || to === "goods_return_note") header.location_id = locations[at];
  if (to === "supplier_invoice") header.supplier_invoice_number = `P-${SEED}-${made.length}`;
  const res = await call(
    "document_convert",
    { type: source.type, id: source.id, to, ...(lines ? { lines } : {}), ...(to === "credit_note" ? {} : { header }) },
    label,
  );
  const doc = await keep(res);
  if (doc) made.push({ type: to, id: doc.id });
  return doc ? { type: to, id: doc.id } : null;
}

const HEADER_KEPT = [
  "company_id",
  "location_id",
  "from_location_id",
  "to_location_id",
  "invoice_id",
  "supplier_invoice_number",
  "source_type",
  "source_id",
];

async function run(s: Step): Promise<void> {
  switch (s.op) {
    case "save": {
      const buying = s.type === "purchase_order";
      const res = await call(
        "document_save",
        {
          type: s.type,
          header: { company_id: buying ? supplier : customer, ...(buying ? { location_id: locations[s.at] } : {}) },
          lines: [
            { product_id: items[s.item].id, qty: String(s.qty) },
            { product_id: items[(s.item + 1) % items.length].id, qty: "1" },
          ],
        },
        `save ${s.type}`,
      );
      const doc = await keep(res);
      if (!doc) return;
      made.push({ type: s.type, id: doc.id });
      if (s.submit) await call("document_transition", { type: s.type, id: doc.id, action: "submit" }, "save+submit");
      return;
    }
    case "resave": {
      const d = of(Object.keys(CONVERTS).concat("goods_transfer_form", "credit_note", "debit_note"), s.pick);
      if (!d) return;
      const cur = await read(ADMIN, d.type, d.id);
      if (cur.status !== "draft") return;
      const lines = cur.lines.map((l, i) => {
        const { id: _id, qty: q0, ...rest } = l;
        const keepCols = Object.fromEntries(
          Object.entries(rest).filter(([k]) =>
            ["product_id", "service_id", "source_line_id", "location_id", "unit_price", "tax_code"].includes(k),
          ),
        );
        return { ...keepCols, qty: i === 0 ? String(s.qty) : String(q0) };
      });
      const header = Object.fromEntries(Object.entries(cur).filter(([k, v]) => v != null && HEADER_KEPT.includes(k)));
      await call("document_save", { type: d.type, id: d.id, header, lines }, `resave ${d.type}`);
      return;
    }
    case "submit": {
      const d = of([...Object.keys(CONVERTS), "credit_note", "debit_note", "goods_transfer_form"], s.pick);
      if (d) await call("document_transition", { type: d.type, id: d.id, action: "submit" }, `submit ${d.type}`);
      return;
    }
    case "convert": {
      const d = of(Object.keys(CONVERTS), s.pick);
      if (!d) return;
      const targets = CONVERTS[d.type];
      const to = await convert(d, targets[s.to % targets.length], s.part, s.at, `convert ${d.type}→`);
      if (to && s.submit) await call("document_transition", { ...to, action: "submit" }, `submit ${to.type}`);
      return;
    }
    case "pay": {
      const d = of(["invoice", "debit_note"], s.pick);
      if (!d) return;
      const cur = await read(ADMIN, d.type, d.id);
      const owed = dec(String(cur.outstanding ?? "0"));
      const amount = s.half ? owed.div(2).toDecimalPlaces(2) : owed;
      if (amount.lte(0)) return;
      await call(
        "record_payment",
        {
          type: "receipt",
          company_id: customer,
          amount: amount.toFixed(2),
          method: "bank_transfer",
          allocations: [{ document_type: d.type, document_id: d.id, amount: amount.toFixed(2) }],
        },
        "pay",
      );
      return;
    }
    case "credit": {
      const d = of(["invoice"], s.pick);
      if (!d) return;
      const cn = await convert(d, "credit_note", s.part, 0, "credit");
      if (cn) await call("document_transition", { type: cn.type, id: cn.id, action: "submit" }, "credit submit");
      return;
    }
    case "cancel": {
      const d = of([...Object.keys(CONVERTS), "credit_note", "debit_note", "goods_transfer_form"], s.pick);
      if (d) await call("document_transition", { type: d.type, id: d.id, action: "cancel" }, `cancel ${d.type}`);
      return;
    }
    case "transfer": {
      const res = await call(
        "document_save",
        {
          type: "goods_transfer_form",
          header: { from_location_id: locations[s.from], to_location_id: locations[1 - s.from] },
          lines: [{ product_id: items[s.item].id, qty: String(s.qty) }],
        },
        "transfer save",
      );
      const doc = await keep(res);
      if (!doc) return;
      made.push({ type: "goods_transfer_form", id: doc.id });
      await call("document_transition", { type: "goods_transfer_form", id: doc.id, action: "submit" }, "transfer");
      return;
    }
    case "transfer_receive": {
      const d = of(["goods_transfer_form"], s.pick);
      if (!d) return;
      const cur = await read(ADMIN, d.type, d.id);
      const short = s.short && cur.lines.length > 0 && Number(cur.lines[0].qty) > 1;
      const values = short
        ? {
            qty_received: [{ line_id: cur.lines[0].id, qty: String(Number(cur.lines[0].qty) - 1) }],
            shortfall_reason: "One carton broken in transit",
          }
        : undefined;
      await call(
        "document_transition",
        { type: d.type, id: d.id, action: "receive", ...(values ? { values } : {}) },
        "transfer receive",
      );
      return;
    }
    case "receive": {
      const d = of(["purchase_order"], s.pick);
      if (!d) return;
      const sdo = await convert(d, "supplier_delivery_order", s.part, 0, "receive");
      if (sdo) await call("document_transition", { type: sdo.type, id: sdo.id, action: "submit" }, "receive submit");
      return;
    }
  }
}

// ---- The invariants, over the whole workspace ----

async function booksBalance(): Promise<void> {
  const unbalanced = await q<{ id: string; diff: string }>(sql`select e.id::text as id,
      (sum(l.debit) - sum(l.credit))::text as diff
    from journal_entry e join journal_line l on l.workspace_id = e.workspace_id and l.entry_id = e.id
    where e.workspace_id = ${own.ws}::uuid group by e.id having sum(l.debit) <> sum(l.credit)`);
  expect(unbalanced, "journal entries whose debits and credits differ").toEqual([]);
  const tb = await report(ADMIN, { name: "trial_balance" });
  expect(dec(String(tb.totals.debit)).eq(dec(String(tb.totals.credit))), JSON.stringify(tb.totals)).toBe(true);
}

// The document types a column of stock_move or journal_entry names, whose tables hold a status.
async function statusTables(column: string, table: string): Promise<string[]> {
  const rows = await q<{ t: string }>(
    sql`select distinct ${sql.identifier(column)} as t from ${sql.identifier(table)} where workspace_id = ${own.ws}::uuid`,
  );
  return rows.map((r) => r.t).filter((t) => t !== "opening" && /^[a-z_]+$/.test(t));
}

async function cancelledNetNothing(): Promise<void> {
  for (const t of await statusTables("doc_type", "stock_move")) {
    const left = await q(sql`select m.doc_id, m.product_id, m.location_id, sum(m.qty)::text as qty
      from stock_move m join ${sql.identifier(t)} d on d.workspace_id = m.workspace_id and d.id = m.doc_id
      where m.workspace_id = ${own.ws}::uuid and m.doc_type = ${t} and d.status = 'cancelled'
      group by m.doc_id, m.product_id, m.location_id having sum(m.qty) <> 0`);
    expect(left, `stock still moved by cancelled ${t}`).toEqual([]);
  }
  for (const t of await statusTables("source_type", "journal_entry")) {
    const left = await q(sql`select e.source_id, l.account_code, (sum(l.debit) - sum(l.credit))::text as net
      from journal_entry e join journal_line l on l.workspace_id = e.workspace_id and l.entry_id = e.id
      join ${sql.identifier(t)} d on d.workspace_id = e.workspace_id and d.id = e.source_id
      where e.workspace_id = ${own.ws}::uuid and e.source_type = ${t} and d.status = 'cancelled'
      group by e.source_id, l.account_code having sum(l.debit) <> sum(l.credit)`);
    expect(left, `postings left by cancelled ${t}`).toEqual([]);
  }
}

async function stockIsItsMoves(): Promise<void> {
  const sums = await q<{ product_id: string; location_id: string; qty: string }>(sql`select product_id::text,
      location_id::text, sum(qty)::text as qty from stock_move where workspace_id = ${own.ws}::uuid
    group by product_id, location_id having sum(qty) <> 0 order by product_id, location_id`);
  const res = await rpc(ADMIN, "stock_on_hand", {});
  expect(res.status, res.text).toBe(200);
  const onHand = (res.body as Array<{ product_id: number; location_id: number; qty: string }>).map(
    (r) => `${r.product_id}@${r.location_id}=${dec(r.qty).toString()}`,
  );
  expect(onHand).toEqual(sums.map((r) => `${r.product_id}@${r.location_id}=${dec(r.qty).toString()}`));
  const negative = await q(sql`select m.product_id, m.location_id, sum(m.qty)::text as qty from stock_move m
    join product p on p.workspace_id = m.workspace_id and p.id = m.product_id
    where m.workspace_id = ${own.ws}::uuid and p.is_stock_tracked
    group by m.product_id, m.location_id having sum(m.qty) < 0`);
  expect(negative, "stock below zero").toEqual([]);
}

const DRAWN = ["qty_delivered", "qty_billed", "qty_received", "qty_returned", "qty_credited"];

async function drawsWithinSources(): Promise<void> {
  const cols = await q<{ t: string; c: string }>(sql`select table_name as t, column_name as c
    from information_schema.columns where table_schema = 'public' and table_name like '%\_line'
      and column_name = any(${`{${DRAWN.join(",")}}`}::text[]) order by 1, 2`);
  expect(cols.length).toBeGreaterThan(5);
  for (const { t, c } of cols) {
    const over = await q(sql`select id, qty::text as qty, ${sql.identifier(c)}::text as drawn
      from ${sql.identifier(t)} where workspace_id = ${own.ws}::uuid and qty > 0
        and (${sql.identifier(c)} > qty or ${sql.identifier(c)} < 0)`);
    expect(over, `${t}.${c} past its line's qty`).toEqual([]);
  }
}

async function numbersGapless(): Promise<void> {
  const tables = await q<{ t: string }>(sql`select c.table_name as t from information_schema.columns c
    join information_schema.columns s on s.table_schema = c.table_schema and s.table_name = c.table_name
      and s.column_name = 'status'
    where c.table_schema = 'public' and c.column_name = 'number' order by 1`);
  for (const { t } of tables) {
    const rows = await q<{ number: string }>(sql`select number from ${sql.identifier(t)}
      where workspace_id = ${own.ws}::uuid and number is not null`);
    const series = new Map<string, number[]>();
    for (const { number } of rows) {
      const m = /^([A-Z]+-\d{4})-(\d{5})$/.exec(number);
      expect(m, `${t} number ${number}`).not.toBeNull();
      if (!m) continue;
      series.set(m[1], [...(series.get(m[1]) ?? []), Number(m[2])]);
    }
    for (const [key, ns] of series) {
      ns.sort((a, b) => a - b);
      expect(ns, `${t} ${key} numbers`).toEqual(ns.map((_, i) => i + 1));
    }
  }
}

describe("random command sequences", () => {
  it("keep the books balanced, stock the sum of its moves and never negative, draws within their sources, numbers gapless", async () => {
    console.log(`documents property test: seed ${SEED}, ${RUNS} runs of up to ${STEPS} steps`);
    await fc.assert(
      fc.asyncProperty(
        fc.array(step, { minLength: Math.min(12, STEPS), maxLength: STEPS, size: "max" }),
        async (steps) => {
          for (const s of steps) await run(s);
          invoices = made.filter((d) => d.type === "invoice").length;
          await booksBalance();
          await cancelledNetNothing();
          await stockIsItsMoves();
          await drawsWithinSources();
          await numbersGapless();
        },
      ),
      // The database carries over between runs, so a shrunk sequence would not replay alone: no shrinking.
      { seed: SEED, numRuns: RUNS, endOnFailure: true },
    );
    console.log(
      `documents property test: ${made.length} documents (${invoices} invoices); ${[...tally]
        .sort()
        .map(([k, n]) => `${k}: ${n}`)
        .join(", ")}`,
    );
    // The sequences did reach past drafts: something was submitted and converted.
    expect([...tally.keys()].some((k) => k.startsWith("submit") && k.endsWith("ok"))).toBe(true);
    expect([...tally.keys()].some((k) => k.startsWith("convert") && k.endsWith("ok"))).toBe(true);
  }, 240_000);
});
