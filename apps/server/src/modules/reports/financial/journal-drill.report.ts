import { money, sum } from "@workmetrics/domain/documents/decimal";
import { REPORT_ACCESS } from "@workmetrics/domain/reports";
import { z } from "zod";
import { today } from "../../../platform/documents/store.ts";
import { RestError } from "../../../platform/rest/rest-error.ts";
import { defineReport } from "../registry.ts";
import { findAccount, LINE_COLUMNS, ledgerLines, MAX_LINES } from "./general-ledger.report.ts";
import { F5_BOXES, gstDrill } from "./gst-f5.report.ts";
import { BACKWARDS, isoDate, runsForward, sourceDrill } from "./ledger-sql.ts";

// Issue 12 "drill-down from any figure to the journal lines and documents behind it": `report {name:
// "journal_drill", account, from, to}` answers the journal lines of one account in the period (a P&L or trial balance
// figure), `{box, from, to}` the documents behind one GST F5 box, each row leading to its document.

const params = z
  .object({
    account: z.string().trim().min(1).max(32).optional(),
    box: z.enum(F5_BOXES).optional(),
    from: isoDate.optional(),
    to: isoDate.optional(),
    limit: z.coerce.number().int().min(1).max(MAX_LINES).default(1000),
    offset: z.coerce.number().int().min(0).default(0),
  })
  .refine((p) => (p.account === undefined) !== (p.box === undefined), {
    message: "Name either an account (its code) or a GST F5 box",
  })
  .refine(runsForward, BACKWARDS);

export const journalDrill = defineReport({
  name: "journal_drill",
  params,
  need: REPORT_ACCESS.journal_drill,
  async run(tx, p, caller) {
    const ws = caller.workspaceId;
    const to = p.to ?? (await today(tx));
    if (p.box !== undefined) {
      if (!p.from)
        throw new RestError(422, "validation_failed", "A GST F5 box is drilled into over a period: give from and to");
      return gstDrill(tx, ws, p.box, p.from, to);
    }
    const account = await findAccount(tx, ws, p.account as string);
    const { lines, total } = await ledgerLines(tx, ws, account, { from: p.from, to, limit: p.limit, offset: p.offset });
    const rows = lines.map(({ balance: _, entry_id, source_id, ...l }) => ({
      row_kind: "line",
      account_code: account.code,
      ...l,
      source_id: source_id == null ? null : Number(source_id),
    }));
    return {
      columns: [
        ...LINE_COLUMNS.slice(0, 3),
        { key: "account_code", label: "Account", kind: "text" },
        ...LINE_COLUMNS.slice(3),
      ],
      rows,
      totals: {
        account: account.code,
        account_name: account.name,
        debit: money(sum(lines.map((l) => l.debit))),
        credit: money(sum(lines.map((l) => l.credit))),
        lines: total,
        shown: lines.length,
      },
      key: "number",
      drill: lines.map(sourceDrill),
    };
  },
});
