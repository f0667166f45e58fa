import type { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import type { Database } from "../db/database.ts";

// One LISTEN per server process (DESIGN §2.1 "fan-out through LISTEN/NOTIFY"): on PostgreSQL a connection of its
// own outside the pool, which is opened again with backoff (and LISTENs again) when it is lost, so the process
// outlives a database restart; on PGlite the embedded database's own listen, which hears the NOTIFY of every
// transaction committed on it. Each payload goes to `onPayload`; nothing here knows what it means.

export const CHANNEL = "workmetrics_events";

export type Listener = { close(): Promise<void>; connected(): boolean };

type Log = { warn(obj: unknown, msg?: string): void; info(obj: unknown, msg?: string): void };

export async function listen(database: Database, onPayload: (payload: string) => void, log: Log): Promise<Listener> {
  const client = (database.db as unknown as { $client: unknown }).$client;
  if (database.kind === "pglite") {
    const unlisten = await (client as PGlite).listen(CHANNEL, onPayload);
    return { close: () => unlisten(), connected: () => true };
  }
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
      if (n.channel === CHANNEL && n.payload) onPayload(n.payload);
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
      await c.query(`LISTEN ${CHANNEL}`);
      attempt = 0;
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
