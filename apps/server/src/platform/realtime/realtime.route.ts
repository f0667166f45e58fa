import websocket from "@fastify/websocket";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { NOT_AUTHENTICATED, sessionForToken } from "../auth/guard.ts";
import type { Database } from "../db/database.ts";
import { type Channels, createChannels, type PeerMessage } from "./channels.ts";
import { createFeed, type Feed } from "./feed.ts";
import type { Conn } from "./hub.ts";
import { CHANNEL, type Listener, listen } from "./listener.ts";
import { decodeFrame, type Vsn } from "./protocol.ts";

// DESIGN §2.3.2 "Realtime": GET /realtime/v1/websocket speaks the Phoenix channel protocol of @supabase/realtime-js,
// so supabase.channel(…) works unchanged. The socket opens with the public key (?apikey=…, as realtime-js sends it;
// a member's access token does too; 401 without either), each channel then joins with the member's access token
// (channels.ts). Document changes come from document_event through the feed (feed.ts: LISTEN wakes it, it reads
// the outbox, so a reconnect loses nothing); broadcasts and presence pass between instances over NOTIFY.

const MAX_FRAME_BYTES = 65_536;
// realtime-js sends a heartbeat every 25–30 s (spec §9: 30 s); a socket silent for longer than this is gone (a
// laptop closed, a dropped network) and is closed, its presence left.
const SILENT_MS = 75_000;

export type Realtime = { channels: Channels; feed: Feed; listener: Listener; sockets(): number };

// Issue 25 §1: a shutting-down instance closes its sockets with 1012 (service restart); realtime-js reconnects
// after any close it did not ask for, through the balancer, to another instance, and joins its channels again.
export const RESTART_CLOSE_CODE = 1012;
const CLOSE_GRACE_MS = 2_000;

// Each server's realtime, by its database (a route plugin's decorations stay inside it): for tests and benchmarks.
const RUNNING = new WeakMap<Database, Realtime>();
export const realtimeOf = (database: Database): Realtime | undefined => RUNNING.get(database);

const apikeyOf = (req: FastifyRequest): string | null => {
  const q = (req.query ?? {}) as Record<string, unknown>;
  const header = req.headers.apikey;
  return typeof q.apikey === "string" ? q.apikey : typeof header === "string" ? header : null;
};

export async function realtimeRoutes(app: FastifyInstance, opts: { database: Database }): Promise<void> {
  const { database } = opts;
  const db = database.db;
  const signer = app.authDeps.signer;
  await app.register(websocket, {
    options: { maxPayload: MAX_FRAME_BYTES },
    // Before the server closes (preClose): every socket, joined or not, is told to reconnect elsewhere.
    preClose(this: FastifyInstance, done: () => void) {
      const server = this.websocketServer;
      for (const client of server.clients) client.close(RESTART_CLOSE_CODE, "server restarting");
      // A client that does not answer the close (a dead network, one reconnecting itself) is cut off after a
      // moment instead of ws's 30 s, which would hold the shutdown.
      const cut = setTimeout(() => {
        for (const client of server.clients) client.terminate();
      }, CLOSE_GRACE_MS);
      cut.unref();
      server.close(() => undefined);
      done();
    },
  });

  let feed: Feed | null = null;
  const channels = createChannels({ db, signer, log: app.log, feed: () => feed as Feed });
  feed = createFeed(db, channels.deliver, (err) => app.log.warn({ err }, "realtime delivery failed"));
  const listener = await listen(
    database,
    {
      onPayload(channel, payload) {
        let msg: Record<string, unknown>;
        try {
          msg = JSON.parse(payload);
        } catch {
          return;
        }
        if (channel === CHANNEL) feed?.poke(String(msg.workspace_id));
        else channels.fromPeer(msg as PeerMessage);
      },
      // After a reconnect: read what was committed while no one was listening.
      onListening: (again) => {
        if (again) feed?.catchUp();
      },
    },
    app.log,
  );
  const conns = new Set<Conn>();
  RUNNING.set(database, { channels, feed, listener, sockets: () => conns.size });
  const sweeper = setInterval(() => {
    const now = Date.now();
    for (const c of conns) if (now - c.seenAt > SILENT_MS) c.ws.terminate();
  }, SILENT_MS / 3);
  sweeper.unref();
  app.addHook("onClose", async () => {
    clearInterval(sweeper);
    for (const chan of channels.hub.allChannels()) chan.conn.ws.close(RESTART_CLOSE_CODE, "server restarting");
    await listener.close();
  });

  app.get(
    "/realtime/v1/websocket",
    {
      websocket: true,
      preValidation: async (req, reply) => {
        const key = apikeyOf(req);
        const known = key !== null && (key === (await signer.anonKey()) || (await sessionForToken(db, signer, key)));
        if (!known) return reply.code(401).send(NOT_AUTHENTICATED);
      },
    },
    (socket, req) => {
      const vsn: Vsn = (req.query as Record<string, unknown>)?.vsn === "2.0.0" ? "2.0.0" : "1.0.0";
      const conn: Conn = { ws: socket, vsn, channels: new Map(), dropped: false, seenAt: Date.now() };
      conns.add(conn);
      // Frames are handled one after another, in the order the socket sent them.
      let queue = Promise.resolve();
      socket.on("message", (data: Buffer | ArrayBuffer | Buffer[], binary: boolean) => {
        const buf = Buffer.isBuffer(data) ? data : Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data);
        conn.seenAt = Date.now();
        const frame = decodeFrame(buf, binary, vsn);
        if (!frame) return;
        queue = queue
          .then(() => channels.handle(conn, frame))
          .catch((err) => app.log.warn({ err }, "realtime frame failed"));
      });
      const closed = () => {
        conns.delete(conn);
        queue = queue.then(() => channels.closeConn(conn));
      };
      socket.on("close", closed);
      socket.on("error", closed);
    },
  );
}
