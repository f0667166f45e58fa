// Issue 25 §5, the fault test: mixed load through nginx on a running `npm run cluster` while instances are killed
// (SIGKILL) and restarted, every instance is restarted one at a time (SIGTERM), nginx is reloaded, the replica is
// stopped and started, and the primary is restarted once. Then it checks what the clients were told against the
// database, and prints the figures.
//
//   AUTH_RATE_LIMITS=sign_in=100000/300,token_refresh=100000/300 SEED=basic npm run cluster
//   FAULT_SECONDS=600 node --import tsx bench/cluster-faults.ts      (default 120 s; 600 for the full run)
//
// The load, by WORKERS client loops (default 6): sign-ins, lists (/rest/v1 GET), a report command, invoices made
// and submitted (document_save + document_transition, each with an Idempotency-Key), invoice e-mails (a job each),
// and two members of one workspace broadcasting over realtime while a member of another listens on the same
// channel name. A client retries what it may — a GET, a command with its Idempotency-Key, a sign-in — after a
// connection error or a 502/503/504, as supabase-js and our web client do; what still fails after the retries is
// lost. After the load: every invoice answered 2xx is there and submitted, invoice numbers have no gap, the
// books balance, each e-mail answered 2xx was sent exactly once (its job neither lost nor run twice), no
// realtime message arrived twice or in the other workspace, and no job is left dead or stuck.
import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { promisify } from "node:util";
import { createClient, type RealtimeChannel, type SupabaseClient } from "@supabase/supabase-js";
import pg from "pg";
import WebSocket from "ws";

const root = path.resolve(import.meta.dirname, "..");
const DIR = path.join(path.resolve(root, process.env.DATA_DIR ?? "data"), "cluster");
const BASE = `http://localhost:${process.env.CLUSTER_PORT ?? 8080}`;
const SECONDS = Number(process.env.FAULT_SECONDS ?? 120);
const WORKERS = Number(process.env.WORKERS ?? 6);
const PASSWORD = "demo-pass-2026";
const OWNER = "owner@demo.test";
const SALES = "sales@demo.test";
const ADMIN = "admin@demo.test";
const OTHER = "admin@pro.test"; // another workspace
const state = JSON.parse(readFileSync(path.join(DIR, "cluster.json"), "utf8")) as { primaryUrl: string };
const run = randomUUID().slice(0, 8);

// ---- a client that retries what it may ---------------------------------------------------------------------------

type Kind = "signin" | "list" | "report" | "invoice" | "email";
const RETRYABLE = new Set([502, 503, 504]);
const stats = {
  requests: 0,
  firstTryFailures: 0,
  retries: 0,
  lost: 0,
  lostOutsidePrimary: 0,
  byKind: {} as Record<string, { ok: number; lost: number; latencies: number[] }>,
  lostSamples: [] as string[],
};
let primaryWindow: { from: number; to: number } | null = null;
const inPrimaryWindow = (t: number) =>
  primaryWindow !== null && t >= primaryWindow.from && t <= primaryWindow.to + 5_000;

