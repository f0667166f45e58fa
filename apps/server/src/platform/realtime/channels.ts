import { randomUUID } from "node:crypto";
import { decideResource } from "@workmetrics/domain";
import { findResource } from "@workmetrics/domain/resources";
import { sql } from "drizzle-orm";
import { sessionForToken } from "../auth/guard.ts";
import type { Signer } from "../auth/jwt.ts";
import { type Db, inRequest } from "../db/database.ts";
import { type Caller, loadMember, memberOf } from "../rest/access.ts";
import { RestError } from "../rest/rest-error.ts";
import {
  type Binding,
  bindingMatches,
  changeEvent,
  columnsOf,
  type DocumentChange,
  parseBindings,
  readableRow,
} from "./changes.ts";
import { derivedMessages, mayReceive } from "./events.ts";
import type { Feed } from "./feed.ts";
import { type Chan, type Conn, Hub, type PresenceDiff } from "./hub.ts";
import { PEERS } from "./listener.ts";
import { type Frame, reply } from "./protocol.ts";

// The channel side of the Phoenix protocol (DESIGN §2.3.2), what realtime-js's RealtimeChannel expects:
// phx_join {config: {broadcast: {self, ack}, presence: {key}, postgres_changes: [...]}, access_token} answered by
// phx_reply ok {postgres_changes: [{id, event, schema, table, filter}]} (or error {reason}), then presence_state and,
// with postgres_changes, a `system` frame; `access_token` replaces the channel's token; `broadcast` and `presence`
// (track/untrack → presence_diff) pass to the room, here and through NOTIFY to the other instances; phx_leave →
// phx_reply ok and phx_close. A channel belongs to its token's member and workspace; the member is read again at
// most every REFRESH_MS, and a session signed out (or a membership ended) closes the channel with a `system` error.

const REFRESH_MS = 30_000;
// NOTIFY carries at most 8000 bytes.
const MAX_PEER_MESSAGE = 7900;

export type PeerMessage =
  | { origin: string; kind: "broadcast"; ws: string; topic: string; event: string; payload: unknown; binary?: boolean }
  | { origin: string; kind: "presence"; ws: string; topic: string; diff: PresenceDiff; to?: string }
  | { origin: string; kind: "presence_sync"; ws: string; topic: string };

type Log = { warn(obj: unknown, msg?: string): void };

export type Channels = ReturnType<typeof createChannels>;

const refused = (to: Frame, reason: string) => reply(to, "error", { reason });

