import { createClient, type RealtimeChannel, type SupabaseClient } from "@supabase/supabase-js";
import { findCommand } from "@workmetrics/domain/commands";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { mailboxTo } from "./auth-helpers.ts";
import { type Doc, ok, rpc } from "./documents-helpers.ts";
import { openingStock, ownServer } from "./own-server-helpers.ts";
import { getAnonKey, restFetch, tokenFor } from "./rest-helpers.ts";

// Issue 23: the marketplace between two Premium workspaces — demo sells, orchard buys (DESIGN §3.2). Accepting makes
// exactly one sales order and one purchase order, equal and linked, even when sent twice at once; each side's later
// documents move the order's progress to fulfilled; a seller's edit reprices nothing placed; and isolation: a third
// Premium workspace (lite, made Premium in this file's own server), a Pro workspace and an anonymous client read no
// order, thread, message or unpublished listing, through /rest/v1, the commands or realtime (supabase-js).

const SELLER = "owner@demo.test";
const SELLER_STAFF = "manager@demo.test";
const BUYER = "procurement@orchard.test";
const BUYER_OWNER = "owner@orchard.test";
const THIRD = "admin@lite.test"; // Premium here
const PRO = "admin@pro.test";

// The demo data (SEED=demo): demo sells, orchard has bought (platform/db/demo-marketplace-trade.ts).
const own = ownServer({ SEED: "demo" }, 600_000);
const clients: SupabaseClient[] = [];
afterAll(async () => {
  for (const c of clients) await c.removeAllChannels();
});

type Listing = { id: number; price: string; title: string; account_id: number; stock_level: string };
type Order = {
  id: number;
  number: string;
  status: string;
  side: string;
  total: string;
  sales_order_id: number | null;
  purchase_order_id: number | null;
  delivered: string;
  invoiced: string;
  received: string;
  paid: string;
  rating: number | null;
  lines: Array<{ title: string; qty: string; unit_price: string; line_total: string }>;
};

let account = 0;
let listings: Listing[] = [];
let unpublished = 0;

// A command's answer, checked against its declared result schema (what the web's typed client promises).
const call = async <T>(email: string, fn: string, args: unknown): Promise<T> => {
  const body = await ok(email, fn, args);
  const declared = findCommand(fn);
  if (fn.startsWith("marketplace_")) expect(declared?.result.safeParse(body).error, fn).toBeUndefined();
  return body as unknown as T;
};

beforeAll(async () => {
  await own.db.execute(sql`update workspace set tier_id = 12 where slug = 'lite'`);
  const acct = await call<{ id: number }>(SELLER, "marketplace_account_save", {
    display_name: "Harbourline Trading",
    about: "Building supplies from Tuas",
    categories: ["Hardware"],
    delivery_areas: ["West", "Central"],
    min_order_value: "10",
    payment_terms: "30 days",
    published: true,
  });
  account = Number(acct.id);
  // Three stock-tracked products not listed by the demo data, with stock on hand.
  const stocked = await own.q<{ id: number; name: string }>(sql`select p.id, p.name from product p
    where p.workspace_id = ${own.ws}::uuid and p.active and p.is_stock_tracked
      and not exists (select 1 from marketplace_product l where l.workspace_id = p.workspace_id and l.product_id = p.id)
    order by p.id limit 3`);
  const loc = await own.q<{ id: number }>(
    sql`select id from location where workspace_id = ${own.ws}::uuid order by id limit 1`,
  );
  await openingStock(own, stocked, Number(loc[0].id), 500);
  expect(stocked.length).toBe(3);
  listings = [];
  for (const [i, p] of stocked.slice(0, 2).entries()) {
    listings.push(
      await call<Listing>(SELLER, "marketplace_listing_save", {
        product_id: Number(p.id),
        title: `Market ${p.name}`,
        category: "Hardware",
        price: i === 0 ? "12.50" : "40.00",
        price_tiers: i === 0 ? [{ min_qty: "100", price: "11.00" }] : [],
        moq: "2",
        lead_time_days: 3,
      }),
    );
  }
  const hidden = await call<Listing>(SELLER, "marketplace_listing_save", {
    product_id: Number(stocked[2].id),
    title: "Not yet for sale",
    price: "5.00",
    published: false,
  });
  unpublished = Number(hidden.id);
}, 120_000);

