import { COMMANDS } from "@workmetrics/domain/commands";
import type { MarketplaceOrderView } from "@workmetrics/domain/commands/marketplace";
import { Decimal } from "decimal.js";
import { sql } from "drizzle-orm";
import type { Tx } from "../../platform/db/database.ts";
import { asWorkspace } from "../../platform/documents/as-workspace.ts";
import { saveDocument, transitionDocument } from "../../platform/documents/commands.ts";
import type { Caller } from "../../platform/rest/access.ts";
import { implement } from "../../platform/rest/rpc/command.ts";
import { announce, companyFor, fail, hasMarketplace, partyName, wsOf } from "./parties.ts";

// Issue 23: marketplace orders (DESIGN §2.3.2). The buyer places an order with one seller at the listings' prices
// as they stand (copied onto the order's lines: a later edit of a listing reprices nothing placed); the seller
// accepts — one transaction makes the seller's sales order and, through asWorkspace, the buyer's purchase order,
// lines and prices equal, each with marketplace_order_id — or rejects with a reason. From then each side works in
// its own books; the order's progress (delivered, invoiced, received, paid) follows both sides' documents.

const GST = new Decimal("0.09");
const cents = (d: Decimal) => d.toDecimalPlaces(2, Decimal.ROUND_HALF_UP);

type Order = {
  id: number;
  number: string;
  status: MarketplaceOrderView["status"];
  seller_workspace_id: string;
  buyer_workspace_id: string;
  seller_account_id: number;
  seller_name: string;
  buyer_name: string;
  note: string | null;
  sales_order_id: number | null;
  purchase_order_id: number | null;
  rating: number | null;
};

async function loadOrder(tx: Tx, caller: Caller, id: number, lock: boolean): Promise<Order> {
  const ws = wsOf(caller);
  const res = await tx.execute(sql`select id, number, status, seller_workspace_id::text, buyer_workspace_id::text,
      seller_account_id, seller_name, buyer_name, note, sales_order_id, purchase_order_id, rating
    from marketplace_sales_order
    where id = ${id} and ${ws}::uuid in (buyer_workspace_id, seller_workspace_id) ${lock ? sql`for update` : sql``}`);
  const row = res.rows[0] as Order | undefined;
  if (!row) throw fail(404, `There is no marketplace order ${id} of yours`);
  return {
    ...row,
    id: Number(row.id),
    seller_account_id: Number(row.seller_account_id),
    sales_order_id: row.sales_order_id == null ? null : Number(row.sales_order_id),
    purchase_order_id: row.purchase_order_id == null ? null : Number(row.purchase_order_id),
  };
}

// The orders of the caller's workspace as each side sees them: the other side's document ids are not shown.
async function views(tx: Tx, caller: Caller, where: ReturnType<typeof sql>): Promise<MarketplaceOrderView[]> {
  const ws = wsOf(caller);
  const res = await tx.execute(sql`select o.id, o.number,
      case when o.seller_workspace_id = ${ws}::uuid then 'seller' else 'buyer' end as side,
      o.seller_name, o.buyer_name, o.seller_account_id, o.status, o.note, o.reject_reason, o.subtotal::text,
      o.tax_total::text, o.total::text, o.placed_at, o.decided_at,
      case when o.seller_workspace_id = ${ws}::uuid then o.sales_order_id end as sales_order_id,
      case when o.buyer_workspace_id = ${ws}::uuid then o.purchase_order_id end as purchase_order_id,
      o.delivered::text, o.invoiced::text, o.received::text, o.paid::text, o.fulfilled_at, o.rating, o.rating_note,
      (select t.id from marketplace_thread t where t.workspace_id = o.workspace_id
        and t.marketplace_sales_order_id = o.id) as thread_id,
      coalesce((select json_agg(json_build_object('id', l.id, 'marketplace_product_id', l.marketplace_product_id,
          'title', l.title, 'unit', l.unit, 'qty', trim_scale(l.qty)::text, 'unit_price', l.unit_price::text,
          'line_total', l.line_total::text) order by l.id)
        from marketplace_sales_order_line l where l.workspace_id = o.workspace_id and l.order_id = o.id), '[]') as lines
    from marketplace_sales_order o
    where ${ws}::uuid in (o.buyer_workspace_id, o.seller_workspace_id) and ${where}
    order by o.placed_at desc, o.id desc limit 500`);
  return (res.rows as Array<Record<string, unknown>>).map((r) => ({
    ...(r as unknown as MarketplaceOrderView),
    lines: typeof r.lines === "string" ? JSON.parse(r.lines) : (r.lines as MarketplaceOrderView["lines"]),
  }));
}

