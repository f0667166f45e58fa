import { COMMANDS } from "@workmetrics/domain/commands";
import { sql } from "drizzle-orm";
import { recordPayment } from "../../modules/documents/record-payment.ts";
import { registerModules } from "../../modules/index.ts";
import * as chat from "../../modules/marketplace/chat.rpc.ts";
import * as orders from "../../modules/marketplace/orders.rpc.ts";
import * as shop from "../../modules/marketplace/shop.rpc.ts";
import { convertDocument, transitionDocument } from "../documents/commands.ts";
import { type CommandDeps, SEED_DEPS } from "../jobs/deps.ts";
import type { Caller } from "../rest/access.ts";
import type { AnyRpc } from "../rest/rpc/command.ts";
import type { Tx } from "./database.ts";
import { demoTeam } from "./demo-trading.ts";

// Issue 23 / DESIGN §3.2: demo sells 20 listings on the marketplace; orchard has bought from it — orders in every
// status (placed, accepted, rejected, cancelled, fulfilled and rated) and a chat about the pending one. Made through
// the marketplace's own commands and the document commands, as the two workspaces' members would.

type Row = Record<string, unknown>;

export async function seedMarketplace(tx: Tx, demo: string, orchard: string): Promise<void> {
  registerModules();
  const seller = (await demoTeam(tx, demo, "demo"))("marketplace_account.update", "owner");
  const buyer = (await demoTeam(tx, orchard, "orchard"))("marketplace_sales_order.create", "procurement");
  const owner = (await demoTeam(tx, orchard, "orchard"))("supplier_invoice.submit", "owner");
  const deps: CommandDeps = SEED_DEPS; // queues nothing (the unread notices of the demo chat)
  const run = async (cmd: AnyRpc, caller: Caller, args: unknown): Promise<Row> => {
    await tx.execute(sql`select set_config('app.workspace_id', ${caller.workspaceId}, true),
      set_config('app.user_id', ${caller.userId}, true)`);
    const decl = (COMMANDS as unknown as Record<string, { args: { parse(v: unknown): unknown } }>)[cmd.name];
    return (await cmd.run(tx, decl.args.parse(args), caller, deps)) as Row;
  };
  const inWs = (caller: Caller) =>
    tx.execute(sql`select set_config('app.workspace_id', ${caller.workspaceId}, true),
      set_config('app.user_id', ${caller.userId}, true)`);

  const account = await run(shop.marketplaceAccountSave, seller, {
    display_name: "Harbourline Trading",
    about:
      "Fasteners, fittings, tools and site supplies from our Tuas warehouse. Next-day delivery island-wide on orders placed by 3 pm.",
    categories: ["Hardware", "Tools", "Site supplies"],
    delivery_areas: ["West", "Central", "East", "North"],
    min_order_value: "50",
    payment_terms: "30 days from invoice",
    published: true,
  });
  // Twenty stocked products, each listed a little under its catalogue price; some with a tier for bulk.
  await inWs(seller);
  const products = (
    await tx.execute(sql`select p.id, p.name, p.price::text, coalesce(c.name, 'Hardware') as category
      from product p left join category c on c.workspace_id = p.workspace_id and c.id = p.category_id
      where p.workspace_id = ${demo}::uuid and p.active and p.is_stock_tracked and p.price > 0
        and (select coalesce(sum(m.qty), 0) from stock_move m where m.workspace_id = p.workspace_id and m.product_id = p.id) > 40
      order by p.id limit 20`)
  ).rows as Array<{ id: number; name: string; price: string; category: string }>;
  const listings: Row[] = [];
  for (const [i, p] of products.entries()) {
    const price = (Number(p.price) * 0.95).toFixed(2);
    listings.push(
      await run(shop.marketplaceListingSave, seller, {
        product_id: Number(p.id),
        title: p.name,
        description: `${p.name}, from stock at our Tuas warehouse.`,
        category: p.category,
        price,
        price_tiers: i % 3 === 0 ? [{ min_qty: "50", price: (Number(price) * 0.9).toFixed(2) }] : [],
        moq: i % 4 === 0 ? "5" : "1",
        lead_time_days: 1 + (i % 5),
        show_stock: i % 5 === 0,
      }),
    );
  }
  const line = (i: number, qty: string) => ({ marketplace_product_id: Number(listings[i].id), qty });
  const place = (lines: Array<{ marketplace_product_id: number; qty: string }>, note?: string) =>
    run(orders.marketplaceOrderPlace, buyer, { seller_account_id: Number(account.id), lines, note });

  // Fulfilled and rated: accepted, delivered and invoiced by demo, received and paid by orchard.
  const done = await place([line(1, "10"), line(2, "6")], "For the Orchard Road store's opening");
  await run(orders.marketplaceOrderAccept, seller, { id: Number(done.id) });
  const [mo] = (
    await tx.execute(sql`select sales_order_id, purchase_order_id from marketplace_sales_order where id = ${done.id}`)
  ).rows as Array<{ sales_order_id: number; purchase_order_id: number }>;
  await inWs(seller);
  const warehouse = (
    await tx.execute(sql`select id from location where workspace_id = ${demo}::uuid order by id limit 1`)
  ).rows[0] as { id: number };
  const delivery = (await convertDocument(tx, seller, {
    type: "sales_order",
    id: Number(mo.sales_order_id),
    to: "delivery_order",
    header: { location_id: Number(warehouse.id) },
  })) as Row;
  await transitionDocument(tx, seller, { type: "delivery_order", id: Number(delivery.id), action: "submit" });
  const invoice = (await convertDocument(tx, seller, {
    type: "delivery_order",
    id: Number(delivery.id),
    to: "invoice",
  })) as Row;
  await transitionDocument(tx, seller, { type: "invoice", id: Number(invoice.id), action: "submit" });
  await inWs(owner);
  const store = (
    await tx.execute(sql`select id from location where workspace_id = ${orchard}::uuid order by id limit 1`)
  ).rows[0] as { id: number };
  const receipt = (await convertDocument(tx, owner, {
    type: "purchase_order",
    id: Number(mo.purchase_order_id),
    to: "supplier_delivery_order",
    header: { supplier_do_number: String(delivery.number ?? "DO"), location_id: Number(store.id) },
  })) as Row;
  await transitionDocument(tx, owner, { type: "supplier_delivery_order", id: Number(receipt.id), action: "submit" });
  const bill = (
    await tx.execute(sql`select id, company_id, total::text from supplier_invoice where workspace_id = ${orchard}::uuid
      and status = 'draft' order by id desc limit 1`)
  ).rows[0] as { id: number; company_id: number; total: string };
  await transitionDocument(tx, owner, { type: "supplier_invoice", id: Number(bill.id), action: "submit" });
  await recordPayment(tx, owner, {
    type: "supplier_payment",
    company_id: Number(bill.company_id),
    amount: bill.total,
    method: "bank_transfer",
    allocations: [{ document_type: "supplier_invoice", document_id: Number(bill.id), amount: bill.total }],
  } as never);
  await run(orders.marketplaceOrders, buyer, { id: Number(done.id) });
  await run(orders.marketplaceOrderRate, buyer, { id: Number(done.id), rating: 5, note: "Delivered a day early." });

  // Accepted, in progress in both books.
  const accepted = await place([line(3, "20"), line(4, "10")]);
  await run(orders.marketplaceOrderAccept, seller, { id: Number(accepted.id) });
  // Rejected with a reason, and cancelled by the buyer before the seller decided.
  const rejected = await place([line(5, "200")], "Can you do 200 by Friday?");
  await run(orders.marketplaceOrderReject, seller, {
    id: Number(rejected.id),
    reason: "We cannot deliver 200 by Friday: we can do 120 now and the rest next week.",
  });
  const cancelled = await place([line(6, "6")]);
  await run(orders.marketplaceOrderCancel, buyer, { id: Number(cancelled.id), reason: "Ordered twice by mistake" });
  // Placed and waiting for demo, with a chat about it.
  const pending = await place([line(0, "25"), line(7, "12")], "Please deliver to the loading bay at the back");
  await run(chat.marketplaceMessageSend, buyer, {
    marketplace_sales_order_id: Number(pending.id),
    body: "Hi, could these arrive before Thursday? Our store fit-out starts then.",
  });
  await run(chat.marketplaceMessageSend, seller, {
    marketplace_sales_order_id: Number(pending.id),
    body: "Hello! Both items are in stock. We will confirm the delivery slot when we accept the order today.",
  });
  await run(chat.marketplaceMessageSend, buyer, {
    marketplace_sales_order_id: Number(pending.id),
    body: "Great, thank you. The loading bay is open 8 am to 5 pm.",
  });
  await tx.execute(sql`select set_config('app.workspace_id', '', true), set_config('app.user_id', '', true)`);
}
