import { randomUUID } from "node:crypto";
import { COMMANDS } from "@workmetrics/domain/commands";
import type { MarketplaceMessageView, MarketplaceThreadView } from "@workmetrics/domain/commands/marketplace";
import { sql } from "drizzle-orm";
import type { Tx } from "../../platform/db/database.ts";
import type { Caller } from "../../platform/rest/access.ts";
import { implement } from "../../platform/rest/rpc/command.ts";
import { queueUnreadNotice } from "./notice.ts";
import { announce, fail, partyName, wsOf } from "./parties.ts";

// Issue 23: chat between a buyer and a seller, about a listing or an order. A thread lives in the seller's
// workspace and a message in its sender's; both are read by the two parties only (row-level security and the
// engine's rule), and every new message is announced in both workspaces so realtime brings it to the members of
// each who may read it (postgres_changes on marketplace_message).

const THREAD = (ws: string, user: string | null) => sql`t.id, t.subject,
  case when t.seller_workspace_id = ${ws}::uuid then 'seller' else 'buyer' end as side,
  case when t.seller_workspace_id = ${ws}::uuid then t.buyer_name else t.seller_name end as other_name,
  t.marketplace_product_id, t.marketplace_sales_order_id, t.last_message_at, t.last_message,
  (select count(*)::int from marketplace_message m where m.seller_workspace_id = t.workspace_id and m.thread_id = t.id
    and m.sender_workspace_id <> ${ws}::uuid and m.created_at > coalesce((select r.read_at from marketplace_thread_read r
      where r.workspace_id = ${ws}::uuid and r.thread_id = t.id and r.user_id = ${user}::uuid), '-infinity')) as unread
  from marketplace_thread t`;

async function threadView(tx: Tx, caller: Caller, id: number): Promise<MarketplaceThreadView> {
  const ws = wsOf(caller);
  const res = await tx.execute(sql`select ${THREAD(ws, caller.userId)}
    where t.id = ${id} and ${ws}::uuid in (t.buyer_workspace_id, t.seller_workspace_id)`);
  const row = res.rows[0] as MarketplaceThreadView | undefined;
  if (!row) throw fail(404, `There is no marketplace chat ${id} of yours`, "thread_id");
  return row;
}

type Thread = { id: number; seller: string; buyer: string };

// The thread a message goes to: named, or the one about a listing or an order (opened by the first message).
async function threadFor(
  tx: Tx,
  caller: Caller,
  args: { thread_id?: number; marketplace_product_id?: number; marketplace_sales_order_id?: number },
): Promise<Thread> {
  const ws = wsOf(caller);
  if (args.thread_id) {
    const r = (
      await tx.execute(sql`select id, seller_workspace_id::text as seller, buyer_workspace_id::text as buyer
        from marketplace_thread where id = ${args.thread_id} and ${ws}::uuid in (buyer_workspace_id, seller_workspace_id)`)
    ).rows[0] as Thread | undefined;
    if (!r) throw fail(404, `There is no marketplace chat ${args.thread_id} of yours`, "thread_id");
    return { ...r, id: Number(r.id) };
  }
  let seller: string;
  let buyer: string;
  let subject: string;
  let sellerName: string;
  let buyerName: string;
  if (args.marketplace_product_id) {
    const p = (
      await tx.execute(sql`select p.workspace_id::text as ws, p.title, a.display_name from marketplace_product p
        join marketplace_account a on a.workspace_id = p.workspace_id and a.id = p.account_id
        where p.id = ${args.marketplace_product_id} and p.published and a.published`)
    ).rows[0] as { ws: string; title: string; display_name: string } | undefined;
    if (!p) throw fail(404, "This listing is not on the marketplace", "marketplace_product_id");
    if (p.ws === ws) throw fail(422, "This is your own listing", "marketplace_product_id");
    seller = p.ws;
    buyer = ws;
    subject = p.title;
    sellerName = p.display_name;
    buyerName = (await partyName(tx, ws)).name;
  } else {
    const o = (
      await tx.execute(sql`select seller_workspace_id::text as seller, buyer_workspace_id::text as buyer, number,
          seller_name, buyer_name from marketplace_sales_order
        where id = ${args.marketplace_sales_order_id} and ${ws}::uuid in (buyer_workspace_id, seller_workspace_id)`)
    ).rows[0] as { seller: string; buyer: string; number: string; seller_name: string; buyer_name: string } | undefined;
    if (!o) throw fail(404, "There is no such marketplace order of yours", "marketplace_sales_order_id");
    seller = o.seller;
    buyer = o.buyer;
    subject = `Order ${o.number}`;
    sellerName = o.seller_name;
    buyerName = o.buyer_name;
  }
  const about = args.marketplace_product_id
    ? sql`buyer_workspace_id = ${buyer}::uuid and marketplace_product_id = ${args.marketplace_product_id}`
    : sql`marketplace_sales_order_id = ${args.marketplace_sales_order_id}`;
  const found = (
    await tx.execute(sql`select id from marketplace_thread where workspace_id = ${seller}::uuid and ${about}`)
  ).rows[0] as { id: number } | undefined;
  if (found) return { id: Number(found.id), seller, buyer };
  const made = await tx.execute(sql`insert into marketplace_thread (workspace_id, seller_workspace_id,
      buyer_workspace_id, seller_name, buyer_name, marketplace_product_id, marketplace_sales_order_id, subject)
    values (${seller}::uuid, ${seller}::uuid, ${buyer}::uuid, ${sellerName}, ${buyerName},
      ${args.marketplace_product_id ?? null}, ${args.marketplace_sales_order_id ?? null}, ${subject})
    on conflict do nothing returning id`);
  const id = (made.rows[0] as { id: number } | undefined)?.id;
  if (id) return { id: Number(id), seller, buyer };
  // Opened at the same moment by the other side.
  const again = (
    await tx.execute(sql`select id from marketplace_thread where workspace_id = ${seller}::uuid and ${about}`)
  ).rows[0] as { id: number };
  return { id: Number(again.id), seller, buyer };
}