export async function orderView(tx: Tx, caller: Caller, id: number): Promise<MarketplaceOrderView> {
  const [v] = await views(tx, caller, sql`o.id = ${id}`);
  if (!v) throw fail(404, `There is no marketplace order ${id} of yours`);
  return v;
}

// The unit price of a listing for a quantity: the highest tier whose min_qty the quantity reaches, else the price.
export function tierPrice(price: string, tiers: Array<{ min_qty: string; price: string }>, qty: string): Decimal {
  let best = new Decimal(price);
  let reached = new Decimal(0);
  for (const t of tiers) {
    const min = new Decimal(t.min_qty);
    if (new Decimal(qty).gte(min) && min.gte(reached)) {
      best = new Decimal(t.price);
      reached = min;
    }
  }
  return best;
}

export const marketplaceOrderPlace = implement(COMMANDS.marketplace_order_place, {
  run: async (tx, args, caller) => {
    const buyer = wsOf(caller);
    const acct = (
      await tx.execute(sql`select id, workspace_id::text as ws, display_name, min_order_value::text, published
        from marketplace_account where id = ${args.seller_account_id} and published`)
    ).rows[0] as { id: number; ws: string; display_name: string; min_order_value: string } | undefined;
    if (!acct) throw fail(422, "This seller is not on the marketplace", "seller_account_id");
    if (acct.ws === buyer) throw fail(422, "You cannot order from your own listings", "seller_account_id");
    if (!(await hasMarketplace(tx, caller, acct.ws))) {
      throw fail(422, `${acct.display_name} no longer sells on the marketplace`, "seller_account_id");
    }
    const ids = args.lines.map((l) => l.marketplace_product_id);
    if (new Set(ids).size !== ids.length) throw fail(422, "Each listing appears once in an order", "lines");
    const found = await tx.execute(sql`select id, product_id, title, unit, price::text, price_tiers, moq::text,
        stock_level from marketplace_product
      where workspace_id = ${acct.ws}::uuid and account_id = ${acct.id} and published
        and id = any(${`{${ids.join(",")}}`}::bigint[])`);
    const byId = new Map(
      (found.rows as Array<Record<string, unknown>>).map((r) => [Number(r.id), r as Record<string, string>]),
    );
    let subtotal = new Decimal(0);
    const lines = args.lines.map((l, i) => {
      const p = byId.get(l.marketplace_product_id);
      if (!p) throw fail(422, `Line ${i + 1}: this listing is not for sale by ${acct.display_name}`, `lines.${i}`);
      if (new Decimal(l.qty).lt(p.moq)) {
        throw fail(
          422,
          `Line ${i + 1}: ${p.title} is sold from ${new Decimal(p.moq).toString()} units`,
          `lines.${i}.qty`,
        );
      }
      if (p.stock_level === "out") throw fail(422, `Line ${i + 1}: ${p.title} is out of stock`, `lines.${i}`);
      const tiers = (typeof p.price_tiers === "string" ? JSON.parse(p.price_tiers) : p.price_tiers) as Array<{
        min_qty: string;
        price: string;
      }>;
      const unit = tierPrice(p.price, tiers, l.qty);
      const total = cents(unit.mul(l.qty));
      subtotal = subtotal.add(total);
      return { p, qty: l.qty, unit: unit.toFixed(2), total: total.toFixed(2) };
    });
    if (subtotal.lt(acct.min_order_value)) {
      throw fail(
        422,
        `${acct.display_name} takes orders from ${new Decimal(acct.min_order_value).toFixed(2)}: this one is ${subtotal.toFixed(2)}`,
        "lines",
      );
    }
    const tax = cents(subtotal.mul(GST));
    const buyerName = (await partyName(tx, buyer)).name;
    // Numbered per seller and year, gapless: the seller's numbering is taken under a transaction lock of its own.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`marketplace_order:${acct.ws}`}))`);
    const year = new Date().getUTCFullYear();
    // The count reads the seller's rows (the buyer reads only its own): taken in the seller's scope.
    const next = await asWorkspace(tx, acct.ws, caller, async () => {
      const r = await tx.execute(sql`select count(*)::int + 1 as n from marketplace_sales_order
        where workspace_id = ${acct.ws}::uuid and number like ${`MKT-${year}-%`}`);
      return Number((r.rows[0] as { n: number }).n);
    });
    const number = `MKT-${year}-${String(next).padStart(5, "0")}`;
    const ins = await tx.execute(sql`insert into marketplace_sales_order (workspace_id, number, seller_workspace_id,
        buyer_workspace_id, seller_account_id, seller_name, buyer_name, note, subtotal, tax_total, total, placed_by)
      values (${acct.ws}::uuid, ${number}, ${acct.ws}::uuid, ${buyer}::uuid, ${acct.id}, ${acct.display_name},
        ${buyerName}, ${args.note ?? null}, ${subtotal.toFixed(2)}, ${tax.toFixed(2)},
        ${subtotal.add(tax).toFixed(2)}, ${caller.userId}::uuid)
      returning id`);
    const id = Number((ins.rows[0] as { id: number }).id);
    const rows = lines.map(
      (
        l,
      ) => sql`(${acct.ws}::uuid, ${id}, ${acct.ws}::uuid, ${buyer}::uuid, ${Number(l.p.id)}, ${Number(l.p.product_id)},
        ${l.p.title}, ${l.p.unit ?? null}, ${l.qty}, ${l.unit}, ${l.total})`,
    );
    await tx.execute(sql`insert into marketplace_sales_order_line (workspace_id, order_id, seller_workspace_id,
        buyer_workspace_id, marketplace_product_id, product_id, title, unit, qty, unit_price, line_total)
      values ${sql.join(rows, sql`, `)}`);
    await announce(tx, caller, acct.ws, "marketplace_sales_order", id, "create", "placed", { number });
    return orderView(tx, caller, id);
  },
});

