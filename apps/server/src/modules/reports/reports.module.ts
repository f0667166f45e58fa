import { registerDashboardFigures } from "../../platform/rest/rpc/dashboard-summary.rpc.ts";
import { registerRpc } from "../../platform/rest/rpc/registry.ts";
import { apAgeing } from "./ap-ageing.report.ts";
import { arAgeing } from "./ar-ageing.report.ts";
import { registerReport } from "./registry.ts";
import { reportRpc } from "./report.rpc.ts";
import { salesByCustomer, salesByProduct } from "./sales.report.ts";
import { sellingFigures } from "./selling-figures.ts";
import { customerStatementReport } from "./statement.ts";
import { stockValuation } from "./stock-valuation.report.ts";
import { workFigures } from "./work-figures.ts";

// DESIGN §2.3.1 `report` and the receivables of issue 10 §2; the dashboard's selling figures (issue 10 §3).
export function registerReports(): void {
  registerReport(arAgeing, customerStatementReport, salesByCustomer, salesByProduct);
  registerReport(stockValuation);
  registerReport(apAgeing); // issue 11: accounts payable
  registerRpc(reportRpc);
  registerDashboardFigures(sellingFigures, workFigures); // issue 21 §1: each role's home shows its work
}
