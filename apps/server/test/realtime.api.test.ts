import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import WebSocket from "ws";
import { draft, ok, products } from "./documents-helpers.ts";
import { locationsByCode, openingStock, ownServer } from "./own-server-helpers.ts";
import { restFetch, tokenFor } from "./rest-helpers.ts";

// DESIGN §2.1 "realtime" (issue 12): a signed-in member's WebSocket receives their own workspace's committed
// document changes — and the challenge module's "leaderboard may have changed" — and nothing of another
// workspace's; no session, no socket; a refused command announces nothing; on PostgreSQL the server LISTENs again
// after losing its LISTEN connection.

const MANAGER = "manager@demo.test";
const DRIVER = "driver@demo.test";
const ADMIN = "admin@demo.test";
const PRO = "admin@pro.test";

const own = ownServer();

const customerOf = async (email: string) =>
  ((await restFetch(email, "company?select=id&is_customer=is.true&limit=1")).body as Array<{ id: number }>)[0].id;

type Message = { event: string; payload: Record<string, unknown> };

// A socket whose messages queue up; next() answers the next one (or waits for it).
// The token as the browser sends it (a subprotocol beside "workmetrics"), or as a bearer header.
async function connect(email: string | null, how: "protocol" | "header" = "protocol") {
  const token = email ? await tokenFor(email) : null;
  const url = `${own.server.url.replace(/^http/, "ws")}/realtime/v1/websocket`;
  const socket =
    how === "header"
      ? new WebSocket(url, { headers: { authorization: `Bearer ${token}` } })
      : new WebSocket(url, ["workmetrics", `access_token.${token}`]);
  const queue: Message[] = [];
  const waiting: Array<(m: Message) => void> = [];
  socket.on("message", (data) => {
    const m = JSON.parse(String(data)) as Message;
    const w = waiting.shift();
    if (w) w(m);
    else queue.push(m);
  });
  const next = (): Promise<Message> => {
    const m = queue.shift();
    return m ? Promise.resolve(m) : new Promise((resolve) => waiting.push(resolve));
  };
  // The next message that is not a generic document change (or is one of `type`).
  const nextOf = async (event: string): Promise<Message> => {
    for (;;) {
      const m = await next();
      if (m.event === event) return m;
    }
  };
  return { socket, next, nextOf, queue };
}

const refusedUpgrade = (email: string | null) =>
  new Promise<number>((resolve, reject) => {
    void (async () => {
      const token = email ? await tokenFor(email) : "not-a-token";
      const socket = new WebSocket(`${own.server.url.replace(/^http/, "ws")}/realtime/v1/websocket`, [
        "workmetrics",
        `access_token.${token}`,
      ]);
      socket.on("unexpected-response", (_req, res) => resolve(res.statusCode ?? 0));
      socket.on("open", () => reject(new Error("the socket opened")));
    })();
  });

