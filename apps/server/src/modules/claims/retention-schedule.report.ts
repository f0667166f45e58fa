import { dec, money } from "@workmetrics/domain/documents/decimal";
import { releasable } from "@workmetrics/domain/documents/types/progressive-claim";
import { REPORT_ACCESS, type ReportDrill } from "@workmetrics/domain/reports";
import { sql } from "drizzle-orm";
import { z } from "zod";
import { defineReport } from "../reports/registry.ts";

// Issue 12 "a retention schedule per project (held, released, due when)": one row per contract (a sales order with
// submitted claims), with its project: the retention its progress claims held, what release claims released, the
// balance, and when the rest falls due — the practical-completion share on the project's practical completion date,
// the remainder at the end of its defects liability period. In the contract's currency, as the claims are. With
// `project_id` or `sales_order_id`: those contracts only (the claim and project pages). One statement.

const params = z.object({
  as_of: z.iso.date().optional(), // claims dated on or before it; default every claim
  project_id: z.number().int().positive().optional(),
  sales_order_id: z.number().int().positive().optional(),
});

type Row = {
  sales_order_id: number | string;
  contract: string;
  company: string;
  project_id: number | string | null;
  project: string | null;
  currency: string;
  contract_sum: string;
  held: string;
  released: string;
  released_at_completion: string;
  practical_completion_date: string | null;
  defects_liability_end_date: string | null;
  release_percent: string;
  claims: number;
};

export const retentionScheduleReport = defineReport({
  name: "retention_schedule",
  params,
  need: REPORT_ACCESS.retention_schedule,
  run: async (tx, p, caller) => {
    const ws = caller.workspaceId;
    const res = await tx.execute(sql`select s.id as sales_order_id, s.number as contract, co.name as company,
        pr.id as project_id, case when pr.id is null then null else pr.code || ' ' || pr.name end as project, s.currency,
        coalesce((select l.contract_sum from progressive_claim l where l.workspace_id = s.workspace_id
          and l.source_type = 'sales_order' and l.source_id = s.id and l.kind = 'progress'
          ${p.as_of ? sql`and l.doc_date <= ${p.as_of}::date` : sql``}
          and l.status not in ('draft', 'cancelled') order by l.id desc limit 1), 0)::text as contract_sum,
        coalesce(sum(c.retention_this_claim) filter (where c.kind = 'progress'), 0)::text as held,
        coalesce(-sum(c.retention_this_claim) filter (where c.kind = 'release'), 0)::text as released,
        coalesce(-sum(c.retention_this_claim) filter (where c.kind = 'release'
          and c.release_stage = 'practical_completion'), 0)::text as released_at_completion,
        pr.practical_completion_date::text as practical_completion_date,
        pr.defects_liability_end_date::text as defects_liability_end_date,
        coalesce(pr.retention_release_percent, 50)::text as release_percent,
        count(c.id)::int as claims
      from progressive_claim c
      join sales_order s on s.workspace_id = c.workspace_id and s.id = c.source_id
      join company co on co.workspace_id = s.workspace_id and co.id = s.company_id
      left join project pr on pr.workspace_id = s.workspace_id and pr.id = s.project_id
      where c.workspace_id = ${ws}::uuid and c.source_type = 'sales_order' and c.status not in ('draft', 'cancelled')
        ${p.as_of ? sql`and c.doc_date <= ${p.as_of}::date` : sql``}
        ${p.project_id ? sql`and s.project_id = ${p.project_id}` : sql``}
        ${p.sales_order_id ? sql`and s.id = ${p.sales_order_id}` : sql``}
      group by s.workspace_id, s.id, s.number, co.name, pr.id, pr.code, pr.name, s.currency,
        pr.practical_completion_date, pr.defects_liability_end_date, pr.retention_release_percent
      order by pr.code nulls last, s.number`);
    const rows = (res.rows as Row[]).map((r) => {
      const balance = dec(r.held).minus(dec(r.released));
      const atCompletion = releasable("practical_completion", {
        retained: r.held,
        released: r.released_at_completion,
        share_percent: r.release_percent,
      });
      const atEnd = money(balance.minus(dec(atCompletion)));
      return {
        project: r.project,
        contract: r.contract,
        company: r.company,
        currency: r.currency,
        contract_sum: money(r.contract_sum),
        held: money(r.held),
        released: money(r.released),
        balance: money(balance),
        due_at_completion: atCompletion,
        practical_completion_date: r.practical_completion_date,
        due_at_end: atEnd,
        defects_liability_end_date: r.defects_liability_end_date,
      };
    });
    const drill: ReportDrill[] = (res.rows as Row[]).map((r) => ({
      document: { type: "sales_order", id: Number(r.sales_order_id), number: r.contract },
    }));
    const total = (k: "held" | "released" | "balance") => money(rows.reduce((s, r) => s.plus(dec(r[k])), dec("0")));
    return {
      columns: [
        { key: "project", label: "Project", kind: "text" },
        { key: "contract", label: "Contract", kind: "text" },
        { key: "company", label: "Customer", kind: "text" },
        { key: "contract_sum", label: "Contract sum", kind: "money" },
        { key: "held", label: "Retention held", kind: "money" },
        { key: "released", label: "Released", kind: "money" },
        { key: "balance", label: "Balance", kind: "money" },
        { key: "due_at_completion", label: "Due at practical completion", kind: "money" },
        { key: "practical_completion_date", label: "Practical completion", kind: "date" },
        { key: "due_at_end", label: "Due at end of defects liability", kind: "money" },
        { key: "defects_liability_end_date", label: "Defects liability ends", kind: "date" },
      ],
      rows,
      totals: { held: total("held"), released: total("released"), balance: total("balance"), count: rows.length },
      key: "contract",
      drill,
    };
  },
});
