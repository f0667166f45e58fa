import { decide, decideResource } from "@workmetrics/domain";
import { COMMANDS } from "@workmetrics/domain/commands";
import {
  type ChannelAccountView,
  CONVERSATION_READ,
  type ConversationRow,
  type MessageView,
  type OpenDocument,
} from "@workmetrics/domain/commands/inbox";
import { findResource } from "@workmetrics/domain/resources";
import { type SQL, sql } from "drizzle-orm";
import type { Tx } from "../../platform/db/database.ts";
import { type Caller, memberOf, refusalError } from "../../platform/rest/access.ts";
import { RestError } from "../../platform/rest/rest-error.ts";
import { implement } from "../../platform/rest/rpc/command.ts";
import { printDocument } from "../documents/pdf/document.ts";
import { inLocale, printingLocale } from "../documents/pdf/format.ts";
import { SEND_JOB, type SendPayload } from "./send.ts";
import { announce, CHANNEL_NAMES } from "./store.ts";

// Issue 24 "The inbox": the conversation list with its filters, a thread with the contact, company and their open
// documents beside it, replies (queued in the reply's transaction and sent by the inbox.send job), notes, assignment
// with collision handling, status and labels, and links to documents. Every command runs in the request's one
// transaction under row-level security, and reads only what the caller may: managers every conversation,
// salespeople their own and the unassigned ones (CONVERSATION_READ's scope "own").

const WINDOW_MS = 24 * 60 * 60_000;

const fail = (status: number, code: string, message: string, field?: string) =>
  new RestError(status, code, message, field ? [{ field, message }] : null);

// "all", or "own" (assigned to the caller or to nobody); refused otherwise.
function readScope(caller: Caller): "all" | "own" {
  const d = decide(memberOf(caller), CONVERSATION_READ);
  if (!d.allowed) throw refusalError(d);
  return d.scope;
}

const visible = (caller: Caller, scope: "all" | "own"): SQL =>
  scope === "all" ? sql`true` : sql`(c.assignee_id = ${caller.userId}::uuid or c.assignee_id is null)`;

const ROW = sql`c.id, a.channel_id, c.channel_account_id, c.title, c.external_thread_id, c.contact_id,
  k.name as contact_name, c.company_id, co.name as company_name, c.status, c.assignee_id::text as assignee_id,
  u.name as assignee_name, c.last_message_at, c.last_inbound_at, c.last_message_preview, c.last_message_id, c.unread,
  c.labels
  from conversation c
  join channel_account a on a.workspace_id = c.workspace_id and a.id = c.channel_account_id
  left join contact k on k.workspace_id = c.workspace_id and k.id = c.contact_id
  left join company co on co.workspace_id = c.workspace_id and co.id = c.company_id
  left join "user" u on u.workspace_id = c.workspace_id and u.id = c.assignee_id`;

const normal = (r: ConversationRow): ConversationRow => ({
  ...r,
  channel_id: Number(r.channel_id),
  unread: Number(r.unread),
  labels: Array.isArray(r.labels) ? r.labels : [],
});

async function rowOf(tx: Tx, ws: string, id: number): Promise<ConversationRow | null> {
  const res = await tx.execute(sql`select ${ROW} where c.workspace_id = ${ws}::uuid and c.id = ${id}`);
  const row = res.rows[0] as ConversationRow | undefined;
  return row ? normal(row) : null;
}

// The conversation the caller may act on (locked for a change), or 404 / 403 naming who has it.
async function load(tx: Tx, caller: Caller, id: number, lock: boolean): Promise<ConversationRow> {
  const ws = caller.workspaceId as string;
  const scope = readScope(caller);
  if (lock)
    await tx.execute(sql`select 1 from conversation where workspace_id = ${ws}::uuid and id = ${id} for update`);
  const row = await rowOf(tx, ws, id);
  if (!row) throw fail(404, "PGRST116", `There is no conversation ${id} in this workspace`);
  if (scope === "own" && row.assignee_id && row.assignee_id !== caller.userId) {
    throw fail(403, "42501", `${row.assignee_name ?? "Someone else"} has this conversation`);
  }
  return row;
}

