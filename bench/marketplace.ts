// Issue 23: the marketplace at scale.
// 1. listing search (marketplace_search, the buyers' browse page) over SELLERS seller workspaces with LISTINGS
//    published listings between them, generated in SQL — by a word, by a category and price, and unfiltered;
// 2. accept throughput: ORDERS orders placed by orchard with demo, accepted CONCURRENCY at a time (each accept makes
//    the seller's sales order and the buyer's purchase order in one transaction);
// 3. message fan-out: SOCKETS open chat pages of the seller (sockets subscribed to postgres_changes on
//    marketplace_message) — from sending marketplace_message_send (its command included) to the last socket's receipt.
// PGlite by default; TEST_DATABASE_URL=postgres://… to measure on PostgreSQL. Figures printed, never asserted.
// Run: node --import tsx bench/marketplace.ts   (BENCH_LISTINGS, BENCH_SELLERS, BENCH_ORDERS, BENCH_SOCKETS to scale)
import { sql } from "drizzle-orm";
import WebSocket from "ws";
import { startTestServer } from "../apps/server/test/harness.ts";

const LISTINGS = Number(process.env.BENCH_LISTINGS ?? 100_000);
const SELLERS = Number(process.env.BENCH_SELLERS ?? 1_000);
const ORDERS = Number(process.env.BENCH_ORDERS ?? 60);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 4);
const SOCKETS = Number(process.env.BENCH_SOCKETS ?? 500);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 20);
const PASSWORD = "demo-pass-2026";

// The demo data: demo's listings to order from, orchard to order.
const server = await startTestServer({ LOG_LEVEL: "silent", SEED: "demo", AUTH_RATE_LIMITS: "sign_in=100000/300" });
const db = server.running.database.db;
const config = (await (await fetch(`${server.url}/api/config`)).json()) as { anonKey: string };

async function tokenFor(email: string): Promise<string> {
  const res = await fetch(`${server.url}/auth/v1/token?grant_type=password`, {
    method: "POST",
    headers: { "content-type": "application/json", apikey: config.anonKey },
    body: JSON.stringify({ email, password: PASSWORD }),
  });
  if (!res.ok) throw new Error(`sign-in ${email}: ${res.status}`);
  return ((await res.json()) as { access_token: string }).access_token;
}

