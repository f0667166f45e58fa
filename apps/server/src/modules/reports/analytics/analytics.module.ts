import { registerReport } from "../registry.ts";
import { purchasesBySupplier, supplierStatement } from "./purchasing.report.ts";
import { salesByMonth, salesBySalesperson } from "./sales-analytics.report.ts";
import { stockMovement } from "./stock-movement.report.ts";

// Issue 12: sales by salesperson and by month, purchases by supplier, stock movement (analytics, Pro), and the
// supplier statement (accounting, every tier, as the customer statement).
export function registerAnalyticsReports(): void {
  registerReport(salesBySalesperson, salesByMonth, purchasesBySupplier, stockMovement, supplierStatement);
}
