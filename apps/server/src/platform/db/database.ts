import { existsSync } from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import * as schema from "@workmetrics/domain/db/schema";
import { sql } from "drizzle-orm";
import { drizzle as drizzlePg, type NodePgDatabase, NodePgSession, NodePgTransaction } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import pg from "pg";
import { baseSnapshot, MIGRATIONS } from "./base-snapshot.ts";
import { createReadRouter, pgLsnSource, type ReadRouter } from "./replica.ts";

export type Db = NodePgDatabase<typeof schema>;
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
export type DatabaseKind = "pglite" | "postgresql";

export type Database = {
  kind: DatabaseKind;
  db: Db;
  migrate(): Promise<void>;
  // Runs `fn` while holding the start-up lock, so that instances starting together prepare the database one after
  // another (issue 20 §3); on PGlite, one process owns the database and this only runs `fn`.
  exclusively<T>(fn: () => Promise<T>): Promise<T>;
  close(): Promise<void>;
  // Issue 25 §3: the streaming replica reads that may lag go to (DATABASE_REPLICA_URL), and the router that decides
  // per read; without a replica the router answers "primary" and `replica` is absent.
  replica?: Db;
  reads: ReadRouter;
  // The connection pools by name ("primary", "replica") with the time requests waited for a connection (/metrics).
  pools: PoolStats[];
};

export type PoolStats = { name: string; pool: pg.Pool; max: number; waits: { count: number; totalMs: number } };

// pg_advisory_lock's key for the start-up (migrate, secure, counts, reference data, seed): "wmstart" in ASCII.
export const STARTUP_LOCK_KEY = "33615864869778036"; // 0x776d7374617274

// How long one statement of a request transaction may run (STATEMENT_TIMEOUT_MS), kept per database handle so
// inRequest's callers need not carry the configuration. 0: no limit.
const statementTimeouts = new WeakMap<Db, number>();
export const DEFAULT_STATEMENT_TIMEOUT_MS = 15_000;
export const statementTimeout = (db: Db): number => statementTimeouts.get(db) ?? DEFAULT_STATEMENT_TIMEOUT_MS;

// DESIGN §2: PGlite in DATA_DIR without DATABASE_URL, node-postgres with it; one schema, one set of migrations.
export async function openDatabase(opts: {
  databaseUrl?: string;
  replicaUrl?: string;
  dataDir: string;
  statementTimeoutMs?: number;
}): Promise<Database> {
  const opened = await open(opts);
  const timeout = opts.statementTimeoutMs ?? DEFAULT_STATEMENT_TIMEOUT_MS;
  statementTimeouts.set(opened.db, timeout);
  if (opts.replicaUrl && opened.kind === "postgresql") {
    // The replica's pool opens lazily: an instance starts, and serves from the primary, while the replica is down.
    const replica = pgPool("replica", opts.replicaUrl);
    statementTimeouts.set(replica.db, timeout);
    opened.replica = replica.db;
    opened.pools.push(replica.stats);
    opened.reads = createReadRouter({ source: pgLsnSource(opened.db, replica.db) });
    const closePrimary = opened.close;
    opened.close = async () => {
      await Promise.all([closePrimary(), replica.stats.pool.end()]);
    };
  }
  return opened;
}

const POOL_MAX = 20;
const CONNECT_TIMEOUT_MS = 20_000;

// A node-postgres pool with drizzle over it, the one-round-trip opener, and its wait times counted.
function pgPool(name: string, url: string): { db: Db; stats: PoolStats } {
  // A connection that cannot be had within CONNECT_TIMEOUT_MS (the server unreachable, the pool held by stuck work)
  // fails the request with a 503 (database-errors.ts) instead of holding it, and the caller, for ever.
  const pool = new pg.Pool({ connectionString: url, max: POOL_MAX, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
  // An idle connection ended by the server (a restart, an administrator, a dropped test database) is not a
  // request's failure: the pool discards it and connects again when needed. Unheard, the error would end the
  // process.
  pool.on("error", (err) => process.emitWarning(`database connection lost (${name}): ${err.message}`));
  // A connection ended while a request holds it reports on the client, where the pool no longer listens: the
  // request's own query fails instead (answered 503, database-errors.ts) and the pool discards the client
  // on release, as it is no longer queryable. Unheard, this too would end the process.
  pool.on("connect", (client) => client.on("error", () => undefined));
  // Numeric stays a decimal string (DESIGN §2.3: never binary floats); int8 fits JS numbers for our ids.
  pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));
  const db = drizzlePg({ client: pool, schema });
  const stats: PoolStats = { name, pool, max: POOL_MAX, waits: { count: 0, totalMs: 0 } };
  openers.set(db, pgOpener(pool, db, stats.waits));
  return { db, stats };
}

