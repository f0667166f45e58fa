import { registerRpc } from "../../platform/rest/rpc/registry.ts";
import { registerReport } from "../reports/registry.ts";
import { commissionStatementReport } from "./commission.report.ts";
import {
  commissionApprove,
  commissionPay,
  commissionRuleDelete,
  commissionRuleSave,
  commissionRules,
  commissionStatements,
} from "./commission.rpc.ts";

// Issue 12: commission rules, statements, approval and payment (Premium, feature "commission").
export function registerCommission(): void {
  registerReport(commissionStatementReport);
  registerRpc(
    commissionRules,
    commissionRuleSave,
    commissionRuleDelete,
    commissionStatements,
    commissionApprove,
    commissionPay,
  );
}
