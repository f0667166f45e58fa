import { registerAdmin } from "./admin/admin.module.ts";
import { registerBooks } from "./books/books.module.ts";
import { registerChallenge } from "./challenge/challenge.module.ts";
import { registerClaims } from "./claims/claims.module.ts";
import { registerCommission } from "./commission/commission.module.ts";
import { registerCrm } from "./crm/crm.module.ts";
import { registerDocuments } from "./documents/documents.module.ts";
import { registerReturns } from "./documents/returns.module.ts";
import { registerDriver } from "./driver/driver.module.ts";
import { registerExpense } from "./expense/expense.module.ts";
import { registerHr } from "./hr/hr.module.ts";
import { registerInbox } from "./inbox/inbox.module.ts";
import { registerInventory } from "./inventory/inventory.module.ts";
import { registerStock } from "./inventory/stock.module.ts";
import { registerMarketplace } from "./marketplace/marketplace.module.ts";
import { registerOrders } from "./orders/orders.module.ts";
import { registerPartners } from "./partners/partners.module.ts";
import { registerPos } from "./pos/pos.module.ts";
import { registerPayables } from "./purchasing/payables.module.ts";
import { registerPurchasing } from "./purchasing/purchasing.module.ts";
import { registerAnalyticsReports } from "./reports/analytics/analytics.module.ts";
import { registerFinancialReports } from "./reports/financial/financial.module.ts";
import { registerReports } from "./reports/reports.module.ts";
import { registerRoleApps } from "./roleapps/roleapps.module.ts";
import { registerScan } from "./scan/scan.module.ts";
import { registerWarehouse } from "./warehouse/warehouse.module.ts";

let registered = false;

// Every module adds its hooks and commands to the generic engine once, before the server answers.
export function registerModules(): void {
  if (registered) return;
  registered = true;
  registerCrm();
  registerAdmin();
  registerDocuments();
  registerDriver();
  registerReports();
  registerOrders();
  registerReturns();
  registerPurchasing();
  registerPayables();
  registerInventory();
  registerStock();
  registerWarehouse(); // issue 22: after the selling and order documents its pick lists are made from
  registerPartners();
  registerBooks();
  registerFinancialReports();
  registerAnalyticsReports();
  registerClaims();
  registerChallenge();
  registerHr();
  registerRoleApps(); // issue 22: the role apps' offline conflicts
  registerInbox();
  registerCommission();
  registerMarketplace(); // last: it adds to the document types the modules above registered
  registerPos(); // issue 22: the point of sale
  registerExpense(); // issue 24: expense claims
  registerScan(); // issue 24: OCR of supplier invoices and receipts
}
