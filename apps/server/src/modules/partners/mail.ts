import { workspaceHost } from "@workmetrics/domain/hosts";
import type { Db, Tx } from "../../platform/db/database.ts";
import type { CommandDeps } from "../../platform/jobs/deps.ts";
import { queueMail } from "../../platform/jobs/mail.ts";

// Issue 11: the partners' mail (a discount request's link to the supplier, a registration's outcome to the
// registrant, the answers to staff). Issue 20 §1: queued in the caller's transaction and sent by the server's worker
// through its mailer (SMTP_URL or /dev/mailbox); the links are built on the server's own addresses (deps.links).

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c);

// A page of the workspace's own address (DESIGN §3.3): http://demo.localhost:3000/auth/… from PUBLIC_URL's scheme
// and port.
export function workspaceUrl(links: CommandDeps["links"], slug: string, path: string): string {
  const base = new URL(links.publicUrl);
  return `${base.protocol}//${workspaceHost(slug, links.baseDomain, "main", base.port || undefined)}${path}`;
}

export type PartnerMail = {
  to: string;
  fromName: string;
  subject: string;
  paragraphs: string[];
  link?: { href: string; label: string };
};

// Queued in `tx` for the workspace `workspaceId` (a request's transaction may only write its own workspace's jobs).
export async function sendPartnerMail(
  deps: Pick<CommandDeps, "jobs">,
  tx: Tx | Db,
  workspaceId: string,
  mail: PartnerMail,
): Promise<void> {
  const text = [...mail.paragraphs, ...(mail.link ? [`${mail.link.label}: ${mail.link.href}`] : [])].join("\n\n");
  const html = [
    ...mail.paragraphs.map((p) => `<p>${escapeHtml(p).replaceAll("\n", "<br>")}</p>`),
    ...(mail.link ? [`<p><a href="${escapeHtml(mail.link.href)}">${escapeHtml(mail.link.label)}</a></p>`] : []),
  ].join("\n");
  await queueMail(
    deps,
    tx,
    { fromName: `${mail.fromName} via Workmetrics`, to: mail.to, subject: mail.subject, text, html },
    { workspaceId },
  );
}
