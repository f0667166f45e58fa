import type { Db } from "./database.ts";

// Issue 25 §3, DESIGN §3.1 DATABASE_REPLICA_URL: reads that may lag a little (lists, reports, dashboards,
// searches) go to a streaming replica, with read-your-writes: after a member writes, the answer carries the
// primary's WAL position after that write (a cookie, and a header for API clients), and their reads go to the
// primary until the replica has replayed up to it. Any instance can answer the next read, so the position travels
// with the member, never in one instance's memory. A replica that is down, or too far behind, sends every read to
// the primary. The decision is a pure function of the LSNs (decideRead), so it is tested without a replica.

// PostgreSQL's pg_lsn as text, "16/B374D848": two hex numbers, the high and low 32 bits.
const LSN = /^[0-9A-F]{1,8}\/[0-9A-F]{1,8}$/i;
export const isLsn = (v: unknown): v is string => typeof v === "string" && LSN.test(v);

export function lsnValue(lsn: string): bigint {
  const [hi, lo] = lsn.split("/");
  return (BigInt(`0x${hi}`) << 32n) | BigInt(`0x${lo}`);
}

// The cookie and header that carry a member's last write position.
export const READ_LSN_COOKIE = "wm-read-lsn";
export const READ_LSN_HEADER = "x-read-lsn";
export const WAL_LSN_HEADER = "x-wal-lsn";
// How long a write keeps routing its author's reads by position: longer than any lag we serve from the replica.
export const READ_LSN_MAX_AGE_S = 300;

export type ReplicaState =
  | { kind: "none" } // no replica configured
  | { kind: "down"; since: number } // unreachable or failing: every read goes to the primary
  | { kind: "up"; replayLsn: string | null; lagBytes: number | null; checkedAt: number };

export type ReadTarget = "primary" | "replica";

// Where a read goes: the replica when there is one that is up and has replayed the reader's last write (or the
// reader has none); the primary otherwise. replayLsn null: the "replica" answers as a primary (not in recovery),
// so it has everything.
export function decideRead(state: ReplicaState, minLsn: string | null): ReadTarget {
  if (state.kind !== "up") return "primary";
  if (minLsn === null || state.replayLsn === null) return "replica";
  return lsnValue(state.replayLsn) >= lsnValue(minLsn) ? "replica" : "primary";
}

// The position a read must wait for: the header an API client echoes, else the cookie, the later of the two.
export function minLsnOf(header: unknown, cookie: unknown): string | null {
  const found = [header, cookie].filter(isLsn);
  if (found.length === 0) return null;
  return found.reduce((a, b) => (lsnValue(a) >= lsnValue(b) ? a : b));
}

// What the router asks the databases; the real one queries them, a test's answers from a script.
export type LsnSource = {
  // The replica's replayed position (null: it is not in recovery), or throws when it cannot be reached.
  replayLsn(): Promise<string | null>;
  // The primary's current WAL position (after a commit: at least that commit's).
  currentLsn(): Promise<string>;
};

export type ReadRouter = {
  // The database a read goes to, given the reader's last write position.
  target(minLsn: string | null): Promise<ReadTarget>;
  // The primary's position now (called after a write commits).
  writeLsn(): Promise<string | null>;
  // A read on the replica failed for the replica's sake (connection, conflict with recovery): it is marked down
  // for a while and the read runs again on the primary.
  failed(err: unknown): void;
  state(): ReplicaState;
  close(): Promise<void>;
};

export type RouterOptions = {
  source: LsnSource | null; // null: no replica
  now?: () => number;
  refreshMs?: number; // how old the replayed position may be before a read asks again
  retryDownMs?: number; // how long a replica that failed is left alone
};

