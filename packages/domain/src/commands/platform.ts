import { z } from "zod";
import { defineCommand, instant } from "./define.ts";

// The engine's own commands (apps/server/src/platform/rest/rpc).

const Cell = z.union([z.string(), z.number(), z.boolean(), z.null()]);

// Issue 5 item 4: rows keyed by column name or field label, cells as text; a bad row imports nothing of its file
// unless skip_bad_rows; upsert updates rows whose natural key (product SKU, location code …) exists.
export const csvImport = defineCommand({
  name: "csv_import",
  args: z.object({
    resource: z.string().min(1),
    rows: z.array(z.record(z.string(), Cell)).max(20_000, "At most 20,000 rows per import"),
    skip_bad_rows: z.boolean().default(false),
    upsert: z.boolean().default(false),
  }),
  result: z.object({
    resource: z.string(),
    total: z.number(),
    imported: z.number(),
    skipped: z.number(),
    committed: z.boolean(), // false: a bad row refused the whole file, nothing was written
    errors: z.array(z.object({ row: z.number(), field: z.string().nullable(), message: z.string() })),
  }),
  permission: null, // checked per resource: <resource>.create (and .update for upserts)
});

const breakdown = z.array(z.object({ label: z.string(), count: z.number() }));
// `late`: how many of `count` are past their date (receipts expected, bills due), where a figure says so.
const figure = z.object({ amount: z.string().optional(), count: z.number(), late: z.number().optional() });

// Issue 5 item 7: what the signed-in member may read in their workspace; issue 10 §3 adds the selling figures, each
// present only for a member who may read that document type.
export const dashboardSummary = defineCommand({
  name: "dashboard_summary",
  args: z.looseObject({}),
  result: z.object({
    counts: z.record(z.string(), z.number()),
    recent: z.array(
      z.object({
        resource: z.string(),
        route: z.string(),
        id: z.string(),
        label: z.string().nullable(),
        updated_at: instant,
        created: z.boolean(),
      }),
    ),
    charts: z.partialRecord(z.enum(["products_by_category", "projects_by_status", "companies_by_kind"]), breakdown),
    // Figures modules add (registerDashboardFigures; the selling figures: sales_this_month, overdue_receivables,
    // orders_to_deliver, open_quotations), each present only for a member who may read what it sums.
    figures: z.record(z.string(), figure),
  }),
  permission: null,
});

export const PLATFORM_COMMANDS = [csvImport, dashboardSummary] as const;
