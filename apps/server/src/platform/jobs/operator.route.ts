import type { OperatorJob } from "@workmetrics/domain/jobs";
import { sql } from "drizzle-orm";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { Db } from "../db/database.ts";
import { HttpError } from "../http/errors.ts";
import { requireOperator } from "../http/operator.ts";
import { retryNow } from "./queue.ts";
import type { Jobs } from "./worker.ts";

// Issue 20 §1: the dead-letter list for platform operators — jobs that are dead (their attempts spent) or failing
// (waiting for a retry) across every workspace — and a retry of one. Read on the platform connection, as the
// operator's other figures; nobody else may see it (the same rule as /api/platform/summary).

export async function platformJobRoutes(app: FastifyInstance, opts: { db: Db; jobs: Jobs }): Promise<void> {
  const { db } = opts;

  const operator = (req: FastifyRequest, does: string) => requireOperator(app, req, does);

  app.get("/api/platform/jobs", async (req, reply) => {
    await operator(req, "see the failed jobs");
    const res = await db.execute(sql`
      select j.id, j.name, j.status, w.name as workspace, j.doc_type, j.doc_id, j.payload->>'to' as to,
        j.payload->>'subject' as subject, j.attempts, j.max_attempts, j.last_error, j.run_at, j.updated_at
      from job j left join workspace w on w.id = j.workspace_id
      where j.status = 'dead' or (j.status = 'queued' and j.last_error is not null)
      order by j.updated_at desc, j.id desc
      limit 200`);
    const at = (v: unknown) => (v instanceof Date ? v.toISOString() : new Date(String(v)).toISOString());
    const jobs = (res.rows as OperatorJob[]).map((r) => ({
      ...r,
      id: Number(r.id),
      doc_id: r.doc_id === null ? null : Number(r.doc_id),
      run_at: at(r.run_at),
      updated_at: at(r.updated_at),
    }));
    return reply.header("cache-control", "no-store").send({ jobs });
  });

  app.post<{ Params: { id: string } }>("/api/platform/jobs/:id/retry", async (req, reply) => {
    await operator(req, "retry failed jobs");
    const id = Number(req.params.id);
    if (!Number.isSafeInteger(id) || id <= 0) throw new HttpError(404, "not_found", "There is no such job");
    const row = await retryNow(db, id);
    if (!row) {
      const found = await db.execute(sql`select status from job where id = ${id}`);
      const status = (found.rows[0] as { status: string } | undefined)?.status;
      if (!status) throw new HttpError(404, "not_found", "There is no such job");
      throw new HttpError(409, "conflict", `The job is ${status}; only a dead or waiting job can be retried`);
    }
    req.log.info({ job: id, name: row.name }, "an operator retried a job");
    return reply.header("cache-control", "no-store").send({ id, status: row.status, run_at: row.run_at });
  });
}
