import { can } from "@workmetrics/domain";
import { COMMANDS } from "@workmetrics/domain/commands";
import { sql } from "drizzle-orm";
import type { Tx } from "../../platform/db/database.ts";
import { conflict, invalid } from "../../platform/documents/refusals.ts";
import { documentSpec } from "../../platform/documents/registry.ts";
import { writeEvent } from "../../platform/documents/store.ts";
import type { CommandDeps } from "../../platform/jobs/deps.ts";
import { queueMail } from "../../platform/jobs/mail.ts";
import type { Caller } from "../../platform/rest/access.ts";
import { RestError } from "../../platform/rest/rest-error.ts";
import { implement } from "../../platform/rest/rpc/command.ts";
import { printDocument } from "./pdf/document.ts";
import { day, inLocale, moneyOf, printingLocale } from "./pdf/format.ts";
import { printOptions } from "./pdf/print-types.ts";

// Issue 10 §3 "E-mail a document to the customer's contact with the PDF attached (through the mail you have),
// logged in the audit history": document_email {type, id, to?, cc?, message?}. Whoever may read the document may
// send it (the same rule as printing it); it must have a number (a draft is not sent to a customer). The address is
// `to`, else the document's contact's e-mail, else the customer's; the audit row (action "email") names the
// recipients and is written in the same transaction. Issue 20 §1: the mail is queued in that transaction too (the
// outbox) and sent by the server's worker, retried when the mail server does not take it; the answer says it is
// queued, and the document's history shows it queued, sent, or failed with the reason.

export type EmailInput = { type: string; id: number; to?: string[]; cc?: string[]; message?: string | null };

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c);

export async function emailOf(tx: Tx, table: "company" | "contact", ws: string, rowId: unknown) {
  if (rowId === null || rowId === undefined) return null;
  const res = await tx.execute(sql`select name, nullif(trim(email), '') as email from ${sql.identifier(table)}
    where workspace_id = ${ws}::uuid and id = ${Number(rowId)}`);
  return (res.rows[0] as { name: string; email: string | null } | undefined) ?? null;
}

export async function emailDocument(
  tx: Tx,
  caller: Caller,
  input: EmailInput,
  deps: Pick<CommandDeps, "jobs" | "disk">,
) {
  const spec = documentSpec(input.type);
  // The stored files the PDF prints (a delivery's signature, issue 22), as the printed copy does.
  const printed = await printDocument(tx, caller, input.type, input.id, deps.disk);
  const { header, number, workspace } = printed;
  const title = spec.machine.title;
  if (!number) {
    throw conflict(`A draft ${title.toLowerCase()} has no number yet; submit it before e-mailing it`);
  }
  const ws = caller.workspaceId as string;
  const contact = await emailOf(tx, "contact", ws, header.contact_id);
  const company = await emailOf(tx, "company", ws, header.company_id);
  // A customer with no record (an order from the public form) gave an address on the document itself.
  const guestField = printOptions(spec.machine.type).guest?.email;
  const guest = guestField && typeof header[guestField] === "string" ? (header[guestField] as string).trim() : null;
  const to = input.to ?? [contact?.email ?? company?.email ?? guest].filter((e): e is string => Boolean(e));
  if (to.length === 0) {
    throw invalid(
      `Neither the contact nor ${company?.name ?? "the customer"} has an e-mail address; enter one to send ${number} to`,
      "to",
    );
  }
  const cc = input.cc ?? [];
  await checkRecipients(tx, caller, { to, cc, companyId: header.company_id, guest, company: company?.name, number });
  const currency = String(header.currency ?? workspace.baseCurrency);
  const owed =
    header.outstanding !== undefined && header.outstanding !== null
      ? `, ${moneyOf(String(header.outstanding), currency)} due${header.due_date ? ` by ${day(String(header.due_date))}` : ""}`
      : "";
  const greeting = `Dear ${(input.to ? null : contact?.name) ?? company?.name ?? "customer"},`;
  const intro = `Please find attached ${title.toLowerCase()} ${number} dated ${day(String(header.doc_date))}: total ${moneyOf(String(header.total), currency)}${owed}.`;
  const message = input.message?.trim();
  const paragraphs = [greeting, ...(message ? [message] : []), intro, `Regards,\n${workspace.name}`];
  const subject = `${title} ${number} from ${workspace.name}`;
  const job = await sendWithPdf(tx, caller, deps, {
    type: spec.machine.type,
    docId: input.id,
    status: String(header.status),
    number,
    to,
    cc,
    subject,
    paragraphs,
    fromName: `${workspace.name} via Workmetrics`,
    attachment: { filename: printed.filename, pdf: printed.pdf },
  });
  return {
    type: spec.machine.type,
    id: input.id,
    number,
    to,
    cc,
    subject,
    attachment: printed.filename,
    ...job,
  };
}

