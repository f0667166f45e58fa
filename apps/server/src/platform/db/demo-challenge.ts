import { ChallengeSave, periodOf } from "@workmetrics/domain/resources/challenge";
import { ROLE } from "@workmetrics/domain/roles";
import { sql } from "drizzle-orm";
import { challengeSave } from "../../modules/challenge/challenge.rpc.ts";
import { SEED_DEPS } from "../jobs/deps.ts";
import type { Tx } from "./database.ts";
import { demoTeam } from "./demo-trading.ts";

// Issue 12 demo: a running challenge (this month's invoices issued, the sales team against a target) and a finished
// one (last quarter's quotations sent, with its winners), set up through the challenge's own command by whoever may
// set challenges up. Their leaderboards come from the year of documents seeded before. Pro and Premium workspaces
// (the HR feature); in Pro, where the owner and admin do the selling, they take part.

const TEAM: Record<string, number[]> = {
  demo: [ROLE.SalesManager, ROLE.Salesperson],
  pro: [ROLE.Owner, ROLE.Admin],
};

export async function seedChallenge(tx: Tx, workspaceId: string, slug: string): Promise<void> {
  const team = TEAM[slug];
  if (!team) return;
  const who = await demoTeam(tx, workspaceId, slug);
  const manager = who("team_challenge.create", "manager");
  const roles = (
    await tx.execute(sql`select id from workspace_role where workspace_id = ${workspaceId}::uuid and is_system
      and base_role_id = any(${`{${team.join(",")}}`}::int[]) order by base_role_id`)
  ).rows as Array<{ id: number }>;
  const participants = roles.map((r) => ({ workspace_role_id: Number(r.id) }));
  const today = ((await tx.execute(sql`select current_date::text as d`)).rows[0] as { d: string }).d;
  const month = periodOf("month", today);
  const lastQuarterEnd = new Date(`${periodOf("quarter", today).start}T00:00:00Z`);
  lastQuarterEnd.setUTCDate(lastQuarterEnd.getUTCDate() - 1);
  const lastQuarter = periodOf("quarter", lastQuarterEnd.toISOString().slice(0, 10));
  const run = (args: unknown) => challengeSave.run(tx, ChallengeSave.parse(args), manager, SEED_DEPS);
  await run({
    name: "Last quarter's quotation sprint",
    description: "Most quotations sent in the quarter. Prize: a team lunch for the winner's pick.",
    metric: "quotations_sent_count",
    period_kind: "quarter",
    start_date: lastQuarter.start,
    end_date: lastQuarter.end,
    default_target: "10",
    participants,
  });
  await run({
    name: "Invoice this month's orders",
    description: "Invoices issued this month against each salesperson's monthly target.",
    metric: "invoices_issued_sum",
    period_kind: "month",
    start_date: month.start,
    end_date: month.end,
    default_target: slug === "demo" ? "20000" : "8000",
    participants,
  });
}
