import type { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import type { Database } from "../db/database.ts";

// One LISTEN per server process (DESIGN §2.1 "fan-out through LISTEN/NOTIFY"): on PostgreSQL a connection of its
// own outside the pool, which is opened again with backoff (and LISTENs again) when it is lost, so the process
// outlives a database restart; on PGlite the embedded database's own listen, which hears the NOTIFY of every
// transaction committed on it. Each payload goes to `onPayload` with its channel; `onListening` is called each time
// the LISTEN is (re)established, so the caller can catch up on what was committed while it was not listening.
// CHANNEL carries document changes (document_event's trigger, migration 0028); PEERS the realtime messages one
// instance passes to the others (broadcasts, presence).

export const CHANNEL = "workmetrics_events";
export const PEERS = "workmetrics_realtime";
const CHANNELS = [CHANNEL, PEERS];

export type Listener = { close(): Promise<void>; connected(): boolean };

type Log = { warn(obj: unknown, msg?: string): void; info(obj: unknown, msg?: string): void };

export type ListenHandlers = {
  onPayload: (channel: string, payload: string) => void;
  onListening: (again: boolean) => void;
};

export async function listen(database: Database, handlers: ListenHandlers, log: Log): Promise<Listener> {
  const { onPayload, onListening } = handlers;
  const client = (database.db as unknown as { $client: unknown }).$client;
  if (database.kind === "pglite") {
    const unlisten = await Promise.all(
      CHANNELS.map((ch) => (client as PGlite).listen(ch, (payload) => onPayload(ch, payload))),
    );
    onListening(false);
    return { close: async () => void (await Promise.all(unlisten.map((u) => u()))), connected: () => true };
  }
  let listenedOnce = false;
  const options = (client as pg.Pool).options;
  let closed = false;
  let current: pg.Client | null = null;
  let attempt = 0;
  let timer: NodeJS.Timeout | null = null;

  const connect = async (): Promise<void> => {
    timer = null;
    if (closed) return;
    const c = new pg.Client({ ...options, connectionString: options.connectionString });
    c.on("notification", (n) => {
      if (CHANNELS.includes(n.channel) && n.payload) onPayload(n.channel, n.payload);
    });
    const lost = (err?: Error) => {
      if (current !== c) return;
      current = null;
      c.removeAllListeners("end");
      c.end().catch(() => undefined);
      if (closed) return;
      const wait = Math.min(30_000, 250 * 2 ** attempt++);
      log.warn({ err: err?.message, retryInMs: wait }, "realtime LISTEN connection lost; listening again");
      timer = setTimeout(connect, wait);
    };
    c.on("error", lost);
    c.on("end", () => lost());
    current = c;
    try {
      await c.connect();
      await c.query(CHANNELS.map((ch) => `LISTEN ${ch};`).join(" "));
      attempt = 0;
      onListening(listenedOnce);
      listenedOnce = true;
    } catch (err) {
      lost(err as Error);
    }
  };
  await connect();
  return {
    connected: () => current !== null,
    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      const c = current;
      current = null;
      await c?.end().catch(() => undefined);
    },
  };
}