// The replica's position is read at most every refreshMs (default 50 ms), shared by the reads that arrive
// meanwhile: a read with no write of its own never waits for it after the first; one whose write the cached
// position has not reached asks once more before going to the primary.
export function createReadRouter(opts: RouterOptions): ReadRouter {
  const now = opts.now ?? Date.now;
  const refreshMs = opts.refreshMs ?? 50;
  const retryDownMs = opts.retryDownMs ?? 2_000;
  const source = opts.source;
  let state: ReplicaState = source ? { kind: "down", since: -Infinity } : { kind: "none" };
  let inflight: Promise<void> | null = null;

  const refresh = (): Promise<void> => {
    if (!source) return Promise.resolve();
    inflight ??= (async () => {
      try {
        const [replayLsn, current] = await Promise.all([source.replayLsn(), source.currentLsn().catch(() => null)]);
        const lagBytes = replayLsn && current ? Math.max(0, Number(lsnValue(current) - lsnValue(replayLsn))) : null;
        state = { kind: "up", replayLsn, lagBytes, checkedAt: now() };
      } catch {
        state = { kind: "down", since: now() };
      } finally {
        inflight = null;
      }
    })();
    return inflight;
  };

  const fresh = (): boolean =>
    state.kind === "up"
      ? now() - state.checkedAt < refreshMs
      : state.kind === "down" && now() - state.since < retryDownMs;

  return {
    async target(minLsn) {
      if (!source) return "primary";
      const cached = fresh();
      if (!cached) await refresh();
      let t = decideRead(state, minLsn);
      // Behind the reader's write by the cached position: the replica may have replayed it since.
      if (t === "primary" && cached && state.kind === "up") {
        await refresh();
        t = decideRead(state, minLsn);
      }
      return t;
    },
    async writeLsn() {
      if (!source) return null;
      return source.currentLsn().catch(() => null);
    },
    failed() {
      if (source) state = { kind: "down", since: now() };
    },
    state: () => state,
    close: async () => undefined,
  };
}

// Errors of a read on the replica that say nothing about the read itself, so it runs again on the primary: "down"
// when the replica is unreachable or refuses sessions (it is then left alone for a while: class 08, 57P01–57P03,
// 53300, socket errors), "retry" for this read only (25006 a read path that writes, 40001 a conflict with
// recovery).
const DOWN_STATES = new Set(["57P01", "57P02", "57P03", "53300"]);
const RETRY_STATES = new Set(["25006", "40001"]);
const SOCKET_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "EPIPE", "ETIMEDOUT", "EHOSTUNREACH", "ENETUNREACH"]);
const LOST = /Connection terminated|not queryable|Client was closed|Connection ended unexpectedly|ECONNREFUSED/;

export function replicaTrouble(err: unknown): "down" | "retry" | null {
  let e: unknown = err;
  for (let i = 0; i < 4 && e && typeof e === "object"; i++) {
    const { code, message } = e as { code?: unknown; message?: unknown };
    if (typeof code === "string") {
      if (RETRY_STATES.has(code)) return "retry";
      if (DOWN_STATES.has(code) || SOCKET_CODES.has(code) || /^08[0-9A-Z]{3}$/.test(code)) return "down";
    }
    if (typeof message === "string" && LOST.test(message)) return "down";
    e = (e as { cause?: unknown }).cause;
  }
  return null;
}

// The real source: the replica's and the primary's own functions.
export function pgLsnSource(primary: Db, replica: Db): LsnSource {
  const one = async (db: Db, q: string): Promise<string | null> => {
    const client = (db as unknown as { $client: { query(q: string): Promise<{ rows: unknown[] }> } }).$client;
    const res = await client.query(q);
    return (res.rows[0] as { lsn: string | null }).lsn;
  };
  return {
    replayLsn: () => one(replica, "select pg_last_wal_replay_lsn()::text as lsn"),
    currentLsn: async () =>
      (await one(
        primary,
        "select (case when pg_is_in_recovery() then pg_last_wal_replay_lsn() else pg_current_wal_lsn() end)::text as lsn",
      )) ?? "0/0",
  };
}
