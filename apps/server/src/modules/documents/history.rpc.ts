import { sql } from "drizzle-orm";
import { z } from "zod";
import { requireDocumentAccess, requireOwnDocument } from "../../platform/documents/access.ts";
import { notFound } from "../../platform/documents/refusals.ts";
import { documentSpec } from "../../platform/documents/registry.ts";
import { lockHeader } from "../../platform/documents/store.ts";
import { defineRpc } from "../../platform/rest/rpc/command.ts";

// document_history {type, id} (issue 10 §3, the document page's audit panel): the document's audit rows, oldest
// first — who, when, action, from → to, reason and what changed. Whoever may read the type reads its history; a
// document of another workspace is not found (the workspace is named in the statement and RLS holds it too).

export type HistoryRow = {
  id: number;
  action: string;
  from_status: string | null;
  to_status: string | null;
  reason: string | null;
  at: string;
  user_id: string | null;
  user_name: string | null;
  changes: unknown;
};

export const documentHistory = defineRpc({
  name: "document_history",
  args: z.object({ type: z.string().min(1).max(64), id: z.number().int().positive() }),
  permission: null,
  run: async (tx, args, caller) => {
    const spec = documentSpec(args.type);
    requireDocumentAccess(caller, spec, "read", `read ${spec.machine.plural.toLowerCase()}`);
    const ws = caller.workspaceId as string;
    const doc = await lockHeader(tx, spec, ws, args.id, false);
    if (!doc) throw notFound(spec, args.id);
    requireOwnDocument(caller, spec, doc, "read the history of");
    const res = await tx.execute(sql`
      select e.id, e.action, e.from_status, e.to_status, e.reason, e.at, e.user_id, u.name as user_name, e.changes
      from document_event e
      left join "user" u on u.workspace_id = e.workspace_id and u.id = e.user_id
      where e.workspace_id = ${ws}::uuid and e.doc_type = ${spec.machine.type} and e.doc_id = ${args.id}
      order by e.at, e.id`);
    return (res.rows as Array<Omit<HistoryRow, "at"> & { at: unknown }>).map((r) => ({
      ...r,
      id: Number(r.id),
      at: r.at instanceof Date ? r.at.toISOString() : new Date(String(r.at)).toISOString(),
    }));
  },
});
