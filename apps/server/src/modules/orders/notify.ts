import type { OrderSubmission, SubmittedOrder } from "@workmetrics/domain/schemas/order-submission";
import type { Tx } from "../../platform/db/database.ts";
import type { CommandDeps } from "../../platform/jobs/deps.ts";
import { queueMail } from "../../platform/jobs/mail.ts";
import type { FoundForm } from "./order-form.store.ts";

// Issue 10 §2: a new order is e-mailed to the workspace's owner and sales managers (an in-app toast is missed by
// whoever is not looking). Issue 20 §1: queued in the outbox and sent by the server's worker through its mailer
// (SMTP_URL, or /dev/mailbox without it), in the order's transaction: an order taken is always announced, and a
// notice never announces an order that rolled back.

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c);

// Queued in the order's own transaction (`tx`, the form's workspace's guest: its jobs only), to `to`, the
// recipients read beforehand (orderRecipients) by the server, as the guest may not read the team.
export async function notifyNewOrder(
  deps: Pick<CommandDeps, "jobs" | "links">,
  tx: Tx,
  form: FoundForm,
  order: SubmittedOrder & { id: number },
  input: OrderSubmission,
  to: string[],
): Promise<void> {
  if (to.length === 0) return;
  const link = `${deps.links.publicUrl}/dashboard/orders/${order.id}`;
  const who = [input.name, input.company].filter(Boolean).join(", ");
  const subject = `New order ${order.number} from ${who}`;
  const lines = [
    `${who} sent order ${order.number} through "${form.title}": ${order.currency} ${order.total}.`,
    `E-mail: ${input.email}${input.phone ? `, phone: ${input.phone}` : ""}`,
    `Deliver to: ${input.delivery_address}`,
    ...(input.note ? [`Note: ${input.note}`] : []),
    "",
    `Confirm or reject it: ${link}`,
  ];
  const html = `${lines
    .slice(0, -2)
    .map((l) => `<p>${escapeHtml(l)}</p>`)
    .join("")}<p><a href="${escapeHtml(link)}">Confirm or reject it</a></p>`;
  for (const address of to) {
    const mail = { to: address, subject, text: lines.join("\n"), html };
    await queueMail(deps, tx, mail, { workspaceId: form.workspace_id, docType: "customer_order", docId: order.id });
  }
}
