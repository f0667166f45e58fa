// Issue 20 §1: the job queue's figures, printed not asserted. On a fresh server (PGlite by default; set
// TEST_DATABASE_URL to a PostgreSQL admin URL to measure on PostgreSQL) with SMTP_URL pointing at a local SMTP
// receiver, so a mail job is a real hand-over:
//   latency — a mail enqueued (and committed) on its own, to the worker having sent it: job.done_at − job.created_at,
//             one at a time, so each is picked up by the NOTIFY wake-up, not a poll;
//   throughput — BENCH_MAILS mails enqueued in one transaction, until the queue is drained: mails per second.
// Run: node --import tsx bench/jobs.ts
import { sql } from "drizzle-orm";
import { SMTPServer } from "smtp-server";
import { MAIL_JOB, mailPayload } from "../apps/server/src/platform/jobs/mail.ts";
import { startTestServer } from "../apps/server/test/harness.ts";

const SINGLES = Number(process.env.BENCH_SINGLES ?? 50);
const MAILS = Number(process.env.BENCH_MAILS ?? 500);

let received = 0;
const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ["STARTTLS"],
  onData(stream, _session, callback) {
    stream.on("data", () => undefined);
    stream.on("end", () => {
      received++;
      callback();
    });
  },
});
await new Promise<void>((resolve) => smtp.listen(0, "127.0.0.1", resolve));
const address = smtp.server.address();
const port = address && typeof address === "object" ? address.port : 0;
const server = await startTestServer({ LOG_LEVEL: "silent", SMTP_URL: `smtp://127.0.0.1:${port}` });
const { db } = server.running.database;
const jobs = server.running.app.jobs;

const mail = (i: number) =>
  mailPayload({ to: `bench-${i}@example.test`, subject: `Bench ${i}`, text: "Hello", html: "<p>Hello</p>" });
const pct = (xs: number[], p: number) => xs[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))];

try {
  console.log(
    `job queue bench on ${server.databaseUrl ? "PostgreSQL" : "PGlite"}, SMTP to a local receiver, node ${process.version}`,
  );
  await jobs.drained();
  const latencies: number[] = [];
  for (let i = 0; i < SINGLES; i++) {
    const id = await jobs.enqueue(db, { name: MAIL_JOB, payload: mail(i) });
    const t0 = performance.now();
    await jobs.drained();
    const wall = performance.now() - t0;
    const res = await db.execute(sql`select extract(epoch from done_at - created_at) * 1000 as ms from job
      where id = ${id}`);
    const ms = Number((res.rows[0] as { ms: string | number }).ms);
    latencies.push(Number.isFinite(ms) ? ms : wall);
  }
  latencies.sort((a, b) => a - b);
  console.log(
    `latency, enqueue to sent (${SINGLES} one at a time): p50 ${pct(latencies, 50).toFixed(1)} ms   p95 ${pct(latencies, 95).toFixed(1)} ms   max ${latencies[latencies.length - 1].toFixed(1)} ms`,
  );

  const before = received;
  const t0 = performance.now();
  await db.transaction(async (tx) => {
    for (let i = 0; i < MAILS; i++) await jobs.enqueue(tx, { name: MAIL_JOB, payload: mail(i) });
  });
  const queued = performance.now() - t0;
  await jobs.drained(300_000);
  const total = performance.now() - t0;
  const sent = received - before;
  console.log(
    `throughput: ${MAILS} mails queued in one transaction in ${queued.toFixed(0)} ms, all sent in ${(total / 1000).toFixed(2)} s: ${(sent / (total / 1000)).toFixed(1)} mails/s (${sent} received)`,
  );
} finally {
  await server.close();
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
}
