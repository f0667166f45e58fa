import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "./harness.ts";
import { DEMO_PASSWORD } from "./rest-helpers.ts";

// Issue 9 §3 item 1: PostgreSQL ending the connections of requests in flight (an administrator, a failover) fails
// those requests with a 503 and a retry hint; the process lives on and the pool connects again. The server runs as
// a child process of its own, so "the process is alive" is its exit code, not this worker's.

const admin = process.env.TEST_DATABASE_URL;
const repo = path.resolve(import.meta.dirname, "../../..");
const OWNER = "owner@demo.test";

type Answer = { status: number; retryAfter: string | null; body: unknown };

async function adminQuery<T>(text: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  try {
    return (await client.query(text, params)).rows as T[];
  } finally {
    await client.end();
  }
}

describe.skipIf(!admin)("a lost database connection (PostgreSQL only: PGlite has no backends to end)", () => {
  const name = `workmetrics_loss_${process.pid}_${Date.now()}`;
  let dataDir = "";
  let child: ChildProcess;
  let url = "";
  let stderr = "";
  let token = "";
  let apikey = "";

  beforeAll(async () => {
    await adminQuery(`create database ${name}`);
    dataDir = mkdtempSync(path.join(os.tmpdir(), "workmetrics-loss-"));
    const databaseUrl = new URL(admin ?? "");
    databaseUrl.pathname = `/${name}`;
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    child = spawn(process.execPath, ["--import", "tsx", "apps/server/src/main.ts"], {
      cwd: repo,
      env: {
        ...process.env,
        PORT: String(port),
        HOST: "127.0.0.1",
        PUBLIC_URL: url,
        DATA_DIR: dataDir,
        DATABASE_URL: databaseUrl.toString(),
        JWT_SECRET: "test-secret-test-secret-test-secret-0123456789",
        LOG_LEVEL: "fatal",
        NODE_ENV: "test",
      },
      stdio: ["ignore", "ignore", "pipe"],
    });
    child.stderr?.on("data", (chunk: Buffer) => {
      stderr += chunk.toString("utf8");
    });
    for (let i = 0; ; i++) {
      if (child.exitCode !== null) throw new Error(`server exited on start: ${stderr}`);
      const up = await fetch(`${url}/api/health`).then(
        (r) => r.ok,
        () => false,
      );
      if (up) break;
      if (i > 600) throw new Error("server did not start in 120 s");
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    apikey = ((await (await fetch(`${url}/api/config`)).json()) as { anonKey: string }).anonKey;
    const signIn = await fetch(`${url}/auth/v1/token?grant_type=password`, {
      method: "POST",
      headers: { "content-type": "application/json", apikey },
      body: JSON.stringify({ email: OWNER, password: DEMO_PASSWORD }),
    });
    token = ((await signIn.json()) as { access_token: string }).access_token;
  }, 180_000);

  afterAll(async () => {
    if (child && child.exitCode === null) {
      child.kill("SIGTERM");
      await new Promise((resolve) => child.once("exit", resolve));
    }
    await adminQuery(`drop database if exists ${name} with (force)`);
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);

  const call = async (pathAndQuery: string, init: RequestInit = {}): Promise<Answer> => {
    const headers = new Headers(init.headers);
    headers.set("apikey", apikey);
    headers.set("authorization", `Bearer ${token}`);
    if (init.body) headers.set("content-type", "application/json");
    const res = await fetch(`${url}${pathAndQuery}`, { ...init, headers });
    const text = await res.text();
    return { status: res.status, retryAfter: res.headers.get("retry-after"), body: text ? JSON.parse(text) : null };
  };
  const read = () => call("/rest/v1/product?select=*,category:category(name)&order=name&limit=50");
  const importRows = () =>
    call("/rest/v1/rpc/csv_import", {
      method: "POST",
      headers: { prefer: "tx=rollback" },
      body: JSON.stringify({
        resource: "product",
        rows: Array.from({ length: 300 }, (_, i) => ({ SKU: `LOSS-${i}`, Name: `Loss ${i}`, Price: "1" })),
      }),
    });

  // Auth and storage answer in their own shapes: GoTrue's { code, error_code, msg } and Storage's { statusCode, error }.
  const user = () => call("/auth/v1/user");
  const buckets = () => call("/storage/v1/bucket");

  it("answers 503 with a retry hint while its backends are terminated under load, then serves again", async () => {
    expect((await read()).status).toBe(200);
    const answers: Answer[] = [];
    let running = true;
    const loop = async (fn: () => Promise<Answer>) => {
      while (running) {
        answers.push(await fn().catch((err: Error) => ({ status: 0, retryAfter: null, body: err.message })));
      }
    };
    const load = [...Array.from({ length: 6 }, () => loop(read)), loop(importRows)];
    const others: Answer[] = [];
    const otherLoop = async (fn: () => Promise<Answer>) => {
      while (running)
        others.push(await fn().catch((err: Error) => ({ status: 0, retryAfter: null, body: err.message })));
    };
    load.push(otherLoop(user), otherLoop(buckets));
    let ended = 0;
    for (let round = 0; round < 5; round++) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      const rows = await adminQuery<{ n: number }>(
        "select count(*)::int as n from (select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()) t",
        [name],
      );
      ended += rows[0]?.n ?? 0;
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
    running = false;
    await Promise.all(load);

    expect(ended).toBeGreaterThan(0);
    expect(child.exitCode, stderr).toBeNull();
    expect(child.signalCode).toBeNull();
    // Every answer is either the data or a 503 in the PostgREST error shape with a retry hint; never a 500.
    const statuses = new Set(answers.map((a) => a.status));
    expect([...statuses].filter((s) => s !== 200 && s !== 503)).toEqual([]);
    for (const failed of answers.filter((a) => a.status === 503)) {
      expect(failed.retryAfter).toMatch(/^\d+$/);
      expect(failed.body).toMatchObject({ code: "PGRST001", details: null, message: expect.stringMatching(/again/) });
      expect(failed.body).toHaveProperty("hint");
    }
    expect([...new Set(others.map((a) => a.status))].filter((s) => s !== 200 && s !== 503)).toEqual([]);
    for (const failed of others.filter((a) => a.status === 503)) {
      expect(failed.retryAfter).toMatch(/^\d+$/);
      expect(JSON.stringify(failed.body)).toMatch(/database connection was lost/);
    }
    // The pool connects again: the next requests succeed.
    expect((await read()).status).toBe(200);
    expect((await importRows()).status).toBe(200);
    expect((await fetch(`${url}/api/health`)).status).toBe(200);
    expect((await user()).status).toBe(200);
    expect((await buckets()).status).toBe(200);
    expect(child.exitCode).toBeNull();
  }, 120_000);
});