const place = (email: string, lines: Array<{ marketplace_product_id: number; qty: string }>, note?: string) =>
  rpc(email, "marketplace_order_place", { seller_account_id: account, lines, note });

describe("marketplace: listings, orders and the two sets of books", () => {
  let order: Order;

  it("the demo data: demo sells 20 listings; orchard has orders in every status, one fulfilled and rated, a chat", async () => {
    const mine = await call<{ rows: Array<{ title: string }> }>(SELLER, "marketplace_search", {
      mine: true,
      limit: 200,
    });
    // Before this file's own listings: the 20 of the seed, and the 3 beforeAll made.
    expect(mine.rows.length).toBe(23);
    const bought = await call<Order[]>(BUYER, "marketplace_orders", { side: "buyer" });
    expect(new Set(bought.map((o) => o.status))).toEqual(
      new Set(["placed", "accepted", "rejected", "cancelled", "fulfilled"]),
    );
    const fulfilled = bought.find((o) => o.status === "fulfilled") as Order;
    expect(fulfilled).toMatchObject({
      rating: 5,
      delivered: "1.0000",
      invoiced: "1.0000",
      received: "1.0000",
      paid: "1.0000",
    });
    const pending = bought.find((o) => o.status === "placed") as Order & { thread_id: number };
    const chat = await call<{ messages: unknown[] }>(BUYER_OWNER, "marketplace_thread_messages", {
      thread_id: pending.thread_id,
    });
    expect(chat.messages.length).toBe(3);
    const sold = await call<Order[]>(SELLER, "marketplace_orders", { side: "seller" });
    expect(sold.map((o) => o.number).sort()).toEqual(bought.map((o) => o.number).sort());
  });

  it("shows published listings to a Premium buyer, with stock as in / low / out and never the seller's figures", async () => {
    const found = await call<{ rows: Array<Record<string, unknown>> }>(BUYER, "marketplace_search", { q: "Market" });
    const ids = found.rows.map((r) => Number(r.id));
    expect(ids).toEqual(expect.arrayContaining(listings.map((l) => Number(l.id))));
    expect(ids).not.toContain(unpublished);
    const row = found.rows.find((r) => Number(r.id) === Number(listings[0].id)) as Record<string, unknown>;
    expect(row).toMatchObject({ seller_name: "Harbourline Trading", stock_level: "in", stock_qty: null, mine: false });
    expect(row).not.toHaveProperty("cost");
    // Through /rest/v1 too: the published listing, not the unpublished one, and never the seller's product.
    const rest = await restFetch(
      BUYER,
      `marketplace_product?select=id,title,price&id=in.(${listings[0].id},${unpublished})`,
    );
    expect(rest.status, rest.text).toBe(200);
    expect((rest.body as Array<{ id: number }>).map((r) => Number(r.id))).toEqual([Number(listings[0].id)]);
    const product = await restFetch(BUYER, `product?select=id&id=eq.${listings[0].id}`);
    expect(product.body).toEqual([]);
  });

  it("refuses an order below the minimum quantity or from one's own listings, naming the line", async () => {
    const small = await place(BUYER, [{ marketplace_product_id: Number(listings[0].id), qty: "1" }]);
    expect(small.status).toBe(422);
    expect((small.body as { message: string }).message).toMatch(/Line 1: .* is sold from 2 units/);
    const mine = await place(SELLER, [{ marketplace_product_id: Number(listings[0].id), qty: "5" }]);
    expect(mine.status).toBe(422);
    const hidden = await place(BUYER, [{ marketplace_product_id: unpublished, qty: "5" }]);
    expect(hidden.status).toBe(422);
  });

  it("places an order at the listing's price (tiered by quantity); a later edit of the listing reprices nothing", async () => {
    const res = await place(
      BUYER,
      [
        { marketplace_product_id: Number(listings[0].id), qty: "100" },
        { marketplace_product_id: Number(listings[1].id), qty: "3" },
      ],
      "Deliver to the Orchard Road store",
    );
    expect(res.status, res.text).toBe(200);
    order = res.body as Order;
    expect(order).toMatchObject({ status: "placed", side: "buyer", subtotal: "1220.00", tax_total: "109.80" });
    expect(order.lines.map((l) => [l.qty, l.unit_price, l.line_total])).toEqual([
      ["100", "11.00", "1100.00"],
      ["3", "40.00", "120.00"],
    ]);
    await call(SELLER, "marketplace_listing_save", {
      id: Number(listings[0].id),
      product_id: (
        await own.q<{ product_id: number }>(
          sql`select product_id from marketplace_product where id = ${listings[0].id}`,
        )
      )[0].product_id,
      title: listings[0].title,
      category: "Hardware",
      price: "99.00",
      moq: "2",
    });
    const again = (await call<Order[]>(BUYER, "marketplace_orders", { id: order.id }))[0];
    expect(again.lines.map((l) => l.unit_price)).toEqual(["11.00", "40.00"]);
    expect(again.total).toBe("1329.80");
  });

  it("isolates the order, its lines and its chat from a third Premium workspace, a Pro workspace and anonymous", async () => {
    await call(BUYER, "marketplace_message_send", {
      marketplace_sales_order_id: order.id,
      body: "Can you deliver Friday?",
    });
    for (const table of [
      "marketplace_sales_order",
      "marketplace_sales_order_line",
      "marketplace_thread",
      "marketplace_message",
    ]) {
      const third = await restFetch(THIRD, `${table}?select=id`);
      expect(third.status, third.text).toBe(200);
      expect(third.body, table).toEqual([]);
      const pro = await restFetch(PRO, `${table}?select=id`);
      expect(pro.status, `${table}: ${pro.text}`).toBe(403);
      expect((pro.body as { code: string }).code).toBe("tier_required");
      const anon = await restFetch(null, `${table}?select=id`);
      expect([401, 403], `${table}: ${anon.text}`).toContain(anon.status);
    }
    const hidden = await restFetch(THIRD, `marketplace_product?select=id&id=eq.${unpublished}`);
    expect(hidden.body).toEqual([]);
    // Commands: the third party reads and writes nothing of the two parties'.
    expect(await call<Order[]>(THIRD, "marketplace_orders", {})).toEqual([]);
    expect((await rpc(THIRD, "marketplace_order_accept", { id: order.id })).status).toBe(404);
    expect(
      (await rpc(THIRD, "marketplace_message_send", { marketplace_sales_order_id: order.id, body: "hi" })).status,
    ).toBe(404);
    const threads = await call<{ threads: unknown[] }>(THIRD, "marketplace_threads", {});
    expect(threads.threads).toEqual([]);
    const pro = await rpc(PRO, "marketplace_search", {});
    expect(pro.status).toBe(403);
    expect((pro.body as { message: string }).message).toMatch(/Premium/);
    // The buyer cannot accept its own order; the seller's salesperson (no approve permission) cannot either.
    expect((await rpc(BUYER, "marketplace_order_accept", { id: order.id })).status).toBe(403);
    expect((await rpc("sales@demo.test", "marketplace_order_accept", { id: order.id })).status).toBe(403);
  });

  it("accepts once when accept is sent twice at once: one sales order and one purchase order, equal and linked", async () => {
    const [a, b] = await Promise.all([
      rpc(SELLER, "marketplace_order_accept", { id: order.id }),
      rpc(SELLER_STAFF, "marketplace_order_accept", { id: order.id }),
    ]);
    expect(a.status, a.text).toBe(200);
    expect(b.status, b.text).toBe(200);
    const seller = a.body as Order;
    expect(seller.status).toBe("accepted");
    expect(seller.sales_order_id).toBeTruthy();
    expect(seller.purchase_order_id).toBeNull(); // the buyer's document id is the buyer's
    const sos = await own.db.execute(sql`select id, workspace_id::text, status, total::text from sales_order
      where marketplace_order_id = ${order.id}`);
    const pos = await own.db.execute(sql`select id, workspace_id::text, status, total::text from purchase_order
      where marketplace_order_id = ${order.id}`);
    expect(sos.rows.length).toBe(1);
    expect(pos.rows.length).toBe(1);
    const so = sos.rows[0] as { id: number; workspace_id: string; total: string; status: string };
    const po = pos.rows[0] as { id: number; workspace_id: string; total: string; status: string };
    expect(so.workspace_id).toBe(own.ws);
    expect(po.workspace_id).not.toBe(own.ws);
    expect(so.total).toBe("1329.80");
    expect(po.total).toBe(so.total);
    const lines = async (table: string, parent: string, id: number) =>
      (
        await own.db.execute(sql`select trim_scale(qty)::text as qty, unit_price::text as price from ${sql.identifier(table)}
          where ${sql.identifier(parent)} = ${id} order by line_no, id`)
      ).rows;
    expect(await lines("purchase_order_line", "purchase_order_id", po.id)).toEqual(
      await lines("sales_order_line", "sales_order_id", so.id),
    );
    const buyerView = (await call<Order[]>(BUYER, "marketplace_orders", { id: order.id }))[0];
    expect(buyerView).toMatchObject({ status: "accepted", sales_order_id: null, purchase_order_id: Number(po.id) });
    expect((await rpc(SELLER, "marketplace_order_reject", { id: order.id, reason: "late" })).status).toBe(409);
    // The buyer reads its purchase order; the seller's sales order stays the seller's.
    expect((await restFetch(BUYER_OWNER, `purchase_order?select=id&id=eq.${po.id}`)).body).toHaveLength(1);
    expect((await restFetch(BUYER_OWNER, `sales_order?select=id&id=eq.${so.id}`)).body).toEqual([]);
    order = { ...order, sales_order_id: Number(so.id), purchase_order_id: Number(po.id) };
  });

  it("lets each side read only its own document's id on the order row, through /rest/v1 (select, filter, order)", async () => {
    const path = (extra: string) =>
      `marketplace_sales_order?select=id,sales_order_id,purchase_order_id&id=eq.${order.id}${extra}`;
    expect((await restFetch(SELLER, path(""))).body).toEqual([
      { id: order.id, sales_order_id: order.sales_order_id, purchase_order_id: null },
    ]);
    expect((await restFetch(BUYER_OWNER, path(""))).body).toEqual([
      { id: order.id, sales_order_id: null, purchase_order_id: order.purchase_order_id },
    ]);
    // `*` and filters see the same: the buyer cannot find the seller's id by guessing it, nor the seller the buyer's.
    const star = (await restFetch(BUYER_OWNER, `marketplace_sales_order?id=eq.${order.id}`)).body as Order[];
    expect(star[0]).toMatchObject({ sales_order_id: null, purchase_order_id: order.purchase_order_id });
    expect((await restFetch(BUYER_OWNER, path(`&sales_order_id=eq.${order.sales_order_id}`))).body).toEqual([]);
    expect((await restFetch(BUYER_OWNER, path("&sales_order_id=is.null"))).body).toHaveLength(1);
    expect((await restFetch(SELLER, path(`&purchase_order_id=eq.${order.purchase_order_id}`))).body).toEqual([]);
    expect((await restFetch(SELLER, path(`&or=(purchase_order_id.gt.0,sales_order_id.lt.0)`))).body).toEqual([]);
  });

  it("moves the order's progress as each side submits its own documents, to fulfilled; then the buyer rates", async () => {
    const progress = async () => (await call<Order[]>(BUYER, "marketplace_orders", { id: order.id }))[0];
    const loc = (await restFetch(SELLER, "location?select=id&order=id&limit=1")).body as Array<{ id: number }>;
    const delivery = await call<Doc>(SELLER, "document_convert", {
      type: "sales_order",
      id: order.sales_order_id,
      to: "delivery_order",
    });
    await call(SELLER, "document_save", {
      type: "delivery_order",
      id: delivery.id,
      header: { company_id: delivery.company_id, location_id: loc[0].id },
      lines: delivery.lines.map((l) => ({
        product_id: l.product_id,
        description: l.description,
        qty: l.qty,
        unit_price: l.unit_price,
        source_line_id: l.source_line_id,
      })),
    });
    await call(SELLER, "document_transition", { type: "delivery_order", id: delivery.id, action: "submit" });
    expect(await progress()).toMatchObject({ delivered: "1.0000", invoiced: "0.0000", status: "accepted" });

    const invoice = await call<Doc>(SELLER, "document_convert", {
      type: "delivery_order",
      id: delivery.id,
      to: "invoice",
    });
    await call(SELLER, "document_transition", { type: "invoice", id: invoice.id, action: "submit" });
    expect(await progress()).toMatchObject({ invoiced: "1.0000" });
    // The seller's invoice reached the buyer as a draft supplier invoice from its purchase order.
    const bills = await restFetch(
      BUYER_OWNER,
      "supplier_invoice?select=id,status,total,company_id&status=eq.draft&order=id.desc&limit=1",
    );
    const bill = (bills.body as Array<{ id: number; status: string; total: string; company_id: number }>)[0];
    expect(bill).toMatchObject({ status: "draft", total: "1329.80" });

    const buyerLoc = (await restFetch(BUYER_OWNER, "location?select=id&order=id&limit=1")).body as Array<{
      id: number;
    }>;
    const receipt = await call<Doc>(BUYER_OWNER, "document_convert", {
      type: "purchase_order",
      id: order.purchase_order_id,
      to: "supplier_delivery_order",
      header: { supplier_do_number: "HL-DO-1", location_id: buyerLoc[0].id },
    });
    await call(BUYER_OWNER, "document_transition", {
      type: "supplier_delivery_order",
      id: receipt.id,
      action: "submit",
    });
    expect(await progress()).toMatchObject({ received: "1.0000", paid: "0.0000" });

    await call(BUYER_OWNER, "document_transition", { type: "supplier_invoice", id: bill.id, action: "submit" });
    await call(BUYER_OWNER, "record_payment", {
      type: "supplier_payment",
      company_id: bill.company_id,
      amount: "1329.80",
      method: "bank_transfer",
      allocations: [{ document_type: "supplier_invoice", document_id: bill.id, amount: "1329.80" }],
    });
    const done = await progress();
    expect(done).toMatchObject({
      status: "fulfilled",
      delivered: "1.0000",
      invoiced: "1.0000",
      received: "1.0000",
      paid: "1.0000",
    });
    // The seller sees the same.
    expect((await call<Order[]>(SELLER, "marketplace_orders", { id: order.id }))[0].status).toBe("fulfilled");

    expect((await rpc(SELLER, "marketplace_order_rate", { id: order.id, rating: 5 })).status).toBe(403);
    const rated = await call<Order>(BUYER, "marketplace_order_rate", { id: order.id, rating: 4, note: "On time" });
    expect(rated.rating).toBe(4);
    expect((await rpc(BUYER, "marketplace_order_rate", { id: order.id, rating: 5 })).status).toBe(409);
    const profile = await call<{ rows: Array<{ seller_rating: string; seller_rating_count: number }> }>(
      BUYER,
      "marketplace_search",
      {
        seller_account_id: account,
      },
    );
    expect(profile.rows[0]).toMatchObject({ seller_rating_count: 2 }); // the demo data's, and this one
  });

  it("rejects with a reason; the buyer cancels a placed order; neither makes documents", async () => {
    const one = (await place(BUYER, [{ marketplace_product_id: Number(listings[1].id), qty: "2" }])).body as Order;
    const noReason = await rpc(SELLER, "marketplace_order_reject", { id: one.id, reason: " " });
    expect(noReason.status).toBe(422);
    const rejected = await call<Order>(SELLER, "marketplace_order_reject", { id: one.id, reason: "Out of season" });
    expect(rejected).toMatchObject({ status: "rejected", reject_reason: "Out of season" });
    const two = (await place(BUYER, [{ marketplace_product_id: Number(listings[1].id), qty: "2" }])).body as Order;
    expect((await call<Order>(BUYER, "marketplace_order_cancel", { id: two.id })).status).toBe("cancelled");
    const made = await own.db.execute(sql`select count(*)::int as n from sales_order
      where marketplace_order_id in (${one.id}, ${two.id})`);
    expect((made.rows[0] as { n: number }).n).toBe(0);
  });
});

