import { z } from "zod";
import { decimal, defineCommand, id } from "./define.ts";
import { documentRow } from "./documents.ts";
import { amountArg, dayArg } from "./inputs.ts";

// Progressive claims (modules/claims on the server; SOP Act).

// The customer's payment response to a claim: the amount certified and, when less, what is withheld and why.
export const claimResponse = defineCommand({
  name: "claim_response",
  args: z.object({
    id,
    certified_amount: amountArg("The certified amount"),
    withheld_reasons: z.string().trim().max(2000).nullish(),
    response_date: dayArg("The response date").nullish(),
  }),
  result: documentRow,
  permission: "progressive_claim.certify",
  does: "record payment responses",
  feature: "projects",
});

// Whether a release claim of the contract can be drafted today: {stage, amount} as document_convert would draft
// it, or {refused} with convert's message (and `never` when the contract has no project).
export const claimReleaseCheck = defineCommand({
  name: "claim_release_check",
  args: z.object({ sales_order_id: id }),
  result: z.union([
    z.object({ stage: z.string(), amount: decimal }),
    z.object({ refused: z.string(), never: z.boolean() }),
  ]),
  permission: "progressive_claim.create",
  does: "create progressive claims",
  feature: "projects",
});

export const CLAIMS_COMMANDS = [claimResponse, claimReleaseCheck] as const;
