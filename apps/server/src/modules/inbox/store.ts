import { sql } from "drizzle-orm";
import type { Db, Tx } from "../../platform/db/database.ts";

// Issue 24: the writes the webhook's job and the send job share — a conversation found or opened for a sender, the
// change announcements realtime reads (document_event rows of type conversation / conversation_message, as the
// documents write them), and the delivery statuses, which may arrive before the send that they are about.

export type Account = {
  id: number;
  workspace_id: string;
  channel_id: number;
  external_id: string;
  access_token: string | null;
  status: string;
};

export async function announce(
  tx: Tx | Db,
  ws: string,
  type: "conversation" | "conversation_message",
  id: number,
  action: "create" | "update",
  status: string | null,
  userId: string | null = null,
): Promise<void> {
  await tx.execute(sql`insert into document_event (workspace_id, doc_type, doc_id, action, to_status, user_id)
    values (${ws}::uuid, ${type}, ${id}, ${action}, ${status}, ${userId}::uuid)`);
}

const digits = (s: string) => s.replace(/\D/g, "");

// The conversation of `threadId` on the account, opened on the sender's first message: the contact whose phone is
// the WhatsApp number (the company's phone, else), or a new company and contact named by the sender's profile.
export async function conversationFor(
  tx: Tx,
  account: Account,
  threadId: string,
  profileName: string | null,
  mail?: { email: string; title: string },
): Promise<{ id: number; created: boolean }> {
  const ws = account.workspace_id;
  const found = await tx.execute(sql`select id from conversation
    where workspace_id = ${ws}::uuid and channel_account_id = ${account.id} and external_thread_id = ${threadId}`);
  if (found.rows[0]) return { id: Number((found.rows[0] as { id: number }).id), created: false };
  let contactId: number | null = null;
  let companyId: number | null = null;
  if (account.channel_id === 1) {
    const number = digits(threadId);
    // A stored phone matches when its digits are the number, or its last 8+ digits (written without +65).
    const match = await tx.execute(sql`select c.id, c.company_id from contact c
      where c.workspace_id = ${ws}::uuid and c.phone is not null
        and (regexp_replace(c.phone, '\\D', '', 'g') = ${number}
          or (length(regexp_replace(c.phone, '\\D', '', 'g')) >= 8
            and ${number} like '%' || regexp_replace(c.phone, '\\D', '', 'g')))
      order by c.is_primary desc, c.id limit 1`);
    const row = match.rows[0] as { id: number; company_id: number } | undefined;
    if (row) {
      contactId = Number(row.id);
      companyId = Number(row.company_id);
    } else {
      const company = await tx.execute(sql`select id from company
        where workspace_id = ${ws}::uuid and phone is not null and id <> 9
          and (regexp_replace(phone, '\\D', '', 'g') = ${number}
            or (length(regexp_replace(phone, '\\D', '', 'g')) >= 8
              and ${number} like '%' || regexp_replace(phone, '\\D', '', 'g')))
        order by id limit 1`);
      companyId = company.rows[0] ? Number((company.rows[0] as { id: number }).id) : null;
    }
  }
  if (mail) {
    // Outlook (issue 24): the contact with the sender's e-mail address, else a company of the sender's domain (its
    // own address's, or one of its contacts'; never a free-mail domain), else a new contact below.
    const email = mail.email.trim().toLowerCase();
    const match = await tx.execute(sql`select id, company_id from contact
      where workspace_id = ${ws}::uuid and lower(trim(email)) = ${email} order by is_primary desc, id limit 1`);
    const row = match.rows[0] as { id: number; company_id: number } | undefined;
    if (row) {
      contactId = Number(row.id);
      companyId = Number(row.company_id);
    } else {
      const domain = email.split("@")[1] ?? "";
      if (domain && !FREE_MAIL.has(domain)) {
        const company = await tx.execute(sql`select c.id from company c
          where c.workspace_id = ${ws}::uuid and c.id <> 9 and (lower(split_part(c.email, '@', 2)) = ${domain}
            or exists (select 1 from contact k where k.workspace_id = c.workspace_id and k.company_id = c.id
              and lower(split_part(k.email, '@', 2)) = ${domain}))
          order by c.id limit 1`);
        companyId = company.rows[0] ? Number((company.rows[0] as { id: number }).id) : null;
      }
    }
  }
  const name = profileName?.trim() || (account.channel_id === 1 ? `+${digits(threadId)}` : `Customer ${threadId}`);
  if (!contactId) {
    // Unknown sender: a new contact (and a company of their own unless their company's phone matched). Merging with
    // an existing customer is the person's to do, never done silently.
    const phone = account.channel_id === 1 ? `+${digits(threadId)}` : null;
    const email = mail ? mail.email.trim().toLowerCase() : null;
    if (!companyId) {
      const c = await tx.execute(sql`insert into company (workspace_id, name, phone, email, is_customer)
        values (${ws}::uuid, ${name}, ${phone}, ${email}, true) returning id`);
      companyId = Number((c.rows[0] as { id: number }).id);
    }
    const k = await tx.execute(sql`insert into contact (workspace_id, company_id, name, phone, email, notes)
      values (${ws}::uuid, ${companyId}, ${name}, ${phone}, ${email}, ${`First wrote on ${CHANNEL_NAMES[account.channel_id]}`})
      returning id`);
    contactId = Number((k.rows[0] as { id: number }).id);
  }
  // Two deliveries of the first message at once: the second finds the first's row.
  const made = await tx.execute(sql`insert into conversation
      (workspace_id, channel_account_id, external_thread_id, title, contact_id, company_id)
    values (${ws}::uuid, ${account.id}, ${threadId}, ${mail?.title || name}, ${contactId}, ${companyId})
    on conflict (workspace_id, channel_account_id, external_thread_id) do nothing returning id`);
  if (made.rows[0]) return { id: Number((made.rows[0] as { id: number }).id), created: true };
  return conversationFor(tx, account, threadId, profileName, mail);
}

