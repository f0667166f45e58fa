import { sql } from "drizzle-orm";
import type { Db, Tx } from "../db/database.ts";

// Issue 20 §1: one job queue in PostgreSQL (table `job`), the same on PGlite and PostgreSQL — a FOR UPDATE SKIP
// LOCKED queue of our own. A job is inserted in the caller's transaction (the outbox): a command that rolls back
// leaves none, one that commits leaves exactly one. Inside a request the insert runs as the request role under RLS
// (policy job_tenant), so a workspace's job carries that workspace. The NOTIFY rides the same transaction and is
// delivered on commit: it wakes the workers of every instance at once instead of at their next poll.

export const WAKE_CHANNEL = "workmetrics_jobs";

export type JobSpec = {
  name: string;
  payload: unknown;
  workspaceId?: string | null;
  docType?: string | null;
  docId?: number | null;
  runAt?: Date;
  maxAttempts?: number;
  singletonKey?: string | null;
};

export type JobRow = {
  id: number;
  workspace_id: string | null;
  name: string;
  payload: unknown;
  status: "queued" | "running" | "done" | "dead";
  attempts: number;
  max_attempts: number;
  run_at: string;
  last_error: string | null;
  doc_type: string | null;
  doc_id: number | null;
};

// The job's id, or null when a job of that name and singleton key is already there (a scheduled slot taken).
export async function enqueue(tx: Tx | Db, job: JobSpec): Promise<number | null> {
  const res = await tx.execute(sql`
    insert into job (workspace_id, name, payload, run_at, max_attempts, singleton_key, doc_type, doc_id)
    values (${job.workspaceId ?? null}::uuid, ${job.name}, ${JSON.stringify(job.payload ?? {})}::jsonb,
      coalesce(${job.runAt?.toISOString() ?? null}::timestamptz, now()), ${job.maxAttempts ?? 5},
      ${job.singletonKey ?? null}, ${job.docType ?? null}, ${job.docId ?? null})
    on conflict (name, singleton_key) do nothing
    returning id`);
  const id = (res.rows[0] as { id: number | string } | undefined)?.id;
  if (id === undefined) return null;
  await tx.execute(sql`select pg_notify(${WAKE_CHANNEL}, '')`);
  return Number(id);
}

// Claims up to `n` due jobs for `leaseMs`: queued ones whose time has come, and running ones whose lease ran out
// (the instance that held them stopped or crashed). Each claim counts as an attempt. Only jobs of `names` are
// claimed: those this worker has handlers for (an instance of another version leaves the others alone).
export async function claim(db: Db, names: string[], n: number, leaseMs: number): Promise<JobRow[]> {
  if (names.length === 0) return [];
  const res = await db.execute(sql`
    with due as (
      select id from job
      where name in (${sql.join(
        names.map((name) => sql`${name}`),
        sql`, `,
      )})
        and ((status = 'queued' and run_at <= now()) or (status = 'running' and locked_until < now()))
      order by run_at, id
      limit ${n}
      for update skip locked
    )
    update job j set status = 'running', attempts = j.attempts + 1,
      locked_until = now() + make_interval(secs => ${leaseMs / 1000}), updated_at = now()
    from due where j.id = due.id
    returning j.id, j.workspace_id, j.name, j.payload, j.status, j.attempts, j.max_attempts, j.run_at,
      j.last_error, j.doc_type, j.doc_id`);
  return (res.rows as JobRow[]).map((r) => ({ ...r, id: Number(r.id) }));
}

export async function markDone(db: Db, id: number): Promise<void> {
  await db.execute(sql`update job set status = 'done', done_at = now(), locked_until = null, updated_at = now()
    where id = ${id} and status = 'running'`);
}

// A failure: back in the queue after `retryMs` × 2^(attempts − 1) (at most an hour), or dead once its attempts are
// spent. The error is kept either way: the operator and the document's history show it.
export async function markFailed(db: Db, id: number, error: string, retryMs: number): Promise<"queued" | "dead"> {
  const res = await db.execute(sql`
    update job set
      status = case when attempts >= max_attempts then 'dead' else 'queued' end,
      run_at = now() + make_interval(secs => least(3600, ${retryMs / 1000} * power(2, attempts - 1))),
      last_error = ${error.slice(0, 2000)}, locked_until = null, updated_at = now()
    where id = ${id} and status = 'running'
    returning status`);
  return ((res.rows[0] as { status: "queued" | "dead" } | undefined)?.status ?? "queued") as "queued" | "dead";
}

// An operator's retry of a dead (or waiting) job: queued now with one more attempt than it has had.
export async function retryNow(db: Db, id: number): Promise<JobRow | null> {
  const res = await db.execute(sql`
    update job set status = 'queued', run_at = now(), max_attempts = greatest(max_attempts, attempts + 1),
      locked_until = null, updated_at = now()
    where id = ${id} and status in ('dead', 'queued')
    returning id, workspace_id, name, payload, status, attempts, max_attempts, run_at, last_error, doc_type, doc_id`);
  const row = res.rows[0] as JobRow | undefined;
  if (row) await db.execute(sql`select pg_notify(${WAKE_CHANNEL}, '')`);
  return row ? { ...row, id: Number(row.id) } : null;
}

// A sent mail keeps only its address and subject (what the document's history and the operator show): its body,
// attachments and any sign-in link in it are dropped, and so are done jobs of no document after 30 days. A dead
// job keeps everything, for its retry. A scheduled job (app.ts).
export const PRUNE_JOBS = "jobs.prune";

export async function pruneDone(db: Db): Promise<{ slimmed: number; deleted: number }> {
  const slimmed = await db.execute(sql`
    update job set payload = jsonb_build_object('to', payload->'to', 'subject', payload->'subject')
    where name = 'mail' and status = 'done' and (payload ? 'text' or payload ? 'sealed')
    returning id`);
  const deleted = await db.execute(sql`
    delete from job where status = 'done' and doc_id is null and done_at < now() - interval '30 days'
    returning id`);
  return { slimmed: slimmed.rows.length, deleted: deleted.rows.length };
}
