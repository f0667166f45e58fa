import { COMMANDS, type CommandAnswer } from "@workmetrics/domain/commands";
import { sql } from "drizzle-orm";
import { requireDocumentAccess, requireOwnDocument } from "../../platform/documents/access.ts";
import { notFound } from "../../platform/documents/refusals.ts";
import { documentSpec } from "../../platform/documents/registry.ts";
import { lockHeader } from "../../platform/documents/store.ts";
import { implement } from "../../platform/rest/rpc/command.ts";

// document_history {type, id} (issue 10 §3, the document page's audit panel): the document's audit rows, oldest
// first — who, when, action, from → to, reason and what changed. Whoever may read the type reads its history; a
// document of another workspace is not found (the workspace is named in the statement and RLS holds it too).

export type HistoryRow = CommandAnswer<"document_history">[number];

// Issue 20 §1: an e-mail's state from its job — the audit row "email" names its job (changes.job); a mail about
// the document with no audit row of its own (a public order's notice to staff) is listed as a row of its own.

const MAIL_STATE = sql`case when j.id is null then null else json_build_object(
    'status', case j.status when 'done' then 'sent' when 'dead' then 'failed'
      else case when j.last_error is null then 'queued' else 'retrying' end end,
    'error', j.last_error, 'attempts', j.attempts) end`;

export const documentHistory = implement(COMMANDS.document_history, {
  run: async (tx, args, caller) => {
    const spec = documentSpec(args.type);
    requireDocumentAccess(caller, spec, "read", `read ${spec.machine.plural.toLowerCase()}`);
    const ws = caller.workspaceId as string;
    const doc = await lockHeader(tx, spec, ws, args.id, false);
    if (!doc) throw notFound(spec, args.id);
    requireOwnDocument(caller, spec, doc, "read the history of");
    const res = await tx.execute(sql`
      select e.id, e.action, e.from_status, e.to_status, e.reason, e.at, e.user_id, u.name as user_name, e.changes,
        ${MAIL_STATE} as mail
      from document_event e
      left join "user" u on u.workspace_id = e.workspace_id and u.id = e.user_id
      left join job j on j.workspace_id = e.workspace_id and e.action = 'email'
        and j.id = case when jsonb_typeof(e.changes) = 'object' then (e.changes->>'job')::bigint end
      where e.workspace_id = ${ws}::uuid and e.doc_type = ${spec.machine.type} and e.doc_id = ${args.id}
      union all
      select -j.id, 'email', null, null, 'E-mail to ' || coalesce(j.payload->>'to', ''), j.created_at, null, null,
        jsonb_build_object('subject', j.payload->>'subject', 'job', j.id), ${MAIL_STATE}
      from job j
      where j.workspace_id = ${ws}::uuid and j.doc_type = ${spec.machine.type} and j.doc_id = ${args.id}
        and j.name = 'mail' and not exists (select 1 from document_event e
          where e.workspace_id = j.workspace_id and e.doc_type = j.doc_type and e.doc_id = j.doc_id
            and e.action = 'email' and jsonb_typeof(e.changes) = 'object' and e.changes->>'job' = j.id::text)
      order by 6, 1`);
    return (res.rows as Array<Omit<HistoryRow, "at"> & { at: unknown }>).map((r) => ({
      ...r,
      id: Number(r.id),
      at: r.at instanceof Date ? r.at.toISOString() : new Date(String(r.at)).toISOString(),
    }));
  },
});
