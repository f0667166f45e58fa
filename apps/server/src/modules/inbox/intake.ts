import { sql } from "drizzle-orm";
import type { InboxConfig } from "../../config.ts";
import type { Db, Tx } from "../../platform/db/database.ts";
import { downloadMedia, GraphError } from "./graph.ts";
import { unseal } from "./secrets.ts";
import { type Account, announce, applyStatus, conversationFor } from "./store.ts";

// Issue 24: the job behind /webhooks/meta. The route only verifies the signature and queues the raw body; this
// reads every entry and every change of it (not only the first): WhatsApp's messages (text, media copied into our
// database at once — Meta's URLs expire —, location, replies, reactions) and statuses, Messenger's and Instagram's
// messaging events. Each message is stored in a transaction of its own under its unique external id, so a
// redelivered webhook (or this job's retry) finds it there and stores nothing twice.

export const META_WEBHOOK_JOB = "inbox.meta_webhook";

type Log = { warn(obj: unknown, msg?: string): void; info(obj: unknown, msg?: string): void };

type WaMessage = {
  id: string;
  from: string;
  timestamp?: string;
  type: string;
  text?: { body?: string };
  image?: Media;
  document?: Media & { filename?: string };
  audio?: Media;
  video?: Media;
  sticker?: Media;
  location?: { latitude: number; longitude: number; name?: string; address?: string };
  reaction?: { message_id: string; emoji?: string };
  context?: { id?: string; from?: string };
  button?: { text?: string };
  interactive?: { button_reply?: { title?: string }; list_reply?: { title?: string } };
};
type Media = { id: string; mime_type?: string; caption?: string };
type WaStatus = {
  id: string;
  status: string;
  timestamp?: string;
  recipient_id?: string;
  errors?: Array<{ title?: string; message?: string }>;
};
type Change = {
  field?: string;
  value?: {
    metadata?: { phone_number_id?: string };
    contacts?: Array<{ wa_id?: string; profile?: { name?: string } }>;
    messages?: WaMessage[];
    statuses?: WaStatus[];
  };
};
type Messaging = {
  sender?: { id?: string };
  recipient?: { id?: string };
  timestamp?: number;
  message?: { mid?: string; text?: string; is_echo?: boolean; reply_to?: { mid?: string } };
  delivery?: { mids?: string[]; watermark?: number };
  read?: { watermark?: number };
};
export type MetaPayload = {
  object?: string;
  entry?: Array<{ id?: string; time?: number; changes?: Change[]; messaging?: Messaging[] }>;
};

const when = (ts: string | number | undefined): Date => {
  const n = Number(ts);
  return Number.isFinite(n) && n > 0 ? new Date(n < 1e12 ? n * 1000 : n) : new Date();
};

async function accountFor(db: Db, channelId: number, externalId: string | undefined): Promise<Account | null> {
  if (!externalId) return null;
  const res = await db.execute(sql`select id, workspace_id, channel_id, external_id, access_token, status
    from channel_account where channel_id = ${channelId} and external_id = ${externalId} and status <> 'disconnected'`);
  const row = res.rows[0] as Account | undefined;
  return row ? { ...row, id: Number(row.id) } : null;
}

export type IntakeResult = { stored: number; duplicates: number; statuses: number; skipped: number };