// Issue 21 §2: document_email was an open relay — POS staff sent an invoice with "our bank details changed…" to 20
// outside addresses 30 times in a row. A role granted "E-mail to any address" (outside_email.create: the office
// roles) sends wherever the customer asks; anyone else (the POS, the warehouse) only to the customer's own
// addresses: its e-mail, its contacts' and, for a guest's order, the address the guest gave.
async function checkRecipients(
  tx: Tx,
  caller: Caller,
  m: { to: string[]; cc: string[]; companyId: unknown; guest: string | null; company?: string; number: string },
) {
  if (can(caller.permissions, "outside_email.create")) return;
  const ws = caller.workspaceId as string;
  const known = new Set<string>(m.guest ? [m.guest.toLowerCase()] : []);
  if (m.companyId !== null && m.companyId !== undefined) {
    const res = await tx.execute(sql`select lower(trim(email)) as email from company
        where workspace_id = ${ws}::uuid and id = ${Number(m.companyId)} and nullif(trim(email), '') is not null
      union select lower(trim(email)) from contact
        where workspace_id = ${ws}::uuid and company_id = ${Number(m.companyId)} and nullif(trim(email), '') is not null`);
    for (const r of res.rows as Array<{ email: string }>) known.add(r.email);
  }
  for (const [field, list] of [
    ["to", m.to],
    ["cc", m.cc],
  ] as const) {
    const stranger = list.find((a) => !known.has(a.toLowerCase()));
    if (stranger) {
      throw invalid(
        `${m.number} can be sent only to ${m.company ?? "the customer"}'s own addresses (its e-mail and its contacts'): ${stranger} is not one of them. Add it to the customer's contacts, or ask someone who may e-mail any address.`,
        field,
      );
    }
  }
}

// At most this many addresses on one e-mail, and this many e-mails an hour from one person and from one workspace:
// a business sends its documents to the people it deals with, not in bulk.
export const MAIL_LIMITS = { recipients: 10, perUserPerHour: 30, perWorkspacePerHour: 300 } as const;

async function checkSendRate(tx: Tx, caller: Caller, recipients: number) {
  if (recipients > MAIL_LIMITS.recipients) {
    throw invalid(`An e-mail can go to at most ${MAIL_LIMITS.recipients} addresses (to and cc together)`, "to");
  }
  // The documents' own history is the log: every send is an "email" row of document_event.
  const res = await tx.execute(sql`select
      count(*) filter (where user_id = ${caller.userId}::uuid)::int as mine,
      count(*)::int as everyone,
      ceil(extract(epoch from (min(at) filter (where user_id = ${caller.userId}::uuid)) + interval '1 hour' - now()))::int as mine_free_in,
      ceil(extract(epoch from min(at) + interval '1 hour' - now()))::int as everyone_free_in
    from document_event
    where workspace_id = ${caller.workspaceId}::uuid and action = 'email' and at > now() - interval '1 hour'`);
  const r = res.rows[0] as {
    mine: number;
    everyone: number;
    mine_free_in: number | null;
    everyone_free_in: number | null;
  };
  const over =
    r.mine >= MAIL_LIMITS.perUserPerHour
      ? { who: "You have", n: r.mine, freeIn: r.mine_free_in }
      : r.everyone >= MAIL_LIMITS.perWorkspacePerHour
        ? { who: "This workspace has", n: r.everyone, freeIn: r.everyone_free_in }
        : null;
  if (!over) return;
  const retryAfter = Math.max(1, over.freeIn ?? 60);
  const minutes = Math.ceil(retryAfter / 60);
  throw new RestError(
    429,
    "over_email_send_rate_limit",
    `${over.who} e-mailed ${over.n} documents in the last hour, the most allowed. Please try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`,
    { retry_after: retryAfter },
  );
}

export type MailWithPdf = {
  type: string; // the audit row's doc_type
  docId: number;
  status: string;
  number: string;
  to: string[];
  cc: string[];
  subject: string;
  paragraphs: string[];
  fromName: string;
  attachment: { filename: string; pdf: Buffer };
};

// The mail with the PDF queued, then the audit row ("email", naming the recipients and the job), in the caller's
// transaction: a command that rolls back leaves neither. Also how a module mails a PDF of its own (a supplier
// payment's remittance advice).
export async function sendWithPdf(
  tx: Tx,
  caller: Caller,
  deps: Pick<CommandDeps, "jobs">,
  m: MailWithPdf,
): Promise<{ mail: "queued"; job: number | null }> {
  await checkSendRate(tx, caller, m.to.length + m.cc.length);
  const job = await queueMail(
    deps,
    tx,
    {
      fromName: m.fromName,
      to: m.to.join(", "),
      cc: m.cc.length ? m.cc.join(", ") : undefined,
      subject: m.subject,
      text: m.paragraphs.join("\n\n"),
      html: m.paragraphs.map((p) => `<p>${escapeHtml(p).replaceAll("\n", "<br>")}</p>`).join("\n"),
      attachments: [{ filename: m.attachment.filename, content: m.attachment.pdf, contentType: "application/pdf" }],
    },
    { workspaceId: caller.workspaceId, docType: m.type, docId: m.docId },
  );
  await writeEvent(tx, caller, {
    type: m.type,
    docId: m.docId,
    action: "email",
    from: m.status,
    to: m.status,
    reason: `E-mail to ${m.to.join(", ")}${m.cc.length ? ` (cc ${m.cc.join(", ")})` : ""}`,
    changes: { to: m.to, cc: m.cc, subject: m.subject, attachment: m.attachment.filename, job },
  });
  return { mail: "queued", job };
}

export const documentEmail = implement(COMMANDS.document_email, {
  // Issue 21 §1: the body's dates and amounts, like the attached PDF's, in the workspace's locale.
  run: async (tx, args, caller, deps) =>
    inLocale(await printingLocale(tx, caller.workspaceId), () => emailDocument(tx, caller, args as EmailInput, deps)),
});
