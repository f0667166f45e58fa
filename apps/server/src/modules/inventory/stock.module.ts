import { registerRpc } from "../../platform/rest/rpc/registry.ts";
import { reorderDraftsRpc } from "./reorder-drafts.rpc.ts";
import { stockCardRpc } from "./stock-card.rpc.ts";
import { stockLevelsRpc } from "./stock-levels.rpc.ts";
import { purchaseShortRpc } from "./stock-short.rpc.ts";

// Issue 11 "Stock": stock levels, the stock card, purchase orders drafted from the reorder levels and for a sales
// order's shortfall (the stock_valuation report is the reports module's).
export function registerStock(): void {
  registerRpc(stockLevelsRpc, stockCardRpc, reorderDraftsRpc, purchaseShortRpc);
}
