// Issue 11: a receipt's (supplier_delivery_order) and a supplier invoice's submit written by hand, one transaction
// each, to stand beside the engine's figures in purchasing.ts. Each writes what document_transition submit writes
// (platform/documents/transition.ts, draws.ts, store.ts, ledger.ts, stock.ts and the purchasing effects) in as few
// statements as plain SQL allows, on a draft made through the API:
//  receipt  lock it (with the settings and its line count); lock the order; the order's lines' qty_received
//           (refused beyond the order, with the over-delivery allowance) and the order's status; each product's
//           cost moved to the moving average under the products' locks, in the statement that writes the stock
//           moves at the order's net unit price in base currency; the supplier invoices waiting for these goods
//           looked for; then the number, the header, Dr 1200 / Cr 2100 and the audit rows (the order's settle, the
//           submit).
//  invoice  lock it, its receipt, the order; the supplier's number refused when used, and looked for as a likely
//           duplicate; qty_billed on the receipt's lines and on the order's (each refused beyond), both statuses
//           settled; the lines linked to the receipt and order lines with the three-way check's reasons in one
//           update; then the number, the header (number, status, due date, outstanding, match_status), Dr 2100 at
//           the receipt value / Dr 5020 the variance / Dr 5000 lines for nothing received / Dr 1300 / Cr 2000, and
//           the audit rows (the receipt's and order's settle, the three_way_check, the submit).
// The number is taken after everything that does not carry it, as the least a submit must hold its counter's lock.
// journal_month, the balance check and the books lock are triggers: they run for these inserts as for the engine's.
// The engine recomputes a drawn quantity as the sum over every submitted document (which survives a cancelled one);
// by hand it is added to, which is the least a submit must do. Only what the bench's documents need is written:
// an invoice made from a receipt (not from an order or by hand), a receipt no invoice waits for (NotMirrored
// otherwise). verifySubmitted and replayCosts check the outcome, and footprint() answers what a submitted document
// left, so the bench can compare an API one with a direct one.
import { Dec, dec, money } from "@workmetrics/domain/documents/decimal";
import { formatNumber, type PrefixSettings, prefixFor } from "@workmetrics/domain/documents/numbering";
import { type SQL, sql } from "drizzle-orm";

export type Row = Record<string, unknown>;
export type Q = (s: SQL) => Promise<Row[]>;

const RECEIPT = "supplier_delivery_order";
const INVOICE = "supplier_invoice";

class NotMirrored extends Error {}

// The settings row's columns the submits read (absent row: the defaults of platform/documents/settings.ts).
const SETTINGS = sql`s.prefixes, coalesce(s.over_delivery_allowance, 0)::text as over_delivery,
  coalesce(s.over_billing_allowance, 0)::text as over_billing, coalesce(s.match_qty_tolerance, 0)::text as qty_tol,
  coalesce(s.match_price_tolerance, 0)::text as price_tol, s.match_amount_tolerance::text as amount_cap`;

const prefixes = (v: unknown) => ((typeof v === "string" ? JSON.parse(v) : v) ?? {}) as PrefixSettings;

// The gapless counter (store.ts takeNumber): the year's row, its next, the formatted number.
async function takeNumber(q: Q, ws: string, type: "supplier_delivery_order" | "supplier_invoice", row: Row) {
  const year = Number(String(row.doc_date).slice(0, 4));
  const [n] = await q(sql`insert into number_counter (workspace_id, doc_type, year, next)
    values (${ws}::uuid, ${type}, ${year}, 2)
    on conflict (workspace_id, doc_type, year) do update set next = number_counter.next + 1 returning next - 1 as n`);
  return formatNumber(prefixFor(type, prefixes(row.prefixes)), year, Number(n.n));
}

type Event = { type: string; id: number; action: string; from: string; to: string; changes: unknown };

// The audit rows, all in one statement at the end (the engine writes them as it goes).
async function writeEvents(q: Q, ws: string, user: string, events: readonly Event[]): Promise<void> {
  const rows = events.map(
    (e) => sql`(${ws}::uuid, ${e.type}, ${e.id}, ${e.action}, ${e.from}, ${e.to}, ${user}::uuid,
      ${e.changes == null ? null : JSON.stringify(e.changes)}::jsonb)`,
  );
  await q(sql`insert into document_event (workspace_id, doc_type, doc_id, action, from_status, to_status, user_id,
    changes) values ${sql.join(rows, sql`, `)}`);
}

