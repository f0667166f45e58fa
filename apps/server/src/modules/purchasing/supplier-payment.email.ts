import { COMMANDS } from "@workmetrics/domain/commands";
import { sql } from "drizzle-orm";
import type { Tx } from "../../platform/db/database.ts";
import { conflict, invalid } from "../../platform/documents/refusals.ts";
import type { CommandDeps } from "../../platform/jobs/deps.ts";
import type { Caller } from "../../platform/rest/access.ts";
import { implement } from "../../platform/rest/rpc/command.ts";
import { sendWithPdf } from "../documents/email.rpc.ts";
import { day, inLocale, moneyOf, printingLocale } from "../documents/pdf/format.ts";
import { printRemittance } from "./supplier-payment.remittance.ts";

// Issue 11 gap "remittances are not e-mailed": supplier_payment_email {id, to?, cc?, message?} sends a supplier
// payment's remittance advice PDF to the supplier through the documents' mail path (sendWithPdf: the audit row
// "email" on the payment, then the mail, in one transaction). Whoever may print the remittance (read supplier
// payments) may send it. The address is `to`, else the supplier's primary contact's e-mail (else its first contact
// with one), else the supplier's own. A cancelled payment is not sent.

type Input = { id: number; to?: string[]; cc?: string[]; message?: string | null };

async function emailRemittance(tx: Tx, caller: Caller, input: Input, deps: Pick<CommandDeps, "jobs">) {
  // Checks who may read it; 404 when it is not there. The payment and workspace come with the PDF, read once.
  const { pdf, filename, payment: p, workspace } = await printRemittance(tx, caller, input.id);
  if (p.status === "cancelled") throw conflict(`${p.number} is cancelled; its remittance advice is not sent`);
  const company = String(p.company.name);
  const res = await tx.execute(sql`select name, nullif(trim(email), '') as email from contact
    where workspace_id = ${caller.workspaceId}::uuid and company_id = ${Number(p.company.id)}
      and nullif(trim(email), '') is not null
    order by is_primary desc, id limit 1`);
  const contact = res.rows[0] as { name: string; email: string } | undefined;
  const companyEmail = typeof p.company.email === "string" ? p.company.email.trim() || null : null;
  const to = input.to ?? [contact?.email ?? companyEmail].filter((e): e is string => Boolean(e));
  if (to.length === 0) {
    throw invalid(`Neither a contact of ${company} nor ${company} has an e-mail address; enter one to send to`, "to");
  }
  const currency = workspace.baseCurrency;
  const message = input.message?.trim();
  const greeting = `Dear ${(input.to ? null : contact?.name) ?? company},`;
  const intro = `Please find attached our remittance advice ${p.number}: ${moneyOf(p.amount, currency)} paid on ${day(p.doc_date)}, with the invoices it settles.`;
  const subject = `Remittance advice ${p.number} from ${workspace.name}`;
  const cc = input.cc ?? [];
  const job = await sendWithPdf(tx, caller, deps, {
    type: "supplier_payment",
    docId: input.id,
    status: p.status,
    number: p.number,
    to,
    cc,
    subject,
    paragraphs: [greeting, ...(message ? [message] : []), intro, `Regards,\n${workspace.name}`],
    fromName: `${workspace.name} via Workmetrics`,
    attachment: { filename, pdf },
  });
  return { type: "supplier_payment", id: input.id, number: p.number, to, cc, subject, attachment: filename, ...job };
}

export const supplierPaymentEmail = implement(COMMANDS.supplier_payment_email, {
  // Issue 21 §1: the body's dates and amounts, like the attached PDF's, in the workspace's locale.
  run: async (tx, args, caller, deps) =>
    inLocale(await printingLocale(tx, caller.workspaceId), () => emailRemittance(tx, caller, args as Input, deps)),
});
