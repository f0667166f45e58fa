import { sql } from "drizzle-orm";
import type { InboxConfig } from "../../config.ts";
import type { Db } from "../../platform/db/database.ts";
import type { JobContext } from "../../platform/jobs/worker.ts";
import { GraphError, sendPageMessage, sendWhatsApp, uploadWhatsAppMedia } from "./graph.ts";
import { sendInstagramMessage } from "./instagram.ts";
import { sendOutlookReply } from "./outlook.ts";
import { SealError, unseal } from "./secrets.ts";
import { announce, recordSent } from "./store.ts";

// Issue 24: the job a reply queues (conversation_reply, in the reply's transaction: the outbox). It sends the
// message through Meta's Graph API — text, an approved template with its parameters, or a document's PDF uploaded
// as WhatsApp media — and records the wamid Meta gives (applying a status that came first). Meta refusing it
// (4xx) fails the message with Meta's words, and a refused token marks the account as needing re-authorising;
// Meta unreachable (or 5xx) is retried by the queue, the message staying "queued" until its last attempt.

export const SEND_JOB = "inbox.send";

export type SendPayload = {
  workspace_id: string;
  message_id: number;
  template?: { name: string; language: string; params: string[] } | null;
};

type Row = {
  id: number;
  conversation_id: number;
  kind: string;
  body: string | null;
  status: string;
  external_thread_id: string;
  account_id: number;
  channel_id: number;
  external_id: string;
  access_token: string | null;
  token_expires_at: string | Date | null;
  account_status: string;
};

async function failMessage(db: Db, ws: string, id: number, error: string): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.execute(sql`update conversation_message set status = 'failed', error = ${error}, updated_at = now()
      where workspace_id = ${ws}::uuid and id = ${id}`);
    await announce(tx, ws, "conversation_message", id, "update", "failed");
  });
}

export const sendHandler =
  (cfg: InboxConfig) =>
  async (payload: SendPayload, ctx: JobContext): Promise<void> => {
    const { db, job } = ctx;
    const ws = payload.workspace_id;
    const res = await db.execute(sql`select m.id, m.conversation_id, m.kind, m.body, m.status,
        c.external_thread_id, a.id as account_id, a.channel_id, a.external_id, a.access_token, a.token_expires_at,
        a.status as account_status
      from conversation_message m
      join conversation c on c.workspace_id = m.workspace_id and c.id = m.conversation_id
      join channel_account a on a.workspace_id = c.workspace_id and a.id = c.channel_account_id
      where m.workspace_id = ${ws}::uuid and m.id = ${payload.message_id}`);
    const row = res.rows[0] as Row | undefined;
    if (row?.status !== "queued") return; // sent already (a retry after the commit), or gone
    if (!row.access_token || row.account_status === "disconnected") {
      return failMessage(db, ws, row.id, "The channel account is disconnected: reconnect it and send again");
    }
    let token: string;
    try {
      token = unseal(cfg.secretsKey, ws, Number(row.account_id), row.access_token);
    } catch (err) {
      if (err instanceof SealError) return failMessage(db, ws, row.id, err.message);
      throw err;
    }
    try {
      let sent: { id: string };
      if (row.channel_id === 1) {
        const to = row.external_thread_id;
        if (payload.template) {
          const t = payload.template;
          sent = await sendWhatsApp(cfg.metaGraphUrl, token, row.external_id, to, {
            type: "template",
            template: {
              name: t.name,
              language: { code: t.language },
              components: t.params.length
                ? [{ type: "body", parameters: t.params.map((text) => ({ type: "text", text })) }]
                : [],
            },
          });
        } else if (row.kind === "document") {
          const file = await db.execute(sql`select file_name, mime_type, data from conversation_attachment
            where workspace_id = ${ws}::uuid and message_id = ${row.id} order by id limit 1`);
          const f = file.rows[0] as { file_name: string; mime_type: string; data: Uint8Array } | undefined;
          if (!f) return failMessage(db, ws, row.id, "The document's PDF is missing");
          const mediaId = await uploadWhatsAppMedia(
            cfg.metaGraphUrl,
            token,
            row.external_id,
            f.data,
            f.mime_type,
            f.file_name,
          );
          sent = await sendWhatsApp(cfg.metaGraphUrl, token, row.external_id, to, {
            type: "document",
            document: { id: mediaId, filename: f.file_name, ...(row.body ? { caption: row.body } : {}) },
          });
        } else {
          sent = await sendWhatsApp(cfg.metaGraphUrl, token, row.external_id, to, {
            type: "text",
            text: { body: row.body ?? "", preview_url: false },
          });
        }
      } else if (row.channel_id === 4) {
        sent = await sendOutlookReply(db, cfg, ws, row); // issue 24: Outlook, through Microsoft Graph
      } else if (row.channel_id === 3 && row.token_expires_at) {
        // Connected through Instagram's business login (instagram.ts): Instagram's own Graph API.
        const to = row.external_thread_id;
        sent = await sendInstagramMessage(cfg, token, row.external_id, to, row.body ?? "");
      } else {
        sent = await sendPageMessage(cfg.metaGraphUrl, token, row.external_id, row.external_thread_id, row.body ?? "");
      }
      await db.transaction((tx) => recordSent(tx, ws, row.id, sent.id, new Date()));
    } catch (err) {
      if (!(err instanceof GraphError)) throw err;
      const final = err.status >= 400 && err.status < 500;
      if (err.tokenInvalid) {
        await db.execute(sql`update channel_account set status = 'needs_reauth', last_error = ${err.message},
            last_error_at = now(), updated_at = now()
          where workspace_id = ${ws}::uuid and id = ${row.account_id}`);
      } else if (!final) {
        await db.execute(sql`update channel_account set last_error = ${err.message}, last_error_at = now(),
            status = case when status = 'connected' then 'failing' else status end, updated_at = now()
          where workspace_id = ${ws}::uuid and id = ${row.account_id}`);
      }
      if (final || job.attempts >= job.max_attempts) return failMessage(db, ws, row.id, err.message);
      throw err; // Meta unreachable: the queue retries with its backoff
    }
  };
