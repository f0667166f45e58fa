import type { ChallengeMetric } from "@workmetrics/domain/db/challenge-schema";
import type { LeaderboardRow } from "@workmetrics/domain/resources/challenge";
import { type SQL, sql } from "drizzle-orm";
import type { Tx } from "../../platform/db/database.ts";
import { salespersonOf } from "../reports/analytics/salesperson.ts";

// Issue 12: a challenge's leaderboard, computed in SQL from the documents themselves over its period — what was
// sent, confirmed, issued, collected or delivered and not cancelled since — attributed to its salesperson by the one
// rule sales by salesperson and commission follow (salespersonOf: the quotation's or sales order's salesperson, not
// the accounts clerk who invoiced). Money collected is its invoice's salesperson's (a receipt's part paying debit
// notes or kept as customer credit, who recorded it); a delivery is its driver's (else who made it). Amounts exclude
// GST and are in the base currency (net total × rate).
// Runs in the request's transaction as the request role, so RLS keeps it to the caller's workspace.

// Each metric's rows `d`: the document (id), its day, who it counts for, the value and whether it counts.
type Metric = { from: SQL; value: SQL; who: SQL; day: SQL; counts: SQL };

const net = sql`round(d.net_total * d.rate, 2)`;
const dated = sql`d.doc_date`;
const sent = sql`d.status not in ('draft', 'cancelled')`;
const sold = (table: "quotation" | "sales_order" | "invoice") => ({
  from: sql`${sql.identifier(table)}`,
  who: salespersonOf(table, "d"),
  day: dated,
  counts: sent,
});

// A receipt split by what it paid: each invoice allocation for the invoice's salesperson, the rest for its recorder.
const collected = sql`(
  select r.workspace_id, r.id, r.doc_date, r.status, ${salespersonOf("invoice", "i")} as seller, a.amount
  from receipt r
  join payment_allocation a on a.workspace_id = r.workspace_id and a.payment_type = 'receipt' and a.payment_id = r.id
    and a.document_type = 'invoice'
  join invoice i on i.workspace_id = a.workspace_id and i.id = a.document_id
  union all
  select r.workspace_id, r.id, r.doc_date, r.status, r.created_by, r.amount - coalesce((select sum(a.amount)
    from payment_allocation a where a.workspace_id = r.workspace_id and a.payment_type = 'receipt'
      and a.payment_id = r.id and a.document_type = 'invoice'), 0)
  from receipt r
)`;

const METRICS: Record<ChallengeMetric, Metric> = {
  quotations_sent_count: { ...sold("quotation"), value: sql`1` },
  quotations_sent_sum: { ...sold("quotation"), value: net },
  orders_confirmed_sum: { ...sold("sales_order"), value: net },
  invoices_issued_sum: { ...sold("invoice"), value: net },
  receipts_collected_sum: {
    from: collected,
    value: sql`d.amount`,
    who: sql`d.seller`,
    day: dated,
    counts: sql`d.status <> 'cancelled' and d.amount > 0`,
  },
  deliveries_completed_count: {
    from: sql`delivery_order`,
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
      select ${m.who} as user_id, sum(${m.value}) as value, count(distinct d.id)::int as documents
      from ${m.from} d
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