export const conversationList = implement(COMMANDS.conversation_list, {
  run: async (tx, args, caller) => {
    const ws = caller.workspaceId as string;
    const scope = readScope(caller);
    const where: SQL[] = [sql`c.workspace_id = ${ws}::uuid`, visible(caller, scope)];
    if (args.channel_id) where.push(sql`a.channel_id = ${args.channel_id}`);
    if (args.status) where.push(sql`c.status = ${args.status}`);
    if (args.mine) where.push(sql`c.assignee_id = ${caller.userId}::uuid`);
    if (args.unassigned) where.push(sql`c.assignee_id is null`);
    if (args.company_id) where.push(sql`c.company_id = ${args.company_id}`);
    if (args.search) {
      const like = `%${args.search.replace(/[\\%_]/g, (m) => `\\${m}`)}%`;
      where.push(sql`(c.title ilike ${like} or co.name ilike ${like} or c.external_thread_id ilike ${like})`);
    }
    if (args.before) {
      const [at, id] = args.before.split("|");
      if (!at || !/^\d+$/.test(id ?? "") || Number.isNaN(Date.parse(at))) {
        throw fail(400, "PGRST100", "before is the last row's next value", "before");
      }
      where.push(sql`(c.last_message_at, c.id) < (${at}::timestamptz, ${Number(id)})`);
    }
    const res = await tx.execute(sql`select ${ROW} where ${sql.join(where, sql` and `)}
      order by c.last_message_at desc nulls last, c.id desc limit ${args.limit + 1}`);
    const rows = (res.rows as ConversationRow[]).map(normal);
    const more = rows.length > args.limit;
    const page = rows.slice(0, args.limit);
    const last = page[page.length - 1];
    const at = last?.last_message_at as unknown;
    return {
      rows: page,
      next:
        more && last && at
          ? `${at instanceof Date ? at.toISOString() : new Date(String(at)).toISOString()}|${last.id}`
          : null,
    };
  },
});

const MESSAGE = sql`m.id, m.direction, m.kind, m.body, m.status, m.external_id, m.reply_to_external_id,
  (select r.body from conversation_message r where r.workspace_id = m.workspace_id
    and r.external_id = m.reply_to_external_id) as reply_to_body,
  m.reaction, m.location, m.template_name, m.document_type, m.document_id, m.error,
  (select u.name from "user" u where u.workspace_id = m.workspace_id and u.id = m.author_id) as author_name,
  (select json_build_object('id', f.id, 'file_name', f.file_name, 'mime_type', f.mime_type, 'size', f.size)
    from conversation_attachment f where f.workspace_id = m.workspace_id and f.message_id = m.id
    order by f.id limit 1) as attachment,
  m.created_at, m.sent_at, m.delivered_at, m.read_at
  from conversation_message m`;

async function messageOf(tx: Tx, ws: string, id: number): Promise<MessageView> {
  const res = await tx.execute(sql`select ${MESSAGE} where m.workspace_id = ${ws}::uuid and m.id = ${id}`);
  return res.rows[0] as MessageView;
}

const withinWindow = (c: ConversationRow, now: Date): boolean =>
  Boolean(c.last_inbound_at) && now.getTime() - new Date(String(c.last_inbound_at)).getTime() < WINDOW_MS;

// The company's open quotations, orders and unpaid invoices, and whatever is linked to the conversation — each
// type only as far as the caller reads it (a salesperson's own quotations).
async function documentsBeside(tx: Tx, caller: Caller, conversationId: number, companyId: number | null) {
  const ws = caller.workspaceId as string;
  const kinds: Array<{ type: string; open: string[]; money: SQL }> = [
    { type: "quotation", open: ["draft", "sent"], money: sql`null::text` },
    {
      type: "sales_order",
      open: ["draft", "to_deliver_and_bill", "to_deliver", "to_bill", "on_hold"],
      money: sql`null::text`,
    },
    { type: "invoice", open: ["unpaid", "partly_paid", "overdue"], money: sql`d.outstanding::text` },
  ];
  const out: OpenDocument[] = [];
  for (const k of kinds) {
    const def = findResource(k.type);
    if (!def) continue;
    const d = decideResource(memberOf(caller), def, "read");
    if (!d.allowed) continue;
    const mine = d.scope === "own" ? sql`and d.created_by = ${caller.userId}::uuid` : sql``;
    const t = sql.identifier(k.type);
    const res = await tx.execute(sql`select d.id, d.number, d.status, d.total::text as total, ${k.money} as balance,
        d.doc_date::text as date,
        exists (select 1 from conversation_link l where l.workspace_id = d.workspace_id and l.conversation_id = ${conversationId}
          and l.document_type = ${k.type} and l.document_id = d.id) as linked
      from ${t} d
      where d.workspace_id = ${ws}::uuid ${mine}
        and ((d.company_id = ${companyId ?? 0} and d.status in (${sql.join(
          k.open.map((s) => sql`${s}`),
          sql`, `,
        )}))
          or exists (select 1 from conversation_link l where l.workspace_id = d.workspace_id
            and l.conversation_id = ${conversationId} and l.document_type = ${k.type} and l.document_id = d.id))
      order by d.doc_date desc, d.id desc limit 20`);
    for (const r of res.rows as Array<Omit<OpenDocument, "type">>) out.push({ ...r, type: k.type });
  }
  return out;
}