async function rpc<T>(token: string, fn: string, args: unknown): Promise<T> {
  const res = await fetch(`${server.url}/rest/v1/rpc/${fn}`, {
    method: "POST",
    headers: { "content-type": "application/json", apikey: config.anonKey, authorization: `Bearer ${token}` },
    body: JSON.stringify(args),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${fn}: ${res.status} ${text}`);
  return JSON.parse(text) as T;
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};
const ms = (n: number) => `${n.toFixed(1).padStart(7)} ms`;

try {
  console.log(`marketplace bench on ${server.databaseUrl ? "PostgreSQL" : "PGlite"}, node ${process.version}`);

  // ---- 1. search --------------------------------------------------------------------------------------------------
  let t = performance.now();
  await db.execute(sql`insert into workspace (slug, name, tier_id)
    select 'bench-seller-' || g, 'Bench Seller ' || g, 12 from generate_series(1, ${SELLERS}) g`);
  await db.execute(sql`insert into marketplace_account (workspace_id, display_name, about, published)
    select id, name, 'Generated seller', true from workspace where slug like 'bench-seller-%'`);
  const words = ["bolt", "nut", "washer", "bracket", "hinge", "cable", "pipe", "valve", "panel", "sealant"];
  const cats = ["Hardware", "Tools", "Electrical", "Plumbing", "Site supplies"];
  const titles = `{${words.join(",")}}`;
  await db.execute(sql`insert into marketplace_product (workspace_id, account_id, product_id, title, category, price,
      moq, lead_time_days, stock_level, published, published_at)
    select a.wss[1 + g % a.n], a.ids[1 + g % a.n], g,
      (${titles}::text[])[1 + g % 10] || ' ' || initcap((${titles}::text[])[1 + (g / 10) % 10]) || ' M' || (g % 40),
      (${`{${cats.join(",")}}`}::text[])[1 + g % 5], (1 + (g % 500))::numeric / 4, 1 + g % 5, g % 14,
      (array['in','low','out'])[1 + g % 3], true, now()
    from generate_series(1, ${LISTINGS}) g,
      (select array_agg(id order by id) as ids, array_agg(workspace_id order by id) as wss, count(*)::int as n
        from marketplace_account where display_name like 'Bench Seller %') a`);
  await db.execute(sql`analyze marketplace_product`);
  await db.execute(sql`analyze marketplace_account`);
  console.log(
    `generated ${SELLERS} sellers and ${LISTINGS} listings in ${((performance.now() - t) / 1000).toFixed(1)} s`,
  );

  const buyer = await tokenFor("procurement@orchard.test");
  const searches: Array<[string, Record<string, unknown>]> = [
    ["a word (ilike)", { q: "bracket" }],
    ["word + category + price", { q: "valve", category: "Plumbing", max_price: "50" }],
    ["lead time + price, page 3", { max_lead_time_days: 2, max_price: "20", offset: 100 }],
    ["unfiltered first page", {}],
  ];
  for (const [name, args] of searches) {
    await rpc(buyer, "marketplace_search", { ...args, limit: 50 }); // warm
    const times: number[] = [];
    let rows = 0;
    for (let i = 0; i < ROUNDS; i++) {
      const s = performance.now();
      rows = (await rpc<{ rows: unknown[] }>(buyer, "marketplace_search", { ...args, limit: 50 })).rows.length;
      times.push(performance.now() - s);
    }
    console.log(
      `search ${name.padEnd(28)} p50 ${ms(pct(times, 50))}  p95 ${ms(pct(times, 95))}  (${rows} rows a page)`,
    );
  }

  // ---- 2. accept throughput ---------------------------------------------------------------------------------------
  const seller = await tokenFor("owner@demo.test");
  const demoListing = (
    await rpc<{ rows: Array<{ id: number; account_id: number; moq: string; stock_level: string }> }>(
      seller,
      "marketplace_search",
      { mine: true, limit: 50 },
    )
  ).rows.find((r) => r.stock_level !== "out");
  if (!demoListing) throw new Error("the demo data has no listing in stock");
  const placed: number[] = [];
  for (let i = 0; i < ORDERS; i++) {
    const o = await rpc<{ id: number }>(buyer, "marketplace_order_place", {
      seller_account_id: Number(demoListing.account_id),
      lines: [{ marketplace_product_id: Number(demoListing.id), qty: String(Math.max(5, Number(demoListing.moq))) }],
    });
    placed.push(Number(o.id));
  }
  t = performance.now();
  const latencies: number[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < placed.length) {
        const id = placed[next++];
        const s = performance.now();
        await rpc(seller, "marketplace_order_accept", { id });
        latencies.push(performance.now() - s);
      }
    }),
  );
  const secs = (performance.now() - t) / 1000;
  console.log(
    `accept ${ORDERS} orders, ${CONCURRENCY} at a time: ${(ORDERS / secs).toFixed(1)} accepts/s   p50 ${ms(pct(latencies, 50))}  p95 ${ms(pct(latencies, 95))}`,
  );

  // ---- 3. message fan-out -----------------------------------------------------------------------------------------
  const readers = await Promise.all(["owner", "admin", "manager"].map((u) => tokenFor(`${u}@demo.test`)));
  type Frame = [string | null, string | null, string, string, Record<string, unknown>];
  const got: Array<(body: string) => void> = [];
  const sockets: WebSocket[] = [];
  const url = `${server.url.replace(/^http/, "ws")}/realtime/v1/websocket?apikey=${config.anonKey}&vsn=2.0.0`;
  for (let i = 0; i < SOCKETS; i++) {
    const ws = new WebSocket(url);
    sockets.push(ws);
    await new Promise((resolve, reject) => {
      ws.once("open", resolve);
      ws.once("error", reject);
    });
    const joined = new Promise<void>((resolve, reject) => {
      ws.on("message", (d) => {
        const f = JSON.parse(String(d)) as Frame;
        if (f[3] === "phx_reply" && f[1] === "1") {
          if ((f[4] as { status: string }).status === "ok") resolve();
          else reject(new Error(JSON.stringify(f[4])));
        } else if (f[3] === "postgres_changes") {
          const rec = ((f[4] as { data?: { record?: { body?: string } } }).data?.record ?? {}) as { body?: string };
          if (rec.body) got[i]?.(rec.body);
        }
      });
    });
    const config = { postgres_changes: [{ event: "INSERT", schema: "public", table: "marketplace_message" }] };
    ws.send(JSON.stringify(["1", "1", `realtime:chat-${i}`, "phx_join", { config, access_token: readers[i % 3] }]));
    await joined;
  }
  const fanout: number[] = [];
  for (let r = 0; r < Math.min(ROUNDS, 10); r++) {
    const body = `bench message ${r} ${Date.now()}`;
    let left = SOCKETS;
    const all = new Promise<number>((resolve) => {
      for (let i = 0; i < SOCKETS; i++) {
        got[i] = (b) => {
          if (b !== body) return;
          left -= 1;
          if (left === 0) resolve(performance.now());
        };
      }
    });
    const sentAt = performance.now();
    await rpc(buyer, "marketplace_message_send", { marketplace_product_id: Number(demoListing.id), body });
    fanout.push((await all) - sentAt);
  }
  console.log(
    `message fan-out to ${SOCKETS} chat sockets: from the send (its command included) to the last receipt, p50 ${ms(pct(fanout, 50))}  max ${ms(Math.max(...fanout))}`,
  );
  for (const ws of sockets) ws.terminate();
} finally {
  await server.close();
}
