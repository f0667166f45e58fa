// Issue 25: throughput of invoice submits and list reads on a running `npm run cluster` — one instance direct,
// then through nginx with 1, 2 and 3 instances behind it (nginx is reloaded with the first k; at the end with all).
// Figures are printed, never asserted.
//   AUTH_RATE_LIMITS=sign_in=100000/300 SEED=basic npm run cluster
//   node --import tsx bench/cluster-throughput.ts        (BENCH_DURATION=15 s per measure, BENCH_CONNECTIONS=16)
import { execFileSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import autocannon from "autocannon";

const root = path.resolve(import.meta.dirname, "..");
const DIR = path.join(path.resolve(root, process.env.DATA_DIR ?? "data"), "cluster");
const NGINX = `http://localhost:${process.env.CLUSTER_PORT ?? 8080}`;
const DURATION = Number(process.env.BENCH_DURATION ?? 15);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);
const instances = JSON.parse(readFileSync(path.join(DIR, "instances.json"), "utf8")) as Array<{ port: number }>;
const cluster = (...args: string[]) =>
  execFileSync(process.execPath, [path.join(root, "scripts/cluster.mjs"), ...args], { stdio: "pipe" });

const anon = ((await (await fetch(`${NGINX}/api/config`)).json()) as { anonKey: string }).anonKey;
const token = (
  (await (
    await fetch(`${NGINX}/auth/v1/token?grant_type=password`, {
      method: "POST",
      headers: { apikey: anon, "content-type": "application/json" },
      body: JSON.stringify({ email: "owner@demo.test", password: "demo-pass-2026" }),
    })
  ).json()) as { access_token: string }
).access_token;
const headers = { apikey: anon, authorization: `Bearer ${token}`, "content-type": "application/json" };
const first = async (url: string) =>
  ((await (await fetch(`${NGINX}${url}`, { headers })).json()) as Array<{ id: number }>)[0].id;
const company = await first("/rest/v1/company?select=id&is_customer=is.true&order=id&limit=1");
const product = await first("/rest/v1/product?select=id&price=gt.0&order=id&limit=1");

async function lists(base: string): Promise<number> {
  const r = await autocannon({
    url: `${base}/rest/v1/invoice?select=id,number,status,total&order=id.desc&limit=20`,
    headers,
    connections: CONNECTIONS,
    duration: DURATION,
  });
  return r["2xx"] / r.duration;
}

// An invoice saved and submitted (two commands, each its own transaction), by CONNECTIONS clients in a loop.
async function submits(base: string): Promise<number> {
  const until = Date.now() + DURATION * 1000;
  let done = 0;
  const rpc = async (fn: string, body: unknown) => {
    const res = await fetch(`${base}/rest/v1/rpc/${fn}`, {
      method: "POST",
      headers: { ...headers, "idempotency-key": randomUUID() },
      body: JSON.stringify(body),
    });
    if (res.status !== 200) throw new Error(`${fn}: ${res.status} ${await res.text()}`);
    return (await res.json()) as { id: number };
  };
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (Date.now() < until) {
        const { id } = await rpc("document_save", {
          type: "invoice",
          header: { company_id: company },
          lines: [{ product_id: product, qty: "1" }],
        });
        await rpc("document_transition", { type: "invoice", id, action: "submit" });
        done++;
      }
    }),
  );
  return done / DURATION;
}

console.log(`cluster throughput: ${CONNECTIONS} connections, ${DURATION} s each, ${instances.length} instances`);
const rows: string[] = [];
const measure = async (label: string, base: string) => {
  const l = await lists(base);
  const s = await submits(base);
  rows.push(`| ${label} | ${l.toFixed(0)} | ${s.toFixed(1)} |`);
  console.log(
    `${label.padEnd(28)} lists ${l.toFixed(0).padStart(5)}/s   invoice submits ${s.toFixed(1).padStart(6)}/s`,
  );
};
try {
  await measure("1 instance direct", `http://127.0.0.1:${instances[0].port}`);
  for (let k = 1; k <= instances.length; k++) {
    cluster("reload-nginx", String(k));
    await new Promise((r) => setTimeout(r, 1000));
    await measure(`nginx, ${k} instance${k > 1 ? "s" : ""}`, NGINX);
  }
} finally {
  cluster("reload-nginx");
}
console.log(`\n| | list reads/s | invoice submits/s |\n|---|---|---|\n${rows.join("\n")}`);