export async function processMetaWebhook(
  db: Db,
  cfg: InboxConfig,
  payload: MetaPayload,
  log: Log,
): Promise<IntakeResult> {
  const result: IntakeResult = { stored: 0, duplicates: 0, statuses: 0, skipped: 0 };
  for (const entry of payload.entry ?? []) {
    for (const change of entry.changes ?? []) {
      if (change.field !== "messages" || !change.value) continue;
      const v = change.value;
      const account = await accountFor(db, 1, v.metadata?.phone_number_id);
      if (!account) {
        result.skipped += (v.messages?.length ?? 0) + (v.statuses?.length ?? 0);
        log.warn({ phone_number_id: v.metadata?.phone_number_id }, "a WhatsApp webhook for no connected account");
        continue;
      }
      const names = new Map((v.contacts ?? []).map((c) => [c.wa_id ?? "", c.profile?.name ?? null]));
      for (const m of v.messages ?? []) {
        const stored = await storeWhatsApp(db, cfg, account, m, names.get(m.from) ?? null);
        if (stored) result.stored++;
        else result.duplicates++;
      }
      for (const s of v.statuses ?? []) {
        if (!["sent", "delivered", "read", "failed"].includes(s.status)) continue;
        const error = s.errors?.map((e) => e.message ?? e.title).join("; ") || null;
        await db.transaction((tx) =>
          applyStatus(tx, account.workspace_id, s.id, s.status as "sent", when(s.timestamp), error),
        );
        result.statuses++;
      }
    }
    // Messenger (object "page") and Instagram (object "instagram"): entry.id is the page or Instagram account.
    for (const ev of entry.messaging ?? []) {
      const channelId = payload.object === "instagram" ? 3 : 2;
      const account = await accountFor(db, channelId, entry.id);
      if (!account) {
        result.skipped++;
        continue;
      }
      if (ev.message?.mid && !ev.message.is_echo && ev.sender?.id) {
        const stored = await storeInbound(db, account, ev.sender.id, null, {
          externalId: ev.message.mid,
          kind: ev.message.text ? "text" : "unsupported",
          body: ev.message.text ?? "(a message this inbox cannot show)",
          at: when(ev.timestamp),
          replyTo: ev.message.reply_to?.mid ?? null,
        });
        if (stored) result.stored++;
        else result.duplicates++;
      }
      for (const mid of ev.delivery?.mids ?? []) {
        await db.transaction((tx) => applyStatus(tx, account.workspace_id, mid, "delivered", when(ev.timestamp), null));
        result.statuses++;
      }
    }
  }
  return result;
}

export type Inbound = {
  externalId: string;
  kind: string;
  body: string | null;
  at: Date;
  replyTo?: string | null;
  reaction?: string | null;
  location?: unknown;
  error?: string | null;
  file?: { bytes: Buffer; mimeType: string; fileName: string } | null;
  files?: Array<{ bytes: Buffer; mimeType: string; fileName: string }>; // an e-mail's attachments
  mail?: { email: string; title: string }; // an e-mail's sender and subject (the conversation's title)
};

export async function alreadyStored(db: Db, ws: string, externalId: string): Promise<boolean> {
  const res = await db.execute(sql`select 1 from conversation_message
    where workspace_id = ${ws}::uuid and external_id = ${externalId}`);
  return res.rows.length > 0;
}

const EXT: Record<string, string> = {
  "image/jpeg": "jpg",
  "image/png": "png",
  "image/webp": "webp",
  "application/pdf": "pdf",
  "audio/ogg": "ogg",
  "audio/mpeg": "mp3",
  "video/mp4": "mp4",
};