const NO_REPLICA: ReadRouter = createReadRouter({ source: null });

async function open(opts: { databaseUrl?: string; dataDir: string }): Promise<Database> {
  if (opts.databaseUrl) {
    const { db, stats } = pgPool("primary", opts.databaseUrl);
    const pool = stats.pool;
    await pool.query("select 1");
    return {
      kind: "postgresql",
      db,
      migrate: () => migratePg(db, { migrationsFolder: MIGRATIONS }),
      exclusively: (fn) => holdingStartupLock(opts.databaseUrl as string, fn),
      close: () => pool.end(),
      reads: NO_REPLICA,
      pools: [stats],
    };
  }
  const pgdata = path.join(opts.dataDir, "pgdata");
  // A new data directory starts from the build's migrated schema when there is one for this code (base-snapshot.ts).
  const base = existsSync(path.join(pgdata, "PG_VERSION")) ? null : baseSnapshot();
  const client = await PGlite.create(pgdata, { extensions: { pg_trgm }, ...(base ? { loadDataDir: base } : {}) });
  const db = drizzlePglite({ client, schema }) as unknown as Db;
  return {
    kind: "pglite",
    db,
    migrate: () =>
      migratePglite(db as unknown as Parameters<typeof migratePglite>[0], { migrationsFolder: MIGRATIONS }),
    exclusively: (fn) => fn(),
    close: () => client.close(),
    reads: NO_REPLICA,
    pools: [],
  };
}

// The session-level advisory lock on a connection of its own, outside the pool (the work under it uses the pool):
// a second instance waits here until the first has prepared the database, then finds it all in place. Ending the
// connection releases the lock, also when the process dies half-way.
async function holdingStartupLock<T>(databaseUrl: string, fn: () => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: databaseUrl });
  client.on("error", () => undefined); // a lost lock connection fails the start-up's own statements, not the process
  await client.connect();
  try {
    await client.query(`select pg_advisory_lock(${STARTUP_LOCK_KEY}::bigint)`);
    return await fn();
  } finally {
    await client.end().catch(() => undefined);
  }
}

export type RequestContext = { workspaceId: string | null; userId: string | null; role: string };

// DESIGN §2.2: one transaction per request; settings first, then the non-superuser role so RLS applies.
// Issue 9 §3: every statement after them is stopped past the statement timeout (SET LOCAL statement_timeout), so
// one request cannot hold a connection for minutes. PGlite accepts the setting but cannot enforce it (no timer
// interrupts in WASM); there the row and embed caps of the REST engine are the guard.
// On PostgreSQL the transaction opens in one round trip with its settings and, for a member, their access row
// (memberRowSql, read by loadMember): a request paid three round trips before its first statement of work.
export function inRequest<T>(db: Db, ctx: RequestContext, fn: (tx: Tx) => Promise<T>): Promise<T> {
  const settings: Array<[string, string]> = [
    ["app.workspace_id", ctx.workspaceId ?? ""],
    ["app.user_id", ctx.userId ?? ""],
    ["app.role", ctx.role],
    ["statement_timeout", String(statementTimeout(db))],
    // Last: set_config('role', …, true) is SET LOCAL ROLE, applied from the next statement on.
    ["role", "workmetrics_app"],
  ];
  const opener = openers.get(db);
  if (opener) {
    const member = ctx.role === "authenticated" ? memberKey(ctx) : null;
    const set = settings.map(([k, v]) => `set_config(${pg.escapeLiteral(k)}, ${pg.escapeLiteral(v)}, true)`);
    const prelude = [`select ${set.join(", ")}`, ...(member ? [memberRowSql(member.userId, member.workspaceId)] : [])];
    return opener(prelude, (tx, opened) => {
      if (member) prefetched.set(tx, { ...member, row: opened[2]?.rows[0] });
      return fn(tx);
    });
  }
  return db.transaction(async (tx) => {
    await tx.execute(
      sql`select ${sql.join(
        settings.map(([k, v]) => sql`set_config(${k}, ${v}, true)`),
        sql`, `,
      )}`,
    );
    return fn(tx);
  });
}

