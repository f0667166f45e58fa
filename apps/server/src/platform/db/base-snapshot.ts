import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { drizzle } from "drizzle-orm/pglite";
import { migrate } from "drizzle-orm/pglite/migrator";

// A new embedded database starts from the migrated schema, made once by `npm run build`, instead of running initdb
// inside WebAssembly and then every migration: on a first start those took 5 to 9 s of the cold start (issue 10 §4).
// The snapshot is PGlite's own dump of its data directory (dumpDataDir), taken right after the migrations, so it holds
// no data: the reference data and the demo seed run on it as on any new database, through the same code. It is used
// only when its key — the migrations and the PGlite release that wrote it — is the running code's; otherwise (a
// migration added since the build, PGlite upgraded, no build) the database is made as before.

const root = path.resolve(import.meta.dirname, "../../../../..");
export const MIGRATIONS = path.join(import.meta.dirname, "../../../migrations");
const SNAPSHOT = path.join(import.meta.dirname, "../../../dist/pglite-base.tar.gz");
const KEY = `${SNAPSHOT}.key`;

function snapshotKey(): string {
  const h = createHash("sha256");
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const full = path.join(dir, e.name);
      if (e.isDirectory()) walk(full);
      else h.update(`${path.relative(MIGRATIONS, full)}\0`).update(readFileSync(full));
    }
  };
  walk(MIGRATIONS);
  const pglite = path.join(root, "node_modules/@electric-sql/pglite/package.json");
  h.update(existsSync(pglite) ? (JSON.parse(readFileSync(pglite, "utf8")) as { version: string }).version : "?");
  return h.digest("hex");
}

// The snapshot for a new data directory, or null when there is none for this code.
export function baseSnapshot(): Blob | null {
  try {
    if (!existsSync(SNAPSHOT) || readFileSync(KEY, "utf8") !== snapshotKey()) return null;
    return new Blob([readFileSync(SNAPSHOT)]);
  } catch {
    return null;
  }
}

// `npm run build`: initdb and the migrations in a scratch directory, dumped beside the server bundle.
export async function makeBaseSnapshot(): Promise<{ bytes: number; ms: number }> {
  const started = performance.now();
  const scratch = mkdtempSync(path.join(os.tmpdir(), "workmetrics-base-"));
  try {
    const client = await PGlite.create(path.join(scratch, "pgdata"), { extensions: { pg_trgm } });
    await migrate(drizzle({ client }), { migrationsFolder: MIGRATIONS });
    const dump = Buffer.from(await (await client.dumpDataDir("gzip")).arrayBuffer());
    await client.close();
    writeFileSync(SNAPSHOT, dump);
    writeFileSync(KEY, snapshotKey());
    return { bytes: dump.length, ms: Math.round(performance.now() - started) };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