// The seller's sales order and the buyer's purchase order for an accepted order, in this transaction.
async function makeDocuments(tx: Tx, caller: Caller, o: Order): Promise<{ so: number; po: number }> {
  const seller = wsOf(caller);
  const lines = (
    await tx.execute(sql`select product_id, title, unit, trim_scale(qty)::text as qty, unit_price::text
      from marketplace_sales_order_line where workspace_id = ${seller}::uuid and order_id = ${o.id} order by id`)
  ).rows as Array<{ product_id: number; title: string; qty: string; unit_price: string }>;
  const buyerParty = await asWorkspace(tx, o.buyer_workspace_id, caller, () => partyName(tx, o.buyer_workspace_id));
  const sellerParty = await partyName(tx, seller);
  const customer = await companyFor(tx, seller, o.buyer_name, buyerParty.uen, "customer");
  const so = (await saveDocument(tx, caller, {
    type: "sales_order",
    header: { company_id: customer, customer_po: o.number, notes: `Marketplace order ${o.number}` },
    lines: lines.map((l) => ({
      product_id: Number(l.product_id),
      description: l.title,
      qty: l.qty,
      unit_price: l.unit_price,
    })),
  })) as { id: number };
  await tx.execute(sql`update sales_order set marketplace_order_id = ${o.id}
    where workspace_id = ${seller}::uuid and id = ${so.id}`);
  await transitionDocument(tx, caller, { type: "sales_order", id: Number(so.id), action: "submit" });
  // The buyer's side is written as the system acting for the accepting member (audited on both sides by
  // asWorkspace): the buyer's purchase order is the marketplace's to make, whatever the seller's own role there.
  const po = await asWorkspace(tx, o.buyer_workspace_id, caller, async (there) => {
    const acting: Caller = { ...there, permissions: ["purchase_order.*", "company.*"] };
    const supplier = await companyFor(tx, o.buyer_workspace_id, o.seller_name, sellerParty.uen, "supplier");
    const doc = (await saveDocument(tx, acting, {
      type: "purchase_order",
      header: { company_id: supplier, notes: `Marketplace order ${o.number}` },
      lines: lines.map((l) => ({ description: l.title, qty: l.qty, unit_price: l.unit_price })),
    })) as { id: number };
    await tx.execute(sql`update purchase_order set marketplace_order_id = ${o.id}
      where workspace_id = ${o.buyer_workspace_id}::uuid and id = ${doc.id}`);
    // Submitted when the buyer's rules let it be (an approval threshold may hold it for their finance): else left
    // a draft for the buyer to submit.
    await tx
      .transaction(async (sp) => {
        await transitionDocument(sp as unknown as Tx, acting, {
          type: "purchase_order",
          id: Number(doc.id),
          action: "submit",
        });
      })
      .catch(() => undefined);
    return Number(doc.id);
  });
  return { so: Number(so.id), po };
}

