import type { ChallengeMetric } from "@workmetrics/domain/db/challenge-schema";
import type { LeaderboardRow } from "@workmetrics/domain/resources/challenge";
import { type SQL, sql } from "drizzle-orm";
import type { Tx } from "../../platform/db/database.ts";

// Issue 12: a challenge's leaderboard, computed in SQL from the documents themselves over its period — what was
// sent, confirmed, issued, collected or delivered and not cancelled since — attributed to its salesperson: the
// documents carry no salesperson column, so it is who made the quotation or sales order (created_by), and for an
// invoice who made the sales order it bills (directly, or through its delivery order and delivery instruction;
// an invoice written without an order is its maker's, as the accounts clerk who invoices made no sale); a receipt
// is who recorded it, a delivery its driver (else who made it). Amounts exclude GST and are in the base currency
// (net total × rate).
// Runs in the request's transaction as the request role, so RLS keeps it to the caller's workspace.

type Metric = { table: string; value: SQL; who: SQL; day: SQL; counts: SQL };

const net = sql`round(d.net_total * d.rate, 2)`;
const made = sql`d.created_by`;
const dated = sql`d.doc_date`;
const sent = sql`d.status not in ('draft', 'cancelled')`;

// The sales order an invoice bills: its source, or its delivery order's (made from the order or from a delivery
// instruction of it).
const billedOrder = sql`case d.source_type
  when 'sales_order' then d.source_id
  when 'delivery_order' then (select case dd.source_type when 'sales_order' then dd.source_id
      when 'delivery_instruction' then (select di.source_id from delivery_instruction di
        where di.workspace_id = dd.workspace_id and di.id = dd.source_id and di.source_type = 'sales_order') end
    from delivery_order dd where dd.workspace_id = d.workspace_id and dd.id = d.source_id) end`;
const invoiceSeller = sql`coalesce((select so.created_by from sales_order so
  where so.workspace_id = d.workspace_id and so.id = ${billedOrder}), d.created_by)`;

const METRICS: Record<ChallengeMetric, Metric> = {
  quotations_sent_count: { table: "quotation", value: sql`1`, who: made, day: dated, counts: sent },
  quotations_sent_sum: { table: "quotation", value: net, who: made, day: dated, counts: sent },
  orders_confirmed_sum: { table: "sales_order", value: net, who: made, day: dated, counts: sent },
  invoices_issued_sum: { table: "invoice", value: net, who: invoiceSeller, day: dated, counts: sent },
  receipts_collected_sum: {
    table: "receipt",
    value: sql`d.amount`,
    who: made,
    day: dated,
    counts: sql`d.status <> 'cancelled'`,
  },
  deliveries_completed_count: {
    table: "delivery_order",
    value: sql`1`,
    who: sql`coalesce(d.driver_id, d.created_by)`,
    day: sql`d.received_at::date`,
    counts: sql`d.received_at is not null and d.status <> 'cancelled'`,
  },
};

export type ChallengeRow = {
  id: number;
  metric: ChallengeMetric;
  start_date: string;
  end_date: string;
  default_target: string | null;
};

// Everyone taking part (named, or holding a named workspace role; a user with no workspace role holds their system
// role's), with their target: their own row's, else their role's, else the challenge's default.
export async function leaderboard(tx: Tx, ws: string, c: ChallengeRow, finished: boolean): Promise<LeaderboardRow[]> {
  const m = METRICS[c.metric];
  const res = await tx.execute(sql`
    with roles as (
      select u.id as user_id, coalesce(u.workspace_role_id,
        (select r.id from workspace_role r where r.workspace_id = u.workspace_id and r.is_system
           and r.base_role_id = u.role_id order by r.id limit 1)) as workspace_role_id
      from "user" u where u.workspace_id = ${ws}::uuid and u.active
    ),
    people as (
      select r.user_id,
        (array_agg(p.target order by (p.user_id is not null) desc) filter (where p.target is not null))[1] as target
      from team_challenge_participant p
      join roles r on r.user_id = p.user_id or r.workspace_role_id = p.workspace_role_id
      where p.workspace_id = ${ws}::uuid and p.challenge_id = ${c.id}
      group by r.user_id
    ),
    done as (
      select ${m.who} as user_id, sum(${m.value}) as value, count(*)::int as documents
      from ${sql.identifier(m.table)} d
      where d.workspace_id = ${ws}::uuid and ${m.counts}
        and ${m.day} between ${c.start_date}::date and ${c.end_date}::date
        and ${m.who} in (select user_id from people)
      group by 1
    )
    select u.id as user_id, u.name, u.email, coalesce(done.value, 0)::text as value,
      coalesce(done.documents, 0) as documents,
      coalesce(people.target, ${c.default_target}::numeric)::text as target,
      case when coalesce(people.target, ${c.default_target}::numeric) > 0
        then round(coalesce(done.value, 0) * 100 / coalesce(people.target, ${c.default_target}::numeric), 1)::text
      end as percent,
      rank() over (order by coalesce(done.value, 0) desc)::int as rank
    from people
    join "user" u on u.workspace_id = ${ws}::uuid and u.id = people.user_id
    left join done on done.user_id = people.user_id
    order by rank, u.name`);
  return (res.rows as Array<Omit<LeaderboardRow, "badge">>).map((r) => ({
    ...r,
    documents: Number(r.documents),
    rank: Number(r.rank),
    // Badges go to the top three of a finished challenge who achieved something (Odoo: 1st, 2nd, 3rd).
    badge: finished && r.rank <= 3 && Number(r.value) > 0 ? (r.rank as 1 | 2 | 3) : null,
  }));
}
