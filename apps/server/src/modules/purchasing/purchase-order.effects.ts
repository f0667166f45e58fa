import type { Effect } from "../../platform/documents/registry.ts";
import { updateRow } from "../../platform/documents/store.ts";

// Issue 11: approving a purchase order records who approved it and when, on the order (the audit row has it too).
const approve: Effect = async (tx, caller, spec, doc) => {
  await updateRow(tx, spec.header, caller.workspaceId as string, Number(doc.header.id), {
    approved_by: caller.userId,
    approved_at: new Date().toISOString(),
  });
};

export const PURCHASE_ORDER_EFFECTS = { approve };
