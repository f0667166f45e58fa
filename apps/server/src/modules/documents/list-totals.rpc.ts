import { COMMANDS } from "@workmetrics/domain/commands";
import { sql } from "drizzle-orm";
import { documentSpec } from "../../platform/documents/registry.ts";
import { readScope } from "../../platform/rest/access.ts";
import { parseQuery } from "../../platform/rest/query-parse.ts";
import { metaOf } from "../../platform/rest/resource-meta.ts";
import { RestError } from "../../platform/rest/rest-error.ts";
import { implement } from "../../platform/rest/rpc/command.ts";
import { type CompileContext, ident, planRead } from "../../platform/rest/sql-compile.ts";

// document_list_totals {type, filters} (issue 10 §3 "totals of the filtered set"): Σ total (and Σ outstanding where
// the type has it) and the count, per currency, of every document the list's filters match — the same PostgREST
// filter parameters the list reads with (`status=in.(unpaid,overdue)`, `or=(…)`), compiled by the REST engine with
// the caller's read scope, so the figures are exactly the list's rows however many there are.

const NOT_FILTERS = new Set(["select", "order", "limit", "offset", "on_conflict", "columns"]);

export type ListTotals = { currency: string; count: number; total: string; outstanding: string | null };

export const documentListTotals = implement(COMMANDS.document_list_totals, {
  run: async (tx, args, caller) => {
    const spec = documentSpec(args.type);
    const def = spec.header;
    const meta = metaOf(def);
    const wrong = args.filters.find(([k]) => NOT_FILTERS.has(k) || k.includes("."));
    if (wrong) {
      throw new RestError(422, "validation_failed", `"${wrong[0]}" is not a filter of the list`, [
        { field: "filters", message: `"${wrong[0]}" is not a filter of the list` },
      ]);
    }
    const query = parseQuery([["select", "id"], ...args.filters]);
    const ctx: CompileContext = {
      scope: (d, alias, label) => readScope(d, caller, alias, label),
      levels: query.levels,
      aliases: 1,
    };
    // Refuses who may not read the type, as a read of the list would.
    const plan = planRead(meta, query.select, ctx, readScope(def, caller, sql.raw("t0")));
    const owes = meta.columns.has("outstanding");
    const res = await tx.execute(sql`
      select coalesce(t0.currency, '') as currency, count(*)::int as count, coalesce(sum(t0.total), 0)::text as total,
        ${owes ? sql`coalesce(sum(t0.outstanding), 0)::text` : sql`null`} as outstanding
      from ${ident(meta.table)} t0 where ${plan.where}
      group by 1 order by 1`);
    return (res.rows as Array<ListTotals & { count: number | string }>).map((r) => ({ ...r, count: Number(r.count) }));
  },
});
