import { can, effectivePermissions } from "@workmetrics/domain";
import { sql } from "drizzle-orm";
import type { Db, Tx } from "../../platform/db/database.ts";
import { asWorkspace } from "../../platform/documents/as-workspace.ts";
import type { CommandDeps } from "../../platform/jobs/deps.ts";
import { queueMail } from "../../platform/jobs/mail.ts";
import type { Caller } from "../../platform/rest/access.ts";

// Issue 23: an e-mail notice of an unread marketplace message, a while after it arrived — once per thread per
// stretch of unread, not per message. A stretch starts at the first message the receiving workspace has not read
// (no member of it has opened the thread since); its id names the job (the queue's singleton key), so every later
// message of the same stretch finds the job there and adds none. When the job's time comes it mails the receiving
// workspace's members who may read marketplace chat, unless one of them has read the thread since, through the
// outbox (the mail job).

export const UNREAD_NOTICE_JOB = "marketplace_unread_notice";
export const UNREAD_NOTICE_AFTER_MS = 15 * 60_000;

type NoticePayload = { seller_ws: string; thread_id: number; to_ws: string; first_message_id: number };

// In the sender's transaction, after its message is in: the job for the receiving side's stretch of unread.
export async function queueUnreadNotice(
  tx: Tx,
  caller: Caller,
  deps: Pick<CommandDeps, "jobs" | "clock">,
  thread: { id: number; seller: string },
  to: string,
): Promise<void> {
  const readTo = await asWorkspace(tx, to, caller, async () => {
    const r = await tx.execute(sql`select max(read_at) as at from marketplace_thread_read
      where workspace_id = ${to}::uuid and thread_id = ${thread.id}`);
    return (r.rows[0] as { at: string | null }).at;
  });
  const first = (
    await tx.execute(sql`select min(id) as id from marketplace_message
      where seller_workspace_id = ${thread.seller}::uuid and thread_id = ${thread.id}
        and sender_workspace_id <> ${to}::uuid and created_at > coalesce(${readTo}::timestamptz, '-infinity')`)
  ).rows[0] as { id: number | null };
  if (first.id == null) return;
  const payload: NoticePayload = {
    seller_ws: thread.seller,
    thread_id: thread.id,
    to_ws: to,
    first_message_id: Number(first.id),
  };
  await deps.jobs.enqueue(tx, {
    name: UNREAD_NOTICE_JOB,
    payload,
    workspaceId: caller.workspaceId, // the request's own (the job table's row-level security)
    runAt: new Date(deps.clock().getTime() + UNREAD_NOTICE_AFTER_MS),
    singletonKey: `${thread.seller}:${thread.id}:${to}:${first.id}`,
    maxAttempts: 3,
  });
}

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c);

// The job: mail the receiving workspace's chat readers, unless the stretch was read meanwhile. Runs as the server.
export function unreadNoticeHandler(db: Db, deps: Pick<CommandDeps, "jobs" | "links">) {
  return async (p: NoticePayload): Promise<void> => {
    const first = (
      await db.execute(sql`select created_at from marketplace_message
        where seller_workspace_id = ${p.seller_ws}::uuid and thread_id = ${p.thread_id} and id = ${p.first_message_id}`)
    ).rows[0] as { created_at: string } | undefined;
    if (!first) return;
    const read = await db.execute(sql`select 1 from marketplace_thread_read where workspace_id = ${p.to_ws}::uuid
      and thread_id = ${p.thread_id} and read_at >= ${first.created_at}::timestamptz limit 1`);
    if (read.rows.length) return;
    const thread = (
      await db.execute(sql`select subject, case when seller_workspace_id = ${p.to_ws}::uuid then buyer_name
          else seller_name end as other from marketplace_thread
        where workspace_id = ${p.seller_ws}::uuid and id = ${p.thread_id}`)
    ).rows[0] as { subject: string; other: string } | undefined;
    if (!thread) return;
    const unread = (
      await db.execute(sql`select sender_name, body from marketplace_message
        where seller_workspace_id = ${p.seller_ws}::uuid and thread_id = ${p.thread_id} and id >= ${p.first_message_id}
          and sender_workspace_id <> ${p.to_ws}::uuid order by id limit 5`)
    ).rows as Array<{ sender_name: string; body: string }>;
    // The members who may read the chat: active, in a workspace whose tier has the marketplace.
    const members = (
      await db.execute(sql`select a.email, u.role_id, wr.permissions from "user" u
        join auth_user a on a.id = u.id
        join workspace w on w.id = u.workspace_id join tier t on t.id = w.tier_id
        left join workspace_role wr on wr.workspace_id = u.workspace_id and wr.id = u.workspace_role_id
        where u.workspace_id = ${p.to_ws}::uuid and u.active and a.email is not null
          and w.suspended_at is null and 'marketplace' = any(t.features)`)
    ).rows as Array<{ email: string; role_id: number; permissions: string[] | null }>;
    const to = members
      .filter((m) => can(effectivePermissions(Number(m.role_id), m.permissions), "marketplace_message.read"))
      .map((m) => m.email);
    if (!to.length) return;
    const link = `${deps.links.publicUrl}/dashboard/marketplace-chat?thread=${p.thread_id}`;
    const subject = `Unread message from ${thread.other} on the marketplace: ${thread.subject}`;
    const lines = unread.map((m) => `${m.sender_name}: ${m.body}`);
    const text = [`${thread.other} wrote to you about "${thread.subject}":`, "", ...lines, "", `Answer: ${link}`];
    const html = `<p>${escapeHtml(`${thread.other} wrote to you about "${thread.subject}":`)}</p>${lines
      .map((l) => `<p>${escapeHtml(l)}</p>`)
      .join("")}<p><a href="${escapeHtml(link)}">Answer in the marketplace chat</a></p>`;
    for (const address of to) {
      await queueMail(
        deps,
        db,
        { to: address, subject, text: text.join("\n"), html },
        { workspaceId: p.to_ws, docType: "marketplace_thread", docId: p.thread_id },
      );
    }
  };
}