// A purchase order's status from its lines (purchaseOrderStatus), when an open one changes: answers its settle row.
async function settleOrder(q: Q, ws: string, po: number, status: string): Promise<Omit<Event, "changes"> | null> {
  if (!["to_receive_and_bill", "to_receive", "to_bill", "completed"].includes(status)) return null;
  const [u] = await q(sql`with f as (
      select coalesce(bool_and(abs(qty_received) >= abs(qty)) filter (where service_id is null), true) as received,
        coalesce(bool_and(abs(qty_billed) >= abs(qty)), true) as billed
      from purchase_order_line where workspace_id = ${ws}::uuid and purchase_order_id = ${po}),
    n as (select case when received and billed then 'completed' when received then 'to_bill'
        when billed then 'to_receive' else 'to_receive_and_bill' end as status from f)
    update purchase_order h set status = n.status, updated_at = now() from n
    where h.workspace_id = ${ws}::uuid and h.id = ${po} and n.status <> ${status} returning h.status`);
  return u ? { type: "purchase_order", id: po, action: "settle", from: status, to: String(u.status) } : null;
}

// Overflow refusal (checkDraw): a drawn line beyond its quantity and allowance, or a line not on the source.
function refuseOver(rows: Row[], wanted: number, what: string): void {
  if (rows.length !== wanted) throw new Error(`${what}: a line is not on the source document`);
  const over = rows.find((r) => r.over === true || r.over === "t");
  if (over) throw new Error(`${what}: line ${over.id} is beyond what is left`);
}