const FREE_MAIL = new Set([
  "gmail.com",
  "googlemail.com",
  "outlook.com",
  "hotmail.com",
  "live.com",
  "yahoo.com",
  "yahoo.com.sg",
  "icloud.com",
  "me.com",
  "singnet.com.sg",
  "protonmail.com",
]);

export const CHANNEL_NAMES: Record<number, string> = { 1: "WhatsApp", 2: "Facebook", 3: "Instagram", 4: "Sales Email" };

const RANK: Record<string, number> = { queued: 0, sent: 1, delivered: 2, read: 3, failed: 4 };

// The lock both sides of a status take: the webhook's (applying or keeping it) and the send's (recording the wamid).
const lockWamid = (tx: Tx, ws: string, wamid: string) =>
  tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`wamid:${ws}:${wamid}`}))`);

// A delivery status from Meta: applied to the sent message it names (never stepping back: read stays read), or kept
// until the send that is about to record that wamid does.
export async function applyStatus(
  tx: Tx,
  ws: string,
  wamid: string,
  status: "sent" | "delivered" | "read" | "failed",
  at: Date,
  error: string | null,
): Promise<boolean> {
  await lockWamid(tx, ws, wamid);
  const done = await setStatus(tx, ws, wamid, status, at, error);
  if (done !== null) return true;
  await tx.execute(sql`insert into conversation_early_status (workspace_id, external_id, status, at, error)
    values (${ws}::uuid, ${wamid}, ${status}, ${at.toISOString()}::timestamptz, ${error})
    on conflict do nothing`);
  return false;
}

async function setStatus(
  tx: Tx,
  ws: string,
  wamid: string,
  status: string,
  at: Date,
  error: string | null,
): Promise<number | null> {
  const res = await tx.execute(sql`update conversation_message m set
      status = case when ${RANK[status] ?? 0} > (case m.status when 'queued' then 0 when 'sent' then 1
        when 'delivered' then 2 when 'read' then 3 when 'failed' then 4 else 0 end) then ${status} else m.status end,
      sent_at = coalesce(m.sent_at, ${at.toISOString()}::timestamptz),
      delivered_at = case when ${status} in ('delivered', 'read') then coalesce(m.delivered_at, ${at.toISOString()}::timestamptz) else m.delivered_at end,
      read_at = case when ${status} = 'read' then coalesce(m.read_at, ${at.toISOString()}::timestamptz) else m.read_at end,
      error = coalesce(${error}, m.error), updated_at = now()
    where m.workspace_id = ${ws}::uuid and m.external_id = ${wamid} and m.direction = 'out'
    returning m.id, m.status`);
  const row = res.rows[0] as { id: number; status: string } | undefined;
  if (!row) return null;
  await announce(tx, ws, "conversation_message", Number(row.id), "update", row.status);
  return Number(row.id);
}

// The send recorded Meta's id for its message: the statuses that came first are applied now.
export async function recordSent(tx: Tx, ws: string, messageId: number, wamid: string, at: Date): Promise<void> {
  await lockWamid(tx, ws, wamid);
  await tx.execute(sql`update conversation_message set external_id = ${wamid}, status = 'sent',
      sent_at = ${at.toISOString()}::timestamptz, error = null, updated_at = now()
    where workspace_id = ${ws}::uuid and id = ${messageId}`);
  const early = await tx.execute(sql`delete from conversation_early_status
    where workspace_id = ${ws}::uuid and external_id = ${wamid} returning status, at, error`);
  const rows = (early.rows as Array<{ status: string; at: string | Date; error: string | null }>).sort(
    (a, b) => (RANK[a.status] ?? 0) - (RANK[b.status] ?? 0),
  );
  for (const r of rows) await setStatus(tx, ws, wamid, r.status, new Date(r.at), r.error);
  if (!rows.length) await announce(tx, ws, "conversation_message", messageId, "update", "sent");
}
