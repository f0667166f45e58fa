import { sql } from "drizzle-orm";
import { bigint, check, date, index, numeric, pgTable, timestamp, uuid } from "drizzle-orm/pg-core";
import { sameWorkspace, tenantColumns, tenantKeys } from "./columns.ts";
import { journalEntry } from "./ledger-schema.ts";
import { authUser, workspace } from "./platform-schema.ts";

// Issue 12 "GST F5": a return filed for a period (normally a quarter): the boxes as they stood when it was filed (the
// documents may change later; the return does not), who filed it and when, and the settlement entry it posted
// (Dr 2200 GST Output / Cr 1300 GST Input / the net to 2210 GST Payable, dated the period's end; none for a zero
// return). Written only by the gst_f5_file command, which refuses a period overlapping an earlier return.

const money = (name: string) => numeric(name, { precision: 16, scale: 2 }).notNull();

export const gstReturn = pgTable(
  "gst_return",
  {
    ...tenantColumns,
    periodFrom: date("period_from").notNull(),
    periodTo: date("period_to").notNull(),
    box1: money("box1"),
    box2: money("box2"),
    box3: money("box3"),
    box4: money("box4"),
    box5: money("box5"),
    box6: money("box6"),
    box7: money("box7"),
    box8: money("box8"),
    entryId: bigint("entry_id", { mode: "number" }),
    filedBy: uuid("filed_by").references(() => authUser.id),
    filedAt: timestamp("filed_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    ...tenantKeys("gst_return", t, workspace),
    index("gst_return_period_idx").on(t.workspaceId, t.periodFrom, t.periodTo),
    sameWorkspace("gst_return_entry_fk", [t.workspaceId, t.entryId], journalEntry),
    check("gst_return_period", sql`${t.periodFrom} <= ${t.periodTo}`),
  ],
).enableRLS();