export const conversationThread = implement(COMMANDS.conversation_thread, {
  run: async (tx, args, caller, deps) => {
    const ws = caller.workspaceId as string;
    const scope = readScope(caller);
    let conv = await load(tx, caller, args.conversation_id, false);
    if (conv.unread > 0) {
      await tx.execute(sql`update conversation set unread = 0 where workspace_id = ${ws}::uuid and id = ${conv.id}`);
      await announce(tx, ws, "conversation", Number(conv.id), "update", conv.status, caller.userId);
      conv = { ...conv, unread: 0 };
    }
    const msgs = await tx.execute(sql`select * from (select ${MESSAGE}
        where m.workspace_id = ${ws}::uuid and m.conversation_id = ${conv.id} order by m.id desc limit 300) t
      order by id`);
    const contact = conv.contact_id
      ? ((
          await tx.execute(sql`select id, name, phone, email from contact
            where workspace_id = ${ws}::uuid and id = ${conv.contact_id}`)
        ).rows[0] as { id: number; name: string; phone: string | null; email: string | null } | undefined)
      : undefined;
    const now = deps.clock();
    const open = withinWindow(conv, now);
    const account = (
      await tx.execute(sql`select status, display_name, access_token is not null as has_token from channel_account
        where workspace_id = ${ws}::uuid and id = ${conv.channel_account_id}`)
    ).rows[0] as { status: ChannelAccountView["status"]; display_name: string | null; has_token: boolean };
    return {
      conversation: conv,
      messages: msgs.rows as MessageView[],
      window_open: open,
      window_closes_at: conv.last_inbound_at
        ? new Date(new Date(String(conv.last_inbound_at)).getTime() + WINDOW_MS).toISOString()
        : null,
      contact: contact ?? null,
      company: conv.company_id ? { id: conv.company_id, name: conv.company_name ?? "" } : null,
      documents: await documentsBeside(tx, caller, Number(conv.id), conv.company_id ? Number(conv.company_id) : null),
      can_reply: decide(memberOf(caller), {
        audience: "member",
        permission: "conversation.reply",
        does: "reply",
        feature: "communication_channels",
      }).allowed,
      can_assign_others: scope === "all" && can(caller, "conversation.assign"),
      channel_status: account.has_token ? account.status : "disconnected",
      channel_name: account.display_name,
    };
  },
});

const can = (caller: Caller, permission: string) =>
  decide(memberOf(caller), { audience: "member", permission, does: permission }).allowed;

const PRINTABLE = new Set(["quotation", "sales_order", "invoice", "delivery_order", "receipt", "credit_note"]);

async function afterOutgoing(tx: Tx, caller: Caller, conv: ConversationRow, messageId: number, preview: string) {
  const ws = caller.workspaceId as string;
  // A salesperson answering an unassigned conversation takes it.
  const take = !conv.assignee_id && readScope(caller) === "own";
  await tx.execute(sql`update conversation set last_message_at = now(), last_message_preview = ${preview.slice(0, 200)},
      last_message_id = ${messageId}, updated_at = now(),
      assignee_id = case when ${take} then ${caller.userId}::uuid else assignee_id end
    where workspace_id = ${ws}::uuid and id = ${conv.id}`);
  await announce(tx, ws, "conversation", Number(conv.id), "update", conv.status, caller.userId);
  await announce(tx, ws, "conversation_message", messageId, "create", null, caller.userId);
}