async function markRead(tx: Tx, caller: Caller, threadId: number): Promise<void> {
  await tx.execute(sql`insert into marketplace_thread_read (workspace_id, thread_id, user_id, read_at)
    values (${wsOf(caller)}::uuid, ${threadId}, ${caller.userId}::uuid, now())
    on conflict (workspace_id, thread_id, user_id) do update set read_at = now()`);
}

const MESSAGE = (ws: string) => sql`m.id, m.thread_id, m.sender_workspace_id::text, m.sender_name, m.body,
  m.attachment_url, m.attachment_name, m.attachment_size, m.created_at, m.sender_workspace_id = ${ws}::uuid as mine
  from marketplace_message m`;

// A chat's file: kept in the sender's workspace storage under a key of its own (the "marketplace-chat" folder, no
// bucket), so /storage never serves it; the two parties read it through marketplace_attachment.
export const ATTACHMENT_FOLDER = "marketplace-chat";
const MAX_ATTACHMENT_BYTES = 5 * 1024 * 1024;

function decodeAttachment(data: string): { mime: string; bytes: Buffer } {
  const m = /^data:([\w.+-]+\/[\w.+-]+);base64,(.*)$/s.exec(data);
  if (!m) throw fail(422, "Send the file as a base64 data URL", "attachment.data");
  const bytes = Buffer.from(m[2], "base64");
  if (bytes.length === 0) throw fail(422, "The file is empty", "attachment.data");
  if (bytes.length > MAX_ATTACHMENT_BYTES) throw fail(422, "The file is larger than 5 MB", "attachment.data");
  return { mime: m[1].toLowerCase(), bytes };
}

