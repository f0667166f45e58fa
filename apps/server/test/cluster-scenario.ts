// Issue 25, the fault test's scenario: mixed load through nginx on a running `npm run cluster` while faults are done
// to it, then a check of what the clients were told against the database. Run for 10 minutes by
// bench/cluster-faults.ts (the figures) and for about a minute in CI by cluster-faults.api.test.ts (the cluster of its
// own it starts and stops).
//
// The load, by `workers` client loops: sign-ins, lists (/rest/v1 GET), a report command, invoices made and submitted
// (document_save + document_transition, each with an Idempotency-Key), invoice e-mails (a job each); a POS counter
// whose sales are replayed from its outbox (each sale sent through nginx, then sent again with the same
// Idempotency-Key straight to another instance, as the POS app replays what it is not sure was taken); marketplace
// messages between the orchard buyer and the demo seller, each heard over realtime (postgres_changes) by the other
// side; signed Meta webhooks, each delivered twice (Meta redelivers what it is not sure of); and two members of one
// workspace broadcasting over realtime while a member of another listens on the same channel name.
// A client retries what it may — a GET, a command with its Idempotency-Key, a sign-in, a webhook — after a
// connection error or a 502/503/504, as supabase-js, our web client and Meta do; what still fails after the retries
// is lost.
// Afterwards: every invoice, POS sale, marketplace message and webhook message answered 2xx is there once; invoice
// and POS numbers have no gap; the books balance; stock equals the sum of its moves (the POS product's on hand is its
// opening less what the answered sales sold, each sale's lines moved once, and stock_levels says the same); each
// e-mail answered 2xx was sent once (its job neither lost nor run twice); no realtime message arrived twice or in
// another workspace; no job is left dead or stuck.
import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { promisify } from "node:util";
import { createClient, type RealtimeChannel, type SupabaseClient } from "@supabase/supabase-js";
import pg from "pg";
import WebSocket from "ws";
import { type FakeMeta, sign, waWebhook } from "./fake-meta-graph.ts";

const root = path.resolve(import.meta.dirname, "../../..");
const PASSWORD = "demo-pass-2026";
const OWNER = "owner@demo.test";
const SALES = "sales@demo.test";
const ADMIN = "admin@demo.test";
const MANAGER = "manager@demo.test";
const CASHIER = "pos@demo.test";
const BUYER = "procurement@orchard.test";
const BUYER_LISTENER = "owner@orchard.test";
const OTHER = "admin@pro.test"; // another workspace

export type FaultPlan = "full" | "short";
export type ScenarioOptions = {
  base: string; // nginx, e.g. http://localhost:8080
  dataDir: string; // the cluster's DATA_DIR (cluster.json, instances.json)
  seconds: number;
  workers: number;
  // full: SIGKILL of an instance every minute, a rolling restart, an nginx reload, the replica stopped and started,
  // the primary restarted. short: one SIGKILL and restart, one nginx reload, the replica stopped and started.
  plan: FaultPlan;
  env: NodeJS.ProcessEnv; // for scripts/cluster.mjs (DATA_DIR, the ports)
  meta?: { secret: string; fake: FakeMeta }; // webhooks: the cluster's META_APP_SECRET, META_GRAPH_URL = fake.url
  log?: (line: string) => void;
};
export type ScenarioResult = { problems: string[]; report: string[] };

type Kind = "signin" | "list" | "report" | "invoice" | "email" | "pos" | "market" | "webhook";
const RETRYABLE = new Set([502, 503, 504]);
type Answer = { status: number; body: unknown };