// ---- a member's access row ---------------------------------------------------------------------------------------

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (v: string): boolean => UUID.test(v);
type MemberKey = { userId: string; workspaceId: string };
const memberKey = (ctx: RequestContext): MemberKey | null =>
  ctx.userId && ctx.workspaceId && UUID.test(ctx.userId) && UUID.test(ctx.workspaceId)
    ? { userId: ctx.userId, workspaceId: ctx.workspaceId }
    : null;

// The member's activity, role, permissions and tier features, read as the request role (RLS applies). The ids are
// checked uuids, written as literals so that the statement can ride along a transaction's opening (no parameters).
export function memberRowSql(userId: string, workspaceId: string): string {
  if (!UUID.test(userId) || !UUID.test(workspaceId)) throw new Error("A member is named by uuids");
  return `select u.active, u.role_id, wr.permissions, t.features, w.suspended_at is not null as suspended
    from "user" u
    join workspace w on w.id = u.workspace_id
    join tier t on t.id = w.tier_id
    left join workspace_role wr on wr.workspace_id = u.workspace_id and wr.id = u.workspace_role_id
    where u.workspace_id = '${workspaceId}' and u.id = '${userId}'`;
}

const prefetched = new WeakMap<object, MemberKey & { row: unknown }>();

// The member's row read as the transaction opened ({ row: undefined }: there is none), or null when it was not.
export function prefetchedMember(tx: Tx, userId: string, workspaceId: string): { row: unknown } | null {
  const p = prefetched.get(tx);
  return p && p.userId === userId && p.workspaceId === workspaceId ? { row: p.row } : null;
}

// ---- PostgreSQL: a request's transaction opened in one round trip ---------------------------------------------------

type Opener = <T>(prelude: string[], fn: (tx: Tx, opened: pg.QueryResult[]) => Promise<T>) => Promise<T>;
const openers = new WeakMap<Db, Opener>();

type SessionParts = {
  dialect: ConstructorParameters<typeof NodePgSession>[1];
  schema: ConstructorParameters<typeof NodePgSession>[2];
  options: ConstructorParameters<typeof NodePgSession>[3];
};

// What drizzle's db.transaction does — a pooled client, begin, commit or rollback, release — with the statements of
// `prelude` sent along the begin as one simple query (so literals only: it carries no parameters).
function pgOpener(pool: pg.Pool, db: Db, waits: PoolStats["waits"]): Opener {
  const base = (db as unknown as { session: SessionParts }).session;
  return async (prelude, fn) => {
    const asked = performance.now();
    const client = await pool.connect();
    waits.count++;
    waits.totalMs += performance.now() - asked;
    let lost: Error | undefined;
    try {
      const session = new NodePgSession(client, base.dialect, base.schema, base.options);
      const tx = new NodePgTransaction(base.dialect, session, base.schema) as unknown as Tx;
      const opened = (await client.query(["begin", ...prelude].join(";\n"))) as unknown as pg.QueryResult[];
      const result = await fn(tx, opened);
      await client.query("commit");
      return result;
    } catch (err) {
      // A failed commit has ended the transaction already; this rollback then only warns.
      await client.query("rollback").catch((e: Error) => {
        lost = e;
      });
      throw err;
    } finally {
      // A client whose connection is gone is discarded, not pooled.
      client.release(lost);
    }
  };
}
