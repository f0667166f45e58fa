import { createClient, type RealtimeChannel, type SupabaseClient } from "@supabase/supabase-js";
import { sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { PRUNE_JOBS } from "../src/platform/jobs/queue.ts";
import { announcedByCommands, triggeredTables } from "../src/platform/realtime/announce.ts";
import { realtimeOf } from "../src/platform/realtime/realtime.route.ts";
import { draft, ok, products } from "./documents-helpers.ts";
import { startTestServer, type TestServer } from "./harness.ts";
import { locationsByCode, openingStock, ownServer } from "./own-server-helpers.ts";
import { getAnonKey, restFetch, tokenFor } from "./rest-helpers.ts";

// Issue 20 §4, DESIGN §2.3.2: /realtime/v1/websocket speaks the Phoenix protocol of @supabase/realtime-js, so the
// client here is supabase-js itself (`createClient(url, anonKey).channel()`; Node 20 has no WebSocket, so `ws` is its
// transport). Broadcast between members of one workspace, presence, postgres_changes under the /rest/v1 access
// rule (a member hears of a row only if they read it; another workspace never), the challenge leaderboard's
// broadcast, and on PostgreSQL: a LISTEN reconnect loses nothing, and a second instance hears the first.

const MANAGER = "manager@demo.test";
const SALES = "sales@demo.test";
const DRIVER = "driver@demo.test";
const ADMIN = "admin@demo.test";
const PRO = "admin@pro.test";

const own = ownServer();
const clients: SupabaseClient[] = [];
afterAll(async () => {
  for (const c of clients) await c.removeAllChannels();
});

async function member(email: string | null, url = own.server.url): Promise<SupabaseClient> {
  // Instances behind one address share it; a second test server has its own address, so its own key.
  const key =
    url === own.server.url
      ? await getAnonKey()
      : ((await (await fetch(`${url}/api/config`)).json()) as { anonKey: string }).anonKey;
  const client = createClient(url, key, {
    auth: { persistSession: false, autoRefreshToken: false },
    realtime: { transport: WebSocket as never, timeout: 10_000 },
  });
  if (email) await client.realtime.setAuth(await tokenFor(email));
  clients.push(client);
  return client;
}

// Resolves when the channel is joined; rejects with the server's reason.
const joined = (channel: RealtimeChannel) =>
  new Promise<RealtimeChannel>((resolve, reject) => {
    channel.subscribe((status, err) => {
      if (status === "SUBSCRIBED") resolve(channel);
      else if (status !== "CLOSED") reject(err ?? new Error(status));
    });
  });

// Payloads in arrival order; next() answers the next one (or waits for it, failing after `ms`).
function inbox<T = Record<string, unknown>>() {
  const queue: T[] = [];
  const waiting: Array<(m: T) => void> = [];
  return {
    push: (m: T) => {
      const w = waiting.shift();
      if (w) w(m);
      else queue.push(m);
    },
    next: (ms = 10_000): Promise<T> => {
      const m = queue.shift();
      if (m) return Promise.resolve(m);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error("nothing arrived")), ms);
        waiting.push((x) => {
          clearTimeout(timer);
          resolve(x);
        });
      });
    },
    queue,
  };
}

type Change = { eventType: string; table: string; new: Record<string, unknown>; old: Record<string, unknown> };

async function changes(email: string, table: string, filter?: string, event: "*" | "UPDATE" | "INSERT" = "*") {
  const box = inbox<Change>();
  const client = await member(email);
  const channel = client
    .channel(`docs-${email}-${table}-${filter ?? ""}-${Math.random()}`)
    .on("postgres_changes", { event: event as "*", schema: "public", table, filter }, (p) => box.push(p as never));
  await joined(channel);
  return box;
}

// This server's realtime feed (the outbox reader), to wait for it or to catch up as a reconnect does.
function feedOf() {
  const feed = realtimeOf(own.server.running.database)?.feed;
  if (!feed) throw new Error("the server runs no realtime feed");
  return feed;
}