export async function runFaultScenario(o: ScenarioOptions): Promise<ScenarioResult> {
  const DIR = path.join(o.dataDir, "cluster");
  const log = o.log ?? ((line: string) => console.log(line));
  const report: string[] = [];
  const out = (line: string) => {
    report.push(line);
    log(line);
  };
  const state = JSON.parse(readFileSync(path.join(DIR, "cluster.json"), "utf8")) as { primaryUrl: string };
  // The instances' ports; instances.json is rewritten while an instance restarts, so the last good reading stands.
  let ports: number[] = [];
  const instancePorts = () => {
    try {
      const read = (JSON.parse(readFileSync(path.join(DIR, "instances.json"), "utf8")) as Array<{ port: number }>).map(
        (i) => i.port,
      );
      if (read.length) ports = read;
    } catch {
      // half-written: keep the last
    }
    return ports;
  };
  instancePorts();
  const run = randomUUID().slice(0, 8);

  // ---- a client that retries what it may -------------------------------------------------------------------------

  const stats = {
    requests: 0,
    firstTryFailures: 0,
    retries: 0,
    lost: 0,
    lostOutsidePrimary: 0,
    byKind: {} as Record<string, { ok: number; lost: number; latencies: number[] }>,
    lostSamples: [] as string[],
  };
  let primaryWindow: { from: number; to: number } | null = null;
  const inPrimaryWindow = (t: number) =>
    primaryWindow !== null && t >= primaryWindow.from && t <= primaryWindow.to + 5_000;

  async function call(
    kind: Kind,
    method: string,
    url: string,
    opts: { token?: string; body?: unknown; raw?: string; key?: string; anon?: string; headers?: object; at?: string },
  ): Promise<Answer | null> {
    const started = Date.now();
    stats.byKind[kind] ??= { ok: 0, lost: 0, latencies: [] };
    const k = stats.byKind[kind];
    stats.requests++;
    let last = "";
    for (let attempt = 0; attempt < 8; attempt++) {
      if (attempt > 0) {
        stats.retries++;
        await sleep(Math.min(2_000, 150 * 2 ** attempt));
      }
      // A request sent straight to one instance (a replay) goes to the next one when that one is down.
      const base = opts.at && attempt < 2 ? opts.at : o.base;
      try {
        const body = opts.raw ?? (opts.body !== undefined ? JSON.stringify(opts.body) : undefined);
        const res = await fetch(`${base}${url}`, {
          method,
          headers: {
            ...(opts.anon ? { apikey: opts.anon, authorization: `Bearer ${opts.token ?? opts.anon}` } : {}),
            ...(body !== undefined ? { "content-type": "application/json" } : {}),
            ...(opts.key ? { "idempotency-key": opts.key } : {}),
            ...(opts.headers ?? {}),
          },
          body,
          signal: AbortSignal.timeout(30_000),
        });
        const text = await res.text();
        if (RETRYABLE.has(res.status)) {
          if (attempt === 0) stats.firstTryFailures++;
          last = `${res.status} ${text.slice(0, 120)}`;
          continue;
        }
        k.ok++;
        k.latencies.push(Date.now() - started);
        let parsed: unknown = text;
        try {
          parsed = text ? JSON.parse(text) : null;
        } catch {
          // a text answer (the webhook's EVENT_RECEIVED)
        }
        return { status: res.status, body: parsed };
      } catch (err) {
        if (attempt === 0) stats.firstTryFailures++;
        last = (err as Error).cause ? String((err as Error & { cause: Error }).cause.message) : (err as Error).message;
      }
    }
    stats.lost++;
    k.lost++;
    if (!inPrimaryWindow(started)) stats.lostOutsidePrimary++;
    if (stats.lostSamples.length < 10) stats.lostSamples.push(`${kind} ${method} ${url}: ${last}`);
    return null;
  }

  const anon = ((await (await fetch(`${o.base}/api/config`)).json()) as { anonKey: string }).anonKey;

  async function signIn(email: string): Promise<string> {
    for (let i = 0; i < 20; i++) {
      const r = await call("signin", "POST", "/auth/v1/token?grant_type=password", {
        anon,
        body: { email, password: PASSWORD },
      });
      if (r?.status === 200) return (r.body as { access_token: string }).access_token;
      if (r) throw new Error(`sign-in ${email}: ${r.status} ${JSON.stringify(r.body)}`);
    }
    throw new Error(`sign-in ${email}: lost 20 times`);
  }
  // A command with an Idempotency-Key, that must be answered 200 (the setup's).
  async function must<T>(token: string, fn: string, body: unknown): Promise<T> {
    const r = await call("report", "POST", `/rest/v1/rpc/${fn}`, { token, anon, body, key: randomUUID() });
    if (r?.status !== 200) throw new Error(`${fn}: ${r ? `${r.status} ${JSON.stringify(r.body)}` : "lost"}`);
    return r.body as T;
  }
  async function list<T>(token: string, url: string): Promise<T[]> {
    const r = await call("list", "GET", url, { token, anon });
    if (r?.status !== 200) throw new Error(`GET ${url}: ${r ? `${r.status} ${JSON.stringify(r.body)}` : "lost"}`);
    return r.body as T[];
  }

  // ---- the setup: what the load works on --------------------------------------------------------------------------

  const ownerToken = await signIn(OWNER);
  const company = (
    await list<{ id: number }>(ownerToken, "/rest/v1/company?select=id&is_customer=is.true&order=id&limit=1")
  )[0].id;
  const products = await list<{ id: number; price: string }>(
    ownerToken,
    "/rest/v1/product?select=id,price&price=gt.5&is_stock_tracked=is.true&active=is.true&tax_code=eq.SR&order=id&limit=3",
  );
  if (products.length < 3) throw new Error("the scenario needs three stock-tracked products with a price");
  const [invoiceProduct, posProduct, listedProduct] = products;
  const location = (await list<{ id: number }>(ownerToken, "/rest/v1/location?select=id&order=id&limit=1"))[0].id;
  // The primary, straight (not through the app), for the setup's and the checks' reads: a connection of its own for
  // each, since the primary is restarted in between.
  const connect = async () => {
    const client = new pg.Client({ connectionString: state.primaryUrl });
    client.on("error", () => undefined); // a restart of the primary ends it; the next use connects again
    await client.connect();
    return client;
  };
  let db = await connect();
  const ws = (await db.query<{ workspace_id: string }>('select workspace_id from "user" where email = $1', [OWNER]))
    .rows[0].workspace_id;
  const onHand = async () =>
    Number(
      (
        await db.query<{ n: string }>(
          "select coalesce(sum(qty), 0)::text as n from stock_move where workspace_id = $1 and product_id = $2 and location_id = $3",
          [ws, posProduct.id, location],
        )
      ).rows[0].n,
    );

  // The POS counter: the cashier's session (open already when the bench runs again).
  const cashierToken = await signIn(CASHIER);
  const opened = await call("pos", "POST", "/rest/v1/rpc/pos_session_open", {
    token: cashierToken,
    anon,
    key: randomUUID(),
    body: { location_id: location, opening_float: "100.00" },
  });
  if (opened?.status !== 200 && !(opened && [409, 422].includes(opened.status))) {
    throw new Error(`pos_session_open: ${opened ? `${opened.status} ${JSON.stringify(opened.body)}` : "lost"}`);
  }
  // Stock to sell (POS refuses to sell what is not on hand): a count of the product, applied by the owner.
  const counted = await must<{ id: number }>(ownerToken, "stock_count_submit", {
    location_id: location,
    lines: [{ product_id: posProduct.id, counted_qty: String(Math.max(0, await onHand()) + 10_000) }],
  });
  await must(ownerToken, "document_transition", {
    type: "stock_count",
    id: counted.id,
    action: "apply",
    reason: "Stock for the fault test",
  });
  const stockBefore = await onHand();
  await db.end();
  const posPrice = (Math.round(Number(posProduct.price) * 109) / 100).toFixed(2);

  // The marketplace: demo sells (a published profile and a listing), orchard's buyer opens a thread about it.
  const sellerToken = ownerToken;
  if (!(await must<unknown>(sellerToken, "marketplace_account_mine", {}))) {
    await must(sellerToken, "marketplace_account_save", { display_name: "Demo Trading", published: true });
  }
  const listings = await list<{ id: number }>(
    sellerToken,
    `/rest/v1/marketplace_product?select=id&product_id=eq.${listedProduct.id}&limit=1`,
  );
  const listing =
    listings[0]?.id ??
    (
      await must<{ id: number }>(sellerToken, "marketplace_listing_save", {
        product_id: listedProduct.id,
        title: `Cluster fault test ${run}`,
        price: listedProduct.price,
        published: true,
      })
    ).id;
  const buyerToken = await signIn(BUYER);
  const firstMessage = await must<{ id: number; thread_id: number }>(buyerToken, "marketplace_message_send", {
    marketplace_product_id: listing,
    body: `fault ${run} hello`,
  });
  const thread = firstMessage.thread_id;

  // Webhooks: a WhatsApp number of this run's, connected by the demo admin (its token checked by the fake Graph API).
  const phoneId = `1098${Date.now() % 1e11}`;
  if (o.meta) {
    const token = `EAAGfault${run}${"x".repeat(32)}`;
    o.meta.fake.grant(token, { [phoneId]: { display_phone_number: "+65 6000 0001", verified_name: "Demo Trading" } });
    await must(await signIn(ADMIN), "channel_connect", {
      channel: "whatsapp",
      external_id: phoneId,
      access_token: token,
    });
  }

  // ---- realtime ---------------------------------------------------------------------------------------------------

  const rt = { sent: 0, received: 0, duplicates: 0, foreign: 0, reconnects: 0 };
  const market = { heard: 0, duplicates: 0, foreign: 0 };
  const realtimeClients: SupabaseClient[] = [];
  async function realtimeClient(email: string, topic: string, on: (ch: RealtimeChannel) => void) {
    const client: SupabaseClient = createClient(o.base, anon, {
      auth: { persistSession: false, autoRefreshToken: false },
      realtime: { transport: WebSocket as never, timeout: 10_000 },
    });
    realtimeClients.push(client);
    await client.realtime.setAuth(await signIn(email));
    let joined = false;
    const channel: RealtimeChannel = client.channel(topic, { config: { broadcast: { self: false } } });
    on(channel);
    channel.subscribe((status) => {
      if (status === "SUBSCRIBED") {
        if (joined === false && rt.sent > 0) rt.reconnects++;
        joined = true;
      } else joined = false;
    });
    return { channel, joined: () => joined };
  }
  const seen = new Set<number>();
  const a = await realtimeClient(OWNER, `fault-${run}`, () => undefined);
  const b = await realtimeClient(SALES, `fault-${run}`, (ch) =>
    ch.on("broadcast", { event: "tick" }, (m) => {
      const seq = (m.payload as { seq: number }).seq;
      if (seen.has(seq)) rt.duplicates++;
      else rt.received++;
      seen.add(seq);
    }),
  );
  await realtimeClient(OTHER, `fault-${run}`, (ch) =>
    ch.on("broadcast", { event: "tick" }, () => {
      rt.foreign++;
    }),
  );
  // Each side of the marketplace thread hears the other's messages (by id: twice is a duplicate; a message of
  // another thread of this run's is foreign).
  const marketSent = new Map<number, string>(); // id → sender side
  const heardBy = { seller: new Set<number>(), buyer: new Set<number>() };
  const listen = (side: "seller" | "buyer") => (ch: RealtimeChannel) =>
    ch.on("postgres_changes", { event: "INSERT", schema: "public", table: "marketplace_message" }, (p) => {
      const m = p.new as { id: number; thread_id: number; body: string };
      if (!String(m.body).startsWith(`fault ${run}`)) return;
      if (Number(m.thread_id) !== thread) market.foreign++;
      if (heardBy[side].has(Number(m.id))) market.duplicates++;
      else market.heard++;
      heardBy[side].add(Number(m.id));
    });
  await realtimeClient(MANAGER, `market-seller-${run}`, listen("seller"));
  await realtimeClient(BUYER_LISTENER, `market-buyer-${run}`, listen("buyer"));
  await sleep(1_000);

  // ---- the load ---------------------------------------------------------------------------------------------------

  const invoices: Array<{ id: number; number: string }> = [];
  const emails: string[] = [];
  let refusedEmails = 0;
  const sales: Array<{ id: number; number: string }> = [];
  let replayMismatches = 0;
  const webhooks: string[] = []; // wamids answered 200 (twice)
  const failures: string[] = [];
  const unexpected = (what: string, r: Answer) => {
    if (failures.length < 10) failures.push(`${what}: ${r.status} ${JSON.stringify(r.body).slice(0, 200)}`);
  };

  async function worker(n: number, until: number): Promise<void> {
    let token = await signIn(n % 2 ? OWNER : ADMIN);
    let i = 0;
    while (Date.now() < until) {
      const turn = i++ % 10;
      if (turn === 0 && n === 0) {
        token = await signIn(OWNER);
      } else if (turn < 5) {
        const url = [
          "/rest/v1/company?select=id,name&is_customer=is.true&order=name&limit=50",
          "/rest/v1/invoice?select=id,number,status,total&order=id.desc&limit=20",
          "/rest/v1/product?select=id,sku,name,price&order=sku&limit=50",
        ][turn % 3];
        await call("list", "GET", url, { token, anon });
      } else if (turn < 7) {
        await call("report", "POST", "/rest/v1/rpc/dashboard_summary", { token, anon, body: {}, key: randomUUID() });
      } else if (turn === 9 && n === 1 && i % 30 === 0 && invoices.length) {
        const inv = invoices[invoices.length - 1];
        const to = `fault-${run}-${emails.length}@example.test`;
        const r = await call("email", "POST", "/rest/v1/rpc/document_email", {
          token,
          anon,
          body: { type: "invoice", id: inv.id, to: [to] },
          key: randomUUID(),
        });
        if (r?.status === 200) emails.push(to);
        else if (r) refusedEmails++;
      } else {
        const saved = await call("invoice", "POST", "/rest/v1/rpc/document_save", {
          token,
          anon,
          key: randomUUID(),
          body: {
            type: "invoice",
            header: { company_id: company },
            lines: [{ product_id: invoiceProduct.id, qty: "1" }],
          },
        });
        if (saved?.status !== 200) {
          if (saved) unexpected("document_save", saved);
          continue;
        }
        const id = (saved.body as { id: number }).id;
        const submitted = await call("invoice", "POST", "/rest/v1/rpc/document_transition", {
          token,
          anon,
          key: randomUUID(),
          body: { type: "invoice", id, action: "submit" },
        });
        if (submitted?.status === 200) invoices.push({ id, number: (submitted.body as { number: string }).number });
        else if (submitted) unexpected("submit", submitted);
      }
    }
  }

  // The POS counter: a sale through nginx, then the outbox's replay of it (same key) straight at another instance.
  async function counter(until: number): Promise<void> {
    let k = 0;
    while (Date.now() < until) {
      await sleep(400);
      const key = randomUUID();
      const body = {
        lines: [{ product_id: posProduct.id, qty: "1", unit_price_incl_gst: posPrice }],
        payments: [{ method: "cash", amount: "200.00" }],
      };
      const first = await call("pos", "POST", "/rest/v1/rpc/pos_sale", { token: cashierToken, anon, key, body });
      const live = instancePorts();
      const at = `http://127.0.0.1:${live[k++ % live.length]}`;
      const replay = await call("pos", "POST", "/rest/v1/rpc/pos_sale", {
        token: cashierToken,
        anon,
        key,
        body,
        at,
      });
      const answered = [first, replay].filter((r): r is Answer => r?.status === 200);
      for (const r of [first, replay]) if (r && r.status !== 200) unexpected("pos_sale", r);
      if (answered.length === 2) {
        const [x, y] = answered.map((r) => r.body as { id: number; number: string });
        if (x.id !== y.id || x.number !== y.number) replayMismatches++;
      }
      if (answered.length) {
        const s = answered[0].body as { id: number; number: string };
        sales.push({ id: Number(s.id), number: s.number });
      }
    }
  }

  // Buyer and seller take turns on the thread.
  async function chat(until: number): Promise<void> {
    let k = 0;
    while (Date.now() < until) {
      await sleep(700);
      const side = k++ % 2 ? "seller" : "buyer";
      const r = await call("market", "POST", "/rest/v1/rpc/marketplace_message_send", {
        token: side === "seller" ? sellerToken : buyerToken,
        anon,
        key: randomUUID(),
        body: { thread_id: thread, body: `fault ${run} ${side} ${k}` },
      });
      if (r?.status === 200) marketSent.set(Number((r.body as { id: number }).id), side);
      else if (r) unexpected("marketplace_message_send", r);
    }
  }

  // Meta: a signed webhook with a new message, delivered, then redelivered.
  async function meta(until: number, secret: string): Promise<void> {
    let k = 0;
    while (Date.now() < until) {
      await sleep(900);
      const wamid = `wamid.fault${run}.${k++}`;
      const raw = JSON.stringify(
        waWebhook([
          {
            phoneNumberId: phoneId,
            messages: [
              {
                from: `65900${String(k % 7).padStart(5, "0")}`,
                id: wamid,
                timestamp: String(Math.floor(Date.now() / 1000)),
                type: "text",
                text: { body: `order ${k}` },
              },
            ],
          },
        ]),
      );
      let ok = 0;
      for (let d = 0; d < 2; d++) {
        const r = await call("webhook", "POST", "/webhooks/meta", {
          raw,
          headers: { "x-hub-signature-256": sign(secret, raw) },
        });
        if (r?.status === 200) ok++;
        else if (r) unexpected("webhook", r);
      }
      if (ok) webhooks.push(wamid);
    }
  }

  // ---- faults -----------------------------------------------------------------------------------------------------

  const faults: string[] = [];
  const exec = promisify(execFile); // asynchronously: the load goes on while a fault is under way
  const cluster = async (...args: string[]) => {
    const t = Date.now();
    await exec(process.execPath, [path.join(root, "scripts/cluster.mjs"), ...args], { env: o.env });
    faults.push(`${new Date(t).toISOString().slice(11, 19)} ${args.join(" ")} (${Date.now() - t} ms)`);
  };

  async function faultPlan(start: number, until: number): Promise<void> {
    const n = instancePorts().length;
    const at = (fraction: number) => start + fraction * (until - start);
    const plan: Array<{ t: number; run: () => Promise<void> | void }> = [];
    if (o.plan === "short") {
      plan.push({ t: at(0.15), run: () => cluster("restart", "1", "--kill") });
      plan.push({ t: at(0.45), run: () => cluster("reload-nginx") });
      plan.push({ t: at(0.55), run: () => cluster("replica", "stop") });
      plan.push({ t: at(0.7), run: () => cluster("replica", "start") });
    } else {
      const killEvery = Math.max(20_000, Math.min(60_000, (until - start) / 6));
      for (let t = start + killEvery / 2, k = 0; t < until - 10_000; t += killEvery, k++) {
        plan.push({ t, run: () => cluster("restart", String((k % n) + 1), "--kill") });
      }
      plan.push({ t: at(0.3), run: () => cluster("rolling-restart") });
      plan.push({ t: at(0.45), run: () => cluster("reload-nginx") });
      plan.push({ t: at(0.55), run: () => cluster("replica", "stop") });
      plan.push({ t: at(0.65), run: () => cluster("replica", "start") });
      plan.push({
        t: at(0.8),
        run: async () => {
          primaryWindow = { from: Date.now(), to: Date.now() };
          await cluster("primary", "restart");
          primaryWindow.to = Date.now();
        },
      });
    }
    plan.sort((x, y) => x.t - y.t);
    for (const step of plan) {
      if (step.t > Date.now()) await sleep(step.t - Date.now());
      try {
        await step.run();
      } catch (err) {
        faults.push(`FAILED: ${(err as Error).message.slice(0, 300)}`);
      }
    }
  }

  // ---- the run ----------------------------------------------------------------------------------------------------

  log(`fault test: ${o.seconds} s of load by ${o.workers} clients through ${o.base}, run ${run}, plan ${o.plan}`);
  const start = Date.now();
  const until = start + o.seconds * 1000;
  const sender = (async () => {
    let seq = 0;
    while (Date.now() < until) {
      await sleep(250);
      if (!a.joined() || !b.joined()) continue;
      rt.sent++;
      await a.channel.send({ type: "broadcast", event: "tick", payload: { seq: ++seq } }).catch(() => undefined);
    }
  })();
  const progress = setInterval(() => {
    const s = Math.round((Date.now() - start) / 1000);
    log(
      `  ${s}s: ${stats.requests} requests, ${stats.retries} retries, ${stats.lost} lost, ${invoices.length} invoices, ` +
        `${sales.length} POS sales, ${marketSent.size} chat messages, ${webhooks.length} webhooks, realtime ${rt.received}/${rt.sent}`,
    );
  }, 30_000);
  const results = await Promise.allSettled([
    ...Array.from({ length: o.workers }, (_, n) => worker(n, until)),
    counter(until),
    chat(until),
    ...(o.meta ? [meta(until, o.meta.secret)] : []),
    faultPlan(start, until),
    sender,
  ]);
  clearInterval(progress);
  await sleep(3_000); // the last broadcasts
  const problems: string[] = [];
  for (const r of results) {
    if (r.status === "rejected") problems.push(`a client stopped: ${(r.reason as Error).message}`);
  }
  for (const c of realtimeClients) await c.removeAllChannels();

  const elapsed = (Date.now() - start) / 1000;
  out("faults:");
  for (const f of faults) out(`  ${f}`);
  if (faults.some((f) => f.startsWith("FAILED"))) problems.push("a fault could not be done (see faults)");
  out(`requests: ${stats.requests} in ${elapsed.toFixed(0)} s (${(stats.requests / elapsed).toFixed(1)}/s)`);
  out(`  failed at the first try (then retried): ${stats.firstTryFailures}, retries ${stats.retries}`);
  out(`  lost after retries: ${stats.lost}, outside the primary's restart window: ${stats.lostOutsidePrimary}`);
  out(
    `  error rate outside the primary's restart: ${((100 * stats.lostOutsidePrimary) / Math.max(1, stats.requests)).toFixed(3)} %`,
  );
  for (const s of stats.lostSamples) out(`    lost: ${s}`);
  for (const f of failures) out(`    refused: ${f}`);
  const pct = (xs: number[], p: number) => {
    if (!xs.length) return 0;
    const s = [...xs].sort((x, y) => x - y);
    return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
  };
  for (const [kind, k] of Object.entries(stats.byKind)) {
    out(
      `  ${kind.padEnd(8)} ${String(k.ok).padStart(6)} ok ${String(k.lost).padStart(3)} lost   p50 ${pct(k.latencies, 50)} ms   p99 ${pct(k.latencies, 99)} ms`,
    );
  }
  const all = Object.values(stats.byKind).flatMap((k) => k.latencies);
  out(`  all      p50 ${pct(all, 50)} ms   p99 ${pct(all, 99)} ms`);
  out(
    `realtime: ${rt.sent} broadcasts sent while both were joined, ${rt.received} received (${((100 * rt.received) / Math.max(1, rt.sent)).toFixed(1)} %), ` +
      `${rt.duplicates} twice, ${rt.foreign} in the other workspace, ${rt.reconnects} rejoins`,
  );
  out(
    `marketplace: ${marketSent.size} messages answered 2xx, heard over realtime by a seller's and a buyer's member: ` +
      `${market.heard} of ${2 * marketSent.size} (${((100 * market.heard) / Math.max(1, 2 * marketSent.size)).toFixed(1)} %), ` +
      `${market.duplicates} twice, ${market.foreign} of another thread`,
  );
  out(`e-mails: ${emails.length} answered 2xx, ${refusedEmails} refused`);
  out(
    `POS: ${sales.length} sales answered 2xx, each sent twice (nginx, then an instance); ${replayMismatches} replays answered differently`,
  );
  if (o.meta) out(`webhooks: ${webhooks.length} signed webhooks answered 200, each delivered twice`);
  if (failures.length) problems.push(`${failures.length} requests were refused (see refused)`);

  // ---- checks against the database --------------------------------------------------------------------------------

  db = await connect();
  try {
    const ids = invoices.map((i) => i.id);
    const found = await db.query<{ id: string; number: string; status: string }>(
      "select id, number, status from invoice where workspace_id = $1 and id = any($2::bigint[])",
      [ws, ids],
    );
    const byId = new Map(found.rows.map((r) => [Number(r.id), r]));
    const missing = invoices.filter((i) => byId.get(i.id)?.number !== i.number || byId.get(i.id)?.status === "draft");
    if (missing.length) problems.push(`${missing.length} invoices answered 2xx are missing or differ`);
    const gapless = async (table: string, what: string) => {
      const numbers = (
        await db.query<{ number: string }>(
          `select number from ${table} where workspace_id = $1 and number is not null order by number`,
          [ws],
        )
      ).rows.map((r) => r.number);
      // Numbers are prefix + counter: per prefix, the counters from the first to the last with none missing.
      const series = new Map<string, number[]>();
      for (const num of numbers) {
        const m = /^(.*?)(\d+)$/.exec(num);
        if (!m) continue;
        const l = series.get(m[1]) ?? [];
        l.push(Number(m[2]));
        series.set(m[1], l);
      }
      let gaps = 0;
      for (const [, l] of series) {
        l.sort((x, y) => x - y);
        for (let i = 1; i < l.length; i++) if (l[i] !== l[i - 1] + 1) gaps += l[i] - l[i - 1] - 1;
        if (new Set(l).size !== l.length) problems.push(`a ${what} number is used twice`);
      }
      if (gaps) problems.push(`${gaps} ${what} numbers are missing from the series`);
      return `${numbers.length} ${what} numbers in ${series.size} series`;
    };
    const invoiceNumbers = await gapless("invoice", "invoice");
    const posNumbers = await gapless("pos_order", "POS order");

    const books = (
      await db.query<{ d: string; c: string; unbalanced: string }>(
        `select sum(debit)::text as d, sum(credit)::text as c,
           (select count(*) from (select entry_id from journal_line where workspace_id = $1
              group by entry_id having sum(debit) <> sum(credit)) x)::text as unbalanced
         from journal_line where workspace_id = $1`,
        [ws],
      )
    ).rows[0];
    if (books.d !== books.c || books.unbalanced !== "0") {
      problems.push(`the books do not balance: debits ${books.d}, credits ${books.c}, ${books.unbalanced} entries`);
    }

    // POS: each sale answered 2xx is there once, its line moved the stock once, and the product's stock is what the
    // opening less the answered sales leaves — the sum of its moves, which stock_levels shows too.
    const saleIds = [...new Set(sales.map((s) => s.id))];
    if (saleIds.length !== sales.length) problems.push("a POS sale was answered twice for two different sales");
    const posRows = await db.query<{ id: string; number: string }>(
      "select id, number from pos_order where workspace_id = $1 and id = any($2::bigint[])",
      [ws, saleIds],
    );
    if (posRows.rows.length !== saleIds.length) {
      problems.push(`${saleIds.length - posRows.rows.length} POS sales answered 2xx are missing`);
    }
    const posMoves = (
      await db.query<{ n: string; moved: string; orders: string }>(
        `select count(*)::text as n, coalesce(sum(qty), 0)::text as moved, count(distinct doc_id)::text as orders
         from stock_move where workspace_id = $1 and product_id = $2 and doc_id = any($3::bigint[]) and doc_type like 'pos%'`,
        [ws, posProduct.id, saleIds],
      )
    ).rows[0];
    // A sale's key was answered twice at most; a sale whose both tries were lost may still have been made (a
    // request lost on the way back): those are the sales of this run without an answered id.
    const unanswered = (
      await db.query<{ n: string; qty: string }>(
        `select count(distinct o.id)::text as n, coalesce(sum(m.qty), 0)::text as qty from pos_order o
         join stock_move m on m.workspace_id = o.workspace_id and m.doc_id = o.id and m.doc_type like 'pos%'
         where o.workspace_id = $1 and o.created_at >= $2 and not (o.id = any($3::bigint[]))`,
        [ws, new Date(start - 60_000), saleIds],
      )
    ).rows[0];
    if (Number(posMoves.n) !== saleIds.length || Number(posMoves.orders) !== saleIds.length) {
      problems.push(`the ${saleIds.length} POS sales have ${posMoves.n} stock moves (one each expected)`);
    }
    const stockAfter = await onHand();
    const expected = stockBefore - saleIds.length + Number(unanswered.qty);
    if (stockAfter !== expected) {
      problems.push(`the POS product's stock is ${stockAfter}, ${expected} expected (${stockBefore} less the sales)`);
    }
    let shown: number | null = null;
    for (let i = 0; i < 20 && shown !== stockAfter; i++) {
      const r = await call("list", "POST", "/rest/v1/rpc/stock_levels", {
        token: ownerToken,
        anon,
        key: randomUUID(),
        body: { product_ids: [posProduct.id], location_id: location },
      });
      shown = Number((r?.body as { rows?: Array<{ on_hand: string }> })?.rows?.[0]?.on_hand ?? Number.NaN);
      if (shown !== stockAfter) await sleep(500); // the replica catching up
    }
    if (shown !== stockAfter) problems.push(`stock_levels shows ${shown} on hand, the moves sum to ${stockAfter}`);
    const anyDrift = (
      await db.query<{ n: string }>(
        `select count(*)::text as n from (select m.doc_id, m.doc_line_id from stock_move m
           where m.workspace_id = $1 and m.doc_type like 'pos%' and m.doc_line_id is not null
           group by m.doc_id, m.doc_line_id, m.product_id, m.location_id having count(*) > 1) x`,
        [ws],
      )
    ).rows[0].n;
    if (anyDrift !== "0") problems.push(`${anyDrift} POS lines moved stock more than once`);

    // Marketplace: every message answered 2xx is there once.
    const mids = [...marketSent.keys()];
    const stored = await db.query<{ id: string }>(
      "select id from marketplace_message where id = any($1::bigint[]) and thread_id = $2",
      [mids, thread],
    );
    if (stored.rows.length !== mids.length) {
      problems.push(`${mids.length - stored.rows.length} marketplace messages answered 2xx are missing`);
    }
    const doubled = (
      await db.query<{ n: string }>(
        "select count(*)::text as n from (select body from marketplace_message where thread_id = $1 and body like $2 group by body having count(*) > 1) x",
        [thread, `fault ${run} %`],
      )
    ).rows[0].n;
    if (doubled !== "0") problems.push(`${doubled} marketplace messages were stored twice`);
    if (market.duplicates) problems.push(`${market.duplicates} marketplace messages arrived twice over realtime`);
    if (market.foreign) problems.push(`${market.foreign} marketplace messages of another thread arrived`);

    // Webhooks: after their jobs, each message answered 200 is stored once.
    let storedHooks: Map<string, number> = new Map();
    if (o.meta && webhooks.length) {
      for (let i = 0; i < 60; i++) {
        const rows = await db.query<{ external_id: string; n: string }>(
          "select external_id, count(*)::text as n from conversation_message where external_id = any($1::text[]) group by external_id",
          [webhooks],
        );
        storedHooks = new Map(rows.rows.map((r) => [r.external_id, Number(r.n)]));
        if (storedHooks.size === webhooks.length) break;
        await sleep(1_000);
      }
      const lostHooks = webhooks.filter((w) => !storedHooks.has(w)).length;
      const twice = [...storedHooks.values()].filter((n) => n > 1).length;
      if (lostHooks) problems.push(`${lostHooks} webhook messages answered 200 were never stored (a job lost)`);
      if (twice) problems.push(`${twice} webhook messages were stored more than once`);
    }

    const mails = await db.query<{ to: string; n: string }>(
      `select "to", count(*)::text as n from auth_mail where "to" like $1 group by "to"`,
      [`fault-${run}-%`],
    );
    const sent = new Map(mails.rows.map((r) => [r.to, Number(r.n)]));
    const lostMails = emails.filter((e) => !sent.has(e)).length;
    const twiceMails = [...sent.values()].filter((n) => n > 1).length;
    if (lostMails) problems.push(`${lostMails} e-mails answered 2xx were never sent (a job lost)`);
    if (twiceMails) problems.push(`${twiceMails} e-mails were sent more than once (a job ran twice)`);
    const jobs =
      // Stuck: queued and overdue, or running past its lease (a job an instance took when it was killed is taken
      // again once its lease ends; one still under its lease is in flight, counted apart).
      (
        await db.query<{ dead: string; stuck: string; leased: string }>(
          `select count(*) filter (where status = 'dead')::text as dead,
                count(*) filter (where (status = 'queued' and run_at < now() - interval '2 minutes')
                  or (status = 'running' and locked_until < now() - interval '1 minute'))::text as stuck,
                count(*) filter (where status = 'running' and locked_until >= now() - interval '1 minute')::text as leased
         from job where created_at > now() - make_interval(secs => $1)`,
          [o.seconds + 180],
        )
      ).rows[0];
    if (jobs.dead !== "0" || jobs.stuck !== "0") problems.push(`jobs: ${jobs.dead} dead, ${jobs.stuck} stuck`);
    out(
      `checked: ${invoices.length} invoices, ${invoiceNumbers}, ${posNumbers}, books ${books.d} = ${books.c}, ` +
        `POS stock ${stockBefore} → ${stockAfter} (${saleIds.length} answered sales, ${unanswered.n} made but unanswered), ` +
        `${stored.rows.length} chat messages stored, ${storedHooks.size} webhook messages stored, ` +
        `${emails.length} e-mails (${sent.size} sent), jobs dead ${jobs.dead} stuck ${jobs.stuck} (in flight under a lease ${jobs.leased})`,
    );
  } finally {
    await db.end();
  }
  if (rt.duplicates) problems.push(`${rt.duplicates} realtime messages arrived twice`);
  if (rt.foreign) problems.push(`${rt.foreign} realtime messages reached another workspace`);
  if (stats.lostOutsidePrimary)
    problems.push(`${stats.lostOutsidePrimary} requests lost outside the primary's restart`);
  if (replayMismatches) problems.push(`${replayMismatches} POS replays were answered with another sale`);
  out(problems.length ? `PROBLEMS:\n  ${problems.join("\n  ")}` : "no problems found");
  return { problems, report };
}
