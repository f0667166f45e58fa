import { z } from "zod";
import { decimal, defineCommand, instant } from "./define.ts";
import { dayArg } from "./inputs.ts";

// The reports (modules/reports on the server): one command runs any registered report as the caller, and the GST
// F5 return is filed once per period.

const cell = z.union([z.string(), z.number(), z.null()]);
const drill = z.union([
  z.object({ report: z.string(), params: z.record(z.string(), z.string()) }),
  z.object({ document: z.object({ type: z.string(), id: z.number(), number: z.string().nullish() }) }),
]);

// {name, …params} → {columns, rows, totals} (DESIGN §2.3.1); the report's own parameters are checked by it.
export const report = defineCommand({
  name: "report",
  args: z.looseObject({ name: z.string().min(1).max(64) }),
  result: z.object({
    columns: z.array(
      z.object({ key: z.string(), label: z.string(), kind: z.enum(["text", "money", "integer", "date"]) }),
    ),
    rows: z.array(z.record(z.string(), cell)),
    totals: z.record(z.string(), z.union([z.string(), z.number()])),
    key: z.string().optional(),
    drill: z.array(drill.nullable()).optional(),
  }),
  permission: null,
});

const isoDate = dayArg();

// A period with both ends given (a GST quarter), running forwards.
export const closedPeriod = z
  .object({ from: isoDate, to: isoDate })
  .refine((p) => p.from <= p.to, { message: "The period must start on or before it ends" });

export const gstF5File = defineCommand({
  name: "gst_f5_file",
  args: closedPeriod,
  result: z.object({
    id: z.number(),
    period_from: z.string(),
    period_to: z.string(),
    box1: decimal,
    box2: decimal,
    box3: decimal,
    box4: decimal,
    box5: decimal,
    box6: decimal,
    box7: decimal,
    box8: decimal,
    entry_id: z.number().nullable(), // the settlement entry, when there is tax to move
    entry_number: z.string().nullable(),
    filed_by: z.string(),
    filed_at: instant,
  }),
  permission: "journal_entry.create",
  does: "file GST returns",
  feature: "financial_reports",
});

export const REPORTS_COMMANDS = [report, gstF5File] as const;
