import { COMMANDS, type CommandAnswer } from "@workmetrics/domain/commands";
import { RESOURCES, type ResourceDef } from "@workmetrics/domain/resources";
import { type SQL, sql } from "drizzle-orm";
import type { Tx } from "../../db/database.ts";
import { type Caller, keptTotal, readScope } from "../access.ts";
import { metaOf } from "../resource-meta.ts";
import { RestError } from "../rest-error.ts";
import { ident } from "../sql-compile.ts";
import { implement } from "./command.ts";

// Issue 5 item 7: the dashboard home's figures for the signed-in workspace — a count per resource the user may
// read, the ten latest changes among them, and a few breakdowns worth a chart. One statement for the counts.

const t0 = sql.raw("t0");

function readable(caller: Caller): Array<{ def: ResourceDef; scope: SQL | null }> {
  const out: Array<{ def: ResourceDef; scope: SQL | null }> = [];
  for (const def of RESOURCES) {
    if (def.scope !== "tenant" || !def.route) continue;
    try {
      out.push({ def, scope: readScope(def, caller, t0) });
    } catch (err) {
      if (!(err instanceof RestError)) throw err;
    }
  }
  return out;
}

type Breakdown = Array<{ label: string; count: number }>;

// Issue 10 §3: figures a module adds to the home page (the selling figures: sales this month, overdue receivables
// …), each answering only what the caller may read; the engine names no feature.
export type DashboardFigures = (tx: Tx, caller: Caller) => Promise<Record<string, unknown>>;
const FIGURES: DashboardFigures[] = [];

export function registerDashboardFigures(...fns: DashboardFigures[]): void {
  FIGURES.push(...fns);
}

export const dashboardSummary = implement(COMMANDS.dashboard_summary, {
  async run(tx, _args, caller) {
    const list = readable(caller);
    const counts: Record<string, number> = {};
    const recent: Array<Record<string, unknown>> = [];
    if (list.length) {
      // A resource the caller sees whole is counted by the kept row count; owner-only ones by counting.
      const cols = list.map(({ def, scope }) => {
        const table = metaOf(def).table;
        const kept = keptTotal(def, table, caller);
        const count = kept
          ? sql`${kept}::int`
          : sql`(select count(*)::int from ${ident(table)} t0 where ${scope ?? sql`true`})`;
        return sql`${count} as ${ident(def.name)}`;
      });
      const res = await tx.execute(sql`select ${sql.join(cols, sql`, `)}`);
      Object.assign(counts, res.rows[0]);
      const withDates = list.filter(({ def }) => metaOf(def).columns.has("updated_at") && metaOf(def).hasId);
      const parts = withDates.map(
        ({ def, scope }) => sql`(select ${def.name}::text as resource, ${def.route}::text as route, t0.id::text as id,
          t0.${ident(def.display)}::text as label, t0.updated_at, t0.created_at = t0.updated_at as created
          from ${ident(metaOf(def).table)} t0 where ${scope ?? sql`true`} order by t0.updated_at desc limit 10)`,
      );
      if (parts.length) {
        const rows = await tx.execute(sql`select coalesce(json_agg(y), '[]'::json) as recent from (
          select * from (${sql.join(parts, sql` union all `)}) x order by updated_at desc limit 10) y`);
        recent.push(...((rows.rows[0] as { recent: Array<Record<string, unknown>> }).recent ?? []));
      }
    }
    const names = new Set(list.map((l) => l.def.name));
    const scopeOf = (name: string) => list.find((l) => l.def.name === name)?.scope ?? sql`true`;
    const charts: Record<string, Breakdown> = {};
    if (names.has("product") && names.has("category")) {
      const res = await tx.execute(sql`
        select coalesce(c.name, 'Uncategorised') as label, count(*)::int as count
        from product t0 left join category c on c.workspace_id = t0.workspace_id and c.id = t0.category_id
        where ${scopeOf("product")} group by 1 order by 2 desc limit 8`);
      charts.products_by_category = res.rows as Breakdown;
    }
    if (names.has("project")) {
      const res = await tx.execute(
        sql`select t0.status as label, count(*)::int as count from project t0 where ${scopeOf("project")} group by 1 order by 2 desc`,
      );
      charts.projects_by_status = res.rows as Breakdown;
    }
    if (names.has("company")) {
      const res = await tx.execute(sql`
        select case when t0.is_customer and t0.is_supplier then 'Customer and supplier'
                    when t0.is_supplier then 'Supplier' when t0.is_customer then 'Customer' else 'Other' end as label,
               count(*)::int as count
        from company t0 where ${scopeOf("company")} group by 1 order by 2 desc`);
      charts.companies_by_kind = res.rows as Breakdown;
    }
    const figures: Record<string, unknown> = {};
    for (const fn of FIGURES) Object.assign(figures, await fn(tx, caller));
    // Rows of SQL and the modules' figures, as the declaration describes them.
    return { counts, recent, charts, figures } as CommandAnswer<"dashboard_summary">;
  },
});