describe("marketplace: a seller unpublishes its profile", () => {
  it("hides every listing at once, through the commands and /rest/v1, and shows them again when republished", async () => {
    const save = (published: boolean) =>
      call(SELLER, "marketplace_account_save", { display_name: "Harbourline Trading", published });
    const seen = async () => ({
      search: (await call<{ rows: unknown[] }>(BUYER, "marketplace_search", { seller_account_id: account })).rows
        .length,
      rest: ((await restFetch(BUYER, `marketplace_product?select=id&account_id=eq.${account}`)).body as unknown[])
        .length,
    });
    await save(false);
    expect(await seen()).toEqual({ search: 0, rest: 0 });
    expect((await place(BUYER, [{ marketplace_product_id: Number(listings[1].id), qty: "2" }])).status).toBe(422);
    await save(true);
    const back = await seen();
    expect(back.search).toBeGreaterThan(0);
    expect(back.rest).toBe(back.search);
  });

  it("finds listings by a word of the title, the category or the seller's name — the new name after a rename", async () => {
    const find = async (q: string) =>
      (await call<{ rows: Listing[] }>(BUYER, "marketplace_search", { q, seller_account_id: account })).rows.length;
    const all = (await call<{ rows: Listing[] }>(BUYER, "marketplace_search", { seller_account_id: account })).rows;
    expect(await find("HARBOURLINE")).toBe(all.length);
    expect(await find(all[0].title.slice(1, 6).toUpperCase())).toBeGreaterThan(0);
    await call(SELLER, "marketplace_account_save", { display_name: "Quayside Supply", published: true });
    expect(await find("quayside")).toBe(all.length);
    expect(await find("harbourline")).toBe(0);
    expect(await find("100%")).toBe(0); // % and _ are the buyer's letters, not patterns
    await call(SELLER, "marketplace_account_save", { display_name: "Harbourline Trading", published: true });
  });
});