export function createChannels(opts: { db: Db; signer: Signer; feed: () => Feed; log: Log }) {
  const { db, signer, log } = opts;
  const instance = randomUUID();
  const hub = new Hub((conn) => log.warn({ channels: conn.channels.size }, "realtime socket too slow; cut off"));
  let bindingIds = 0;
  const nextId = () => ++bindingIds;

  async function callerFor(token: string): Promise<{ caller: Chan["caller"] } | { reason: string }> {
    const auth = await sessionForToken(db, signer, token);
    if (!auth) return { reason: "Sign in to use realtime: the access token is missing, expired or signed out" };
    if (!auth.workspaceId) return { reason: "Sign in as a member of a workspace to use realtime" };
    const workspaceId = auth.workspaceId;
    try {
      const m = await inRequest(db, { workspaceId, userId: auth.userId, role: "authenticated" }, (tx) =>
        loadMember(tx, auth.userId, workspaceId),
      );
      const caller: Chan["caller"] = {
        kind: "member",
        userId: auth.userId,
        workspaceId,
        permissions: m.permissions,
        features: m.features,
        isOperator: false,
      };
      return { caller };
    } catch (err) {
      if (err instanceof RestError) return { reason: err.message };
      throw err;
    }
  }

  // Passes a message to the other instances; false when it is too large for NOTIFY. A database that cannot take it
  // (closing, restarting) costs the other instances this message, never this one its sockets.
  const notify = async (m: PeerMessage): Promise<boolean> => {
    const text = JSON.stringify(m);
    if (Buffer.byteLength(text) > MAX_PEER_MESSAGE) return false;
    try {
      await db.execute(sql`select pg_notify(${PEERS}, ${text})`);
    } catch (err) {
      log.warn({ err, kind: m.kind }, "realtime message not passed to the other instances");
    }
    return true;
  };

  function close(chan: Chan, message: string | null): void {
    if (message) hub.push(chan, "system", { extension: "system", status: "error", message, channel: chan.subTopic });
    hub.push(chan, "phx_close", {});
    leave(chan);
  }

  function leave(chan: Chan): void {
    const diff = hub.track(chan, null);
    if (diff) void notify({ origin: instance, kind: "presence", ws: chan.room, topic: chan.topic, diff });
    if (hub.remove(chan)) opts.feed().unwatch(chan.caller.workspaceId);
  }

  // False (and the channel closed) when its session or membership has ended since it was last checked.
  async function fresh(chan: Chan): Promise<boolean> {
    if (Date.now() - chan.checkedAt < REFRESH_MS) return true;
    chan.checkedAt = Date.now();
    const now = await callerFor(chan.token).catch(() => ({ reason: "Realtime could not check your session" }));
    if ("reason" in now || now.caller.userId !== chan.caller.userId) {
      close(chan, "reason" in now ? now.reason : "The session changed");
      return false;
    }
    chan.caller = now.caller;
    return true;
  }

  // The channels of a delivery that are still live: those due a check are checked once per token (a member's
  // tabs share it), not once each.
  async function freshAll(chans: Chan[]): Promise<Chan[]> {
    const due = new Map<string, Chan[]>();
    for (const c of chans) {
      if (Date.now() - c.checkedAt >= REFRESH_MS) due.set(c.token, [...(due.get(c.token) ?? []), c]);
    }
    for (const [token, group] of due) {
      const now = await callerFor(token).catch(() => ({ reason: "Realtime could not check your session" }));
      for (const chan of group) {
        chan.checkedAt = Date.now();
        if ("reason" in now || now.caller.userId !== chan.caller.userId) {
          close(chan, "reason" in now ? now.reason : "The session changed");
        } else {
          chan.caller = now.caller;
        }
      }
    }
    return chans.filter((c) => c.conn.channels.get(c.topic) === c);
  }

  // The room a channel joins: its own workspace's, except a marketplace thread's topic (`marketplace-thread:<id>`),
  // whose room is the thread's seller's, shared by the two parties — only they (members who read marketplace chats)
  // may join it; null refuses the join.
  async function roomFor(caller: Chan["caller"], topic: string): Promise<string | null> {
    const m = /^realtime:marketplace-thread:(\d{1,18})$/.exec(topic);
    if (!m) return caller.workspaceId;
    const chats = findResource("marketplace_message");
    if (!chats || !decideResource(memberOf(caller), chats, "read").allowed) return null;
    const res = await inRequest(
      db,
      { workspaceId: caller.workspaceId, userId: caller.userId, role: "authenticated" },
      (tx) =>
        tx.execute(sql`select seller_workspace_id::text as seller from marketplace_thread where id = ${m[1]}::bigint
        and ${caller.workspaceId}::uuid in (buyer_workspace_id, seller_workspace_id)`),
    );
    return (res.rows[0] as { seller: string } | undefined)?.seller ?? null;
  }

  async function join(conn: Conn, f: Frame): Promise<void> {
    const old = conn.channels.get(f.topic);
    if (old) leave(old);
    const config = (f.payload.config ?? {}) as Record<string, Record<string, unknown> | undefined>;
    const token = typeof f.payload.access_token === "string" ? f.payload.access_token : "";
    const who = await callerFor(token);
    if ("reason" in who) return hub.send(conn, refused(f, who.reason));
    let bindings: Binding[];
    try {
      bindings = parseBindings(config.postgres_changes, who.caller, nextId);
    } catch (err) {
      if (err instanceof RestError) return hub.send(conn, refused(f, err.message));
      throw err;
    }
    const room = await roomFor(who.caller, f.topic);
    if (!room) return hub.send(conn, refused(f, "This marketplace chat is not yours"));
    const presenceKey =
      typeof config.presence?.key === "string" && config.presence.key ? config.presence.key : randomUUID();
    const chan: Chan = {
      conn,
      topic: f.topic,
      subTopic: f.topic.replace(/^realtime:/, ""),
      joinRef: f.joinRef,
      token,
      caller: who.caller,
      room,
      checkedAt: Date.now(),
      self: config.broadcast?.self === true,
      ack: config.broadcast?.ack === true,
      presenceKey,
      bindings,
      tracked: null,
    };
    await opts.feed().watch(who.caller.workspaceId);
    const first = hub.add(chan);
    const postgres_changes = bindings.map((b) => ({
      id: b.id,
      event: b.event,
      schema: b.schema,
      table: b.table,
      filter: b.filter,
    }));
    hub.send(conn, reply(f, "ok", { postgres_changes }));
    hub.push(chan, "presence_state", hub.presenceState(room, f.topic));
    if (bindings.length) {
      const message = "Subscribed to PostgreSQL";
      hub.push(chan, "system", { extension: "postgres_changes", status: "ok", message, channel: chan.subTopic });
    }
    if (first) await notify({ origin: instance, kind: "presence_sync", ws: room, topic: f.topic });
  }

  async function accessToken(chan: Chan, f: Frame): Promise<void> {
    const token = typeof f.payload.access_token === "string" ? f.payload.access_token : "";
    const who = await callerFor(token);
    if ("reason" in who) return close(chan, who.reason);
    if (who.caller.userId !== chan.caller.userId || who.caller.workspaceId !== chan.caller.workspaceId) {
      return close(chan, "The access token is another member's: join the channel again");
    }
    chan.token = token;
    chan.caller = who.caller;
    chan.checkedAt = Date.now();
  }

  async function broadcast(chan: Chan, f: Frame): Promise<void> {
    const event = String(f.payload.event ?? "");
    const payload = f.payload.payload;
    const binary = Buffer.isBuffer(payload);
    const message: PeerMessage = {
      origin: instance,
      kind: "broadcast",
      ws: chan.room,
      topic: chan.topic,
      event,
      payload: binary ? payload.toString("base64") : payload,
      binary,
    };
    if (!(await notify(message))) {
      return hub.send(chan.conn, refused(f, `The message is too large: at most ${MAX_PEER_MESSAGE} bytes`));
    }
    for (const other of hub.inRoom(chan.room, chan.topic)) {
      if (other === chan && !chan.self) continue;
      hub.push(other, "broadcast", { type: "broadcast", event, payload });
    }
    hub.send(chan.conn, reply(f, "ok"));
  }

  async function presence(chan: Chan, f: Frame): Promise<void> {
    const what = f.payload.event;
    if (what !== "track" && what !== "untrack")
      return hub.send(chan.conn, refused(f, `Unknown presence event ${what}`));
    const meta = what === "track" ? ((f.payload.payload ?? {}) as Record<string, unknown>) : null;
    const diff = hub.track(chan, meta);
    if (diff && !(await notify({ origin: instance, kind: "presence", ws: chan.room, topic: chan.topic, diff }))) {
      log.warn({ topic: chan.topic }, "presence too large to pass to the other instances");
    }
    hub.send(chan.conn, reply(f, "ok"));
  }

  // One frame from a client, in the order the socket sent them.
  async function handle(conn: Conn, f: Frame): Promise<void> {
    if (f.topic === "phoenix") {
      if (f.event === "heartbeat") hub.send(conn, reply(f, "ok"));
      return;
    }
    if (f.event === "phx_join") return join(conn, f);
    const chan = conn.channels.get(f.topic);
    // Leaving a channel never joined (its join was refused) is done already.
    if (!chan && f.event === "phx_leave") return hub.send(conn, reply(f, "ok"));
    if (!chan) return hub.send(conn, refused(f, "unmatched topic"));
    if (f.event === "phx_leave") {
      hub.send(conn, reply(f, "ok"));
      hub.push(chan, "phx_close", {});
      return leave(chan);
    }
    if (f.event === "access_token") return accessToken(chan, f);
    if (!(await fresh(chan))) return;
    try {
      if (f.event === "broadcast") return await broadcast(chan, f);
      if (f.event === "presence") return await presence(chan, f);
    } catch (err) {
      log.warn({ err, topic: f.topic, event: f.event }, "realtime message failed");
      return hub.push(chan, "phx_error", {});
    }
    hub.send(conn, refused(f, `Unknown event ${f.event}`));
  }

  // A committed document change → postgres_changes to the bindings whose member reads the row (one REST read per
  // group of channels that read alike), and the modules' derived broadcasts.
  async function deliver(change: DocumentChange): Promise<void> {
    const live = await freshAll(hub.inWorkspace(change.workspace_id));
    if (!live.length) return;
    const event = changeEvent(change.action);
    type Group = { caller: Caller; conditions: Array<[string, string]>; targets: Array<{ chan: Chan; ids: number[] }> };
    const groups = new Map<string, Group>();
    const def = live.some((c) => c.bindings.length) ? (findResource(change.type) ?? null) : null;
    for (const chan of live) {
      const matching = chan.bindings.filter((b) => bindingMatches(b, change.type, event));
      if (!matching.length || !def) continue;
      const d = decideResource(memberOf(chan.caller), def, "read");
      if (!d.allowed) continue;
      const byConditions = new Map<string, number[]>();
      for (const b of matching) {
        const k = JSON.stringify(b.conditions);
        byConditions.set(k, [...(byConditions.get(k) ?? []), b.id]);
      }
      for (const [k, ids] of byConditions) {
        const who = [chan.caller.permissions, chan.caller.features, d.scope === "own" ? chan.caller.userId : null];
        const key = JSON.stringify(who) + k;
        const g: Group = groups.get(key) ?? { caller: chan.caller, conditions: JSON.parse(k), targets: [] };
        groups.set(key, g);
        g.targets.push({ chan, ids });
      }
    }
    const columns = groups.size ? columnsOf(change.type) : [];
    for (const g of groups.values()) {
      const record =
        event === "DELETE"
          ? g.conditions.length === 0
            ? {}
            : null
          : await readableRow(db, g.caller, change.type, change.id, g.conditions);
      if (!record) continue;
      const data = {
        schema: "public",
        table: change.type,
        commit_timestamp: change.at,
        type: event,
        columns,
        record: event === "DELETE" ? null : record,
        old_record: event === "INSERT" ? null : { id: change.id },
        errors: null,
      };
      for (const t of g.targets) hub.push(t.chan, "postgres_changes", { ids: t.ids, data });
    }
    const topics = new Set(live.map((c) => c.subTopic));
    for (const m of await derivedMessages(change, db, topics)) {
      for (const chan of live) {
        if (chan.subTopic === m.topic && mayReceive(memberOf(chan.caller), m)) {
          hub.push(chan, "broadcast", { type: "broadcast", event: m.event, payload: m.payload });
        }
      }
    }
  }

  // A message another instance passed on (our own come back too: NOTIFY reaches every listener).
  function fromPeer(m: PeerMessage): void {
    if (m.origin === instance) return;
    if (m.kind === "broadcast") {
      const payload = m.binary ? Buffer.from(String(m.payload), "base64") : m.payload;
      for (const chan of hub.inRoom(m.ws, m.topic)) {
        hub.push(chan, "broadcast", { type: "broadcast", event: m.event, payload });
      }
    } else if (m.kind === "presence") {
      if (!m.to || m.to === instance) hub.applyPresence(m.ws, m.topic, m.diff);
    } else if (m.kind === "presence_sync") {
      const joins = hub.ownPresence(m.ws, m.topic);
      if (Object.keys(joins).length) {
        const diff = { joins, leaves: {} };
        void notify({ origin: instance, kind: "presence", ws: m.ws, topic: m.topic, diff, to: m.origin });
      }
    }
  }

  function closeConn(conn: Conn): void {
    for (const chan of [...conn.channels.values()]) leave(chan);
  }

  return { hub, handle, deliver, fromPeer, closeConn, instance, workspaces: () => hub.workspaces() };
}