export const conversationReply = implement(COMMANDS.conversation_reply, {
  run: async (tx, args, caller, deps) => {
    const ws = caller.workspaceId as string;
    const conv = await load(tx, caller, args.conversation_id, true);
    const account = (
      await tx.execute(sql`select status, access_token is not null as has_token from channel_account
        where workspace_id = ${ws}::uuid and id = ${conv.channel_account_id}`)
    ).rows[0] as { status: string; has_token: boolean };
    if (account.status === "disconnected" || !account.has_token) {
      throw fail(422, "channel_disconnected", "This channel account is disconnected: reconnect it on Channel accounts");
    }
    if (account.status === "needs_reauth") {
      throw fail(
        422,
        "channel_needs_reauth",
        conv.channel_id === 4
          ? "Microsoft refused this mailbox's sign-in: reconnect Outlook on Channel accounts"
          : "Meta refused this account's token: reconnect it with a new token on Channel accounts",
      );
    }
    if (args.seen_message_id && conv.last_message_id && Number(conv.last_message_id) > args.seen_message_id) {
      const newer = await tx.execute(sql`select 1 from conversation_message where workspace_id = ${ws}::uuid
        and conversation_id = ${conv.id} and id > ${args.seen_message_id} and direction = 'in' limit 1`);
      if (newer.rows.length) {
        throw fail(409, "stale_view", "A newer message arrived in this conversation: read it before sending");
      }
    }
    const now = deps.clock();
    const meta = conv.channel_id !== 4;
    if (meta && !args.template && !withinWindow(conv, now)) {
      throw fail(
        422,
        "outside_window",
        `The customer last wrote more than 24 hours ago: ${CHANNEL_NAMES[conv.channel_id]} allows only approved templates now`,
        "template",
      );
    }
    if (args.template && conv.channel_id !== 1) {
      throw fail(422, "validation_failed", "Templates are WhatsApp's: write a message instead", "template");
    }
    let kind = args.template ? "template" : "text";
    let body = args.template
      ? `[${args.template.name}] ${args.template.params.join(" · ")}`.trim()
      : (args.body ?? null);
    let pdf: { bytes: Buffer; name: string } | null = null;
    if (args.document) {
      if (conv.channel_id !== 1 && conv.channel_id !== 4) {
        throw fail(422, "validation_failed", "Documents are sent as PDFs on WhatsApp and Outlook only", "document");
      }
      if (!PRINTABLE.has(args.document.type)) {
        throw fail(422, "validation_failed", `A ${args.document.type.replace(/_/g, " ")} cannot be sent`, "document");
      }
      const printed = await inLocale(await printingLocale(tx, ws), () =>
        printDocument(tx, caller, args.document?.type as string, args.document?.id as number, deps.disk),
      );
      pdf = { bytes: printed.pdf, name: printed.filename };
      kind = "document";
      body = args.body ?? `${printed.title} ${printed.number ?? ""}`.trim();
    }
    const res = await tx.execute(sql`insert into conversation_message
        (workspace_id, conversation_id, direction, kind, body, status, template_name, document_type, document_id, author_id)
      values (${ws}::uuid, ${conv.id}, 'out', ${kind}, ${body}, 'queued', ${args.template?.name ?? null},
        ${args.document?.type ?? null}, ${args.document?.id ?? null}, ${caller.userId}::uuid)
      returning id`);
    const id = Number((res.rows[0] as { id: number }).id);
    if (pdf) {
      await tx.execute(sql`insert into conversation_attachment (workspace_id, message_id, file_name, mime_type, size, data)
        values (${ws}::uuid, ${id}, ${pdf.name}, 'application/pdf', ${pdf.bytes.length}, ${pdf.bytes})`);
      await tx.execute(sql`insert into conversation_link (workspace_id, conversation_id, document_type, document_id, linked_by)
        values (${ws}::uuid, ${conv.id}, ${args.document?.type}, ${args.document?.id}, ${caller.userId}::uuid)
        on conflict do nothing`);
    }
    await afterOutgoing(tx, caller, conv, id, body ?? "");
    const payload: SendPayload = { workspace_id: ws, message_id: id, template: args.template ?? null };
    await deps.jobs.enqueue(tx, { name: SEND_JOB, payload, workspaceId: ws, maxAttempts: 5 });
    return messageOf(tx, ws, id);
  },
});

