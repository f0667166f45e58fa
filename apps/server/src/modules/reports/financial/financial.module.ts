import { registerRpc } from "../../../platform/rest/rpc/registry.ts";
import { registerReport } from "../registry.ts";
import { balanceSheet } from "./balance-sheet.report.ts";
import { generalLedger } from "./general-ledger.report.ts";
import { gstF5 } from "./gst-f5.report.ts";
import { gstF5File } from "./gst-file.rpc.ts";
import { journalDrill } from "./journal-drill.report.ts";
import { profitAndLoss } from "./profit-and-loss.report.ts";
import { trialBalance } from "./trial-balance.report.ts";

// Issue 12: trial balance, profit and loss, balance sheet, general ledger, GST F5 and the drill-down behind them;
// filing a GST F5 return.
export function registerFinancialReports(): void {
  registerReport(trialBalance, profitAndLoss, balanceSheet, generalLedger, gstF5, journalDrill);
  registerRpc(gstF5File);
}