async function call(
  kind: Kind,
  method: string,
  url: string,
  opts: { token?: string; body?: unknown; key?: string; anon: string },
): Promise<{ status: number; body: unknown } | null> {
  const started = Date.now();
  stats.byKind[kind] ??= { ok: 0, lost: 0, latencies: [] };
  const k = stats.byKind[kind];
  stats.requests++;
  let last = "";
  for (let attempt = 0; attempt < 8; attempt++) {
    if (attempt > 0) {
      stats.retries++;
      await sleep(Math.min(2_000, 150 * 2 ** attempt));
    }
    try {
      const res = await fetch(`${BASE}${url}`, {
        method,
        headers: {
          apikey: opts.anon,
          authorization: `Bearer ${opts.token ?? opts.anon}`,
          ...(opts.body !== undefined ? { "content-type": "application/json" } : {}),
          ...(opts.key ? { "idempotency-key": opts.key } : {}),
        },
        body: opts.body !== undefined ? JSON.stringify(opts.body) : undefined,
        signal: AbortSignal.timeout(30_000),
      });
      const text = await res.text();
      if (RETRYABLE.has(res.status)) {
        if (attempt === 0) stats.firstTryFailures++;
        last = `${res.status} ${text.slice(0, 120)}`;
        continue;
      }
      k.ok++;
      k.latencies.push(Date.now() - started);
      return { status: res.status, body: text ? JSON.parse(text) : null };
    } catch (err) {
      if (attempt === 0) stats.firstTryFailures++;
      last = (err as Error).cause ? String((err as Error & { cause: Error }).cause.message) : (err as Error).message;
    }
  }
  stats.lost++;
  k.lost++;
  if (!inPrimaryWindow(started)) stats.lostOutsidePrimary++;
  if (stats.lostSamples.length < 10) stats.lostSamples.push(`${kind} ${method} ${url}: ${last}`);
  return null;
}

async function signIn(email: string, anon: string): Promise<string> {
  for (;;) {
    const r = await call("signin", "POST", "/auth/v1/token?grant_type=password", {
      anon,
      body: { email, password: PASSWORD },
    });
    if (r?.status === 200) return (r.body as { access_token: string }).access_token;
    if (r && r.status !== 200) throw new Error(`sign-in ${email}: ${r.status} ${JSON.stringify(r.body)}`);
  }
}

// ---- what the clients were told -----------------------------------------------------------------------------------

const invoices: Array<{ id: number; number: string }> = [];
const emails: string[] = [];
let refusedEmails = 0;

async function worker(n: number, anon: string, until: number, company: number, product: number): Promise<void> {
  let token = await signIn(n % 2 ? OWNER : ADMIN, anon);
  let i = 0;
  while (Date.now() < until) {
    const turn = i++ % 10;
    if (turn === 0 && n === 0) {
      token = await signIn(OWNER, anon);
    } else if (turn < 5) {
      const url = [
        "/rest/v1/company?select=id,name&is_customer=is.true&order=name&limit=50",
        "/rest/v1/invoice?select=id,number,status,total&order=id.desc&limit=20",
        "/rest/v1/product?select=id,sku,name,price&order=sku&limit=50",
      ][turn % 3];
      await call("list", "GET", url, { token, anon });
    } else if (turn < 7) {
      await call("report", "POST", "/rest/v1/rpc/dashboard_summary", { token, anon, body: {}, key: randomUUID() });
    } else if (turn === 9 && n === 1 && i % 30 === 0 && invoices.length) {
      const inv = invoices[invoices.length - 1];
      const to = `fault-${run}-${emails.length}@example.test`;
      const r = await call("email", "POST", "/rest/v1/rpc/document_email", {
        token,
        anon,
        body: { type: "invoice", id: inv.id, to: [to] },
        key: randomUUID(),
      });
      if (r?.status === 200) emails.push(to);
      else if (r) refusedEmails++;
    } else {
      const saved = await call("invoice", "POST", "/rest/v1/rpc/document_save", {
        token,
        anon,
        key: randomUUID(),
        body: { type: "invoice", header: { company_id: company }, lines: [{ product_id: product, qty: "1" }] },
      });
      if (saved?.status !== 200) {
        if (saved) throw new Error(`document_save: ${saved.status} ${JSON.stringify(saved.body)}`);
        continue;
      }
      const id = (saved.body as { id: number }).id;
      const submitted = await call("invoice", "POST", "/rest/v1/rpc/document_transition", {
        token,
        anon,
        key: randomUUID(),
        body: { type: "invoice", id, action: "submit" },
      });
      if (submitted?.status === 200) invoices.push({ id, number: (submitted.body as { number: string }).number });
      else if (submitted) throw new Error(`submit: ${submitted.status} ${JSON.stringify(submitted.body)}`);
    }
  }
}

