import { createHash } from "node:crypto";
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";

// Seed once, copy many. A test server's start is: a new database, the migrations, the reference data and the seed
// (basic: seconds; the demo's year of trading: tens of seconds). Every test server of a kind starts from the same
// state, so the first one of a run builds it once, with the very startServer the tests run, into a template, and
// every later one starts from a copy: PGlite's data directory copied (cpSync), PostgreSQL's database created from a
// template database (CREATE DATABASE … TEMPLATE). Files the seed writes into DATA_DIR (the receipts' scans) are
// copied too. The server then starts as on any restart: its migrations find nothing to do, its seed finds the demo
// workspace and stops, and everything else it runs on every start (RLS, row counts, reference data) runs again.
//
// The template is keyed by everything that shapes it: the seed kind, the database (PGlite, or which PostgreSQL), the
// day (the demo's calendar counts back from the database's today), the server's and the domain's sources, the
// migrations and the lockfile. Any change makes a new template; nothing stale is ever reused. TEST_SEED_CACHE=0
// turns the cache off (every server seeds its own database, as before).

const root = path.resolve(import.meta.dirname, "../../..");
export const CACHE_DIR = path.join(os.tmpdir(), "workmetrics-seed-cache");
// Bump to make every template anew after a change to how templates are made.
const FORMAT = "1";
// Templates of another key unused for this long are removed when a new one is made (an older checkout's, yesterday's;
// while the code is being edited every change makes a new key).
const KEEP_MS = 3600_000;

export const seedCacheEnabled = () => process.env.TEST_SEED_CACHE !== "0";

export type Template = {
  // A data directory to copy as the server's DATA_DIR.
  dataDir: string;
  // PostgreSQL: the template database to create the server's database from.
  database?: string;
};

// Builds the seeded state into `dataDir` (and the PostgreSQL database at `databaseUrl`), as a test server would.
export type Build = (dataDir: string, databaseUrl: string | undefined) => Promise<void>;

let sourcesHash: string | undefined;
function hashSources(): string {
  if (sourcesHash) return sourcesHash;
  const h = createHash("sha256");
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (!entry.name.endsWith(".test.ts")) h.update(`${path.relative(root, full)}\0`).update(readFileSync(full));
    }
  };
  for (const dir of ["apps/server/src", "apps/server/migrations", "packages/domain/src"]) walk(path.join(root, dir));
  const lock = path.join(root, "package-lock.json");
  if (existsSync(lock)) h.update(readFileSync(lock));
  sourcesHash = h.digest("hex");
  return sourcesHash;
}

// The PostgreSQL server's today (its time zone may not be ours), and which server it is.
async function postgresIdentity(admin: string): Promise<string> {
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  try {
    const res = await client.query("select current_date::text as d, version() as v");
    const url = new URL(admin);
    return `${url.host}|${res.rows[0].d}|${res.rows[0].v}`;
  } finally {
    await client.end();
  }
}

const withAdmin = async <T>(admin: string, fn: (c: pg.Client) => Promise<T>): Promise<T> => {
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
};

// The template for `seed`, made first if no test server of this run (or an earlier one, same key) has made it.
// `admin`: TEST_DATABASE_URL when the tests run on PostgreSQL.
export async function seedTemplate(seed: string, admin: string | undefined, build: Build): Promise<Template> {
  const utcDay = new Date().toISOString().slice(0, 10);
  const localDay = new Date().toDateString();
  const db = admin ? `postgresql|${await postgresIdentity(admin)}` : `pglite|${utcDay}|${localDay}`;
  const key = createHash("sha256")
    .update([FORMAT, seed, db, utcDay, localDay, hashSources()].join("\n"))
    .digest("hex")
    .slice(0, 16);
  const name = `${seed}-${admin ? "pg" : "pglite"}-${key}`;
  const dir = path.join(CACHE_DIR, name);
  const database = admin ? `workmetrics_tpl_${seed}_${key}` : undefined;
  const template: Template = { dataDir: dir, database };
  mkdirSync(CACHE_DIR, { recursive: true });

  const ready = async () => {
    if (!existsSync(path.join(dir, ".ready"))) return false;
    if (admin && database) {
      // The directory says the template database was made; check it still is (someone may have dropped it).
      const found = await withAdmin(admin, (c) => c.query("select 1 from pg_database where datname = $1", [database]));
      if (!found.rowCount) {
        rmSync(dir, { recursive: true, force: true });
        return false;
      }
    }
    // The directory's time says when the template was last used (removeOld).
    const now = new Date();
    utimesSync(dir, now, now);
    return true;
  };

  // One maker at a time (other test files start servers in parallel, other runs too): a lock directory naming its
  // maker's pid. The others wait for the template, or take the lock over if its maker died.
  const lock = `${dir}.lock`;
  for (;;) {
    if (await ready()) return template;
    try {
      mkdirSync(lock);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      const pid = Number(readFileSyncOr(path.join(lock, "pid")));
      const age = Date.now() - statOr(lock);
      // A lock without a pid yet is being taken (give it a few seconds); one whose maker is gone is free.
      if ((pid && !alive(pid)) || (!pid && age > 10_000)) rmSync(lock, { recursive: true, force: true });
      else await sleep(250);
      continue;
    }
    try {
      writeFileSync(path.join(lock, "pid"), String(process.pid));
      if (await ready()) return template;
      await make(template, admin, build);
      return template;
    } finally {
      rmSync(lock, { recursive: true, force: true });
    }
  }
}

