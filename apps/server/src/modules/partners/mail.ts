import { workspaceHost } from "@workmetrics/domain/hosts";
import type { Mailer } from "../../platform/auth/mail.ts";
import { RestError } from "../../platform/rest/rest-error.ts";

// Issue 11: the partners' mail (a discount request's link to the supplier, a registration's outcome to the
// registrant, the answers to staff) goes through the server's one mailer (SMTP_URL or /dev/mailbox), handed over
// when the public routes are registered, with the addresses the links are built on.

type Setup = { mailer: Mailer; publicUrl: string; baseDomain: string };
let setup: Setup | null = null;

export const usePartnersMail = (s: Setup) => {
  setup = s;
};

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c);

// A page of the workspace's own address (DESIGN §3.3): http://demo.localhost:3000/auth/… from PUBLIC_URL's scheme
// and port.
export function workspaceUrl(slug: string, path: string): string {
  if (!setup) return path;
  const base = new URL(setup.publicUrl);
  return `${base.protocol}//${workspaceHost(slug, setup.baseDomain, "main", base.port || undefined)}${path}`;
}

export type PartnerMail = {
  to: string;
  fromName: string;
  subject: string;
  paragraphs: string[];
  link?: { href: string; label: string };
};

// inTransaction: sent from a command's open transaction (the dev mailbox then writes after it).
export async function sendPartnerMail(mail: PartnerMail, inTransaction: boolean): Promise<void> {
  if (!setup) throw new RestError(503, "PGRST001", "Mail is not available on this server right now");
  const text = [...mail.paragraphs, ...(mail.link ? [`${mail.link.label}: ${mail.link.href}`] : [])].join("\n\n");
  const html = [
    ...mail.paragraphs.map((p) => `<p>${escapeHtml(p).replaceAll("\n", "<br>")}</p>`),
    ...(mail.link ? [`<p><a href="${escapeHtml(mail.link.href)}">${escapeHtml(mail.link.label)}</a></p>`] : []),
  ].join("\n");
  await setup.mailer.send(
    { fromName: `${mail.fromName} via Workmetrics`, to: mail.to, subject: mail.subject, text, html },
    { inTransaction },
  );
}