export const marketplaceOrderAccept = implement(COMMANDS.marketplace_order_accept, {
  run: async (tx, args, caller) => {
    // The order's row is locked first: an accept sent twice waits here, then finds it accepted and answers it as is.
    const o = await loadOrder(tx, caller, args.id, true);
    if (o.seller_workspace_id !== wsOf(caller)) throw fail(403, "Only the seller accepts a marketplace order");
    if (o.status === "accepted" && o.sales_order_id) return orderView(tx, caller, o.id);
    if (o.status !== "placed") throw fail(409, `This order is already ${o.status}`);
    if (!(await hasMarketplace(tx, caller, o.buyer_workspace_id))) {
      throw fail(409, `${o.buyer_name} is no longer on a plan with the marketplace: the order cannot be accepted`);
    }
    const { so, po } = await makeDocuments(tx, caller, o);
    await tx.execute(sql`update marketplace_sales_order set status = 'accepted', decided_by = ${caller.userId}::uuid,
        decided_at = now(), sales_order_id = ${so}, purchase_order_id = ${po}, updated_at = now()
      where workspace_id = ${wsOf(caller)}::uuid and id = ${o.id}`);
    await announce(tx, caller, o.buyer_workspace_id, "marketplace_sales_order", o.id, "accept", "accepted");
    return orderView(tx, caller, o.id);
  },
});

export const marketplaceOrderReject = implement(COMMANDS.marketplace_order_reject, {
  run: async (tx, args, caller) => {
    const o = await loadOrder(tx, caller, args.id, true);
    if (o.seller_workspace_id !== wsOf(caller)) throw fail(403, "Only the seller rejects a marketplace order");
    if (o.status !== "placed") throw fail(409, `This order is already ${o.status}`);
    await tx.execute(sql`update marketplace_sales_order set status = 'rejected', reject_reason = ${args.reason},
        decided_by = ${caller.userId}::uuid, decided_at = now(), updated_at = now()
      where workspace_id = ${wsOf(caller)}::uuid and id = ${o.id}`);
    await announce(tx, caller, o.buyer_workspace_id, "marketplace_sales_order", o.id, "reject", "rejected", {
      reason: args.reason,
    });
    return orderView(tx, caller, o.id);
  },
});

