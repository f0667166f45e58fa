import { sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import type { Db } from "../../platform/db/database.ts";
import { requireOperator } from "../../platform/http/operator.ts";

type TierCount = { id: number; title: string; workspaces: number };
type OpenRequest = { id: number; name: string; company_name: string; created_at: string };

// The platform operator's home (issue 9 §2): workspaces by tier, sign-ups, the demo requests still to answer.
// Read on the platform connection: these figures span every workspace, which only operators may see. A sandbox
// (GET /demo) is nobody's company: it is counted neither as a workspace of its plan nor as a sign-up.
export async function platformRoutes(app: FastifyInstance, opts: { db: Db }): Promise<void> {
  const { db } = opts;

  app.get("/api/platform/summary", async (req, reply) => {
    await requireOperator(app, req, "see the platform's figures");
    const [tiers, signups, open] = await Promise.all([
      db.execute(sql`
        select t.id, t.title, count(w.id)::int as workspaces
        from tier t left join workspace w on w.tier_id = t.id and w.suspended_at is null
          and w.sandbox_expires_at is null
        group by t.id, t.title order by t.id`),
      db.execute(sql`
        select count(*) filter (where created_at > now() - interval '7 days')::int as last7,
               count(*) filter (where created_at > now() - interval '30 days')::int as last30,
               count(*)::int as total
        from workspace where sandbox_expires_at is null`),
      db.execute(sql`
        select id, name, company_name, created_at, count(*) over ()::int as open
        from demo_request where handled_at is null order by created_at asc limit 5`),
    ]);
    const s = signups.rows[0] as { last7: number; last30: number; total: number };
    const requests = open.rows as Array<OpenRequest & { open: number }>;
    return reply.header("cache-control", "no-store").send({
      tiers: tiers.rows as TierCount[],
      signups: { last7: s.last7, last30: s.last30, total: s.total },
      demo_requests: {
        open: requests[0]?.open ?? 0,
        oldest: requests.map(({ open: _o, ...r }) => r),
      },
    });
  });
}