async function storeWhatsApp(
  db: Db,
  cfg: InboxConfig,
  account: Account,
  m: WaMessage,
  profile: string | null,
): Promise<boolean> {
  if (await alreadyStored(db, account.workspace_id, m.id)) return false;
  const at = when(m.timestamp);
  const base = { externalId: m.id, at, replyTo: m.context?.id ?? null };
  const media = m.image ?? m.document ?? m.audio ?? m.video ?? m.sticker;
  if (media && ["image", "document", "audio", "video", "sticker"].includes(m.type)) {
    let file: Inbound["file"] = null;
    let error: string | null = null;
    try {
      if (!account.access_token) throw new GraphError("The account has no token", 0, null, null);
      const token = unseal(cfg.secretsKey, account.workspace_id, account.id, account.access_token);
      const got = await downloadMedia(cfg.metaGraphUrl, token, media.id);
      const mimeType = media.mime_type?.split(";")[0] ?? got.mimeType;
      const fileName = m.document?.filename ?? `${m.type}-${m.id.slice(-8)}.${EXT[mimeType] ?? "bin"}`;
      file = { bytes: got.bytes, mimeType, fileName };
    } catch (err) {
      // Kept without its file, saying why: a retry later would find Meta's URL expired anyway.
      error = `The ${m.type} could not be copied from WhatsApp: ${(err as Error).message}`;
    }
    return storeInbound(db, account, m.from, profile, {
      ...base,
      kind: m.type,
      body: media.caption ?? m.document?.filename ?? null,
      file,
      error,
    });
  }
  switch (m.type) {
    case "text":
      return storeInbound(db, account, m.from, profile, { ...base, kind: "text", body: m.text?.body ?? "" });
    case "location": {
      const l = m.location;
      const body = l ? [l.name, l.address, `${l.latitude}, ${l.longitude}`].filter(Boolean).join(" · ") : null;
      return storeInbound(db, account, m.from, profile, { ...base, kind: "location", body, location: l ?? null });
    }
    case "reaction":
      return storeInbound(db, account, m.from, profile, {
        ...base,
        kind: "reaction",
        body: m.reaction?.emoji ?? null, // an empty emoji takes the reaction back
        reaction: m.reaction?.emoji ?? "",
        replyTo: m.reaction?.message_id ?? null,
      });
    case "button":
      return storeInbound(db, account, m.from, profile, { ...base, kind: "text", body: m.button?.text ?? "" });
    case "interactive":
      return storeInbound(db, account, m.from, profile, {
        ...base,
        kind: "text",
        body: m.interactive?.button_reply?.title ?? m.interactive?.list_reply?.title ?? "",
      });
    default:
      return storeInbound(db, account, m.from, profile, {
        ...base,
        kind: "unsupported",
        body: `(a ${m.type} message this inbox cannot show)`,
      });
  }
}

const preview = (i: Inbound): string =>
  (i.body ?? (i.file ? `📎 ${i.file.fileName}` : i.kind === "reaction" ? "reacted" : i.kind)).slice(0, 200);

export async function storeInbound(
  db: Db,
  account: Account,
  threadId: string,
  profile: string | null,
  i: Inbound,
): Promise<boolean> {
  const ws = account.workspace_id;
  return db.transaction(async (tx: Tx) => {
    const conv = await conversationFor(tx, account, threadId, profile, i.mail);
    const res = await tx.execute(sql`insert into conversation_message
        (workspace_id, conversation_id, direction, kind, body, external_id, status, reply_to_external_id, reaction,
         location, error, created_at, updated_at)
      values (${ws}::uuid, ${conv.id}, 'in', ${i.kind}, ${i.body}, ${i.externalId}, 'received', ${i.replyTo ?? null},
        ${i.reaction ?? null}, ${i.location ? JSON.stringify(i.location) : null}::jsonb, ${i.error ?? null},
        ${i.at.toISOString()}::timestamptz, now())
      on conflict (workspace_id, external_id) where external_id is not null do nothing
      returning id`);
    const row = res.rows[0] as { id: number } | undefined;
    if (!row) return false; // a redelivery that raced this one
    const id = Number(row.id);
    for (const f of [...(i.file ? [i.file] : []), ...(i.files ?? [])]) {
      await tx.execute(sql`insert into conversation_attachment (workspace_id, message_id, file_name, mime_type, size, data)
        values (${ws}::uuid, ${id}, ${f.fileName}, ${f.mimeType}, ${f.bytes.length}, ${f.bytes})`);
    }
    // A resolved conversation opens again when the customer writes.
    await tx.execute(sql`update conversation set
        last_message_at = greatest(coalesce(last_message_at, ${i.at.toISOString()}::timestamptz), ${i.at.toISOString()}::timestamptz),
        last_inbound_at = greatest(coalesce(last_inbound_at, ${i.at.toISOString()}::timestamptz), ${i.at.toISOString()}::timestamptz),
        last_message_preview = ${preview(i)}, last_message_id = ${id}, unread = unread + 1,
        status = case when status = 'resolved' then 'open' else status end, updated_at = now()
      where workspace_id = ${ws}::uuid and id = ${conv.id}`);
    await announce(tx, ws, "conversation", conv.id, conv.created ? "create" : "update", null);
    await announce(tx, ws, "conversation_message", id, "create", "received");
    return true;
  });
}