// The number is taken last, just before the writes that carry it: the counter's row is locked from there to commit,
// and every submit of the type queues on it.
export async function submitReceiptDirect(q: Q, ws: string, user: string, id: number): Promise<string> {
  const [d] = await q(sql`select d.status, d.doc_date::text as doc_date, d.source_type, d.source_id,
      (select count(*) from supplier_delivery_order_line l where l.workspace_id = d.workspace_id
        and l.supplier_delivery_order_id = d.id)::int as lines,
      (select count(distinct l.source_line_id) from supplier_delivery_order_line l where l.workspace_id = d.workspace_id
        and l.supplier_delivery_order_id = d.id)::int as linked, ${SETTINGS}
    from supplier_delivery_order d left join document_setting s on s.workspace_id = d.workspace_id
    where d.workspace_id = ${ws}::uuid and d.id = ${id} for update of d`);
  if (d?.status !== "draft") throw new Error(`receipt ${id} is not a draft`);
  if (Number(d.lines) === 0 || d.source_type !== "purchase_order") throw new Error(`receipt ${id} cannot be submitted`);
  const po = Number(d.source_id);
  const [order] = await q(sql`select status from purchase_order where workspace_id = ${ws}::uuid and id = ${po}
    for update`);
  // The order's lines: what this receipt accepts added to qty_received, refused past the allowance.
  const drawn = await q(sql`update purchase_order_line p set qty_received = p.qty_received + v.qty
    from (select source_line_id, sum(qty) as qty from supplier_delivery_order_line
      where workspace_id = ${ws}::uuid and supplier_delivery_order_id = ${id} and source_line_id is not null
      group by source_line_id) v
    where p.workspace_id = ${ws}::uuid and p.purchase_order_id = ${po} and p.id = v.source_line_id
    returning p.id, abs(p.qty_received) > abs(p.qty) * (100 + ${String(d.over_delivery)}::numeric) / 100 as over`);
  refuseOver(drawn, Number(d.linked), `receipt ${id}`);
  const settled = await settleOrder(q, ws, po, String(order.status));
  // The moving average (costs.ts) over the stock on hand before this receipt — the statement's snapshot, taken
  // before its own insert — under the products' locks in id order; then the moves at the order's net unit price.
  const [moved] = await q(sql`with g as (
      select r.id, r.line_no, r.product_id, coalesce(r.location_id, d.location_id) as location_id, r.qty,
        case when p.qty = 0 then 0 else round(p.net_amount / p.qty * h.rate, 4) end as unit_cost
      from supplier_delivery_order_line r
      join supplier_delivery_order d on d.workspace_id = r.workspace_id and d.id = r.supplier_delivery_order_id
      join purchase_order_line p on p.workspace_id = r.workspace_id and p.id = r.source_line_id
      join purchase_order h on h.workspace_id = p.workspace_id and h.id = p.purchase_order_id
      where r.workspace_id = ${ws}::uuid and r.supplier_delivery_order_id = ${id} and r.product_id is not null),
    m as (select product_id, sum(qty) as qty, sum(qty * unit_cost) as value from g group by product_id),
    locked as (select p.id, p.cost, coalesce((select sum(s.qty) from stock_move s
        where s.workspace_id = p.workspace_id and s.product_id = p.id), 0) as on_hand
      from product p where p.workspace_id = ${ws}::uuid and p.id in (select product_id from m) order by p.id for update),
    cost as (update product p set cost = round(greatest(case when l.on_hand <= 0 then m.value / m.qty
        else (l.on_hand * l.cost + m.value) / (l.on_hand + m.qty) end, 0), 2), updated_at = now()
      from locked l join m on m.product_id = l.id
      where p.workspace_id = ${ws}::uuid and p.id = l.id and m.qty <> 0 returning p.id),
    mv as (insert into stock_move (workspace_id, product_id, location_id, qty, unit_cost, doc_type, doc_id, doc_line_id)
      select ${ws}::uuid, product_id, location_id, qty, unit_cost, ${RECEIPT}, ${id}, id from g order by line_no
      returning qty, unit_cost)
    select count(*)::int as n, coalesce(sum(round(abs(qty) * unit_cost, 2)), 0)::text as cost_total,
      (select count(*) from cost)::int as costed, (select count(*) from m where qty <> 0)::int as products,
      (select count(*) from supplier_delivery_order_line r where r.workspace_id = ${ws}::uuid
        and r.supplier_delivery_order_id = ${id} and r.product_id is not null)::int as goods
    from mv`);
  if (Number(moved.n) !== Number(moved.goods)) throw new Error(`receipt ${id}: a line is not on the purchase order`);
  if (Number(moved.costed) !== Number(moved.products)) throw new Error(`receipt ${id}: a product's cost was not moved`);
  // The supplier invoices of this order that wait in the three-way check for these goods (recheckInvoices).
  const waiting = await q(sql`select distinct h.id from supplier_invoice h
    join supplier_invoice_line l on l.workspace_id = h.workspace_id and l.supplier_invoice_id = h.id
    join purchase_order_line p on p.workspace_id = l.workspace_id and p.id = l.purchase_order_line_id
    where h.workspace_id = ${ws}::uuid and p.purchase_order_id = ${po} and h.match_status = 'exception'
      and h.status not in ('draft', 'cancelled')`);
  if (waiting.length) throw new NotMirrored("the bench's receipts have no invoice waiting for them");
  const number = await takeNumber(q, ws, RECEIPT, d);
  await q(sql`update supplier_delivery_order set status = 'to_bill', number = ${number}, updated_at = now()
    where workspace_id = ${ws}::uuid and id = ${id}`);
  const memo = `Supplier delivery order ${number}`;
  if (Number(moved.cost_total) !== 0) {
    await q(sql`with e as (insert into journal_entry (workspace_id, number, entry_date, memo, source_type, source_id,
        created_by) values (${ws}::uuid, ${number}, ${String(d.doc_date)}::date, ${memo}, ${RECEIPT}, ${id}, ${user}::uuid)
        returning id)
      insert into journal_line (workspace_id, entry_id, line_no, account_code, debit, credit, memo)
      select ${ws}::uuid, e.id, v.n, v.code, v.debit, v.credit, ${memo} from e,
        (values (1, '1200', ${moved.cost_total}::numeric, 0::numeric), (2, '2100', 0, ${moved.cost_total}::numeric))
        as v(n, code, debit, credit)`);
  }
  const by = { type: RECEIPT, id, number };
  await writeEvents(q, ws, user, [
    ...(settled ? [{ ...settled, changes: { by } }] : []),
    { type: RECEIPT, id, action: "submit", from: "draft", to: "to_bill", changes: { number: [null, number] } },
  ]);
  return number;
}