export const conversationNote = implement(COMMANDS.conversation_note, {
  run: async (tx, args, caller) => {
    const ws = caller.workspaceId as string;
    const conv = await load(tx, caller, args.conversation_id, true);
    const res = await tx.execute(sql`insert into conversation_message
        (workspace_id, conversation_id, direction, kind, body, status, author_id)
      values (${ws}::uuid, ${conv.id}, 'note', 'text', ${args.body}, 'note', ${caller.userId}::uuid) returning id`);
    const id = Number((res.rows[0] as { id: number }).id);
    await announce(tx, ws, "conversation_message", id, "create", "note", caller.userId);
    return messageOf(tx, ws, id);
  },
});

export const conversationAssign = implement(COMMANDS.conversation_assign, {
  run: async (tx, args, caller) => {
    const ws = caller.workspaceId as string;
    const scope = readScope(caller);
    // Locked first, then read: two people taking it at once queue here, and the second sees the first's name.
    await tx.execute(sql`select 1 from conversation where workspace_id = ${ws}::uuid and id = ${args.conversation_id}
      for update`);
    const conv = await rowOf(tx, ws, args.conversation_id);
    if (!conv) throw fail(404, "PGRST116", `There is no conversation ${args.conversation_id} in this workspace`);
    const current = conv.assignee_id;
    const taking = args.user_id === caller.userId;
    const expected = args.expected_assignee_id !== undefined ? args.expected_assignee_id : taking ? null : undefined;
    if (current && current !== caller.userId && (expected === undefined ? scope === "own" : expected !== current)) {
      throw fail(409, "assigned", `${conv.assignee_name ?? "Someone else"} has already taken this conversation`);
    }
    if (expected !== undefined && expected !== null && !current) {
      throw fail(409, "assigned", "This conversation was unassigned meanwhile: look again before handing it over");
    }
    if (scope === "own" && args.user_id !== null && !taking) {
      throw fail(
        403,
        "42501",
        "You may take a conversation yourself; handing it to someone else is a manager's",
        "user_id",
      );
    }
    if (scope === "own" && args.user_id === null && current !== caller.userId) {
      throw fail(403, "42501", "You may hand back only a conversation you have", "user_id");
    }
    if (args.user_id) {
      const member = await tx.execute(sql`select active from "user" where workspace_id = ${ws}::uuid
        and id = ${args.user_id}::uuid`);
      const m = member.rows[0] as { active: boolean } | undefined;
      if (!m?.active) throw fail(422, "validation_failed", "Choose an active member of this workspace", "user_id");
    }
    if ((args.user_id ?? null) !== (current ?? null)) {
      await tx.execute(sql`update conversation set assignee_id = ${args.user_id}::uuid, updated_at = now()
        where workspace_id = ${ws}::uuid and id = ${conv.id}`);
      await announce(tx, ws, "conversation", Number(conv.id), "update", conv.status, caller.userId);
    }
    return (await rowOf(tx, ws, Number(conv.id))) as ConversationRow;
  },
});

export const conversationSetStatus = implement(COMMANDS.conversation_set_status, {
  run: async (tx, args, caller) => {
    const ws = caller.workspaceId as string;
    const conv = await load(tx, caller, args.conversation_id, true);
    const labels = args.labels ? [...new Set(args.labels)] : null;
    await tx.execute(sql`update conversation set status = ${args.status}, updated_at = now(),
        labels = coalesce(${labels ? `{${labels.map((l) => `"${l.replace(/["\\]/g, "")}"`).join(",")}}` : null}::text[], labels)
      where workspace_id = ${ws}::uuid and id = ${conv.id}`);
    await announce(tx, ws, "conversation", Number(conv.id), "update", args.status, caller.userId);
    return (await rowOf(tx, ws, Number(conv.id))) as ConversationRow;
  },
});

export const conversationLink = implement(COMMANDS.conversation_link, {
  run: async (tx, args, caller) => {
    const ws = caller.workspaceId as string;
    const conv = await load(tx, caller, args.conversation_id, false);
    const def = findResource(args.document_type);
    const d = def ? decideResource(memberOf(caller), def, "read") : null;
    if (!d?.allowed)
      throw refusalError(
        d && !d.allowed
          ? d
          : {
              reason: "permission",
              message: "You cannot read that document",
              permission: `${args.document_type}.read`,
            },
      );
    const mine = d.scope === "own" ? sql`and created_by = ${caller.userId}::uuid` : sql``;
    const doc = await tx.execute(sql`select 1 from ${sql.identifier(args.document_type)}
      where workspace_id = ${ws}::uuid and id = ${args.document_id} ${mine}`);
    if (!doc.rows.length) {
      throw fail(
        404,
        "PGRST116",
        `There is no ${args.document_type.replace(/_/g, " ")} ${args.document_id} you can read`,
        "document_id",
      );
    }
    await tx.execute(sql`insert into conversation_link (workspace_id, conversation_id, document_type, document_id, linked_by)
      values (${ws}::uuid, ${conv.id}, ${args.document_type}, ${args.document_id}, ${caller.userId}::uuid)
      on conflict do nothing`);
    await announce(tx, ws, "conversation", Number(conv.id), "update", conv.status, caller.userId);
    return { conversation_id: conv.id, document_type: args.document_type, document_id: args.document_id };
  },
});

