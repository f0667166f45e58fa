import type { PGlite } from "@electric-sql/pglite";
import { sql } from "drizzle-orm";
import pg from "pg";
import type { Database, Db, Tx } from "../db/database.ts";
import { claim, enqueue, type JobRow, type JobSpec, markDone, markFailed, WAKE_CHANNEL } from "./queue.ts";

// A worker per server (issue 20 §1): started when the app is ready, stopped when it closes. It polls every
// `pollMs`, and wakes at once on the queue's NOTIFY (sent in the enqueuing transaction, so delivered on its commit),
// claims due jobs with FOR UPDATE SKIP LOCKED under a lease, runs each handler outside any request transaction and
// marks it done, or failed with a backoff, or dead once its attempts are spent. Handlers are the server's own (a
// registry built with the app), never module state: two servers in one process run their own.

export type JobContext = { job: JobRow; db: Db };
export type JobHandler = (payload: never, ctx: JobContext) => Promise<void>;
export type JobHandlers = Record<string, JobHandler>;

// A scheduled job: once per `everyMs` slot across every instance on the database (singleton_key = the slot's start).
export type Schedule = { name: string; everyMs: number; payload?: unknown };

type Log = {
  info(obj: unknown, msg?: string): void;
  warn(obj: unknown, msg?: string): void;
  error(obj: unknown, msg?: string): void;
};

export type JobsOptions = {
  database: Database;
  handlers: JobHandlers;
  schedules?: Schedule[];
  log: Log;
  pollMs?: number;
  retryMs?: number; // the first retry's wait; doubled for each later one
  leaseMs?: number;
  concurrency?: number;
};

export type Jobs = {
  enqueue(tx: Tx | Db, job: JobSpec): Promise<number | null>;
  start(): Promise<void>;
  stop(): Promise<void>;
  // Resolves once no job is due or running (tests, the benchmark): what was enqueued has been run or has failed for
  // now (a retry waiting for its time does not count).
  drained(timeoutMs?: number, names?: string[]): Promise<void>;
  // Inserts the current slot of each schedule now (what the worker's tick does).
  tick(): Promise<void>;
};

export const slotStart = (now: number, everyMs: number): string =>
  new Date(Math.floor(now / everyMs) * everyMs).toISOString();

export function createJobs(opts: JobsOptions): Jobs {
  const { database, handlers, log } = opts;
  const db = database.db;
  const pollMs = opts.pollMs ?? 400;
  const retryMs = opts.retryMs ?? 30_000;
  const leaseMs = opts.leaseMs ?? 5 * 60_000;
  const concurrency = opts.concurrency ?? 4;
  const schedules = opts.schedules ?? [];
  const names = Object.keys(handlers);
  const scheduled = new Map<string, string>(); // the last slot this instance inserted per schedule
  let running = false;
  let timer: NodeJS.Timeout | null = null;
  let unlisten: (() => Promise<void>) | null = null;
  let loop: Promise<void> | null = null;
  let again = false;
  const inFlight = new Set<Promise<void>>();

  const run = async (job: JobRow): Promise<void> => {
    const handler = handlers[job.name];
    try {
      if (!handler) throw new Error(`No handler for the job ${job.name} on this server`);
      await handler(job.payload as never, { job, db });
      await markDone(db, job.id);
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      const status = await markFailed(db, job.id, message, retryMs).catch(() => "queued");
      const entry = { job: job.id, name: job.name, attempt: job.attempts, err: message };
      if (status === "dead") log.error(entry, "a job failed for the last time and is dead");
      else log.warn(entry, "a job failed; it will be retried");
    }
  };

  const tick = async (): Promise<void> => {
    const now = Date.now();
    for (const s of schedules) {
      const slot = slotStart(now, s.everyMs);
      if (scheduled.get(s.name) === slot) continue;
      await enqueue(db, { name: s.name, payload: s.payload ?? {}, singletonKey: slot, maxAttempts: 3 });
      scheduled.set(s.name, slot);
    }
  };

  // One pass: the schedules' slots, then claim what there is room for, until nothing is due.
  const pass = async (): Promise<void> => {
    await tick();
    for (;;) {
      const room = concurrency - inFlight.size;
      if (room <= 0 || !running) return;
      const jobs = await claim(db, names, room, leaseMs);
      if (jobs.length === 0) return;
      for (const job of jobs) {
        const p: Promise<void> = run(job).finally(() => {
          inFlight.delete(p);
          if (running) wake(); // room again: what waited may be claimed now
        });
        inFlight.add(p);
      }
    }
  };

  const wake = (): void => {
    if (!running) return;
    if (loop) {
      again = true;
      return;
    }
    loop = (async () => {
      do {
        again = false;
        try {
          await pass();
        } catch (err) {
          if (running) log.warn({ err: (err as Error).message }, "the job worker could not read the queue");
        }
      } while (again && running);
      loop = null;
    })();
  };

  const schedule = (): void => {
    if (!running) return;
    timer = setTimeout(() => {
      wake();
      schedule();
    }, pollMs);
    timer.unref();
  };

  return {
    enqueue: (tx, job) => enqueue(tx, job),
    tick,
    async start() {
      if (running) return;
      running = true;
      unlisten = await listenForWake(database, wake, log);
      schedule();
      wake();
    },
    async stop() {
      running = false;
      if (timer) clearTimeout(timer);
      await unlisten?.().catch(() => undefined);
      unlisten = null;
      await loop;
      await Promise.allSettled([...inFlight]);
    },
    async drained(timeoutMs = 15_000, names) {
      const until = Date.now() + timeoutMs;
      const named = names
        ? sql`name in (${sql.join(
            names.map((n) => sql`${n}`),
            sql`, `,
          )})`
        : sql`true`;
      for (;;) {
        const res = await db.execute(sql`select count(*)::int as n from job
          where ${named} and ((status = 'queued' and run_at <= now()) or status = 'running')`);
        if ((res.rows[0] as { n: number }).n === 0 && (names || inFlight.size === 0)) return;
        if (Date.now() > until) throw new Error("The job queue did not drain in time");
        wake();
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    },
  };
}

// The wake-up: PGlite's own listen, or a connection of its own on PostgreSQL. A lost connection only costs the
// immediate wake (the poll still runs); it is not reopened.
async function listenForWake(database: Database, wake: () => void, log: Log): Promise<() => Promise<void>> {
  const client = (database.db as unknown as { $client: unknown }).$client;
  try {
    if (database.kind === "pglite") {
      const unlisten = await (client as PGlite).listen(WAKE_CHANNEL, () => wake());
      return unlisten;
    }
    const options = (client as pg.Pool).options;
    const c = new pg.Client({ ...options, connectionString: options.connectionString });
    c.on("error", (err) => log.warn({ err: err.message }, "the job queue's LISTEN connection was lost; polling"));
    c.on("notification", () => wake());
    await c.connect();
    await c.query(`LISTEN ${WAKE_CHANNEL}`);
    return () => c.end();
  } catch (err) {
    log.warn({ err: (err as Error).message }, "the job queue cannot LISTEN; polling only");
    return async () => undefined;
  }
}
