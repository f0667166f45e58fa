import { ROLE } from "@workmetrics/domain";
import { periodOf } from "@workmetrics/domain/commission";
import { dec } from "@workmetrics/domain/documents/decimal";
import { sql } from "drizzle-orm";
import { commissionApprove, commissionPay, commissionRuleSave } from "../../modules/commission/commission.rpc.ts";
import { computeStatement, loadRules, loadSellers } from "../../modules/commission/statement.ts";
import { SEED_DEPS } from "../jobs/deps.ts";
import type { Tx } from "./database.ts";
import { demoCalendar, demoTeam } from "./demo-trading.ts";

// Demo data for issue 12 (commission), in the Premium workspace only: the salespeople's role earns 5% of what they
// invoice (power tools left out); the sales manager has a rule of their own, tiered by a monthly target near what
// they sell (3% below 80%, 5% to 100%, 7% above). Four and three months ago are approved and paid, two months ago
// approved and waiting to be paid, last month and this month open. Run through the commands themselves.
export async function seedCommission(tx: Tx, workspaceId: string, slug: string): Promise<void> {
  if (slug !== "demo") return;
  const ws = workspaceId;
  await tx.execute(sql`select set_config('app.workspace_id', ${ws}, true)`);
  const who = await demoTeam(tx, ws, slug);
  const finance = who("commission.approve", "finance");
  const date = await demoCalendar(tx);
  const month = (back: number) => periodOf("monthly", shift(date(0), back));
  const tools = await tx.execute(
    sql`select id from category where workspace_id = ${ws}::uuid and name = 'Power Tools'`,
  );
  const excluded = (tools.rows as Array<{ id: number }>).map((r) => Number(r.id));
  await commissionRuleSave.run(
    tx,
    {
      role_id: ROLE.Salesperson,
      basis: "invoiced",
      rate_percent: "5",
      period: "monthly",
      tiers: [],
      excluded_category_ids: excluded,
    },
    finance,
    SEED_DEPS,
  );
  const [manager] = (await loadSellers(tx, ws)).filter((s) => s.role_id === ROLE.SalesManager);
  if (manager) {
    // The target: what they invoiced in an average month of the last four, to the thousand (at least 1,000).
    const flat = { basis: "invoiced", rate_percent: "3", period: "monthly", target: null, tiers: [] } as const;
    const probe = [{ id: 0, user_id: manager.id, role_id: null, excluded_category_ids: [], ...flat, tiers: [] }];
    let sum = dec("0");
    for (let back = 1; back <= 4; back++) {
      const p = month(back);
      sum = sum.plus(dec((await computeStatement(tx, ws, probe, manager, p.from, p.to))?.base ?? "0"));
    }
    const target = String(Math.max(1000, Math.round(sum.div(4).div(1000).toNumber()) * 1000));
    await commissionRuleSave.run(
      tx,
      {
        user_id: manager.id,
        basis: "invoiced",
        rate_percent: "3",
        period: "monthly",
        target,
        tiers: [
          { from_percent: "0", rate_percent: "3" },
          { from_percent: "80", rate_percent: "5" },
          { from_percent: "100", rate_percent: "7" },
        ],
        excluded_category_ids: [],
      },
      finance,
      SEED_DEPS,
    );
  }
  const rules = await loadRules(tx, ws);
  const sellers = (await loadSellers(tx, ws)).filter((s) =>
    rules.some((r) => r.user_id === s.id || r.role_id === s.role_id),
  );
  for (const back of [4, 3, 2]) {
    const p = month(back);
    for (const s of sellers) {
      const st = (await commissionApprove.run(
        tx,
        { salesperson: s.id, from: p.from, to: p.to },
        finance,
        SEED_DEPS,
      )) as {
        id: number;
        commission: string;
      };
      if (back > 2 && dec(st.commission).gt(0)) {
        const paid = shift(p.to, -1).slice(0, 8); // paid on the 10th of the next month
        await commissionPay.run(tx, { statement_id: st.id, date: `${paid}10`, account: "1010" }, finance, SEED_DEPS);
      }
    }
  }
}

// The day `back` months before `day` (the 15th, clear of month ends).
function shift(day: string, back: number): string {
  const d = new Date(Date.UTC(Number(day.slice(0, 4)), Number(day.slice(5, 7)) - 1 - back, 15));
  return d.toISOString().slice(0, 10);
}
