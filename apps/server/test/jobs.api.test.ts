import { sql } from "drizzle-orm";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, openDatabase } from "../src/platform/db/database.ts";
import { DEMO_PASSWORD } from "../src/platform/db/demo-seed.ts";
import { MAIL_JOB, mailPayload } from "../src/platform/jobs/mail.ts";
import { pruneDone } from "../src/platform/jobs/queue.ts";
import { createJobs, type Jobs } from "../src/platform/jobs/worker.ts";
import { startTestServer, type TestServer } from "./harness.ts";

// Issue 20 §1: the job queue and the outbox, on PGlite and PostgreSQL. Mail goes to real SMTP receivers; one can be
// told to refuse the next messages, as a mail server that is down would.

type Caught = { to: string[]; raw: string };

function receiver() {
  const r = { caught: [] as Caught[], refuse: 0, port: 0, server: null as unknown as SMTPServer };
  r.server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        if (r.refuse > 0) {
          r.refuse--;
          const err = new Error("Mailbox unavailable, try again later") as Error & { responseCode: number };
          err.responseCode = 451;
          return callback(err);
        }
        r.caught.push({
          to: session.envelope.rcptTo.map((a) => a.address.toLowerCase()),
          raw: Buffer.concat(chunks).toString("utf8"),
        });
        callback();
      });
    },
  });
  return r;
}

const listen = async (r: ReturnType<typeof receiver>) => {
  await new Promise<void>((resolve) => r.server.listen(0, "127.0.0.1", resolve));
  const address = r.server.server.address();
  r.port = address && typeof address === "object" ? address.port : 0;
};

const ADMIN = "admin@demo.test";
const OPERATOR = "platform@workmetrics.test";

// Each server signs its own sessions in: a token of one server's database is nobody on another's.
async function signIn(url: string, email: string): Promise<string> {
  const { anonKey: apikey } = (await (await fetch(`${url}/api/config`)).json()) as { anonKey: string };
  const res = await fetch(`${url}/auth/v1/token?grant_type=password`, {
    method: "POST",
    headers: { "content-type": "application/json", apikey },
    body: JSON.stringify({ email, password: DEMO_PASSWORD }),
  });
  if (!res.ok) throw new Error(`sign-in ${email}: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { access_token: string }).access_token;
}

async function call(url: string, token: string, fn: string, args: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${url}/rest/v1/rpc/${fn}`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${token}`, ...headers },
    body: JSON.stringify(args),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

// A submitted invoice of the demo workspace, to e-mail.
async function invoice(url: string, token: string): Promise<{ id: number; number: string }> {
  const products = await fetch(`${url}/rest/v1/product?select=id&limit=1&order=id`, {
    headers: { authorization: `Bearer ${token}` },
  });
  const [product] = (await products.json()) as Array<{ id: number }>;
  const companies = await fetch(`${url}/rest/v1/company?select=id&is_customer=is.true&limit=1&order=id`, {
    headers: { authorization: `Bearer ${token}` },
  });
  const [company] = (await companies.json()) as Array<{ id: number }>;
  const saved = await call(url, token, "document_save", {
    type: "invoice",
    header: { company_id: company.id },
    lines: [{ product_id: product.id, qty: "1" }],
  });
  expect(saved.status, JSON.stringify(saved.body)).toBe(200);
  const sub = await call(url, token, "document_transition", { type: "invoice", id: saved.body.id, action: "submit" });
  expect(sub.status, JSON.stringify(sub.body)).toBe(200);
  return { id: saved.body.id, number: sub.body.number };
}

const jobsOf = (s: TestServer): Jobs => s.running.app.jobs;

// Until `pred` holds (polling the database), at most `ms`.
async function until<T>(read: () => Promise<T>, pred: (v: T) => boolean, ms = 15_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await read();
    if (pred(v) || Date.now() > end) return v;
    await new Promise((r) => setTimeout(r, 50));
  }
}

type JobState = { id: number; status: string; attempts: number; last_error: string | null };
const jobRow = async (db: Database["db"], id: number) =>
  (await db.execute(sql`select id, status, attempts, last_error from job where id = ${id}`)).rows[0] as JobState;

const smtpA = receiver();
const smtpB = receiver();
let a: TestServer;
let b: TestServer;
let tokenA = "";

beforeAll(async () => {
  await listen(smtpA);
  await listen(smtpB);
  a = await startTestServer({ LOG_LEVEL: "silent", SMTP_URL: `smtp://127.0.0.1:${smtpA.port}`, JOB_RETRY_MS: "200" });
  b = await startTestServer({ LOG_LEVEL: "silent", SMTP_URL: `smtp://127.0.0.1:${smtpB.port}` });
  tokenA = await signIn(a.url, ADMIN);
}, 300_000);

