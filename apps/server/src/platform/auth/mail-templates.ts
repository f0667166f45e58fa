import { BRAND } from "@workmetrics/domain";

export type MailKind = "signup" | "invite" | "magiclink" | "recovery" | "email_change" | "reauthentication";

export type Mail = { to: string; subject: string; text: string; html: string };
// A mail a module sends beyond the auth mails (an e-mailed invoice, issue 10 §3): copies and attachments too.
export type Attachment = { filename: string; content: Buffer; contentType: string };
export type OutgoingMail = Mail & { cc?: string; fromName?: string; attachments?: Attachment[] };

const COPY: Record<MailKind, { subject: string; intro: string; action: string }> = {
  signup: {
    subject: "Confirm your Workmetrics account",
    intro: "Welcome to Workmetrics. Confirm your e-mail address to finish creating your account.",
    action: "Confirm my e-mail",
  },
  invite: {
    subject: "You have been invited to Workmetrics",
    intro: "You have been invited to join Workmetrics. Accept the invitation to set up your account.",
    action: "Accept the invitation",
  },
  magiclink: {
    subject: "Your Workmetrics sign-in link",
    intro: "Use this link to sign in to Workmetrics.",
    action: "Sign in",
  },
  recovery: {
    subject: "Reset your Workmetrics password",
    intro: "Someone asked to reset the password of your Workmetrics account. If it was you, choose a new one.",
    action: "Choose a new password",
  },
  email_change: {
    subject: "Confirm your new e-mail address",
    intro: "Confirm this address to use it for your Workmetrics account from now on.",
    action: "Confirm the new address",
  },
  reauthentication: {
    subject: "Your Workmetrics confirmation code",
    intro: "Enter this code to confirm it is you before changing your sign-in details.",
    action: "",
  },
};

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c);

// Plain, branded mails (issue 3 item 3): one action link and the same six-digit code for typing in.
export function renderMail(kind: MailKind, to: string, opts: { link: string | null; code: string }): Mail {
  const copy = COPY[kind];
  const ignore = "If you did not ask for this, you can ignore this e-mail.";
  const lines = [copy.intro, ""];
  if (opts.link) lines.push(`${copy.action}: ${opts.link}`, "");
  lines.push(
    opts.link ? `Or enter this code: ${opts.code}` : `Your code: ${opts.code}`,
    "",
    ignore,
    "",
    "— Workmetrics",
  );
  const button = opts.link
    ? `<p><a href="${escapeHtml(opts.link)}" style="display:inline-block;padding:10px 18px;background:${BRAND.primary};color:#fff;text-decoration:none;border-radius:4px">${escapeHtml(copy.action)}</a></p>
<p style="font-size:13px;color:#555">Or open this link: <a href="${escapeHtml(opts.link)}">${escapeHtml(opts.link)}</a></p>`
    : "";
  const html = `<!doctype html><html><body style="font-family:Roboto,Arial,sans-serif;color:#222;background:#fafafa;padding:24px">
<div style="max-width:520px;margin:auto;background:#fff;border-radius:4px;padding:24px;border-top:4px solid ${BRAND.primary}">
<h1 style="font-size:20px;color:${BRAND.secondary};margin-top:0">Workmetrics</h1>
<p>${escapeHtml(copy.intro)}</p>
${button}
<p>${opts.link ? "Or enter this code" : "Your code"}: <strong style="font-size:18px;letter-spacing:2px">${opts.code}</strong></p>
<p style="font-size:13px;color:#555">${escapeHtml(ignore)}</p>
</div></body></html>`;
  return { to, subject: copy.subject, text: lines.join("\n"), html };
}