// ---- realtime -----------------------------------------------------------------------------------------------------

const rt = { sent: 0, sentWhileJoined: 0, received: 0, duplicates: 0, foreign: 0, reconnects: 0 };

async function realtimeClient(email: string, anon: string, onMessage: (seq: number) => void) {
  const client: SupabaseClient = createClient(BASE, anon, {
    auth: { persistSession: false, autoRefreshToken: false },
    realtime: { transport: WebSocket as never, timeout: 10_000 },
  });
  const token = await signIn(email, anon);
  await client.realtime.setAuth(token);
  let joined = false;
  const channel: RealtimeChannel = client.channel(`fault-${run}`, { config: { broadcast: { self: false } } });
  channel.on("broadcast", { event: "tick" }, (m) => onMessage((m.payload as { seq: number }).seq));
  channel.subscribe((status) => {
    if (status === "SUBSCRIBED") {
      if (joined === false && rt.sent > 0) rt.reconnects++;
      joined = true;
    } else joined = false;
  });
  return { client, channel, joined: () => joined };
}

// ---- faults -------------------------------------------------------------------------------------------------------

const faults: string[] = [];
// Asynchronously: the load goes on while a fault is under way.
const exec = promisify(execFile);
const cluster = async (...args: string[]) => {
  const t = Date.now();
  await exec(process.execPath, [path.join(root, "scripts/cluster.mjs"), ...args]);
  faults.push(`${new Date(t).toISOString().slice(11, 19)} ${args.join(" ")} (${Date.now() - t} ms)`);
};

async function faultPlan(start: number, until: number): Promise<void> {
  const instances = JSON.parse(readFileSync(path.join(DIR, "instances.json"), "utf8")) as Array<{ id: string }>;
  const n = instances.length;
  const at = (fraction: number) => start + fraction * (until - start);
  const killEvery = Math.max(20_000, Math.min(60_000, (until - start) / 6));
  const plan: Array<{ t: number; run: () => Promise<void> | void }> = [];
  for (let t = start + killEvery / 2, k = 0; t < until - 10_000; t += killEvery, k++) {
    plan.push({ t, run: () => cluster("restart", String((k % n) + 1), "--kill") });
  }
  plan.push({ t: at(0.3), run: () => cluster("rolling-restart") });
  plan.push({ t: at(0.45), run: () => cluster("reload-nginx") });
  plan.push({ t: at(0.55), run: () => cluster("replica", "stop") });
  plan.push({ t: at(0.65), run: () => cluster("replica", "start") });
  plan.push({
    t: at(0.8),
    run: async () => {
      primaryWindow = { from: Date.now(), to: Date.now() };
      await cluster("primary", "restart");
      primaryWindow.to = Date.now();
    },
  });
  plan.sort((a, b) => a.t - b.t);
  for (const step of plan) {
    if (step.t > Date.now()) await sleep(step.t - Date.now());
    try {
      await step.run();
    } catch (err) {
      faults.push(`FAILED: ${(err as Error).message.slice(0, 200)}`);
    }
  }
}

// ---- checks -------------------------------------------------------------------------------------------------------