describe("the realtime channel", () => {
  it("refuses a socket without a valid session (401); the address never carries the token", async () => {
    expect(await refusedUpgrade(null)).toBe(401);
    const status = (socket: WebSocket) =>
      new Promise((resolve) => socket.on("unexpected-response", (_q, res) => resolve(res.statusCode)));
    const base = `${own.server.url.replace(/^http/, "ws")}/realtime/v1/websocket`;
    expect(await status(new WebSocket(base))).toBe(401);
    expect(await status(new WebSocket(`${base}?access_token=${await tokenFor(MANAGER)}`))).toBe(401);
  });

  it("answers the subprotocol workmetrics, never the token", async () => {
    const s = await connect(MANAGER);
    expect((await s.next()).event).toBe("ready");
    expect(s.socket.protocol).toBe("workmetrics");
    s.socket.close();
  });

  it("tells a member's socket of their workspace's committed document changes and the leaderboard moving; another workspace's socket hears nothing of it", async () => {
    const [item] = await products(ADMIN, 1);
    await openingStock(own, [item], (await locationsByCode(ADMIN))["WH-TUAS"], 100);
    const today = new Date().toISOString().slice(0, 10);
    const users = await restFetch(ADMIN, "user?select=id,email");
    const managerId = (users.body as Array<{ id: string; email: string }>).find((u) => u.email === MANAGER)?.id;
    const running = await ok(MANAGER, "team_challenge_save", {
      name: "Live",
      metric: "invoices_issued_sum",
      period_kind: "custom",
      start_date: today,
      end_date: today,
      participants: [{ user_id: managerId }],
    });

    const demo = await connect(MANAGER);
    const header = await connect(ADMIN, "header"); // the bearer header works too
    const pro = await connect(PRO);
    const driver = await connect(DRIVER);
    for (const s of [demo, header, pro, driver]) expect((await s.next()).event).toBe("ready");

    // A refused command (a submit of nothing: no lines) rolls back and announces nothing; the next one is heard.
    const empty = await ok(MANAGER, "document_save", {
      type: "invoice",
      header: { company_id: await customerOf(ADMIN) },
      lines: [],
    });
    expect((await demo.next()).payload).toMatchObject({ type: "invoice", id: empty.id, action: "create" });
    const refused = await restFetch(MANAGER, "rpc/document_transition", {
      method: "POST",
      body: JSON.stringify({ type: "invoice", id: empty.id, action: "submit" }),
    });
    expect(refused.status).toBeGreaterThanOrEqual(400);

    const inv = await draft(MANAGER, "invoice", {}, [{ product_id: item.id, qty: "1" }]);
    expect((await demo.next()).payload).toMatchObject({ type: "invoice", id: inv.id, action: "create" });
    await ok(MANAGER, "document_transition", { type: "invoice", id: inv.id, action: "submit" });
    const submitted = await demo.nextOf("document.changed");
    expect(submitted.payload).toMatchObject({ type: "invoice", id: inv.id, action: "submit", status: "unpaid" });
    const moved = await demo.nextOf("team_challenge.changed");
    expect(moved.payload).toMatchObject({ challenge_ids: [running.id], type: "invoice", action: "submit" });
    expect((await header.nextOf("team_challenge.changed")).payload).toMatchObject({ challenge_ids: [running.id] });

    // The other workspace's socket: its first message is its own workspace's change, made after all of the above
    // (deliveries go out in commit order), so nothing of demo's reached it.
    const theirs = await ok(PRO, "document_save", {
      type: "quotation",
      header: { company_id: await customerOf(PRO) },
      lines: [],
    });
    const first = await pro.next();
    expect(first).toEqual({
      event: "document.changed",
      payload: { type: "quotation", id: theirs.id, action: "create", status: "draft" },
    });
    // The driver reads no invoices and no challenges: of all this, nothing reached them either — their first
    // message is the ping answer sent after it all.
    driver.socket.send(JSON.stringify({ event: "ping" }));
    expect(await driver.next()).toEqual({ event: "pong", payload: null });
    for (const s of [demo, header, pro, driver]) s.socket.close();
  });

  it("on PostgreSQL, LISTENs again after its connection is lost, and keeps delivering", async () => {
    if (own.server.running.database.kind !== "postgresql") return;
    const listeners = () =>
      own.db.execute(sql`select pid from pg_stat_activity
        where datname = current_database() and query ilike 'LISTEN workmetrics_events%'`);
    const before = (await listeners()).rows as Array<{ pid: number }>;
    expect(before.length).toBe(1);
    const demo = await connect(MANAGER);
    expect((await demo.next()).event).toBe("ready");
    await own.db.execute(sql`select pg_terminate_backend(${before[0].pid})`);
    // Wait (polling the catalog) until a new connection is LISTENing.
    for (let i = 0; i < 200; i++) {
      const now = (await listeners()).rows as Array<{ pid: number }>;
      if (now.length === 1 && now[0].pid !== before[0].pid) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    const q = await draft(MANAGER, "quotation", {}, []);
    expect((await demo.next()).payload).toMatchObject({ type: "quotation", id: q.id, action: "create" });
    demo.socket.close();
  });
});