const customerOf = async (email: string) =>
  ((await restFetch(email, "company?select=id&is_customer=is.true&limit=1")).body as Array<{ id: number }>)[0].id;

const emptyQuotation = async (email: string) =>
  ok(email, "document_save", { type: "quotation", header: { company_id: await customerOf(email) }, lines: [] });

describe("realtime on the Phoenix protocol", () => {
  it("opens a socket with the public key only; a channel joins with a member's access token, never without", async () => {
    const base = `${own.server.url.replace(/^http/, "ws")}/realtime/v1/websocket`;
    const status = (socket: WebSocket) =>
      new Promise((resolve) => socket.on("unexpected-response", (_q, res) => resolve(res.statusCode)));
    expect(await status(new WebSocket(`${base}?vsn=2.0.0`))).toBe(401);
    expect(await status(new WebSocket(`${base}?apikey=not-a-key&vsn=2.0.0`))).toBe(401);

    // The heartbeat on topic phoenix is answered phx_reply ok with its ref.
    const raw = new WebSocket(`${base}?apikey=${await getAnonKey()}&vsn=2.0.0`);
    await new Promise((resolve) => raw.on("open", resolve));
    const answer = new Promise((resolve) => raw.once("message", (d) => resolve(JSON.parse(String(d)))));
    raw.send(JSON.stringify([null, "7", "phoenix", "heartbeat", {}]));
    expect(await answer).toEqual([null, "7", "phoenix", "phx_reply", { status: "ok", response: {} }]);
    raw.close();

    const anon = await member(null);
    await expect(joined(anon.channel("room"))).rejects.toThrow(/Sign in to use realtime/);
  });

  it("takes a new access_token of the same member on a joined channel, and closes it (a system error) for another's", async () => {
    const client = await member(MANAGER);
    const system = inbox<{ status: string; message: string }>();
    const heard = inbox();
    const channel = await joined(
      client
        .channel("tokens")
        .on("system", {}, (p) => system.push(p))
        .on("broadcast", { event: "ping" }, (m) => heard.push(m)),
    );
    // A second sign-in of the same member: a new session's token, taken without a word.
    const again = await fetch(`${own.server.url}/auth/v1/token?grant_type=password`, {
      method: "POST",
      headers: { "content-type": "application/json", apikey: await getAnonKey() },
      body: JSON.stringify({ email: MANAGER, password: "demo-pass-2026" }),
    });
    await client.realtime.setAuth(((await again.json()) as { access_token: string }).access_token);
    const other = await joined((await member(ADMIN)).channel("tokens"));
    await other.send({ type: "broadcast", event: "ping", payload: { n: 1 } });
    expect(await heard.next()).toMatchObject({ payload: { n: 1 } });
    expect(system.queue).toEqual([]);

    await client.realtime.setAuth(await tokenFor(SALES));
    expect(await system.next()).toMatchObject({ status: "error", message: expect.stringMatching(/another member/) });
    expect(channel.state).toBe("closed");
  });

  it("passes a broadcast between two members of one workspace (self and ack as asked), never to another workspace", async () => {
    const manager = await member(MANAGER);
    const sales = await member(SALES);
    const pro = await member(PRO);
    const heard = { manager: inbox(), sales: inbox(), pro: inbox() };
    const mine = await joined(
      manager
        .channel("room", { config: { broadcast: { ack: true } } })
        .on("broadcast", { event: "cursor" }, (m) => heard.manager.push(m)),
    );
    await joined(sales.channel("room").on("broadcast", { event: "cursor" }, (m) => heard.sales.push(m)));
    const theirs = await joined(
      pro
        .channel("room", { config: { broadcast: { self: true } } })
        .on("broadcast", { event: "cursor" }, (m) => heard.pro.push(m)),
    );

    expect(await mine.send({ type: "broadcast", event: "cursor", payload: { x: 1 } })).toBe("ok");
    expect(await heard.sales.next()).toMatchObject({ type: "broadcast", event: "cursor", payload: { x: 1 } });
    // Another workspace's room of the same name: its first message is its own (self: true), sent after demo's.
    await theirs.send({ type: "broadcast", event: "cursor", payload: { x: "pro" } });
    expect(await heard.pro.next()).toMatchObject({ payload: { x: "pro" } });
    // self is off for the manager: nothing of their own came back (the pro message never reaches demo either).
    expect(heard.manager.queue).toEqual([]);
    expect(heard.sales.queue).toEqual([]);
  });

  it("tracks presence: presence_state on join, joins and leaves as presence_diff", async () => {
    const manager = await member(MANAGER);
    const sales = await member(SALES);
    const events = inbox<{ event: string; key: string; newPresences?: unknown[]; leftPresences?: unknown[] }>();
    const first = await joined(manager.channel("desk", { config: { presence: { key: "manager" } } }));
    expect(await first.track({ name: "Manager" })).toBe("ok");

    let onSync: () => void = () => undefined;
    const synced = new Promise<void>((resolve) => {
      onSync = resolve;
    });
    const second = sales
      .channel("desk", { config: { presence: { key: "sales" } } })
      .on("presence", { event: "sync" }, () => onSync())
      .on("presence", { event: "join" }, (p) => events.push(p as never))
      .on("presence", { event: "leave" }, (p) => events.push(p as never));
    await joined(second);
    await synced;
    expect(second.presenceState()).toMatchObject({ manager: [{ name: "Manager" }] });
    expect(await events.next()).toMatchObject({ event: "join", key: "manager", newPresences: [{ name: "Manager" }] });

    await second.track({ name: "Sales" });
    expect(await events.next()).toMatchObject({ event: "join", key: "sales" });
    await manager.removeChannel(first);
    expect(await events.next()).toMatchObject({ event: "leave", key: "manager", leftPresences: [{ name: "Manager" }] });
    expect(Object.keys(second.presenceState())).toEqual(["sales"]);
  });

  it("tells of a quotation's changes only those who read it through /rest/v1: own rows for a salesperson, nothing across workspaces, no join for a role without it", async () => {
    const manager = await changes(MANAGER, "quotation");
    const sales = await changes(SALES, "quotation");
    const pro = await changes(PRO, "quotation");
    const driver = (await member(DRIVER)).channel("driver-docs");
    driver.on("postgres_changes", { event: "*", schema: "public", table: "quotation" }, () => undefined);
    await expect(joined(driver)).rejects.toThrow(/quotation/i);
    const notAnnounced = (await member(MANAGER)).channel("tiers");
    notAnnounced.on("postgres_changes", { event: "*", schema: "public", table: "tier" }, () => undefined);
    await expect(joined(notAnnounced)).rejects.toThrow(/not announced/);

    const theirs = await draft(MANAGER, "quotation");
    const inserted = await manager.next();
    expect(inserted).toMatchObject({
      eventType: "INSERT",
      table: "quotation",
      new: { id: theirs.id, status: "draft" },
    });
    expect(typeof inserted.new.total).toBe("string"); // money stays a decimal string
    const ours = await emptyQuotation(SALES);
    expect((await manager.next()).new).toMatchObject({ id: ours.id });
    // The salesperson's first change is their own quotation: the manager's never reached them.
    expect(await sales.next()).toMatchObject({ eventType: "INSERT", new: { id: ours.id } });

    // A filter on the row; an update arrives as UPDATE with the new status.
    const one = await changes(MANAGER, "quotation", `id=eq.${theirs.id}`, "UPDATE");
    await ok(SALES, "document_save", {
      type: "quotation",
      id: ours.id,
      header: { company_id: await customerOf(SALES) },
      lines: [],
    });
    await ok(MANAGER, "document_transition", { type: "quotation", id: theirs.id, action: "submit" });
    const updated = await one.next();
    expect(updated).toMatchObject({ eventType: "UPDATE", new: { id: theirs.id }, old: { id: theirs.id } });
    expect(updated.new.status).not.toBe("draft");

    // The other workspace: its first change is its own, made after all of demo's.
    const proQuote = await emptyQuotation(PRO);
    expect(await pro.next()).toMatchObject({ new: { id: proQuote.id } });
  });

  it("tells of a registered resource's changes (products written through /rest/v1, one at a time and in bulk) as each member reads them: the cost only to who reads costs, nothing of a resource the role does not read, nothing across workspaces", async () => {
    const manager = await changes(MANAGER, "product");
    const pro = await changes(PRO, "product");
    // A driver reads products without their cost, and no categories: one binding on every table.
    const driver = inbox<Change>();
    await joined(
      (await member(DRIVER))
        .channel("driver-everything")
        .on("postgres_changes", { event: "*", schema: "public" }, (p) => driver.push(p as never)),
    );
    const categories = (await member(DRIVER)).channel("driver-categories");
    categories.on("postgres_changes", { event: "*", schema: "public", table: "category" }, () => undefined);
    await expect(joined(categories)).rejects.toThrow(/categor/i);

    const sku = `RT-${Date.now()}`;
    const post = (email: string, body: unknown) =>
      restFetch(email, "product", {
        method: "POST",
        headers: { prefer: "return=representation" },
        body: JSON.stringify(body),
      });
    const made = await post(ADMIN, { sku, name: "Live product", cost: "12.50" });
    expect(made.status).toBe(201);
    const id = (made.body as Array<{ id: number }>)[0].id;
    const inserted = await manager.next();
    expect(inserted).toMatchObject({ eventType: "INSERT", table: "product", new: { id, sku, cost: "12.50" } });
    const seen = await driver.next();
    expect(seen).toMatchObject({ eventType: "INSERT", table: "product", new: { id, sku } });
    expect(seen.new).not.toHaveProperty("cost");

    // A category (the driver reads none), then the product renamed: the driver's next change is the rename.
    const category = await restFetch(ADMIN, "category", { method: "POST", body: JSON.stringify({ name: sku }) });
    expect(category.status).toBe(201);
    const renamed = await restFetch(ADMIN, `product?id=eq.${id}`, {
      method: "PATCH",
      body: JSON.stringify({ name: "Live product, renamed" }),
    });
    expect(renamed.status).toBeLessThan(300);
    expect(await manager.next()).toMatchObject({
      eventType: "UPDATE",
      new: { id, name: "Live product, renamed", cost: "12.50" },
      old: { id },
    });
    const update = await driver.next();
    expect(update).toMatchObject({ eventType: "UPDATE", table: "product", new: { id, name: "Live product, renamed" } });
    expect(update.new).not.toHaveProperty("cost");

    // A bulk insert is one statement: one announcing statement, every row told, in order.
    const bulk = Array.from({ length: 40 }, (_, i) => ({ sku: `${sku}-${i}`, name: `Bulk ${i}`, cost: "1.00" }));
    const many = await post(ADMIN, bulk);
    expect(many.status).toBe(201);
    const ids = (many.body as Array<{ id: number }>).map((r) => r.id);
    const told: unknown[] = [];
    for (const _ of ids) told.push((await manager.next()).new.id);
    expect(told).toEqual(ids);

    const gone = await restFetch(ADMIN, `product?id=eq.${id}`, { method: "DELETE" });
    expect(gone.status).toBeLessThan(300);
    expect(await manager.next()).toMatchObject({ eventType: "DELETE", old: { id } });

    // The other workspace: its first change is its own product, made after all of demo's.
    const theirs = await post(PRO, { sku, name: "Pro's own" });
    expect(theirs.status).toBe(201);
    expect(await pro.next()).toMatchObject({
      eventType: "INSERT",
      new: { id: (theirs.body as Array<{ id: number }>)[0].id, name: "Pro's own" },
    });
    await feedOf().idle();
    expect(pro.queue).toEqual([]);
    for (let i = 0; i < ids.length; i++) await driver.next(); // the bulk insert, then the delete
    expect(await driver.next()).toMatchObject({ eventType: "DELETE", old: { id } });
    expect(driver.queue).toEqual([]);
  });

  it("announces every registered workspace resource once: each table outside the commands' own announcements has the triggers", async () => {
    const res = await own.db.execute(sql`select c.relname as name from pg_trigger t join pg_class c on c.oid = t.tgrelid
      where t.tgname in (c.relname || '_announce_ins', c.relname || '_announce_upd', c.relname || '_announce_del')
      group by c.relname having count(*) = 3`);
    const installed = new Set((res.rows as Array<{ name: string }>).map((r) => r.name));
    const covered = [...triggeredTables()];
    expect(covered).toEqual(expect.arrayContaining(["product", "company", "contact", "location", "quotation_line"]));
    expect(covered.filter((t) => !installed.has(t))).toEqual([]);
    // A document's header (and the inbox's and marketplace's tables) is announced by its commands, never twice.
    expect([...installed].filter((t) => announcedByCommands(t))).toEqual([]);
  });

  it("prunes the resources' change rows after a day with the jobs; a document's history stays", async () => {
    const made = await restFetch("admin@demo.test", "product", {
      method: "POST",
      headers: { prefer: "return=representation" },
      body: JSON.stringify({ name: `Pruned ${Date.now()}`, sku: `PR-${Date.now()}`, cost: "1.00" }),
    });
    expect(made.status).toBe(201);
    const id = (made.body as Array<{ id: number }>)[0].id;
    const q = await draft("admin@demo.test", "quotation");
    await own.db.execute(sql`update document_event set at = now() - interval '2 days'
      where (doc_type = 'product' and doc_id = ${id}) or (doc_type = 'quotation' and doc_id = ${q.id})`);
    const count = async (type: string, docId: number) =>
      Number(
        (
          (
            await own.db.execute(
              sql`select count(*)::int as n from document_event where doc_type = ${type} and doc_id = ${docId}`,
            )
          ).rows[0] as { n: number }
        ).n,
      );
    expect(await count("product", id)).toBe(1);
    await own.server.running.app.jobs.enqueue(own.db, { name: PRUNE_JOBS, payload: {} });
    await own.server.running.app.jobs.drained(20_000);
    expect(await count("product", id)).toBe(0);
    expect(await count("quotation", q.id)).toBeGreaterThan(0);
  });

  it("broadcasts the challenge leaderboard's change to members who read challenges, on the topic team_challenge", async () => {
    const [item] = await products(ADMIN, 1);
    await openingStock(own, [item], (await locationsByCode(ADMIN))["WH-TUAS"], 100);
    const today = new Date().toISOString().slice(0, 10);
    const users = (await restFetch(ADMIN, "user?select=id,email")).body as Array<{ id: string; email: string }>;
    const running = await ok(MANAGER, "team_challenge_save", {
      name: "Live",
      metric: "invoices_issued_sum",
      period_kind: "custom",
      start_date: today,
      end_date: today,
      participants: [{ user_id: users.find((u) => u.email === MANAGER)?.id }],
    });
    const board = inbox();
    const driverBoard = inbox();
    await joined(
      (await member(MANAGER)).channel("team_challenge").on("broadcast", { event: "changed" }, (m) => board.push(m)),
    );
    await joined(
      (await member(DRIVER))
        .channel("team_challenge")
        .on("broadcast", { event: "changed" }, (m) => driverBoard.push(m)),
    );
    const inv = await draft(MANAGER, "invoice", {}, [{ product_id: item.id, qty: "1" }]);
    await ok(MANAGER, "document_transition", { type: "invoice", id: inv.id, action: "submit" });
    expect(await board.next()).toMatchObject({
      event: "changed",
      payload: { challenge_ids: [running.id], type: "invoice", action: "submit" },
    });
    await feedOf().idle();
    expect(driverBoard.queue).toEqual([]); // a driver reads no challenges
  });

  it("catches up from the outbox (document_event) what no NOTIFY announced, in order, once", async () => {
    const manager = await changes(MANAGER, "quotation", undefined, "INSERT");
    await own.db.execute(sql`alter table document_event disable trigger document_event_notify`);
    let unheard: Array<{ id: number }>;
    try {
      unheard = [await emptyQuotation(MANAGER), await emptyQuotation(MANAGER)];
    } finally {
      await own.db.execute(sql`alter table document_event enable trigger document_event_notify`);
    }
    const feed = feedOf();
    await feed.idle();
    expect(manager.queue).toEqual([]); // nothing woke the feed
    feed.catchUp(); // what the listener does when its LISTEN is back
    feed.catchUp(); // twice: nothing is sent twice
    const heard = [await manager.next(), await manager.next()];
    expect(heard.map((c) => c.new.id)).toEqual(unheard.map((q) => q.id));
    const next = await emptyQuotation(MANAGER);
    expect((await manager.next()).new.id).toBe(next.id);
  });

  it("on PostgreSQL, loses nothing committed while its LISTEN connection is reopened", async () => {
    if (own.server.running.database.kind !== "postgresql") return;
    const listeners = async () =>
      (
        await own.db.execute(sql`select pid from pg_stat_activity
        where datname = current_database() and query ilike 'LISTEN workmetrics_events%'`)
      ).rows as Array<{ pid: number }>;
    const before = await listeners();
    expect(before.length).toBe(1);
    const manager = await changes(MANAGER, "quotation", undefined, "INSERT");
    await own.db.execute(sql`select pg_terminate_backend(${before[0].pid})`);
    // Committed at once, while the server is (most likely) not listening: no NOTIFY reaches it.
    const made = [await emptyQuotation(MANAGER), await emptyQuotation(MANAGER), await emptyQuotation(MANAGER)];
    const heard = [await manager.next(), await manager.next(), await manager.next()];
    expect(heard.map((c) => c.new.id)).toEqual(made.map((q) => q.id));
    const now = await listeners();
    expect(now.length).toBe(1);
    expect(now[0].pid).not.toBe(before[0].pid);
  });

  it("on PostgreSQL, a second instance on the same database hears the first's broadcasts, presence and changes", async () => {
    if (own.server.running.database.kind !== "postgresql" || !own.server.databaseUrl) return;
    const second: TestServer = await startTestServer({ LOG_LEVEL: "silent", DATABASE_URL: own.server.databaseUrl });
    try {
      const there = await member(SALES, second.url);
      const heard = inbox();
      const change = inbox<Change>();
      const theirs = await joined(
        there
          .channel("floor", { config: { presence: { key: "sales" } } })
          .on("broadcast", { event: "hello" }, (m) => heard.push(m))
          .on("postgres_changes", { event: "INSERT", schema: "public", table: "quotation" }, (p) =>
            change.push(p as never),
          ),
      );
      const here = await joined((await member(MANAGER)).channel("floor", { config: { presence: { key: "manager" } } }));
      await here.track({ at: "first" });
      await here.send({ type: "broadcast", event: "hello", payload: { from: "first" } });
      expect(await heard.next()).toMatchObject({ payload: { from: "first" } });
      for (let i = 0; i < 100 && !theirs.presenceState().manager; i++) await new Promise((r) => setTimeout(r, 50));
      expect(theirs.presenceState()).toMatchObject({ manager: [{ at: "first" }] });
      const q = await emptyQuotation(SALES);
      expect(await change.next()).toMatchObject({ new: { id: q.id } });
    } finally {
      await second.close();
    }
  });
});
