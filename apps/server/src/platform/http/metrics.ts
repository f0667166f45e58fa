import { timingSafeEqual } from "node:crypto";
import { sql } from "drizzle-orm";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { Counter, Gauge, Histogram, Registry } from "prom-client";
import type { Database } from "../db/database.ts";
import { realtimeOf } from "../realtime/realtime.route.ts";
import { HttpError } from "./errors.ts";

// Issue 25 §4: GET /metrics in Prometheus's text format — requests by route and status (rate and latency), the
// database pools (in use, idle, waiting, the time spent waiting), the job queue (depth, age of the oldest due job),
// realtime sockets and the replica's lag. Each server has a registry of its own (tests run several in a process).
// Kept from tenants: it answers a request with the operator's METRICS_TOKEN, or a direct local one (the socket is
// the loopback and no proxy forwarded it), so that a scraper beside the instance needs no token; through nginx a
// tenant gets 404 (nginx does not pass /metrics), and straight at the instance 403 without the token.

const LOOPBACK = new Set(["127.0.0.1", "::1", "::ffff:127.0.0.1"]);

export function metricsAllowed(
  req: Pick<FastifyRequest, "headers"> & { socket: { remoteAddress?: string } },
  token: string | undefined,
): boolean {
  const auth = req.headers.authorization;
  if (token && typeof auth === "string" && auth.startsWith("Bearer ")) {
    const given = Buffer.from(auth.slice(7));
    const want = Buffer.from(token);
    return given.length === want.length && timingSafeEqual(given, want);
  }
  const proxied = req.headers["x-forwarded-for"] !== undefined || req.headers["x-real-ip"] !== undefined;
  return !proxied && auth === undefined && LOOPBACK.has(req.socket.remoteAddress ?? "");
}

export function registerMetrics(
  app: FastifyInstance,
  opts: { database: Database; instanceId: string; token: string | undefined; draining: () => boolean },
): void {
  const { database } = opts;
  const registry = new Registry();
  registry.setDefaultLabels({ instance: opts.instanceId });

  const requests = new Counter({
    name: "workmetrics_http_requests_total",
    help: "HTTP requests answered, by method, route and status",
    labelNames: ["method", "route", "status"],
    registers: [registry],
  });
  const duration = new Histogram({
    name: "workmetrics_http_request_duration_seconds",
    help: "HTTP request latency, by method, route and status",
    labelNames: ["method", "route", "status"],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  app.addHook("onResponse", async (req, reply) => {
    // The route's pattern (/rest/v1/:resource), never the raw address: a label per id would grow without end.
    const route = req.routeOptions.url ?? "unmatched";
    const labels = { method: req.method, route, status: String(reply.statusCode) };
    requests.inc(labels);
    duration.observe(labels, reply.elapsedTime / 1000);
  });

  const poolGauge = (name: string, help: string, read: (p: Database["pools"][number]) => number) =>
    new Gauge({
      name,
      help,
      labelNames: ["pool"],
      registers: [registry],
      collect() {
        for (const p of database.pools) this.set({ pool: p.name }, read(p));
      },
    });
  poolGauge("workmetrics_db_pool_connections", "Connections open in the pool", (p) => p.pool.totalCount);
  poolGauge("workmetrics_db_pool_idle", "Idle connections in the pool", (p) => p.pool.idleCount);
  poolGauge("workmetrics_db_pool_in_use", "Connections in use", (p) => p.pool.totalCount - p.pool.idleCount);
  poolGauge("workmetrics_db_pool_waiting", "Requests waiting for a connection", (p) => p.pool.waitingCount);
  poolGauge("workmetrics_db_pool_max", "The pool's size", (p) => p.max);
  new Counter({
    name: "workmetrics_db_pool_wait_seconds_total",
    help: "Time requests spent waiting for a connection",
    labelNames: ["pool"],
    registers: [registry],
    collect() {
      this.reset();
      for (const p of database.pools) this.inc({ pool: p.name }, p.waits.totalMs / 1000);
    },
  });
  new Counter({
    name: "workmetrics_db_pool_acquired_total",
    help: "Connections handed to requests",
    labelNames: ["pool"],
    registers: [registry],
    collect() {
      this.reset();
      for (const p of database.pools) this.inc({ pool: p.name }, p.waits.count);
    },
  });

  // The queue is every instance's: each reports it (a dashboard takes the max, not the sum).
  const jobs = new Gauge({
    name: "workmetrics_jobs",
    help: "Jobs in the queue by status (queued: due now; waiting: a retry or a later run)",
    labelNames: ["status"],
    registers: [registry],
  });
  const oldest = new Gauge({
    name: "workmetrics_jobs_oldest_due_seconds",
    help: "Age of the oldest job that is due and not running",
    registers: [registry],
  });
  const readQueue = async (): Promise<void> => {
    const res = await database.db.execute(sql`
      select count(*) filter (where status = 'queued' and run_at <= now())::int as queued,
             count(*) filter (where status = 'queued' and run_at > now())::int as waiting,
             count(*) filter (where status = 'running')::int as running,
             count(*) filter (where status = 'dead')::int as dead,
             coalesce(extract(epoch from now() - min(run_at) filter (where status = 'queued' and run_at <= now())), 0)::float8 as age
      from job where status <> 'done'`);
    const r = res.rows[0] as { queued: number; waiting: number; running: number; dead: number; age: number };
    for (const s of ["queued", "waiting", "running", "dead"] as const) jobs.set({ status: s }, Number(r[s]));
    oldest.set(Number(r.age));
  };

  new Gauge({
    name: "workmetrics_realtime_sockets",
    help: "Open realtime WebSockets on this instance",
    registers: [registry],
    collect() {
      this.set(realtimeOf(database)?.sockets() ?? 0);
    },
  });
  new Gauge({
    name: "workmetrics_replica_up",
    help: "1 when reads may go to the replica, 0 when it is down (absent without a replica)",
    registers: [registry],
    collect() {
      const s = database.reads.state();
      if (s.kind !== "none") this.set(s.kind === "up" ? 1 : 0);
    },
  });
  new Gauge({
    name: "workmetrics_replica_lag_bytes",
    help: "WAL the replica has yet to replay, as last measured",
    registers: [registry],
    collect() {
      const s = database.reads.state();
      if (s.kind === "up" && s.lagBytes !== null) this.set(s.lagBytes);
    },
  });
  new Gauge({
    name: "workmetrics_draining",
    help: "1 while the instance is shutting down",
    registers: [registry],
    collect() {
      this.set(opts.draining() ? 1 : 0);
    },
  });

  app.get("/metrics", async (req, reply) => {
    if (!metricsAllowed(req, opts.token)) {
      throw new HttpError(403, "forbidden", "The metrics are for the operator: send the metrics token");
    }
    await readQueue().catch((err) => req.log.warn({ err }, "metrics could not read the job queue"));
    if (database.reads.state().kind !== "none") await database.reads.target(null).catch(() => undefined);
    return reply
      .header("cache-control", "no-store")
      .type(registry.contentType)
      .send(await registry.metrics());
  });
}
