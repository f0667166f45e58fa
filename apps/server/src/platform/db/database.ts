import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import * as schema from "@workmetrics/domain/db/schema";
import { sql } from "drizzle-orm";
import { drizzle as drizzlePg, type NodePgDatabase } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import pg from "pg";

export type Db = NodePgDatabase<typeof schema>;
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
export type DatabaseKind = "pglite" | "postgresql";

export type Database = {
  kind: DatabaseKind;
  db: Db;
  migrate(): Promise<void>;
  close(): Promise<void>;
};

const migrationsFolder = path.join(import.meta.dirname, "../../../migrations");

// How long one statement of a request transaction may run (STATEMENT_TIMEOUT_MS), kept per database handle so
// inRequest's callers need not carry the configuration. 0: no limit.
const statementTimeouts = new WeakMap<Db, number>();
export const DEFAULT_STATEMENT_TIMEOUT_MS = 15_000;
export const statementTimeout = (db: Db): number => statementTimeouts.get(db) ?? DEFAULT_STATEMENT_TIMEOUT_MS;

// DESIGN §2: PGlite in DATA_DIR without DATABASE_URL, node-postgres with it; one schema, one set of migrations.
export async function openDatabase(opts: {
  databaseUrl?: string;
  dataDir: string;
  statementTimeoutMs?: number;
}): Promise<Database> {
  const opened = await open(opts);
  statementTimeouts.set(opened.db, opts.statementTimeoutMs ?? DEFAULT_STATEMENT_TIMEOUT_MS);
  return opened;
}

async function open(opts: { databaseUrl?: string; dataDir: string }): Promise<Database> {
  if (opts.databaseUrl) {
    const pool = new pg.Pool({ connectionString: opts.databaseUrl, max: 20 });
    // An idle connection ended by the server (a restart, an administrator, a dropped test database) is not a
    // request's failure: the pool discards it and connects again when needed. Unheard, the error would end the
    // process.
    pool.on("error", (err) => process.emitWarning(`database connection lost: ${err.message}`));
    // A connection ended while a request holds it reports on the client, where the pool no longer listens: the
    // request's own query fails instead (answered 503, database-errors.ts) and the pool discards the client
    // on release, as it is no longer queryable. Unheard, this too would end the process.
    pool.on("connect", (client) => client.on("error", () => undefined));
    // Numeric stays a decimal string (DESIGN §2.3: never binary floats); int8 fits JS numbers for our ids.
    pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));
    const db = drizzlePg({ client: pool, schema });
    await pool.query("select 1");
    return {
      kind: "postgresql",
      db,
      migrate: () => migratePg(db, { migrationsFolder }),
      close: () => pool.end(),
    };
  }
  const client = await PGlite.create(path.join(opts.dataDir, "pgdata"), { extensions: { pg_trgm } });
  const db = drizzlePglite({ client, schema }) as unknown as Db;
  return {
    kind: "pglite",
    db,
    migrate: () => migratePglite(db as unknown as Parameters<typeof migratePglite>[0], { migrationsFolder }),
    close: () => client.close(),
  };
}

export type RequestContext = { workspaceId: string | null; userId: string | null; role: string };

// DESIGN §2.2: one transaction per request; settings first, then the non-superuser role so RLS applies.
// Issue 9 §3: every statement after them is stopped past the statement timeout (SET LOCAL statement_timeout), so
// one request cannot hold a connection for minutes. PGlite accepts the setting but cannot enforce it (no timer
// interrupts in WASM); there the row and embed caps of the REST engine are the guard.
export function inRequest<T>(db: Db, ctx: RequestContext, fn: (tx: Tx) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    // One round trip: set_config('role', …, true) is SET LOCAL ROLE, applied from the next statement on.
    await tx.execute(
      sql`select set_config('app.workspace_id', ${ctx.workspaceId ?? ""}, true),
                 set_config('app.user_id', ${ctx.userId ?? ""}, true),
                 set_config('app.role', ${ctx.role}, true),
                 set_config('statement_timeout', ${String(statementTimeout(db))}, true),
                 set_config('role', 'workmetrics_app', true)`,
    );
    return fn(tx);
  });
}