function readFileSyncOr(file: string): string {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return "";
  }
}

function statOr(file: string): number {
  try {
    return statSync(file).mtimeMs;
  } catch {
    return Date.now();
  }
}

async function make(template: Template, admin: string | undefined, build: Build): Promise<void> {
  await removeOld(template, admin);
  const building = `${template.dataDir}.building-${process.pid}`;
  rmSync(building, { recursive: true, force: true });
  mkdirSync(building, { recursive: true });
  let databaseUrl: string | undefined;
  const buildingDb = template.database ? `${template.database}_b${process.pid}` : undefined;
  try {
    if (admin && template.database && buildingDb) {
      await withAdmin(admin, async (c) => {
        await c.query(`drop database if exists ${buildingDb} with (force)`);
        await c.query(`drop database if exists ${template.database} with (force)`);
        await c.query(`create database ${buildingDb}`);
      });
      const url = new URL(admin);
      url.pathname = `/${buildingDb}`;
      databaseUrl = url.toString();
    }
    await build(building, databaseUrl);
    if (admin && template.database && buildingDb) {
      const tpl = template.database;
      await withAdmin(admin, async (c) => {
        // The server's pool has ended, but PostgreSQL may still be closing its sessions: a template must have none.
        for (let i = 0; ; i++) {
          try {
            await c.query(`alter database ${buildingDb} rename to ${tpl}`);
            break;
          } catch (err) {
            if ((err as { code?: string }).code !== "55006" || i >= 100) throw err;
            await sleep(50);
          }
        }
      });
    }
    writeFileSync(path.join(building, ".ready"), new Date().toISOString());
    rmSync(template.dataDir, { recursive: true, force: true });
    renameSync(building, template.dataDir);
  } catch (err) {
    rmSync(building, { recursive: true, force: true });
    if (admin && buildingDb) {
      await withAdmin(admin, (c) => c.query(`drop database if exists ${buildingDb} with (force)`)).catch(() => {});
    }
    throw err;
  }
}

// Templates of other keys unused for KEEP_MS go (each is a whole seeded database, 50 MB and more), and what dead
// makers left half-built.
async function removeOld(template: Template, admin: string | undefined): Promise<void> {
  const now = Date.now();
  const dropDatabases: string[] = [];
  for (const entry of readdirSync(CACHE_DIR)) {
    const full = path.join(CACHE_DIR, entry);
    if (full === template.dataDir || entry.endsWith(".lock")) continue;
    const maker = entry.match(/\.building-(\d+)$/);
    if (maker ? alive(Number(maker[1])) : now - statOr(full) <= KEEP_MS) continue;
    rmSync(full, { recursive: true, force: true });
    const pgTemplate = entry.match(/^(\w+)-pg-([0-9a-f]+)$/);
    if (pgTemplate) dropDatabases.push(`workmetrics_tpl_${pgTemplate[1]}_${pgTemplate[2]}`);
  }
  if (!admin) return;
  await withAdmin(admin, async (c) => {
    const res = await c.query("select datname from pg_database where datname like 'workmetrics\\_tpl\\_%\\_b%'");
    for (const row of res.rows as Array<{ datname: string }>) {
      const maker = row.datname.match(/_b(\d+)$/);
      if (maker && !alive(Number(maker[1]))) dropDatabases.push(row.datname);
    }
    for (const name of dropDatabases) await c.query(`drop database if exists ${name} with (force)`).catch(() => {});
  });
}

// A copy of the template's data directory as `dataDir` (which exists, empty).
export function copyTemplateDir(template: Template, dataDir: string): void {
  cpSync(template.dataDir, dataDir, { recursive: true, filter: (src) => path.basename(src) !== ".ready" });
}