export const marketplaceMessageSend = implement(COMMANDS.marketplace_message_send, {
  run: async (tx, args, caller, deps) => {
    const ws = wsOf(caller);
    const file = args.attachment ? { name: args.attachment.name, ...decodeAttachment(args.attachment.data) } : null;
    if (file && !deps.disk) throw fail(503, "This server keeps no files: send the message without one");
    const t = await threadFor(tx, caller, args);
    const me = (
      await tx.execute(sql`select name from "user" where workspace_id = ${ws}::uuid and id = ${caller.userId}::uuid`)
    ).rows[0] as { name: string | null } | undefined;
    const party = await partyName(tx, ws);
    const senderName = me?.name ? `${me.name} (${party.name})` : party.name;
    // The bytes are written before the row commits: a refusal after this leaves an unreferenced file behind, which
    // costs disk, never correctness (as a delivery's proof).
    let key: string | null = null;
    if (file && deps.disk) {
      key = deps.disk.key(ws, ATTACHMENT_FOLDER, randomUUID());
      await deps.disk.put(key, file.bytes);
    }
    const res = await tx.execute(sql`insert into marketplace_message (workspace_id, thread_id, seller_workspace_id,
        buyer_workspace_id, sender_workspace_id, sender_user_id, sender_name, body, attachment_url, attachment_name,
        attachment_mime, attachment_size, attachment_key)
      values (${ws}::uuid, ${t.id}, ${t.seller}::uuid, ${t.buyer}::uuid, ${ws}::uuid, ${caller.userId}::uuid,
        ${senderName}, ${args.body}, ${args.attachment_url ?? null}, ${file?.name ?? null}, ${file?.mime ?? null},
        ${file?.bytes.length ?? null}, ${key})
      returning id`);
    const id = Number((res.rows[0] as { id: number }).id);
    await tx.execute(sql`update marketplace_thread set last_message_at = now(), last_message = ${args.body.slice(0, 200)},
        updated_at = now() where workspace_id = ${t.seller}::uuid and id = ${t.id}`);
    await markRead(tx, caller, t.id);
    const other = ws === t.seller ? t.buyer : t.seller;
    await announce(tx, caller, other, "marketplace_message", id, "create", null, { thread_id: t.id });
    await queueUnreadNotice(tx, caller, deps, t, other);
    const row = (await tx.execute(sql`select ${MESSAGE(ws)} where m.workspace_id = ${ws}::uuid and m.id = ${id}`))
      .rows[0] as MarketplaceMessageView;
    return row;
  },
});

export const marketplaceThreads = implement(COMMANDS.marketplace_threads, {
  run: async (tx, _args, caller) => {
    const ws = wsOf(caller);
    const res = await tx.execute(sql`select ${THREAD(ws, caller.userId)}
      where ${ws}::uuid in (t.buyer_workspace_id, t.seller_workspace_id)
      order by t.last_message_at desc, t.id desc limit 200`);
    const threads = res.rows as MarketplaceThreadView[];
    return { threads, unread: threads.reduce((n, t) => n + Number(t.unread), 0) };
  },
});

export const marketplaceThreadMessages = implement(COMMANDS.marketplace_thread_messages, {
  run: async (tx, args, caller) => {
    const ws = wsOf(caller);
    await threadView(tx, caller, args.thread_id);
    const t = (
      await tx.execute(sql`select seller_workspace_id::text as seller from marketplace_thread where id = ${args.thread_id}
        and ${ws}::uuid in (buyer_workspace_id, seller_workspace_id)`)
    ).rows[0] as { seller: string };
    const res = await tx.execute(sql`select * from (select ${MESSAGE(ws)}
        where m.seller_workspace_id = ${t.seller}::uuid and m.thread_id = ${args.thread_id}
        order by m.created_at desc, m.id desc limit 200) x order by created_at, id`);
    await markRead(tx, caller, args.thread_id);
    return { thread: await threadView(tx, caller, args.thread_id), messages: res.rows as MarketplaceMessageView[] };
  },
});

export const marketplaceAttachment = implement(COMMANDS.marketplace_attachment, {
  run: async (tx, args, caller, deps) => {
    const ws = wsOf(caller);
    const m = (
      await tx.execute(sql`select attachment_name as name, attachment_mime as mime, attachment_key as key
        from marketplace_message where id = ${args.message_id} and ${ws}::uuid in (buyer_workspace_id, seller_workspace_id)`)
    ).rows[0] as { name: string | null; mime: string | null; key: string | null } | undefined;
    if (!m) throw fail(404, `There is no marketplace message ${args.message_id} of yours`, "message_id");
    if (!m.key || !m.name) throw fail(404, "This message has no file", "message_id");
    const bytes = deps.disk ? await deps.disk.get(m.key) : null;
    if (!bytes) throw fail(404, "The file's contents are missing from storage", "message_id");
    return {
      name: m.name,
      mime: m.mime ?? "application/octet-stream",
      size: bytes.length,
      data: bytes.toString("base64"),
    };
  },
});