export async function submitInvoiceDirect(q: Q, ws: string, user: string, id: number): Promise<string> {
  const [inv] = await q(sql`select i.status, i.doc_date::text as doc_date, i.source_type, i.source_id, i.company_id,
      trim(coalesce(i.supplier_invoice_number, '')) as supplier_number, i.total::text as total,
      (select count(*) from supplier_invoice_line l where l.workspace_id = i.workspace_id
        and l.supplier_invoice_id = i.id)::int as lines,
      (select count(distinct l.source_line_id) from supplier_invoice_line l where l.workspace_id = i.workspace_id
        and l.supplier_invoice_id = i.id)::int as linked, ${SETTINGS}
    from supplier_invoice i left join document_setting s on s.workspace_id = i.workspace_id
    where i.workspace_id = ${ws}::uuid and i.id = ${id} for update of i`);
  if (inv?.status !== "draft") throw new Error(`supplier invoice ${id} is not a draft`);
  if (Number(inv.lines) === 0 || !inv.supplier_number) throw new Error(`supplier invoice ${id} cannot be submitted`);
  if (inv.source_type !== RECEIPT) throw new NotMirrored("the bench bills receipts only");
  const receipt = Number(inv.source_id);
  const [rc] = await q(sql`select status, source_type, source_id from supplier_delivery_order
    where workspace_id = ${ws}::uuid and id = ${receipt} for update`);
  const po = Number(rc.source_id);
  const [order] = await q(sql`select status from purchase_order where workspace_id = ${ws}::uuid and id = ${po}
    for update`);
  // The supplier's number: refused when another of theirs has it; one that reads the same is a likely duplicate.
  const supplierNumber = String(inv.supplier_number);
  const [dup] = await q(sql`select
      (select id from supplier_invoice where workspace_id = ${ws}::uuid and company_id = ${Number(inv.company_id)}
        and status <> 'cancelled' and lower(trim(supplier_invoice_number)) = lower(${supplierNumber})
        and id <> ${id} order by id limit 1) as used,
      (select 'Supplier''s number looks like ' || supplier_invoice_number || ' on '
          || coalesce(number, 'a draft supplier invoice') from supplier_invoice
        where workspace_id = ${ws}::uuid and company_id = ${Number(inv.company_id)} and id <> ${id}
          and status not in ('draft', 'cancelled')
          and upper(regexp_replace(supplier_invoice_number, '[^A-Za-z0-9]', '', 'g'))
            = upper(regexp_replace(${supplierNumber}, '[^A-Za-z0-9]', '', 'g'))
        order by id limit 1) as likely`);
  if (dup.used != null) throw new Error(`supplier invoice ${id}: the supplier's number is used`);
  // qty_billed on the receipt's lines, then through them on the order's, each refused past the allowance.
  const allowance = String(inv.over_billing);
  const onReceipt = await q(sql`update supplier_delivery_order_line r set qty_billed = r.qty_billed + v.qty
    from (select source_line_id, sum(qty) as qty from supplier_invoice_line
      where workspace_id = ${ws}::uuid and supplier_invoice_id = ${id} and source_line_id is not null
      group by source_line_id) v
    where r.workspace_id = ${ws}::uuid and r.supplier_delivery_order_id = ${receipt} and r.id = v.source_line_id
    returning r.id, r.source_line_id, abs(r.qty_billed) > abs(r.qty) * (100 + ${allowance}::numeric) / 100 as over`);
  refuseOver(onReceipt, Number(inv.linked), `supplier invoice ${id} on its receipt`);
  const onOrder = await q(sql`update purchase_order_line p set qty_billed = p.qty_billed + v.qty
    from (select r.source_line_id, sum(l.qty) as qty from supplier_invoice_line l
      join supplier_delivery_order_line r on r.workspace_id = l.workspace_id and r.id = l.source_line_id
        and r.supplier_delivery_order_id = ${receipt}
      where l.workspace_id = ${ws}::uuid and l.supplier_invoice_id = ${id} and r.source_line_id is not null
      group by r.source_line_id) v
    where p.workspace_id = ${ws}::uuid and p.purchase_order_id = ${po} and p.id = v.source_line_id
    returning p.id, abs(p.qty_billed) > abs(p.qty) * (100 + ${allowance}::numeric) / 100 as over`);
  refuseOver(
    onOrder,
    new Set(onReceipt.filter((r) => r.source_line_id != null).map((r) => String(r.source_line_id))).size,
    `supplier invoice ${id} on its order`,
  );
  // The receipt's status (To Bill until all of it is billed, then Completed); the order's.
  const settled: Array<Omit<Event, "changes">> = [];
  if (rc.status === "to_bill" || rc.status === "completed") {
    const [u] = await q(sql`with n as (select case when coalesce(bool_and(abs(qty_billed) >= abs(qty)), true)
          then 'completed' else 'to_bill' end as status from supplier_delivery_order_line
        where workspace_id = ${ws}::uuid and supplier_delivery_order_id = ${receipt})
      update supplier_delivery_order d set status = n.status, updated_at = now() from n
      where d.workspace_id = ${ws}::uuid and d.id = ${receipt} and n.status <> ${String(rc.status)} returning d.status`);
    if (u)
      settled.push({ type: RECEIPT, id: receipt, action: "settle", from: String(rc.status), to: String(u.status) });
  }
  const orderSettled = await settleOrder(q, ws, po, String(order.status));
  if (orderSettled) settled.push(orderSettled);
  // Each line linked to its receipt and order lines, with the three-way check's reasons (three-way.ts checkLine):
  // quantities on the order line as a whole (billed before, this line, received), prices net of the line's discount
  // in base currency, within the tolerances and the cap in money.
  const tol = (p: string) => (Number(p) === 0 ? "" : ` (tolerance ${Number(p)}%)`);
  const checked = await q(sql`with x as (
      select l.id, r.id as receipt_line_id, p.id as po_line_id, l.qty,
        l.unit_price * (100 - l.discount_percent) / 100 * i.rate as price,
        p.unit_price * (100 - p.discount_percent) / 100 * h.rate as po_price,
        p.qty_received as received, greatest(p.qty_billed - l.qty, 0) + l.qty as invoiced
      from supplier_invoice_line l
      join supplier_invoice i on i.workspace_id = l.workspace_id and i.id = l.supplier_invoice_id
      left join supplier_delivery_order_line r on r.workspace_id = l.workspace_id and r.id = l.source_line_id
        and r.supplier_delivery_order_id = ${receipt}
      left join purchase_order_line p on p.workspace_id = r.workspace_id and p.id = r.source_line_id
        and p.purchase_order_id = ${po}
      left join purchase_order h on h.workspace_id = p.workspace_id and h.id = p.purchase_order_id
      where l.workspace_id = ${ws}::uuid and l.supplier_invoice_id = ${id}),
    c as (select x.*, invoiced - received as over, price - po_price as dearer,
        ${String(inv.qty_tol)}::numeric as qty_tol, ${String(inv.price_tol)}::numeric as price_tol,
        ${inv.amount_cap == null ? null : String(inv.amount_cap)}::numeric as cap from x)
    update supplier_invoice_line l set supplier_delivery_order_line_id = c.receipt_line_id,
      purchase_order_line_id = c.po_line_id,
      match_exception = nullif(concat_ws('; ',
        case when c.po_line_id is null then 'No purchase order line' end,
        case when c.po_line_id is not null and c.over > 0 and (c.over > c.received * c.qty_tol / 100
            or (c.cap is not null and c.over * c.po_price > c.cap))
          then 'Invoiced ' || trim_scale(c.invoiced) || case when c.received = 0 then ' but nothing is received yet'
            else ' but received ' || trim_scale(c.received) || ${tol(String(inv.qty_tol))} end end,
        case when c.po_line_id is not null and c.dearer > 0 and (c.dearer > c.po_price * c.price_tol / 100
            or (c.cap is not null and c.dearer * c.qty > c.cap))
          then 'Price ' || round(c.price, 2) || ' is above the order''s ' || round(c.po_price, 2)
            || ${tol(String(inv.price_tol))} end,
        ${dup.likely == null ? null : String(dup.likely)}::text), '')
    from c where l.workspace_id = ${ws}::uuid and l.supplier_invoice_id = ${id} and l.id = c.id
    returning l.match_exception`);
  const verdict = checked.some((r) => r.match_exception != null) ? "exception" : "matched";
  const number = await takeNumber(q, ws, INVOICE, inv);
  // The header: number, due date (the supplier's terms), outstanding, the verdict and the status they give.
  const [h] = await q(sql`with o as (
      select i.id, i.total - coalesce((select sum(a.amount) from payment_allocation a
          where a.workspace_id = i.workspace_id and a.document_type = 'supplier_invoice' and a.document_id = i.id), 0)
          as outstanding,
        coalesce(i.due_date, i.doc_date + c.payment_terms_days) as due
      from supplier_invoice i join company c on c.workspace_id = i.workspace_id and c.id = i.company_id
      where i.workspace_id = ${ws}::uuid and i.id = ${id})
    update supplier_invoice i set number = ${number}, due_date = o.due, outstanding = o.outstanding,
      status = case when o.outstanding <= 0 then 'paid' when current_date > o.due then 'overdue'
        when o.outstanding < i.total then 'partly_paid' else 'unpaid' end,
      match_status = case when i.match_status = 'released' then 'released' else ${verdict} end, updated_at = now()
    from o where i.workspace_id = ${ws}::uuid and i.id = o.id
    returning i.status, i.match_status`);
  // The entry (SUPPLIER_INVOICE_RULE, buildJournal): signed legs, debit positive; zero legs left out; a difference
  // within a cent to 6300.
  const memo = `Supplier invoice ${number}`;
  await q(sql`with i as (select * from supplier_invoice where workspace_id = ${ws}::uuid and id = ${id}),
    g as (select coalesce(sum(round(l.qty * case when p.qty = 0 then 0 else round(p.net_amount / p.qty * ph.rate, 4) end, 2))
          filter (where p.id is not null and l.product_id is not null), 0) as received,
        coalesce(sum(round(l.net_amount * i.rate, 2)) filter (where p.id is null or l.product_id is null), 0) as expense
      from i join supplier_invoice_line l on l.workspace_id = i.workspace_id and l.supplier_invoice_id = i.id
      left join purchase_order_line p on p.workspace_id = l.workspace_id and p.id = l.purchase_order_line_id
        and p.purchase_order_id = ${po}
      left join purchase_order ph on ph.workspace_id = p.workspace_id and ph.id = p.purchase_order_id),
    legs as (select v.k, v.code, v.amount from i, g, lateral (values (1, '2100', g.received),
        (2, '5020', round(i.net_total * i.rate, 2) - g.received - g.expense), (3, '5000', g.expense),
        (4, '1300', round(i.tax_total * i.rate, 2)), (5, '2000', -i.base_total)) as v(k, code, amount)
      where v.amount <> 0),
    roundoff as (select 6 as k, '6300' as code, -sum(amount) as amount from legs
      having sum(amount) <> 0 and abs(sum(amount)) <= 0.01),
    e as (insert into journal_entry (workspace_id, number, entry_date, memo, source_type, source_id, created_by)
      select ${ws}::uuid, ${number}, i.doc_date, ${memo}, ${INVOICE}, ${id}, ${user}::uuid from i
      where exists (select 1 from legs) returning id)
    insert into journal_line (workspace_id, entry_id, line_no, account_code, debit, credit, memo)
    select ${ws}::uuid, e.id, row_number() over (order by a.k), a.code, greatest(a.amount, 0), greatest(-a.amount, 0),
      ${memo} from e, (select * from legs union all select * from roundoff) a`);
  const submitted = dec(String(inv.total)).greaterThan(0) ? "unpaid" : "paid";
  const by = { type: INVOICE, id, number };
  const status = String(h.status);
  await writeEvents(q, ws, user, [
    ...settled.map((e) => ({ ...e, changes: { by } })),
    ...(status !== submitted
      ? [{ type: INVOICE, id, action: "settle", from: submitted, to: status, changes: null }]
      : []),
    {
      type: INVOICE,
      id,
      action: "three_way_check",
      from: submitted,
      to: submitted,
      changes: { match_status: [null, h.match_status] },
    },
    { type: INVOICE, id, action: "submit", from: "draft", to: submitted, changes: { number: [null, number] } },
  ]);
  return number;
}

