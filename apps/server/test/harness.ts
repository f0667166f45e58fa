import { mkdtempSync, rmSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { loadConfig } from "../src/config.ts";
import { type Running, startServer } from "../src/server.ts";
import { copyTemplateDir, seedCacheEnabled, seedTemplate } from "./seed-cache.ts";

export type TestServer = { running: Running; url: string; databaseUrl: string | undefined; close(): Promise<void> };

const BASE_ENV = {
  HOST: "127.0.0.1",
  LOG_LEVEL: "warn",
  NODE_ENV: "test",
  // Without the demo's year of trading, which costs seconds per server; a test that reads it asks for SEED=demo.
  SEED: "basic",
  JWT_SECRET: "test-secret-test-secret-test-secret-0123456789",
  // A web build of one's own (vite build --outDir …), so a journey can run beside another's `npm run build`.
  ...(process.env.WEB_DIST ? { WEB_DIST: process.env.WEB_DIST } : {}),
};

let serial = 0;

// A fresh database per server: a new PGlite directory, or a new database on the PostgreSQL of TEST_DATABASE_URL.
// Both start as a copy of the seed's template (seed-cache.ts: migrated and seeded once per run, not per server) unless
// the caller brings its own DATA_DIR or DATABASE_URL, or TEST_SEED_CACHE=0.
export async function startTestServer(env: Record<string, string> = {}): Promise<TestServer> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "workmetrics-test-"));
  let databaseUrl: string | undefined;
  let dropDatabase: (() => Promise<void>) | undefined;
  const admin = process.env.TEST_DATABASE_URL;
  const seed = env.SEED ?? BASE_ENV.SEED;
  const template =
    seedCacheEnabled() && !env.DATA_DIR && !env.DATABASE_URL
      ? await seedTemplate(seed, admin, (dir, url) => buildTemplate(seed, dir, url))
      : undefined;
  if (template) copyTemplateDir(template, dataDir);
  if (admin) {
    const name = `workmetrics_test_${process.pid}_${Date.now()}_${serial++}`;
    const client = new pg.Client({ connectionString: admin });
    await client.connect();
    await createDatabase(client, name, template?.database);
    await client.end();
    const url = new URL(admin);
    url.pathname = `/${name}`;
    databaseUrl = url.toString();
    dropDatabase = async () => {
      const c = new pg.Client({ connectionString: admin });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    };
  }
  // A known port up front, so PUBLIC_URL (and the links in mails) point at this very server.
  const port = env.PORT ?? String(await freePort());
  const config = loadConfig({
    ...BASE_ENV,
    PORT: port,
    PUBLIC_URL: `http://localhost:${port}`,
    DATA_DIR: dataDir,
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    ...env,
  });
  const running = await startServer(config);
  return {
    running,
    url: running.url,
    databaseUrl,
    async close() {
      await running.stop();
      await dropDatabase?.();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

// The seed's template: what a test server's start leaves in a new database, made by that very start.
async function buildTemplate(seed: string, dataDir: string, databaseUrl: string | undefined): Promise<void> {
  const running = await startServer(
    loadConfig({
      ...BASE_ENV,
      PORT: "0",
      LOG_LEVEL: "silent",
      DATA_DIR: dataDir,
      SEED: seed,
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    }),
  );
  await running.stop();
}

// CREATE DATABASE, from the template when there is one. PostgreSQL refuses a template someone is connected to
// (55006): no one should be, but a just-ended session may linger a moment.
async function createDatabase(client: pg.Client, name: string, template: string | undefined): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      await client.query(`create database ${name}${template ? ` template ${template}` : ""}`);
      return;
    } catch (err) {
      if (!template || (err as { code?: string }).code !== "55006" || attempt >= 100) throw err;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const address = srv.address();
      srv.close(() => (address && typeof address === "object" ? resolve(address.port) : reject(new Error("no port"))));
    });
  });
}
