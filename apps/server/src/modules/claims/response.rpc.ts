import { COMMANDS } from "@workmetrics/domain/commands";
import type { DocumentRow } from "@workmetrics/domain/commands/documents";
import { dec, money } from "@workmetrics/domain/documents/decimal";
import { invalid } from "../../platform/documents/refusals.ts";
import { documentSpec } from "../../platform/documents/registry.ts";
import { readDocument, today, updateRow } from "../../platform/documents/store.ts";
import { applyTransition, lockDocument } from "../../platform/documents/transition.ts";
import { implement } from "../../platform/rest/rpc/command.ts";

// claim_response {id, certified_amount, withheld_reasons?, response_date?} (SOP Act s11): the customer's payment
// response to a claim — the amount certified and, when it is less than the claim, what is withheld and why (the Act
// requires the reasons). One transaction: the claim's `certify` action (its status and audit row), then the response
// written on the header; answers the claim. The claim stays owed in full: what is withheld is disputed, not forgiven
// (a credit note settles it when the parties agree).

export const claimResponseRpc = implement(COMMANDS.claim_response, {
  run: async (tx, a, caller) => {
    const spec = documentSpec("progressive_claim");
    const ws = caller.workspaceId as string;
    const doc = await lockDocument(tx, caller, spec, a.id);
    if (!/^\d+(\.\d{1,2})?$/.test(a.certified_amount.trim())) {
      throw invalid("The certified amount must be an amount in cents, like 12500.00", "certified_amount");
    }
    const certified = dec(a.certified_amount.trim());
    const total = dec(String(doc.header.total));
    if (certified.greaterThan(total)) {
      throw invalid(
        `The certified amount cannot be more than the claim's total of ${money(total)}`,
        "certified_amount",
      );
    }
    const withheld = total.minus(certified);
    const reasons = a.withheld_reasons?.trim() || null;
    if (withheld.greaterThan(0) && !reasons) {
      throw invalid(`Give the reasons for withholding ${money(withheld)} (SOP Act s11)`, "withheld_reasons");
    }
    const on = a.response_date ?? (await today(tx));
    if (on < String(doc.header.doc_date)) {
      throw invalid(`The response cannot be dated before the claim's date, ${doc.header.doc_date}`, "response_date");
    }
    const response = {
      certified_amount: money(certified),
      withheld_amount: money(withheld),
      withheld_reasons: reasons,
      response_date: on,
    };
    await applyTransition(tx, caller, spec, doc, "certify", null, { response });
    await updateRow(tx, spec.header, ws, a.id, response);
    return readDocument(tx, caller, spec, a.id) as Promise<DocumentRow>;
  },
});