// ---- checking -------------------------------------------------------------------------------------------------------

// What a submitted document left, without its ids and numbers: its status (and match status), its entry's lines,
// its stock moves' count and value, its audit rows, its lines' links and three-way reasons, and its sources'
// statuses and drawn quantities. An API-submitted document and a direct one of the same data should answer alike.
export async function footprint(q: Q, ws: string, type: string, id: number): Promise<unknown> {
  const table = sql.identifier(type);
  const [h] = await q(
    sql`select status, number is not null as numbered, ${
      type === INVOICE
        ? sql`match_status, (outstanding = total) as outstanding_is_total, due_date is not null as due,`
        : sql``
    } source_id from ${table} where workspace_id = ${ws}::uuid and id = ${id}`,
  );
  const journal =
    await q(sql`select l.account_code, l.debit::text as debit, l.credit::text as credit, l.memo like '% ' || e.number as memo_number
    from journal_entry e join journal_line l on l.workspace_id = e.workspace_id and l.entry_id = e.id
    where e.workspace_id = ${ws}::uuid and e.source_type = ${type} and e.source_id = ${id} order by e.id, l.line_no`);
  const [moves] =
    await q(sql`select count(*)::int as n, coalesce(sum(qty * unit_cost), 0)::text as value from stock_move
    where workspace_id = ${ws}::uuid and doc_type = ${type} and doc_id = ${id}`);
  const events = await q(sql`select doc_type, action, from_status, to_status, user_id is not null as by_user,
      (select array_agg(k order by k) from jsonb_object_keys(coalesce(changes, '{}')) k) as changes
    from document_event where workspace_id = ${ws}::uuid
      and ((doc_type = ${type} and doc_id = ${id}) or changes -> 'by' ->> 'id' = ${String(id)} and changes -> 'by' ->> 'type' = ${type})
    order by doc_type, action, id`);
  const lines =
    type === INVOICE
      ? await q(sql`select l.match_exception, l.purchase_order_line_id is not null as po_linked,
            l.supplier_delivery_order_line_id = l.source_line_id as receipt_linked
          from supplier_invoice_line l where l.workspace_id = ${ws}::uuid and l.supplier_invoice_id = ${id} order by line_no`)
      : [];
  const [source, lineTable, parent, drawn] =
    type === INVOICE
      ? ["supplier_delivery_order", "supplier_delivery_order_line", "supplier_delivery_order_id", "qty_billed"]
      : ["purchase_order", "purchase_order_line", "purchase_order_id", "qty_received"];
  const sourceLines =
    await q(sql`select s.status, sum(sl.qty)::text as qty, sum(sl.${sql.identifier(drawn)})::text as drawn
    from ${sql.identifier(source)} s join ${sql.identifier(lineTable)} sl on sl.workspace_id = s.workspace_id
      and sl.${sql.identifier(parent)} = s.id
    where s.workspace_id = ${ws}::uuid and s.id = ${Number(h.source_id)} group by s.status`);
  const { source_id: _, ...header } = h;
  return { header, journal, moves, events, lines, source: sourceLines };
}