async function member(email: string): Promise<SupabaseClient> {
  const client = createClient(own.server.url, await getAnonKey(), {
    auth: { persistSession: false, autoRefreshToken: false },
    realtime: { transport: WebSocket as never, timeout: 10_000 },
  });
  await client.realtime.setAuth(await tokenFor(email));
  clients.push(client);
  return client;
}

const joined = (channel: RealtimeChannel) =>
  new Promise<RealtimeChannel>((resolve, reject) => {
    channel.subscribe((status, err) => {
      if (status === "SUBSCRIBED") resolve(channel);
      else if (status !== "CLOSED") reject(err ?? new Error(status));
    });
  });

describe("marketplace chat over realtime (supabase-js)", () => {
  it("brings the buyer's message to the seller within a second, and never to a third workspace", async () => {
    const heard: Array<Record<string, unknown>> = [];
    const third: Array<Record<string, unknown>> = [];
    const seller = (await member(SELLER_STAFF)).channel("market-seller");
    seller.on("postgres_changes", { event: "INSERT", schema: "public", table: "marketplace_message" }, (p) =>
      heard.push(p.new as Record<string, unknown>),
    );
    await joined(seller);
    const other = (await member(THIRD)).channel("market-third");
    other.on("postgres_changes", { event: "*", schema: "public", table: "marketplace_message" }, (p) =>
      third.push(p.new as Record<string, unknown>),
    );
    await joined(other);
    // A Pro workspace cannot subscribe at all.
    const pro = (await member(PRO)).channel("market-pro");
    pro.on("postgres_changes", { event: "*", schema: "public", table: "marketplace_message" }, () => undefined);
    await expect(joined(pro)).rejects.toThrow(/Premium/);

    const body = `Is the stock ready? ${Date.now()}`;
    const sent = Date.now();
    const msg = await call<{ id: number; thread_id: number }>(BUYER, "marketplace_message_send", {
      marketplace_product_id: Number(listings[0].id),
      body,
    });
    while (!heard.some((m) => m.body === body) && Date.now() - sent < 5000) await new Promise((r) => setTimeout(r, 20));
    expect(heard.find((m) => m.body === body)).toMatchObject({ id: msg.id, thread_id: msg.thread_id });
    expect(Date.now() - sent).toBeLessThan(1000);

    // The seller's reply: the buyer's unread count, and the seller's own thread read.
    const before = await call<{ unread: number }>(BUYER, "marketplace_threads", {});
    await call(SELLER_STAFF, "marketplace_message_send", { thread_id: msg.thread_id, body: "Yes, ready Monday" });
    const after = await call<{ unread: number; threads: Array<{ id: number; unread: number }> }>(
      BUYER,
      "marketplace_threads",
      {},
    );
    expect(after.unread).toBe(before.unread + 1);
    const read = await call<{ messages: Array<{ body: string; mine: boolean }> }>(
      BUYER,
      "marketplace_thread_messages",
      {
        thread_id: msg.thread_id,
      },
    );
    expect(read.messages.map((m) => [m.body, m.mine])).toEqual([
      [body, true],
      ["Yes, ready Monday", false],
    ]);
    expect((await call<{ unread: number }>(BUYER, "marketplace_threads", {})).unread).toBe(before.unread);
    expect(third).toEqual([]);
  });

  it("joins the two parties in the thread's room (typing, presence) across their workspaces, and no one else", async () => {
    const { threads } = await call<{ threads: Array<{ id: number }> }>(BUYER, "marketplace_threads", {});
    const topic = `marketplace-thread:${threads[0].id}`;
    const typed: unknown[] = [];
    const seller = (await member(SELLER_STAFF)).channel(topic, { config: { presence: { key: "seller" } } });
    seller.on("broadcast", { event: "typing" }, (m) => typed.push(m.payload));
    await joined(seller);
    const buyer = (await member(BUYER)).channel(topic, { config: { presence: { key: "buyer" } } });
    await joined(buyer);
    await buyer.track({ at: "now" });
    await buyer.send({ type: "broadcast", event: "typing", payload: { name: "Benjamin" } });
    const until = Date.now() + 5000;
    while ((!typed.length || !Object.keys(seller.presenceState()).includes("buyer")) && Date.now() < until) {
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(typed).toEqual([{ name: "Benjamin" }]);
    expect(Object.keys(seller.presenceState())).toContain("buyer");
    // A third Premium workspace cannot join the room, nor a member of a party who may not read the chats.
    const third = (await member(THIRD)).channel(topic);
    await expect(joined(third)).rejects.toThrow(/not yours/);
    const driver = (await member("driver@demo.test")).channel(topic);
    await expect(joined(driver)).rejects.toThrow(/not yours/);
  });
});

describe("marketplace chat: files and the e-mail notice of unread messages", () => {
  const png = Buffer.from("89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489", "hex");
  const dataUrl = `data:image/png;base64,${png.toString("base64")}`;
  const notices = async (thread: number) =>
    (
      await own.db.execute(sql`select id, status, singleton_key from job where name = 'marketplace_unread_notice'
        and (payload->>'thread_id')::bigint = ${thread} order by id`)
    ).rows as Array<{ id: number; status: string }>;
  const runNotices = async () => {
    await own.db.execute(sql`update job set run_at = now() where name = 'marketplace_unread_notice'
      and status = 'queued'`);
    await own.server.running.app.jobs.drained();
  };
  const unreadMail = async () =>
    (await mailboxTo(own.server.url, SELLER)).filter((m) => m.subject.startsWith("Unread message from"));

  it("sends a file the two parties read, and no one else; refuses a file that is no data URL, naming it", async () => {
    const bad = await rpc(BUYER, "marketplace_message_send", {
      marketplace_product_id: Number(listings[0].id),
      body: "Our drawing",
      attachment: { name: "drawing.png", data: "not a file" },
    });
    expect(bad.status).toBe(422);
    expect(bad.text).toContain("attachment");
    const msg = await call<{ id: number; attachment_name: string; attachment_size: number }>(
      BUYER,
      "marketplace_message_send",
      {
        marketplace_product_id: Number(listings[0].id),
        body: "Our drawing",
        attachment: { name: "drawing.png", data: dataUrl },
      },
    );
    expect(msg).toMatchObject({ attachment_name: "drawing.png", attachment_size: png.length });
    for (const reader of [SELLER_STAFF, BUYER_OWNER]) {
      const file = await call<{ name: string; mime: string; data: string }>(reader, "marketplace_attachment", {
        message_id: msg.id,
      });
      expect(file).toMatchObject({ name: "drawing.png", mime: "image/png", data: png.toString("base64") });
    }
    expect((await rpc(THIRD, "marketplace_attachment", { message_id: msg.id })).status).toBe(404);
    expect((await rpc(PRO, "marketplace_attachment", { message_id: msg.id })).status).toBe(403);
    const anonymous = await restFetch(null, "rpc/marketplace_attachment", {
      method: "POST",
      body: JSON.stringify({ message_id: msg.id }),
    });
    expect([401, 403]).toContain(anonymous.status);
    // The message row says which file, never where it is kept.
    const row = (await restFetch(SELLER, `marketplace_message?id=eq.${msg.id}`)).body as Array<Record<string, unknown>>;
    expect(row[0]).toMatchObject({ attachment_name: "drawing.png", attachment_mime: "image/png" });
    expect(row[0]).not.toHaveProperty("attachment_key");
  });

  it("mails the seller once per stretch of unread a while later, not per message, and not once read", async () => {
    await runNotices(); // what earlier tests left due
    const first = await call<{ thread_id: number }>(BUYER, "marketplace_message_send", {
      marketplace_product_id: Number(listings[1].id),
      body: "Can you deliver to Jurong?",
    });
    const thread = Number(first.thread_id);
    const queued = await notices(thread);
    expect(queued.filter((j) => j.status === "queued")).toHaveLength(1);
    await call(BUYER, "marketplace_message_send", { thread_id: thread, body: "And on a Saturday?" });
    expect(await notices(thread)).toHaveLength(queued.length); // the same stretch: no second notice
    const before = (await unreadMail()).length;
    await runNotices();
    const mail = await mailboxTo(own.server.url, SELLER, (m) => m.length > 0);
    const got = (await unreadMail()).length;
    expect(got, JSON.stringify(mail.map((m) => m.subject))).toBe(before + 1);
    expect((await unreadMail())[0].text).toContain("And on a Saturday?");

    // Read by the seller: the next message starts a new stretch, which a read before its time silences.
    await call(SELLER_STAFF, "marketplace_thread_messages", { thread_id: thread });
    await call(BUYER, "marketplace_message_send", { thread_id: thread, body: "Saturday morning is best" });
    expect(await notices(thread)).toHaveLength(queued.length + 1);
    await call(SELLER_STAFF, "marketplace_thread_messages", { thread_id: thread });
    await runNotices();
    expect((await unreadMail()).length).toBe(got);
  });
});
