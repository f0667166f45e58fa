import { COMMANDS } from "@workmetrics/domain/commands";
import { sql } from "drizzle-orm";
import type { InboxConfig } from "../../config.ts";
import type { JobContext } from "../../platform/jobs/worker.ts";
import { RestError } from "../../platform/rest/rest-error.ts";
import { implement } from "../../platform/rest/rpc/command.ts";
import { printDocument } from "../documents/pdf/document.ts";
import { inLocale, printingLocale } from "../documents/pdf/format.ts";
import { GraphError } from "./graph.ts";
import { uploadToDrive } from "./microsoft.ts";
import { outlookToken } from "./outlook.ts";

// Issue 24 "OneDrive" (Premium): a document's PDF saved into a folder of the OneDrive of the workspace's Outlook
// connection. The command prints the PDF under the caller's own read rule and queues it (the outbox: nothing is
// sent if the command rolls back); the job uploads it — one PUT under 4 MB, an upload session in 320 KiB-multiple
// chunks above — and keeps the link in the document's history (a document_event "onedrive" whose reason is the
// link), where the document's page shows it.

export const ONEDRIVE_JOB = "inbox.onedrive_save";

export type OnedrivePayload = {
  workspace_id: string;
  user_id: string | null;
  account_id: number;
  doc_type: string;
  doc_id: number;
  path: string;
  pdf: string; // base64
};

export const onedriveSave = implement(COMMANDS.onedrive_save, {
  run: async (tx, args, caller, deps) => {
    const ws = caller.workspaceId as string;
    if (!deps.inbox) throw new RestError(503, "not_configured", "OneDrive is not set up on this server");
    const account = (
      await tx.execute(sql`select id from channel_account where workspace_id = ${ws}::uuid and channel_id = 4
        and status in ('connected', 'failing') and access_token is not null order by id limit 1`)
    ).rows[0] as { id: number } | undefined;
    if (!account) {
      throw new RestError(422, "validation_failed", "Connect Outlook on Channel accounts first: OneDrive uses it", [
        { field: "folder", message: "No Microsoft account is connected" },
      ]);
    }
    const printed = await inLocale(await printingLocale(tx, ws), () =>
      printDocument(tx, caller, args.document_type, args.document_id, deps.disk),
    );
    const folder = args.folder.replace(/^\/+|\/+$/g, "");
    const path = `${folder}/${printed.filename}`;
    const payload: OnedrivePayload = {
      workspace_id: ws,
      user_id: caller.userId,
      account_id: Number(account.id),
      doc_type: args.document_type,
      doc_id: args.document_id,
      path,
      pdf: Buffer.from(printed.pdf).toString("base64"),
    };
    await deps.jobs.enqueue(tx, {
      name: ONEDRIVE_JOB,
      payload,
      workspaceId: ws,
      docType: args.document_type,
      docId: args.document_id,
      maxAttempts: 5,
    });
    return { queued: true, path };
  },
});

export const onedriveHandler =
  (cfg: InboxConfig) =>
  async (p: OnedrivePayload, ctx: JobContext): Promise<void> => {
    const { db, job } = ctx;
    const bytes = Buffer.from(p.pdf, "base64");
    const record = (reason: string, changes: unknown) =>
      db.execute(sql`insert into document_event (workspace_id, doc_type, doc_id, action, reason, user_id, changes)
        values (${p.workspace_id}::uuid, ${p.doc_type}, ${p.doc_id}, 'onedrive', ${reason}, ${p.user_id}::uuid,
          ${JSON.stringify(changes)}::jsonb)`);
    try {
      const token = await outlookToken(db, cfg, p.workspace_id, p.account_id);
      const item = await uploadToDrive(cfg.msGraphUrl, token, p.path, bytes, "application/pdf");
      await record(item.webUrl, { path: p.path, web_url: item.webUrl, size: bytes.length, upload: item.via });
    } catch (err) {
      if (!(err instanceof GraphError)) throw err;
      const final = (err.status >= 400 && err.status < 500) || job.attempts >= job.max_attempts;
      if (!final) throw err; // Microsoft unreachable: the queue retries
      await record(`Not saved to OneDrive: ${err.message}`, { path: p.path, error: err.message });
    }
  };