export const marketplaceOrderCancel = implement(COMMANDS.marketplace_order_cancel, {
  run: async (tx, args, caller) => {
    const o = await loadOrder(tx, caller, args.id, true);
    if (o.buyer_workspace_id !== wsOf(caller)) throw fail(403, "Only the buyer cancels a marketplace order");
    if (o.status !== "placed") {
      throw fail(409, `This order is already ${o.status}: once accepted, cancel it through the documents`);
    }
    await tx.execute(sql`update marketplace_sales_order set status = 'cancelled', reject_reason = ${args.reason ?? null},
        updated_at = now() where id = ${o.id} and workspace_id = ${o.seller_workspace_id}::uuid`);
    await announce(tx, caller, o.seller_workspace_id, "marketplace_sales_order", o.id, "cancel", "cancelled");
    return orderView(tx, caller, o.id);
  },
});

export const marketplaceOrderRate = implement(COMMANDS.marketplace_order_rate, {
  run: async (tx, args, caller) => {
    const o = await loadOrder(tx, caller, args.id, true);
    if (o.buyer_workspace_id !== wsOf(caller)) throw fail(403, "Only the buyer rates the seller");
    if (o.status !== "fulfilled") throw fail(409, "An order is rated once it is fulfilled");
    if (o.rating != null) throw fail(409, "This order is rated already");
    await tx.execute(sql`update marketplace_sales_order set rating = ${args.rating}, rating_note = ${args.note ?? null},
        rated_at = now(), updated_at = now() where id = ${o.id} and workspace_id = ${o.seller_workspace_id}::uuid`);
    // The seller's profile keeps the count and total (the buyer writes it through the audited path).
    await asWorkspace(tx, o.seller_workspace_id, caller, async () => {
      await tx.execute(sql`update marketplace_account set rating_count = rating_count + 1,
          rating_total = rating_total + ${args.rating}, updated_at = now()
        where workspace_id = ${o.seller_workspace_id}::uuid and id = ${o.seller_account_id}`);
    });
    await announce(tx, caller, o.seller_workspace_id, "marketplace_sales_order", o.id, "rate", "fulfilled", {
      rating: args.rating,
    });
    return orderView(tx, caller, o.id);
  },
});

// Each side's progress from its own documents: the seller's sales order lines (delivered, billed), the buyer's
// purchase order lines (received) and what the buyer has paid of the supplier invoices drawn from it. Run in each
// workspace's own scope; the order is fulfilled when all four are complete.
const SELLER_PROGRESS = sql`
  select coalesce(sum(least(l.qty_delivered, l.qty)) / nullif(sum(l.qty), 0), 0) as delivered,
         coalesce(sum(least(l.qty_billed, l.qty)) / nullif(sum(l.qty), 0), 0) as invoiced
  from sales_order_line l join sales_order s on s.workspace_id = l.workspace_id and s.id = l.sales_order_id
  where s.status not in ('draft', 'cancelled')`;

async function sellerProgress(tx: Tx, ws: string, soId: number) {
  const r = await tx.execute(sql`${SELLER_PROGRESS} and s.workspace_id = ${ws}::uuid and s.id = ${soId}`);
  const row = r.rows[0] as { delivered: string; invoiced: string };
  return { delivered: Number(row.delivered), invoiced: Number(row.invoiced) };
}