// Every one submitted (a receipt To Bill or Completed, an invoice Unpaid), numbered without repeats, with one
// balanced entry and one submit audit row; a receipt's entry at its stock moves' value.
export async function verifySubmitted(q: Q, ws: string, type: string, ids: readonly number[]): Promise<void> {
  const entries = sql`from journal_entry e join journal_line l on l.workspace_id = e.workspace_id and l.entry_id = e.id
    where e.workspace_id = d.workspace_id and e.source_type = ${type} and e.source_id = d.id`;
  const rows = await q(sql`select d.id, d.status, d.number,
      (select count(distinct e.id) ${entries})::int as entries,
      (select sum(l.debit) - sum(l.credit) ${entries})::text as imbalance,
      (select sum(l.debit) ${entries})::text as debit,
      (select coalesce(sum(round(abs(m.qty) * m.unit_cost, 2)), 0) from stock_move m
        where m.workspace_id = d.workspace_id and m.doc_type = ${type} and m.doc_id = d.id)::text as stock,
      (select count(*) from document_event v where v.workspace_id = d.workspace_id and v.doc_type = ${type}
        and v.doc_id = d.id and v.action = 'submit')::int as audited
    from ${sql.identifier(type)} d where d.workspace_id = ${ws}::uuid and d.id = any(${`{${ids.join(",")}}`}::bigint[])`);
  const statuses = type === RECEIPT ? ["to_bill", "completed"] : ["unpaid"];
  const bad = rows.filter(
    (r) =>
      !statuses.includes(String(r.status)) ||
      r.number == null ||
      Number(r.entries) !== 1 ||
      Number(r.imbalance) !== 0 ||
      Number(r.audited) !== 1 ||
      (type === RECEIPT && Number(r.stock) !== Number(r.debit)),
  );
  if (rows.length !== ids.length || bad.length) {
    throw new Error(`${type}: not submitted as it should be: ${JSON.stringify(bad.slice(0, 3))}`);
  }
  if (new Set(rows.map((r) => r.number)).size !== ids.length) throw new Error(`${type}: numbers repeat`);
}