afterAll(async () => {
  await a?.close();
  await b?.close();
  await new Promise<void>((resolve) => smtpA.server.close(() => resolve()));
  await new Promise<void>((resolve) => smtpB.server.close(() => resolve()));
});

describe("the outbox", () => {
  it("sends nothing for a command that rolled back and exactly one mail for one that committed", async () => {
    const inv = await invoice(a.url, tokenA);
    const to = `rollback-${inv.id}@example.test`;
    const rolled = await call(
      a.url,
      tokenA,
      "document_email",
      { type: "invoice", id: inv.id, to },
      {
        prefer: "tx=rollback",
      },
    );
    expect(rolled.status, JSON.stringify(rolled.body)).toBe(200);
    await jobsOf(a).drained();
    const db = a.running.database.db;
    const left = await db.execute(
      sql`select count(*)::int as n from job where doc_type = 'invoice' and doc_id = ${inv.id}`,
    );
    expect((left.rows[0] as { n: number }).n).toBe(0);
    expect(smtpA.caught.filter((m) => m.to.includes(to))).toHaveLength(0);

    const sent = await call(a.url, tokenA, "document_email", { type: "invoice", id: inv.id, to });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    expect(sent.body).toMatchObject({ number: inv.number, to: [to], mail: "queued" });
    await jobsOf(a).drained();
    const got = smtpA.caught.filter((m) => m.to.includes(to));
    expect(got).toHaveLength(1);
    expect(got[0].raw).toMatch(/Content-Type: application\/pdf/);
    expect((await jobRow(db, sent.body.job)).status).toBe("done");
    // The document's history shows the e-mail sent.
    const history = await call(a.url, tokenA, "document_history", { type: "invoice", id: inv.id });
    const email = (history.body as Array<{ action: string; mail: { status: string } | null }>).filter(
      (e) => e.action === "email",
    );
    expect(email.map((e) => e.mail?.status)).toEqual(["sent"]);
    // The sent mail's body, PDF (and, for a sign-in mail, its link) do not stay in the queue; the history still reads.
    await pruneDone(db);
    const kept = await db.execute(sql`select payload from job where id = ${sent.body.job}`);
    expect((kept.rows[0] as { payload: unknown }).payload).toEqual({
      to,
      subject: expect.stringContaining(inv.number),
    });
    const after = await call(a.url, tokenA, "document_history", { type: "invoice", id: inv.id });
    expect(
      (after.body as Array<{ action: string; mail: { status: string } | null }>)
        .filter((e) => e.action === "email")
        .map((e) => e.mail?.status),
    ).toEqual(["sent"]);
  });

  it("retries a mail the SMTP server refused, then sends it once; the history says so on the way", async () => {
    const inv = await invoice(a.url, tokenA);
    const to = `retry-${inv.id}@example.test`;
    smtpA.refuse = 1;
    const sent = await call(a.url, tokenA, "document_email", { type: "invoice", id: inv.id, to });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    const db = a.running.database.db;
    const failed = await until(
      () => jobRow(db, sent.body.job),
      (j) => j.last_error !== null,
    );
    expect(failed.last_error).toMatch(/451|try again later/i);
    const done = await until(
      () => jobRow(db, sent.body.job),
      (j) => j.status === "done",
    );
    expect(done).toMatchObject({ status: "done", attempts: 2 });
    expect(smtpA.caught.filter((m) => m.to.includes(to))).toHaveLength(1);
    const history = await call(a.url, tokenA, "document_history", { type: "invoice", id: inv.id });
    const email = (history.body as Array<{ action: string; mail: { status: string; attempts: number } }>).find(
      (e) => e.action === "email",
    );
    expect(email?.mail).toMatchObject({ status: "sent", attempts: 2 });
  });

  it("a job past its attempts is dead, the operator sees it and a retry sends it", async () => {
    const db = a.running.database.db;
    const to = `dead-${Date.now()}@example.test`;
    smtpA.refuse = 1;
    const id = await jobsOf(a).enqueue(db, {
      name: MAIL_JOB,
      payload: mailPayload({ to, subject: "Dead letter", text: "Hello", html: "<p>Hello</p>" }),
      maxAttempts: 1,
    });
    expect(id).not.toBeNull();
    const dead = await until(
      () => jobRow(db, id as number),
      (j) => j.status === "dead",
    );
    expect(dead).toMatchObject({ status: "dead", attempts: 1 });
    expect(smtpA.caught.filter((m) => m.to.includes(to))).toHaveLength(0);

    const member = await fetch(`${a.url}/api/platform/jobs`, { headers: { authorization: `Bearer ${tokenA}` } });
    expect(member.status).toBe(403);
    const op = await signIn(a.url, OPERATOR);
    const listed = (await (
      await fetch(`${a.url}/api/platform/jobs`, { headers: { authorization: `Bearer ${op}` } })
    ).json()) as { jobs: Array<{ id: number; status: string; to: string; last_error: string }> };
    expect(listed.jobs.find((j) => j.id === id)).toMatchObject({ status: "dead", to });

    const retried = await fetch(`${a.url}/api/platform/jobs/${id}/retry`, {
      method: "POST",
      headers: { authorization: `Bearer ${op}` },
    });
    expect(retried.status).toBe(200);
    const done = await until(
      () => jobRow(db, id as number),
      (j) => j.status === "done",
    );
    expect(done).toMatchObject({ status: "done", attempts: 2 });
    expect(smtpA.caught.filter((m) => m.to.includes(to))).toHaveLength(1);
    // A done job is not retried again; an unknown one is not found.
    const again = await fetch(`${a.url}/api/platform/jobs/${id}/retry`, {
      method: "POST",
      headers: { authorization: `Bearer ${op}` },
    });
    expect(again.status).toBe(409);
    const none = await fetch(`${a.url}/api/platform/jobs/999999999/retry`, {
      method: "POST",
      headers: { authorization: `Bearer ${op}` },
    });
    expect(none.status).toBe(404);
  });

  it("a public order's notice to staff is queued in the order's own transaction", async () => {
    const rest = (path: string, init: RequestInit = {}) =>
      fetch(`${a.url}/rest/v1/${path}`, {
        ...init,
        headers: {
          "content-type": "application/json",
          authorization: `Bearer ${tokenA}`,
          prefer: "return=representation",
        },
      });
    const [form] = (await (
      await rest("order_form", { method: "POST", body: JSON.stringify({ title: "Outbox form" }) })
    ).json()) as Array<{ id: number; token: string }>;
    const [product] = (await (await rest("product?select=id,price&limit=1&order=id")).json()) as Array<{
      id: number;
      price: string;
    }>;
    const item = { order_form_id: form.id, product_id: product.id, price: product.price, min_qty: "1", sort_order: 0 };
    expect((await rest("order_form_item", { method: "POST", body: JSON.stringify(item) })).status).toBe(201);
    const placed = await fetch(`${a.url}/api/public/order-forms/${form.token}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        name: "Outbox Buyer",
        email: "buyer@outbox.example",
        company: "Outbox Pte Ltd",
        delivery_address: "1 Outbox Road",
        items: [{ product_id: product.id, qty: "1" }],
      }),
    });
    expect(placed.status, await placed.clone().text()).toBe(201);
    const { number } = (await placed.json()) as { number: string };
    // Both rows take now() from one transaction: the same instant. Queued after the commit, the job's is later.
    const rows = (
      await a.running.database.db.execute(sql`select o.created_at = j.created_at as same from customer_order o
        join job j on j.workspace_id = o.workspace_id and j.doc_type = 'customer_order' and j.doc_id = o.id
        where o.number = ${number}`)
    ).rows as Array<{ same: boolean }>;
    expect(rows.length).toBeGreaterThan(0); // one per recipient (the owner and the sales managers)
    expect(rows.every((r) => r.same)).toBe(true);
  });

  it("a sign-in link is sealed in the queue until it is sent, and dropped after", async () => {
    const to = "accounts@demo.test";
    const { anonKey: apikey } = (await (await fetch(`${a.url}/api/config`)).json()) as { anonKey: string };
    const asked = await fetch(`${a.url}/auth/v1/recover`, {
      method: "POST",
      headers: { "content-type": "application/json", apikey },
      body: JSON.stringify({ email: to }),
    });
    expect(asked.status).toBe(200);
    const db = a.running.database.db;
    const rows = async () =>
      (await db.execute(sql`select id, payload from job where name = ${MAIL_JOB} and payload->>'to' = ${to}`))
        .rows as Array<{ id: number; payload: Record<string, unknown> }>;
    const [queued] = await rows();
    // Readable: where it goes and what it is; not readable: the link, the code, the body.
    expect(Object.keys(queued.payload).sort()).toEqual(["sealed", "subject", "to"]);
    expect(JSON.stringify(queued.payload)).not.toMatch(/token=|verify\?|<a /);
    await jobsOf(a).drained();
    const got = smtpA.caught.filter((m) => m.to.includes(to));
    expect(got).toHaveLength(1);
    // (Quoted-printable: soft line breaks joined, "=" may read "=3D".)
    expect(got[0].raw.replace(/=\r?\n/g, "")).toMatch(/auth\/v1\/verify\?token=(3D)?[\w-]{20}/);
    await pruneDone(db);
    const [pruned] = await rows();
    expect(pruned.payload).toEqual({ to, subject: queued.payload.subject });
  });
});

describe("servers", () => {
  it("two servers in one process keep their own mailers", async () => {
    const tokenB = await signIn(b.url, ADMIN);
    const fromA = await invoice(a.url, tokenA);
    const fromB = await invoice(b.url, tokenB);
    const toA = `server-a-${fromA.id}@example.test`;
    const toB = `server-b-${fromB.id}@example.test`;
    expect((await call(a.url, tokenA, "document_email", { type: "invoice", id: fromA.id, to: toA })).status).toBe(200);
    expect((await call(b.url, tokenB, "document_email", { type: "invoice", id: fromB.id, to: toB })).status).toBe(200);
    await jobsOf(a).drained();
    await jobsOf(b).drained();
    expect(smtpA.caught.filter((m) => m.to.includes(toA))).toHaveLength(1);
    expect(smtpB.caught.filter((m) => m.to.includes(toB))).toHaveLength(1);
    expect(smtpA.caught.filter((m) => m.to.includes(toB))).toHaveLength(0);
    expect(smtpB.caught.filter((m) => m.to.includes(toA))).toHaveLength(0);
  });

  it("a scheduled job runs once per slot with two workers on one database", async () => {
    // Two workers as two instances would run them: on PostgreSQL each with a connection pool of its own, on
    // PGlite (one connection) over the same database.
    const url = a.databaseUrl;
    const second: Database = url ? await openDatabase({ databaseUrl: url, dataDir: "/tmp" }) : a.running.database;
    const name = `test.sweep.${Date.now()}`;
    const runs: string[] = [];
    const make = (database: Database, who: string) =>
      createJobs({
        database,
        log: { info: () => undefined, warn: () => undefined, error: () => undefined },
        pollMs: 50,
        handlers: {
          [name]: async (_p: unknown, ctx) => {
            runs.push(`${who}:${(ctx.job as unknown as { id: number }).id}`);
          },
        },
        schedules: [{ name, everyMs: 400 }],
      });
    const one = make(a.running.database, "one");
    const two = make(second, "two");
    await Promise.all([one.start(), two.start()]);
    await new Promise((r) => setTimeout(r, 2000));
    await Promise.all([one.stop(), two.stop()]);
    await one.drained(5000, [name]).catch(() => undefined);
    const rows = (
      await a.running.database.db.execute(
        sql`select singleton_key, status from job where name = ${name} order by singleton_key`,
      )
    ).rows as Array<{ singleton_key: string; status: string }>;
    if (url) await second.close();
    // One row per slot, each run by exactly one of the workers.
    expect(rows.length).toBeGreaterThanOrEqual(4);
    expect(new Set(rows.map((r) => r.singleton_key)).size).toBe(rows.length);
    const ran = rows.filter((r) => r.status === "done").length;
    expect(runs.length).toBe(ran);
    expect(ran).toBeGreaterThanOrEqual(rows.length - 1); // the last slot may have been inserted as they stopped
  });

  it.runIf(Boolean(process.env.TEST_DATABASE_URL))(
    "a second server on the same PostgreSQL database takes its scheduled sweeps' slots, not new ones",
    async () => {
      const twin = await startTestServer({ LOG_LEVEL: "silent", DATABASE_URL: a.databaseUrl as string });
      try {
        await jobsOf(twin).tick();
        await jobsOf(a).tick();
        const rows = (
          await a.running.database.db.execute(sql`select name, singleton_key, count(*)::int as n from job
            where name like 'sweep.%' group by name, singleton_key`)
        ).rows as Array<{ n: number }>;
        expect(rows.length).toBeGreaterThanOrEqual(2);
        expect(rows.every((r) => r.n === 1)).toBe(true);
      } finally {
        await twin.close(); // drops only the spare database the harness made for it, not the one it shares
      }
    },
    120_000,
  );
});