async function verify(): Promise<string[]> {
  const db = new pg.Client({ connectionString: state.primaryUrl });
  await db.connect();
  const problems: string[] = [];
  try {
    const ws = (await db.query<{ workspace_id: string }>('select workspace_id from "user" where email = $1', [OWNER]))
      .rows[0].workspace_id;
    const ids = invoices.map((i) => i.id);
    const found = await db.query<{ id: string; number: string; status: string }>(
      "select id, number, status from invoice where workspace_id = $1 and id = any($2::bigint[])",
      [ws, ids],
    );
    const byId = new Map(found.rows.map((r) => [Number(r.id), r]));
    const missing = invoices.filter((i) => byId.get(i.id)?.number !== i.number || byId.get(i.id)?.status === "draft");
    if (missing.length) problems.push(`${missing.length} invoices answered 2xx are missing or differ`);
    const numbers = (
      await db.query<{ number: string }>(
        "select number from invoice where workspace_id = $1 and number is not null order by number",
        [ws],
      )
    ).rows.map((r) => r.number);
    // Numbers are prefix + counter: per prefix, the counters from the first to the last with none missing.
    const series = new Map<string, number[]>();
    for (const num of numbers) {
      const m = /^(.*?)(\d+)$/.exec(num);
      if (!m) continue;
      const list = series.get(m[1]) ?? [];
      list.push(Number(m[2]));
      series.set(m[1], list);
    }
    let gaps = 0;
    for (const [, list] of series) {
      list.sort((a, b) => a - b);
      for (let i = 1; i < list.length; i++) if (list[i] !== list[i - 1] + 1) gaps += list[i] - list[i - 1] - 1;
      if (new Set(list).size !== list.length) problems.push("an invoice number is used twice");
    }
    if (gaps) problems.push(`${gaps} invoice numbers are missing from the series`);
    const books = (
      await db.query<{ d: string; c: string; unbalanced: string }>(
        `select sum(debit)::text as d, sum(credit)::text as c,
           (select count(*) from (select entry_id from journal_line where workspace_id = $1
              group by entry_id having sum(debit) <> sum(credit)) x)::text as unbalanced
         from journal_line where workspace_id = $1`,
        [ws],
      )
    ).rows[0];
    if (books.d !== books.c || books.unbalanced !== "0") {
      problems.push(`the books do not balance: debits ${books.d}, credits ${books.c}, ${books.unbalanced} entries`);
    }
    const mails = await db.query<{ to: string; n: string }>(
      `select "to", count(*)::text as n from auth_mail where "to" like $1 group by "to"`,
      [`fault-${run}-%`],
    );
    const sent = new Map(mails.rows.map((r) => [r.to, Number(r.n)]));
    const lostMails = emails.filter((e) => !sent.has(e)).length;
    const twice = [...sent.values()].filter((n) => n > 1).length;
    if (lostMails) problems.push(`${lostMails} e-mails answered 2xx were never sent (a job lost)`);
    if (twice) problems.push(`${twice} e-mails were sent more than once (a job ran twice)`);
    const jobs = (
      await db.query<{ dead: string; stuck: string }>(
        `select count(*) filter (where status = 'dead')::text as dead,
                count(*) filter (where status in ('queued', 'running') and run_at < now() - interval '2 minutes')::text as stuck
         from job where created_at > now() - make_interval(secs => $1)`,
        [SECONDS + 120],
      )
    ).rows[0];
    if (jobs.dead !== "0" || jobs.stuck !== "0") problems.push(`jobs: ${jobs.dead} dead, ${jobs.stuck} stuck`);
    console.log(
      `checked: ${invoices.length} invoices, ${numbers.length} numbers in ${series.size} series, books ${books.d} = ${books.c}, ` +
        `${emails.length} e-mails (${sent.size} sent), jobs dead ${jobs.dead} stuck ${jobs.stuck}`,
    );
  } finally {
    await db.end();
  }
  return problems;
}

const pct = (xs: number[], p: number) => {
  if (!xs.length) return 0;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};

// ---- the run ------------------------------------------------------------------------------------------------------

const anon = ((await (await fetch(`${BASE}/api/config`)).json()) as { anonKey: string }).anonKey;
const setupToken = await signIn(OWNER, anon);
const company = (
  (await call("list", "GET", "/rest/v1/company?select=id&is_customer=is.true&order=id&limit=1", {
    token: setupToken,
    anon,
  })) as { body: Array<{ id: number }> }
).body[0].id;
const product = (
  (await call("list", "GET", "/rest/v1/product?select=id&price=gt.0&order=id&limit=1", {
    token: setupToken,
    anon,
  })) as { body: Array<{ id: number }> }
).body[0].id;