export type CostsBefore = { lastMove: number; products: Map<number, { cost: string; onHand: string }> };

// The products' cost and stock on hand, and the last stock move, before the bench's receipts.
export async function costsBefore(q: Q, ws: string, products: readonly number[]): Promise<CostsBefore> {
  const rows = await q(sql`select p.id, p.cost::text as cost, coalesce((select sum(m.qty) from stock_move m
      where m.workspace_id = p.workspace_id and m.product_id = p.id), 0)::text as on_hand,
      (select coalesce(max(id), 0) from stock_move where workspace_id = ${ws}::uuid) as last
    from product p where p.workspace_id = ${ws}::uuid and p.id = any(${`{${products.join(",")}}`}::bigint[])`);
  return {
    lastMove: Number(rows[0]?.last ?? 0),
    products: new Map(rows.map((r) => [Number(r.id), { cost: String(r.cost), onHand: String(r.on_hand) }])),
  };
}

// The products' costs replayed from `before` through every stock move since, in the order they were written, each
// receipt moving the average as costs.ts does. Answers the products whose stored cost disagrees.
export async function replayCosts(q: Q, ws: string, before: CostsBefore): Promise<string[]> {
  const ids = `{${[...before.products.keys()].join(",")}}`;
  const moves = await q(sql`select product_id, doc_type, sum(qty)::text as qty, sum(qty * unit_cost)::text as value
    from stock_move where workspace_id = ${ws}::uuid and product_id = any(${ids}::bigint[]) and id > ${before.lastMove}
    group by product_id, doc_type, doc_id order by min(id)`);
  const state = new Map([...before.products].map(([id, s]) => [id, { cost: dec(s.cost), onHand: dec(s.onHand) }]));
  for (const m of moves) {
    const s = state.get(Number(m.product_id));
    if (!s) continue;
    const qty = dec(String(m.qty));
    if (m.doc_type === RECEIPT && !qty.isZero()) {
      const value = dec(String(m.value));
      const average = s.onHand.lessThanOrEqualTo(0)
        ? value.dividedBy(qty)
        : s.onHand.times(s.cost).plus(value).dividedBy(s.onHand.plus(qty));
      s.cost = dec(money(Dec.max(average, 0)));
    }
    s.onHand = s.onHand.plus(qty);
  }
  const after = await q(sql`select id, cost::text as cost from product where workspace_id = ${ws}::uuid
    and id = any(${ids}::bigint[])`);
  return after
    .filter((r) => !dec(String(r.cost)).equals(state.get(Number(r.id))?.cost ?? dec("-1")))
    .map((r) => `product ${r.id}: ${r.cost} stored, ${state.get(Number(r.id))?.cost.toFixed(2)} replayed`);
}

// journal_month (migrations 0031, 0034: kept by triggers, in stripes) against the journal lines it sums.
export async function verifyJournalMonth(q: Q, ws: string): Promise<void> {
  const off = await q(sql`with l as (select l.account_code, date_trunc('month', e.entry_date)::date as month,
        sum(l.debit) as debit, sum(l.credit) as credit
      from journal_line l join journal_entry e on e.workspace_id = l.workspace_id and e.id = l.entry_id
      where l.workspace_id = ${ws}::uuid group by 1, 2),
    m as (select account_code, month, sum(debit) as debit, sum(credit) as credit from journal_month
      where workspace_id = ${ws}::uuid group by 1, 2 having sum(debit) <> 0 or sum(credit) <> 0)
    (select * from l except select * from m) union all (select * from m except select * from l) limit 3`);
  if (off.length) throw new Error(`journal_month disagrees with the journal: ${JSON.stringify(off)}`);
}