export const documentConversations = implement(COMMANDS.document_conversations, {
  run: async (tx, args, caller) => {
    const ws = caller.workspaceId as string;
    const scope = readScope(caller);
    const res = await tx.execute(sql`select ${ROW}
      where c.workspace_id = ${ws}::uuid and ${visible(caller, scope)}
        and exists (select 1 from conversation_link l where l.workspace_id = c.workspace_id and l.conversation_id = c.id
          and l.document_type = ${args.document_type} and l.document_id = ${args.document_id})
      order by c.last_message_at desc nulls last, c.id desc limit 50`);
    return (res.rows as ConversationRow[]).map(normal);
  },
});

// The quantity written just before a product's name or SKU in the customer's words ("20 pallets of A4 paper").
export function mentionedQty(textLower: string, at: number): number {
  const before = textLower.slice(Math.max(0, at - 30), at);
  const m = before.match(/(\d{1,5})\s*(?:x\s*)?(?:[a-z]+\s+){0,2}(?:of\s+)?$/);
  const n = m ? Number(m[1]) : 1;
  return n > 0 ? n : 1;
}

export const conversationQuotation = implement(COMMANDS.conversation_quotation, {
  run: async (tx, args, caller, deps) => {
    const ws = caller.workspaceId as string;
    const conv = await load(tx, caller, args.conversation_id, true);
    if (!conv.company_id) {
      throw fail(422, "validation_failed", "This conversation has no company yet: link the contact to a company first");
    }
    const texts = await tx.execute(sql`select body from conversation_message where workspace_id = ${ws}::uuid
      and conversation_id = ${conv.id} and direction = 'in' and kind = 'text' and body is not null
      order by id desc limit 20`);
    const words = (texts.rows as Array<{ body: string }>)
      .map((r) => r.body)
      .reverse()
      .join("\n")
      .toLowerCase();
    const lines: Array<{ product_id: number; qty: string }> = [];
    const matched: string[] = [];
    if (words.trim()) {
      // Products whose SKU or name (of 3+ letters) the customer wrote; the longest names first.
      const found = await tx.execute(sql`select id, sku, name from product
        where workspace_id = ${ws}::uuid and active
          and ((length(sku) >= 3 and position(lower(sku) in ${words}) > 0)
            or (length(name) >= 3 and position(lower(name) in ${words}) > 0))
        order by length(name) desc limit 10`);
      for (const p of found.rows as Array<{ id: number; sku: string; name: string }>) {
        const at = words.indexOf(p.name.toLowerCase());
        const pos = at >= 0 ? at : words.indexOf(p.sku.toLowerCase());
        lines.push({ product_id: Number(p.id), qty: String(mentionedQty(words, pos)) });
        matched.push(p.name);
      }
    }
    const { runRpc } = await import("../../platform/rest/rpc/registry.ts");
    const doc = (await runRpc(
      tx,
      "document_save",
      {
        type: "quotation",
        header: {
          company_id: conv.company_id,
          ...(conv.contact_id ? { contact_id: conv.contact_id } : {}),
          notes: `From the ${CHANNEL_NAMES[conv.channel_id]} conversation with ${conv.title}`,
        },
        lines,
      },
      caller,
      deps,
    )) as { id: number };
    await tx.execute(sql`insert into conversation_link (workspace_id, conversation_id, document_type, document_id, linked_by)
      values (${ws}::uuid, ${conv.id}, 'quotation', ${doc.id}, ${caller.userId}::uuid) on conflict do nothing`);
    await announce(tx, ws, "conversation", Number(conv.id), "update", conv.status, caller.userId);
    return { id: doc.id, lines: lines.length, matched };
  },
});