async function buyerProgress(tx: Tx, ws: string, poId: number) {
  const r = await tx.execute(sql`select
      coalesce((select sum(least(l.qty_received, l.qty)) / nullif(sum(l.qty), 0) from purchase_order_line l
        where l.workspace_id = ${ws}::uuid and l.purchase_order_id = ${poId}), 0) as received,
      coalesce((select sum(si.total - si.outstanding) from supplier_invoice si
        where si.workspace_id = ${ws}::uuid and si.status not in ('draft', 'cancelled')
          and exists (select 1 from supplier_invoice_line sl
            where sl.workspace_id = si.workspace_id and sl.supplier_invoice_id = si.id and sl.source_line_id in (
              select pl.id from purchase_order_line pl where pl.workspace_id = si.workspace_id and pl.purchase_order_id = ${poId}
              union all
              select dl.id from supplier_delivery_order_line dl join purchase_order_line pl
                on pl.workspace_id = dl.workspace_id and pl.id = dl.source_line_id
              where dl.workspace_id = si.workspace_id and pl.purchase_order_id = ${poId})))
        / nullif((select total from purchase_order where workspace_id = ${ws}::uuid and id = ${poId}), 0), 0) as paid`);
  const row = r.rows[0] as { received: string; paid: string };
  return { received: Number(row.received), paid: Math.min(1, Number(row.paid)) };
}

const ratio = (n: number) => Math.max(0, Math.min(1, n)).toFixed(4);

// Brings the progress of the caller's workspace's accepted orders up to date (both sides, each read in its own
// workspace), marks those complete as fulfilled and announces what moved. `only`: one order.
export async function syncProgress(tx: Tx, caller: Caller, only?: number): Promise<void> {
  const ws = wsOf(caller);
  const res = await tx.execute(sql`select id, seller_workspace_id::text, buyer_workspace_id::text, sales_order_id,
      purchase_order_id, delivered::float8, invoiced::float8, received::float8, paid::float8
    from marketplace_sales_order where status = 'accepted' and ${ws}::uuid in (buyer_workspace_id, seller_workspace_id)
      ${only ? sql`and id = ${only}` : sql``}
    order by id for update`);
  for (const o of res.rows as Array<Record<string, string | number | null>>) {
    const sellerWs = String(o.seller_workspace_id);
    const buyerWs = String(o.buyer_workspace_id);
    const s = o.sales_order_id
      ? await asWorkspace(tx, sellerWs, caller, () => sellerProgress(tx, sellerWs, Number(o.sales_order_id)))
      : { delivered: 0, invoiced: 0 };
    const b = o.purchase_order_id
      ? await asWorkspace(tx, buyerWs, caller, () => buyerProgress(tx, buyerWs, Number(o.purchase_order_id)))
      : { received: 0, paid: 0 };
    const next = {
      delivered: ratio(s.delivered),
      invoiced: ratio(s.invoiced),
      received: ratio(b.received),
      paid: ratio(b.paid),
    };
    const before = {
      delivered: ratio(Number(o.delivered)),
      invoiced: ratio(Number(o.invoiced)),
      received: ratio(Number(o.received)),
      paid: ratio(Number(o.paid)),
    };
    const done = Object.values(next).every((v) => v === "1.0000");
    if (JSON.stringify(next) === JSON.stringify(before) && !done) continue;
    await tx.execute(sql`update marketplace_sales_order set delivered = ${next.delivered}, invoiced = ${next.invoiced},
        received = ${next.received}, paid = ${next.paid},
        status = ${done ? "fulfilled" : "accepted"}, fulfilled_at = ${done ? sql`now()` : sql`null`}, updated_at = now()
      where workspace_id = ${sellerWs}::uuid and id = ${Number(o.id)}`);
    const other = ws === sellerWs ? buyerWs : sellerWs;
    await announce(
      tx,
      caller,
      other,
      "marketplace_sales_order",
      Number(o.id),
      "progress",
      done ? "fulfilled" : "accepted",
      next,
    );
  }
}

export const marketplaceOrders = implement(COMMANDS.marketplace_orders, {
  run: async (tx, args, caller) => {
    await syncProgress(tx, caller, args?.id);
    const ws = wsOf(caller);
    const side =
      args?.side === "seller"
        ? sql`o.seller_workspace_id = ${ws}::uuid`
        : args?.side === "buyer"
          ? sql`o.buyer_workspace_id = ${ws}::uuid`
          : sql`true`;
    return views(tx, caller, args?.id ? sql`${side} and o.id = ${args.id}` : side);
  },
});