const seen = new Set<number>();
const a = await realtimeClient(OWNER, anon, () => undefined);
const b = await realtimeClient(SALES, anon, (seq) => {
  if (seen.has(seq)) rt.duplicates++;
  else rt.received++;
  seen.add(seq);
});
const c = await realtimeClient(OTHER, anon, () => {
  rt.foreign++;
});
await sleep(1_000);

console.log(`fault test: ${SECONDS} s of load by ${WORKERS} clients through ${BASE}, run ${run}`);
const start = Date.now();
const until = start + SECONDS * 1000;
const sender = (async () => {
  let seq = 0;
  while (Date.now() < until) {
    await sleep(250);
    if (!a.joined() || !b.joined()) continue;
    rt.sent++;
    rt.sentWhileJoined++;
    await a.channel.send({ type: "broadcast", event: "tick", payload: { seq: ++seq } }).catch(() => undefined);
  }
})();
const progress = setInterval(() => {
  const s = Math.round((Date.now() - start) / 1000);
  console.log(
    `  ${s}s: ${stats.requests} requests, ${stats.retries} retries, ${stats.lost} lost, ${invoices.length} invoices, realtime ${rt.received}/${rt.sent}`,
  );
}, 30_000);
const results = await Promise.allSettled([
  ...Array.from({ length: WORKERS }, (_, n) => worker(n, anon, until, company, product)),
  faultPlan(start, until),
  sender,
]);
clearInterval(progress);
await sleep(3_000); // the last broadcasts and jobs
for (const r of results) if (r.status === "rejected") console.log(`a client stopped: ${(r.reason as Error).message}`);
for (const x of [a, b, c]) await x.client.removeAllChannels();

const elapsed = (Date.now() - start) / 1000;
console.log("\nfaults:");
for (const f of faults) console.log(`  ${f}`);
console.log(`\nrequests: ${stats.requests} in ${elapsed.toFixed(0)} s (${(stats.requests / elapsed).toFixed(1)}/s)`);
console.log(`  failed at the first try (then retried): ${stats.firstTryFailures}, retries ${stats.retries}`);
console.log(`  lost after retries: ${stats.lost}, outside the primary's restart window: ${stats.lostOutsidePrimary}`);
console.log(
  `  error rate outside the primary's restart: ${((100 * stats.lostOutsidePrimary) / Math.max(1, stats.requests)).toFixed(3)} %`,
);
for (const s of stats.lostSamples) console.log(`    lost: ${s}`);
for (const [kind, k] of Object.entries(stats.byKind)) {
  console.log(
    `  ${kind.padEnd(8)} ${String(k.ok).padStart(6)} ok ${String(k.lost).padStart(3)} lost   p50 ${pct(k.latencies, 50)} ms   p99 ${pct(k.latencies, 99)} ms`,
  );
}
const all = Object.values(stats.byKind).flatMap((k) => k.latencies);
console.log(`  all      p50 ${pct(all, 50)} ms   p99 ${pct(all, 99)} ms`);
console.log(
  `realtime: ${rt.sent} broadcasts sent while both were joined, ${rt.received} received (${((100 * rt.received) / Math.max(1, rt.sent)).toFixed(1)} %), ` +
    `${rt.duplicates} twice, ${rt.foreign} in the other workspace, ${rt.reconnects} rejoins`,
);
console.log(`e-mails: ${emails.length} answered 2xx, ${refusedEmails} refused`);
const problems = await verify();
if (rt.duplicates) problems.push(`${rt.duplicates} realtime messages arrived twice`);
if (rt.foreign) problems.push(`${rt.foreign} realtime messages reached another workspace`);
if (stats.lostOutsidePrimary) problems.push(`${stats.lostOutsidePrimary} requests lost outside the primary's restart`);
console.log(problems.length ? `\nPROBLEMS:\n  ${problems.join("\n  ")}` : "\nno problems found");
process.exit(problems.length ? 1 : 0);
