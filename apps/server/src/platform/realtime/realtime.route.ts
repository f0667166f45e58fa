import websocket from "@fastify/websocket";
import type { Member } from "@workmetrics/domain";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { WebSocket } from "ws";
import { readSessionCookie } from "../auth/cookies.ts";
import { type AuthInfo, bearerToken, NOT_AUTHENTICATED, sessionForToken } from "../auth/guard.ts";
import { type Database, type Db, inRequest } from "../db/database.ts";
import { loadMember } from "../rest/access.ts";
import { type Change, mayReceive, messagesFor } from "./events.ts";
import { type Listener, listen } from "./listener.ts";

// DESIGN §2.1 "realtime": GET /realtime/v1/websocket upgrades to a WebSocket for a signed-in member. Browsers cannot
// set headers on a WebSocket, and a token in the address would be written to access logs, so the access token
// travels as a subprotocol beside "workmetrics" (new WebSocket(url, ["workmetrics", "access_token." + token])); the
// bearer header and the session cookie work too; refused 401 without. The socket belongs to the token's workspace
// and only ever receives that workspace's events, each only when the member meets the event's Requirement (the
// domain's one access rule, `decide`). Server → client: {"event": "ready" | "document.changed" | <module events>,
// "payload": …}; client → server: {"event":"ping"} answered {"event":"pong"}. The member's permissions are read
// again at most every 30 s, and a session that was signed out or revoked closes the socket (4001).

export const PROTOCOL = "workmetrics";
const TOKEN_PROTOCOL = "access_token.";

const REFRESH_MS = 30_000;
const PING_MS = 25_000;

type Client = {
  socket: WebSocket;
  token: string;
  userId: string;
  workspaceId: string;
  member: Member;
  checkedAt: number;
};

declare module "fastify" {
  interface FastifyRequest {
    realtimeAuth?: { auth: AuthInfo; token: string };
  }
}

// The sockets of this process by workspace.
class Hub {
  readonly byWorkspace = new Map<string, Set<Client>>();

  add(c: Client): void {
    const set = this.byWorkspace.get(c.workspaceId) ?? new Set<Client>();
    this.byWorkspace.set(c.workspaceId, set);
    set.add(c);
  }

  remove(c: Client): void {
    const set = this.byWorkspace.get(c.workspaceId);
    set?.delete(c);
    if (set?.size === 0) this.byWorkspace.delete(c.workspaceId);
  }
}

function tokenOf(req: FastifyRequest): string | null {
  const offered = String(req.headers["sec-websocket-protocol"] ?? "")
    .split(",")
    .map((p) => p.trim());
  const fromProtocol = offered.find((p) => p.startsWith(TOKEN_PROTOCOL))?.slice(TOKEN_PROTOCOL.length);
  return fromProtocol || bearerToken(req) || readSessionCookie(req);
}

async function memberFor(db: Db, userId: string, workspaceId: string): Promise<Member | null> {
  try {
    const m = await inRequest(db, { workspaceId, userId, role: "authenticated" }, (tx) =>
      loadMember(tx, userId, workspaceId),
    );
    return { kind: "member", permissions: m.permissions, features: m.features };
  } catch {
    return null; // deactivated, or the workspace suspended
  }
}

export async function realtimeRoutes(app: FastifyInstance, opts: { database: Database }): Promise<void> {
  const { database } = opts;
  const db = database.db;
  const hub = new Hub();
  await app.register(websocket, {
    options: {
      maxPayload: 4096,
      // The answer names "workmetrics", never the token (a browser refuses an answer it did not offer).
      handleProtocols: (offered: Set<string>) => (offered.has(PROTOCOL) ? PROTOCOL : false),
    },
  });

  // A client's member, read again when older than REFRESH_MS; false when the session or membership has ended.
  async function fresh(c: Client): Promise<boolean> {
    if (Date.now() - c.checkedAt < REFRESH_MS) return true;
    c.checkedAt = Date.now();
    const auth = await sessionForToken(db, app.authDeps.signer, c.token, { ignoreExpiry: true });
    const member = auth ? await memberFor(db, c.userId, c.workspaceId) : null;
    if (!member) {
      c.socket.close(4001, "signed out");
      hub.remove(c);
      return false;
    }
    c.member = member;
    return true;
  }

  async function deliver(payload: string): Promise<void> {
    let change: Change;
    try {
      change = JSON.parse(payload) as Change;
    } catch {
      return;
    }
    const clients = hub.byWorkspace.get(change.workspace_id);
    if (!clients?.size) return; // nobody of that workspace listens here: nothing to derive
    const messages = await messagesFor(change, db);
    for (const c of [...clients]) {
      if (!(await fresh(c))) continue;
      for (const m of messages) {
        if (mayReceive(c.member, m) && c.socket.readyState === c.socket.OPEN) {
          c.socket.send(JSON.stringify({ event: m.event, payload: m.payload }));
        }
      }
    }
  }

  // Deliveries run one after another, in commit order.
  let queue = Promise.resolve();
  const listener: Listener = await listen(
    database,
    (payload) => {
      queue = queue.then(() => deliver(payload)).catch((err) => app.log.warn({ err }, "realtime delivery failed"));
    },
    app.log,
  );
  const pinger = setInterval(() => {
    for (const set of hub.byWorkspace.values()) for (const c of set) c.socket.ping();
  }, PING_MS);
  pinger.unref();
  app.addHook("onClose", async () => {
    clearInterval(pinger);
    await listener.close();
  });

  app.get(
    "/realtime/v1/websocket",
    {
      websocket: true,
      preValidation: async (req, reply) => {
        const token = tokenOf(req);
        const auth = token ? await sessionForToken(db, app.authDeps.signer, token) : null;
        if (!auth || !token) return reply.code(401).send(NOT_AUTHENTICATED);
        if (!auth.workspaceId) {
          return reply
            .code(403)
            .send({ code: "42501", message: "Sign in as a member of a workspace", details: null, hint: null });
        }
        req.realtimeAuth = { auth, token };
      },
    },
    async (socket, req) => {
      const { auth, token } = req.realtimeAuth as { auth: AuthInfo; token: string };
      const workspaceId = auth.workspaceId as string;
      // Messages that arrive before the member is read are answered after.
      const early: string[] = [];
      const onEarly = (data: unknown) => early.push(String(data));
      socket.on("message", onEarly);
      const member = await memberFor(db, auth.userId, workspaceId);
      if (!member) {
        socket.close(4003, "not an active member of this workspace");
        return;
      }
      const client: Client = { socket, token, userId: auth.userId, workspaceId, member, checkedAt: Date.now() };
      hub.add(client);
      const onMessage = (data: unknown) => {
        let msg: { event?: unknown } | null = null;
        try {
          msg = JSON.parse(String(data));
        } catch {
          msg = null;
        }
        if (msg?.event === "ping") socket.send(JSON.stringify({ event: "pong", payload: null }));
      };
      socket.off("message", onEarly);
      socket.on("message", onMessage);
      socket.on("close", () => hub.remove(client));
      socket.on("error", () => hub.remove(client));
      socket.send(JSON.stringify({ event: "ready", payload: { workspace_id: workspaceId } }));
      for (const data of early) onMessage(data);
    },
  );
}
