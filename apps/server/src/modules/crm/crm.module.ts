import { DEFAULT_COMPANY } from "@workmetrics/domain";
import { sql } from "drizzle-orm";
import { registerHooks } from "../../platform/rest/hooks.ts";
import { registerRpc } from "../../platform/rest/rpc/registry.ts";
import { memoInbox, memoMarkRead } from "./memo.rpc.ts";

const t0 = sql.raw("t0");

// Companies, contacts and memos beyond the generic engine.
export function registerCrm(): void {
  registerHooks("memo", { beforeInsert: (row, caller) => ({ ...row, author_id: caller.userId }) });
  registerHooks("company", {
    keep: { where: sql`${t0}.id = ${DEFAULT_COMPANY.id}`, message: "The default company cannot be deleted" },
  });
  registerRpc(memoInbox, memoMarkRead);
}
