import { sql } from "drizzle-orm";
import type { Tx } from "./database.ts";

// Issue 24: the demo workspace's inbox — a WhatsApp number it used (disconnected: the demo holds no Meta token, so
// connecting one's own is the first step, on /dashboard/cca) and a few weeks of conversations with customers: one
// waiting unassigned, one the salesperson is answering, one with a quotation sent back as a PDF, one resolved.
// Relative to the database's today, like the rest of the demo's trading.

type Line = { dir: "in" | "out" | "note"; body: string; minsAgo: number; by?: "sales" | "manager"; status?: string };

const THREADS: Array<{
  status: "open" | "pending" | "resolved";
  assignee: "sales" | "manager" | null;
  lines: Line[];
  labels?: string[];
}> = [
  {
    status: "open",
    assignee: null,
    lines: [
      { dir: "in", body: "Hi, do you have 40 cartons of A4 copy paper in stock? Need it by Thursday.", minsAgo: 95 },
      { dir: "in", body: "Delivery to our Tuas warehouse please.", minsAgo: 93 },
    ],
  },
  {
    status: "open",
    assignee: "sales",
    labels: ["repeat customer"],
    lines: [
      { dir: "in", body: "Morning! Can you quote the same order as last month?", minsAgo: 300 },
      {
        dir: "out",
        body: "Good morning! Sure, preparing the quotation now.",
        minsAgo: 290,
        by: "sales",
        status: "read",
      },
      {
        dir: "note",
        body: "They pay on 30 days; last order was delivered late, be careful with dates.",
        minsAgo: 288,
        by: "sales",
      },
      { dir: "in", body: "Thanks. Can you also add two more boxes of staples?", minsAgo: 40 },
    ],
  },
  {
    status: "pending",
    assignee: "manager",
    lines: [
      {
        dir: "in",
        body: "Please send me the invoice for last week's delivery again, I can't find it.",
        minsAgo: 60 * 26,
      },
      {
        dir: "out",
        body: "Here you go — attached again. Let me know if anything is missing.",
        minsAgo: 60 * 25,
        by: "manager",
        status: "delivered",
      },
    ],
  },
  {
    status: "resolved",
    assignee: "sales",
    lines: [
      { dir: "in", body: "Is the showroom open on Saturday?", minsAgo: 60 * 24 * 6 },
      { dir: "out", body: "Yes, 10am to 4pm. See you!", minsAgo: 60 * 24 * 6 - 10, by: "sales", status: "read" },
      { dir: "in", body: "👍", minsAgo: 60 * 24 * 6 - 12 },
    ],
  },
];

export async function seedInbox(tx: Tx, ws: string, profile: string): Promise<void> {
  if (profile !== "demo") return;
  const users = (
    await tx.execute(sql`select email, id::text from "user" where workspace_id = ${ws}::uuid
      and email in ('sales@demo.test', 'manager@demo.test')`)
  ).rows as Array<{ email: string; id: string }>;
  const who = (k: "sales" | "manager" | null | undefined) =>
    k ? (users.find((u) => u.email.startsWith(k))?.id ?? null) : null;
  const account = await tx.execute(sql`insert into channel_account
      (workspace_id, channel_id, external_id, display_name, status, last_error, last_error_at)
    values (${ws}::uuid, 1, '109000000000001', 'Harbourline Sales · +65 6123 4567', 'disconnected',
      'The demo holds no Meta token: connect your own WhatsApp Business number to answer', now())
    returning id`);
  const accountId = Number((account.rows[0] as { id: number }).id);
  const contacts = (
    await tx.execute(sql`select k.id, k.name, k.company_id from contact k
      join company c on c.workspace_id = k.workspace_id and c.id = k.company_id
      where k.workspace_id = ${ws}::uuid and c.is_customer and c.id <> 9
      order by k.is_primary desc, k.id limit ${THREADS.length}`)
  ).rows as Array<{ id: number; name: string; company_id: number }>;
  for (const [i, t] of THREADS.entries()) {
    const k = contacts[i];
    if (!k) break;
    const number = `659${String(1234500 + i * 7919).padStart(7, "0")}`;
    await tx.execute(
      sql`update contact set phone = coalesce(phone, ${`+${number}`}) where workspace_id = ${ws}::uuid and id = ${k.id}`,
    );
    const lastIn = Math.min(...t.lines.filter((l) => l.dir === "in").map((l) => l.minsAgo));
    const last = t.lines[t.lines.length - 1];
    const conv = await tx.execute(sql`insert into conversation (workspace_id, channel_account_id, external_thread_id,
        title, contact_id, company_id, status, assignee_id, last_message_at, last_inbound_at, last_message_preview,
        unread, labels)
      values (${ws}::uuid, ${accountId}, ${number}, ${k.name}, ${k.id}, ${k.company_id}, ${t.status},
        ${who(t.assignee)}::uuid, now() - make_interval(mins => ${last.minsAgo}),
        now() - make_interval(mins => ${lastIn}), ${last.body.slice(0, 200)},
        ${t.assignee ? 0 : t.lines.filter((l) => l.dir === "in").length},
        ${`{${(t.labels ?? []).map((l) => `"${l}"`).join(",")}}`}::text[])
      returning id`);
    const convId = Number((conv.rows[0] as { id: number }).id);
    for (const [j, l] of t.lines.entries()) {
      const status = l.dir === "in" ? "received" : l.dir === "note" ? "note" : (l.status ?? "sent");
      await tx.execute(sql`insert into conversation_message (workspace_id, conversation_id, direction, kind, body,
          external_id, status, author_id, created_at, sent_at, delivered_at, read_at)
        values (${ws}::uuid, ${convId}, ${l.dir}, 'text', ${l.body},
          ${l.dir === "note" ? null : `wamid.demo.${i}.${j}`}, ${status}, ${who(l.by)}::uuid,
          now() - make_interval(mins => ${l.minsAgo}),
          ${l.dir === "out" ? sql`now() - make_interval(mins => ${l.minsAgo})` : sql`null`},
          ${status === "delivered" || status === "read" ? sql`now() - make_interval(mins => ${l.minsAgo - 1})` : sql`null`},
          ${status === "read" ? sql`now() - make_interval(mins => ${l.minsAgo - 2})` : sql`null`})`);
    }
    // The conversation a quotation came from: the company's newest quotation, linked.
    if (i === 1) {
      await tx.execute(sql`insert into conversation_link (workspace_id, conversation_id, document_type, document_id)
        select ${ws}::uuid, ${convId}, 'quotation', q.id from quotation q
        where q.workspace_id = ${ws}::uuid and q.company_id = ${k.company_id}
        order by q.doc_date desc, q.id desc limit 1`);
    }
  }
  await tx.execute(sql`insert into canned_reply (workspace_id, title, body) values
    (${ws}::uuid, 'Opening hours', 'We are open Monday to Friday 9am–6pm and Saturday 10am–4pm.'),
    (${ws}::uuid, 'Quotation on its way', 'Thank you! I am preparing your quotation and will send it here shortly.'),
    (${ws}::uuid, 'Delivery times', 'Deliveries within Singapore take 1–2 working days after the order is confirmed.')`);
}
