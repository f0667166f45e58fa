import { spawn } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runFaultScenario } from "./cluster-scenario.ts";
import { type FakeMeta, startFakeMeta } from "./fake-meta-graph.ts";

// Issue 25, the fault test's short version (the 10-minute one is bench/cluster-faults.ts): the real cluster of
// `npm run cluster` — a PostgreSQL primary of its own (initdb), a streaming replica (pg_basebackup -R), two app
// instances and nginx in front, on free ports and in a data directory of their own — under a minute of the mixed load
// (sign-ins, lists, reports, invoices, e-mails, POS sales replayed from an outbox through two instances, marketplace
// chat heard over realtime, signed Meta webhooks redelivered, broadcasts) while one instance is killed (SIGKILL) and
// started again, nginx is reloaded and the replica is stopped and started. Nothing answered is lost, numbers are
// gapless, the books balance, stock is the sum of its moves, no realtime message or job twice. Everything it started
// is stopped afterwards, also when it fails.
//
// It runs in CI's PostgreSQL lane (TEST_DATABASE_URL set: PostgreSQL's server tools are there; nginx is installed
// from Debian's packages by .ci/run, or by the cluster script as root), or on its own with CLUSTER_FAULTS=1:
//   CLUSTER_FAULTS=1 npx vitest run --project api apps/server/test/cluster-faults.api.test.ts
// FAULT_SECONDS sets the load's length (60 s by default).

const wanted = !!process.env.TEST_DATABASE_URL || process.env.CLUSTER_FAULTS === "1";
const root = path.resolve(import.meta.dirname, "../../..");
const SECONDS = Number(process.env.FAULT_SECONDS ?? 60);
const META_SECRET = "cluster-fault-meta-secret";

const free = (port: number) =>
  new Promise<boolean>((resolve) => {
    const s = net.createServer();
    s.once("error", () => resolve(false));
    s.listen(port, "127.0.0.1", () => s.close(() => resolve(true)));
  });
// Five ports in a row that nothing listens on: nginx, the primary, the replica, the two instances.
async function freePorts(): Promise<number> {
  for (let tries = 0; tries < 50; tries++) {
    const first = 20_000 + Math.floor(Math.random() * 20_000);
    let ok = true;
    for (let p = first; p < first + 5 && ok; p++) ok = await free(p);
    if (ok) return first;
  }
  throw new Error("no five free ports in a row");
}

let dataDir = "";
let env: NodeJS.ProcessEnv = {};
let fake: FakeMeta | undefined;
let base = "";

function cluster(...args: string[]): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(root, "scripts/cluster.mjs"), ...args], { env });
    let output = "";
    child.stdout.on("data", (d) => {
      output += d;
    });
    child.stderr.on("data", (d) => {
      output += d;
    });
    child.on("close", (code) => resolve({ code: code ?? 1, output }));
  });
}

const logTail = (name: string) => {
  const file = path.join(dataDir, "cluster", "logs", name);
  return existsSync(file) ? readFileSync(file, "utf8").split("\n").slice(-25).join("\n") : "";
};

describe.skipIf(!wanted)("the cluster under faults (npm run cluster, short)", () => {
  beforeAll(async () => {
    fake = await startFakeMeta();
    dataDir = mkdtempSync(path.join(os.tmpdir(), "workmetrics-cluster-"));
    chmodSync(dataDir, 0o755); // PostgreSQL's servers run as the postgres user under it
    const first = await freePorts();
    env = { ...process.env };
    for (const k of [
      "DATABASE_URL",
      "DATABASE_REPLICA_URL",
      "TEST_DATABASE_URL",
      "PORT",
      "JWT_SECRET",
      "SECRETS_KEY",
    ]) {
      delete env[k];
    }
    Object.assign(env, {
      DATA_DIR: dataDir,
      CLUSTER_PORT: String(first),
      CLUSTER_PRIMARY_PORT: String(first + 1),
      CLUSTER_REPLICA_PORT: String(first + 2),
      CLUSTER_FIRST_PORT: String(first + 3),
      INSTANCES: "2",
      SEED: "basic",
      NODE_ENV: "production",
      AUTH_RATE_LIMITS: "sign_in=100000/300,token_refresh=100000/300",
      META_APP_SECRET: META_SECRET,
      META_VERIFY_TOKEN: "cluster-fault-verify",
      META_GRAPH_URL: fake.url,
      LOG_LEVEL: "warn",
    });
    base = `http://localhost:${first}`;
    const started = await cluster("start");
    if (started.code !== 0) {
      throw new Error(`npm run cluster failed:\n${started.output}\n${logTail("i1.log")}\n${logTail("primary.log")}`);
    }
  }, 420_000);

  afterAll(async () => {
    if (dataDir) {
      const stopped = await cluster("stop");
      if (stopped.code !== 0) console.error(stopped.output);
      rmSync(dataDir, { recursive: true, force: true });
    }
    await fake?.close();
  }, 120_000);

  it("loses nothing it answered while an instance is killed, nginx reloaded and the replica stopped", async () => {
    const result = await runFaultScenario({
      base,
      dataDir,
      seconds: SECONDS,
      workers: 3,
      plan: "short",
      env,
      meta: fake ? { secret: META_SECRET, fake } : undefined,
      log: () => undefined,
    });
    console.log(result.report.join("\n"));
    if (result.problems.length) console.log(`${logTail("i1.log")}\n${logTail("i2.log")}`);
    expect(result.problems).toEqual([]);
    // The faults were done, and the load met them: an instance killed, nginx reloaded, the replica stopped and back.
    const faults = result.report.filter((l) => /^ {2}\d\d:/.test(l)).join("\n");
    expect(faults).toMatch(/restart 1 --kill/);
    expect(faults).toMatch(/reload-nginx/);
    expect(faults).toMatch(/replica stop[\s\S]*replica start/);
    const count = (kind: string) =>
      Number(new RegExp(`^ {2}${kind} +(\\d+) ok`, "m").exec(result.report.join("\n"))?.[1] ?? 0);
    for (const kind of ["invoice", "pos", "market", "webhook", "list"]) expect(count(kind), kind).toBeGreaterThan(5);
  }, 600_000);
});
