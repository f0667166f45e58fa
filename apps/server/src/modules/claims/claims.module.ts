import type { DocumentType } from "@workmetrics/domain/documents/machine";
import { PROGRESSIVE_CLAIM, PROGRESSIVE_CLAIM_MADE_FROM } from "@workmetrics/domain/documents/types/progressive-claim";
import type { DocSnapshot } from "@workmetrics/domain/documents/types/snapshot";
import { progressiveClaimLineResource, progressiveClaimResource } from "@workmetrics/domain/resources/claims";
import { sql } from "drizzle-orm";
import { registerDocumentType } from "../../platform/documents/registry.ts";
import { registerRpc } from "../../platform/rest/rpc/registry.ts";
import { registerPrinter } from "../documents/pdf/print-types.ts";
import { registerReceivable } from "../documents/receivable.ts";
import { paymentKind, registerPaymentKind } from "../documents/record-payment.ts";
import { registerOverdueTable } from "../reports/overdue.ts";
import { registerReport } from "../reports/registry.ts";
import { printClaim } from "./claim.pdf.ts";
import { PROGRESSIVE_CLAIM_EFFECTS } from "./effects.ts";
import { prepareClaimConvert, prepareClaimSave, priceClaim } from "./prepare.ts";
import { claimReleaseCheckRpc } from "./release.rpc.ts";
import { claimResponseRpc } from "./response.rpc.ts";
import { retentionScheduleReport } from "./retention-schedule.report.ts";

// Issue 12: progressive claims with retention, release claims and the retention schedule — the third user of the
// documents engine. A claim is made from a submitted sales order (document_convert), priced by its own figures
// (claimFigures through the engine's `price` hook), owed like an invoice (receipts pay it; Overdue past its SOP
// payment date; in the AR ageing and statements), certified by the customer's payment response (claim_response), printed with its cumulative table.
// Registered after the selling documents, whose receipts it extends.
export function registerClaims(): void {
  registerDocumentType({
    machine: PROGRESSIVE_CLAIM as unknown as DocumentType<string, DocSnapshot>,
    header: progressiveClaimResource,
    lines: progressiveClaimLineResource,
    madeFrom: PROGRESSIVE_CLAIM_MADE_FROM,
    effects: PROGRESSIVE_CLAIM_EFFECTS,
    prepareConvert: prepareClaimConvert,
    prepareSave: prepareClaimSave,
    price: priceClaim,
    notCopied: ["certified_amount", "withheld_amount", "withheld_reasons", "response_date"],
  });
  const receipt = paymentKind("receipt");
  registerPaymentKind({ ...receipt, pays: [...receipt.pays, "progressive_claim"] });
  // In the AR ageing and the customer's statement like an invoice: what it makes payable now (its retention is billed
  // by a release claim), as 1100 Trade debtors holds it.
  registerReceivable("progressive_claim");
  registerOverdueTable(
    "progressive_claim",
    sql`d.status in ('claimed', 'certified', 'partly_paid') and d.due_date < current_date and d.outstanding > 0`,
  );
  registerRpc(claimResponseRpc);
  registerRpc(claimReleaseCheckRpc);
  registerReport(retentionScheduleReport);
  registerPrinter("progressive_claim", printClaim);
}
