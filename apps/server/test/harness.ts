import { mkdtempSync, rmSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { loadConfig } from "../src/config.ts";
import { type Running, startServer } from "../src/server.ts";

export type TestServer = { running: Running; url: string; databaseUrl: string | undefined; close(): Promise<void> };

// A fresh database per run: a new PGlite directory, or a new database on the PostgreSQL of TEST_DATABASE_URL.
export async function startTestServer(env: Record<string, string> = {}): Promise<TestServer> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "workmetrics-test-"));
  let databaseUrl: string | undefined;
  let dropDatabase: (() => Promise<void>) | undefined;
  const admin = process.env.TEST_DATABASE_URL;
  if (admin) {
    const name = `workmetrics_test_${process.pid}_${Date.now()}`;
    const client = new pg.Client({ connectionString: admin });
    await client.connect();
    await client.query(`create database ${name}`);
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
    PORT: port,
    PUBLIC_URL: `http://localhost:${port}`,
    HOST: "127.0.0.1",
    DATA_DIR: dataDir,
    LOG_LEVEL: "warn",
    NODE_ENV: "test",
    // Without the demo's year of trading, which costs seconds per server; a test that reads it asks for SEED=demo.
    SEED: "basic",
    JWT_SECRET: "test-secret-test-secret-test-secret-0123456789",
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
