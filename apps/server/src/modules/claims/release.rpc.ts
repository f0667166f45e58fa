import { COMMANDS, type CommandAnswer } from "@workmetrics/domain/commands";
import { sql } from "drizzle-orm";
import { today } from "../../platform/documents/store.ts";
import { RestError } from "../../platform/rest/rest-error.ts";
import { implement } from "../../platform/rest/rpc/command.ts";
import { releaseOf } from "./prepare.ts";

// claim_release_check {sales_order_id}: whether a release claim of the contract can be drafted today — {stage,
// amount} as document_convert {kind: "release"} would draft it, or {refused} with the message convert would answer
// (409), and `never` when the contract has no project, whose dates alone release retention. The claim page offers
// Release retention by it: enabled, disabled with the reason, or not at all.

export type ReleaseCheck = CommandAnswer<"claim_release_check">;

export const claimReleaseCheckRpc = implement(COMMANDS.claim_release_check, {
  run: async (tx, a, caller): Promise<ReleaseCheck> => {
    const ws = caller.workspaceId as string;
    const res = await tx.execute(sql`select id, number, project_id from sales_order
      where workspace_id = ${ws}::uuid and id = ${a.sales_order_id}`);
    const contract = res.rows[0] as { id: string; number: string | null; project_id: string | null } | undefined;
    if (!contract)
      throw new RestError(404, "PGRST116", `There is no sales order ${a.sales_order_id} in this workspace`);
    try {
      const { stage, amount } = await releaseOf(
        tx,
        ws,
        { id: Number(contract.id), number: String(contract.number ?? ""), project_id: contract.project_id },
        await today(tx),
      );
      return { stage, amount };
    } catch (err) {
      if (err instanceof RestError && err.status === 409) {
        return { refused: err.message, never: contract.project_id == null };
      }
      throw err;
    }
  },
});
