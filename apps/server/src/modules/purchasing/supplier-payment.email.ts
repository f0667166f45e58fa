import { sql } from "drizzle-orm";
import { z } from "zod";
import type { Tx } from "../../platform/db/database.ts";
import { conflict, invalid } from "../../platform/documents/refusals.ts";
import type { Caller } from "../../platform/rest/access.ts";
import { RestError } from "../../platform/rest/rest-error.ts";
import { defineRpc } from "../../platform/rest/rpc/command.ts";
import { emailAddresses, sendWithPdf } from "../documents/email.rpc.ts";
import { day, moneyOf } from "../documents/pdf/format.ts";
import { loadWorkspace } from "../documents/pdf/letterhead.ts";
import { printRemittance } from "./supplier-payment.remittance.ts";

// Issue 11 gap "remittances are not e-mailed": supplier_payment_email {id, to?, cc?, message?} sends a supplier
// payment's remittance advice PDF to the supplier through the documents' mail path (sendWithPdf: the audit row
// "email" on the payment, then the mail, in one transaction). Whoever may print the remittance (read supplier
// payments) may send it. The address is `to`, else the supplier's primary contact's e-mail (else its first contact
// with one), else the supplier's own. A cancelled payment is not sent.

type Input = { id: number; to?: string[]; cc?: string[]; message?: string | null };

async function emailRemittance(tx: Tx, caller: Caller, input: Input) {
  const printed = await printRemittance(tx, caller, input.id); // checks who may read it; 404 when it is not there
  const ws = caller.workspaceId as string;
  const res = await tx.execute(sql`select p.number, p.status, p.doc_date::text as doc_date, p.amount::text as amount,
      c.name as company, nullif(trim(c.email), '') as company_email, k.name as contact,
      nullif(trim(k.email), '') as contact_email
    from supplier_payment p join company c on c.workspace_id = p.workspace_id and c.id = p.company_id
    left join lateral (select name, email from contact where workspace_id = p.workspace_id and company_id = c.id
        and nullif(trim(email), '') is not null order by is_primary desc, id limit 1) k on true
    where p.workspace_id = ${ws}::uuid and p.id = ${input.id}`);
  const p = res.rows[0] as
    | {
        number: string;
        status: string;
        doc_date: string;
        amount: string;
        company: string;
        company_email: string | null;
        contact: string | null;
        contact_email: string | null;
      }
    | undefined;
  if (!p) throw new RestError(404, "PGRST116", `There is no supplier payment ${input.id} in this workspace`);
  if (p.status === "cancelled") throw conflict(`${p.number} is cancelled; its remittance advice is not sent`);
  const to = input.to ?? [p.contact_email ?? p.company_email].filter((e): e is string => Boolean(e));
  if (to.length === 0) {
    throw invalid(
      `Neither a contact of ${p.company} nor ${p.company} has an e-mail address; enter one to send to`,
      "to",
    );
  }
  const workspace = await loadWorkspace(tx, ws);
  const currency = workspace.baseCurrency;
  const message = input.message?.trim();
  const greeting = `Dear ${(input.to ? null : p.contact) ?? p.company},`;
  const intro = `Please find attached our remittance advice ${p.number}: ${moneyOf(p.amount, currency)} paid on ${day(p.doc_date)}, with the invoices it settles.`;
  const subject = `Remittance advice ${p.number} from ${workspace.name}`;
  const cc = input.cc ?? [];
  await sendWithPdf(tx, caller, {
    type: "supplier_payment",
    docId: input.id,
    status: p.status,
    number: p.number,
    to,
    cc,
    subject,
    paragraphs: [greeting, ...(message ? [message] : []), intro, `Regards,\n${workspace.name}`],
    fromName: `${workspace.name} via Workmetrics`,
    attachment: printed,
  });
  return { type: "supplier_payment", id: input.id, number: p.number, to, cc, subject, attachment: printed.filename };
}

export const supplierPaymentEmail = defineRpc({
  name: "supplier_payment_email",
  args: z.object({
    id: z.number().int().positive(),
    to: emailAddresses,
    cc: emailAddresses,
    message: z.string().max(5000).nullish(),
  }),
  permission: null, // reading supplier payments, checked by printRemittance through the one access rule
  run: (tx, args, caller) => emailRemittance(tx, caller, args as Input),
});
