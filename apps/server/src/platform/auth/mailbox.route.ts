import { authMail } from "@workmetrics/domain/db/schema";
import { desc, eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import type { Db } from "../db/database.ts";

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c);

// Links in the text part stay clickable (the HTML part is sandboxed, so its links cannot navigate).
const linkify = (escaped: string) => escaped.replace(/https?:\/\/[^\s<]+/g, (url) => `<a href="${url}">${url}</a>`);

const page = (title: string, body: string) =>
  `<!doctype html><html><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>
<body style="font-family:Roboto,Arial,sans-serif;margin:24px;color:#222">${body}</body></html>`;

// DESIGN §3.1: without SMTP_URL, mail is kept and shown here — never in production. Messages are also readable as
// JSON (?format=json, or Accept: application/json) for scripts and tests.
export async function mailboxRoutes(
  app: FastifyInstance,
  opts: { db: Db; settled?: () => Promise<void> },
): Promise<void> {
  const { db } = opts;

  app.get("/dev/mailbox", async (req, reply) => {
    await opts.settled?.();
    const rows = await db.select().from(authMail).orderBy(desc(authMail.id)).limit(200);
    reply.header("cache-control", "no-store");
    const q = req.query as Record<string, unknown>;
    if (q.format === "json" || (req.headers.accept ?? "").startsWith("application/json")) {
      const to = typeof q.to === "string" ? q.to.toLowerCase() : null;
      return rows.filter((m) => !to || m.to.toLowerCase() === to);
    }
    const items = rows
      .map(
        (m) =>
          `<li><a href="/dev/mailbox/${m.id}">${escapeHtml(m.subject)}</a> — to ${escapeHtml(m.to)}, ${m.createdAt.toISOString()}</li>`,
      )
      .join("\n");
    return reply
      .type("text/html; charset=utf-8")
      .send(
        page(
          "Mailbox",
          `<h1>Mailbox</h1><p>Mail kept because SMTP_URL is not set.</p><ul>${items || "<li>No mail yet.</li>"}</ul>`,
        ),
      );
  });

  app.get<{ Params: { id: string } }>("/dev/mailbox/:id", async (req, reply) => {
    const id = Number(req.params.id);
    const [mail] = Number.isSafeInteger(id) ? await db.select().from(authMail).where(eq(authMail.id, id)) : [];
    if (!mail) return reply.code(404).send({ code: "not_found", message: "No such message" });
    // The message is our own HTML; a sandboxed frame keeps any script in it from running on this origin.
    const frame = `<iframe sandbox title="message" style="width:100%;height:70vh;border:1px solid #ddd" srcdoc="${escapeHtml(mail.html)}"></iframe>`;
    return reply
      .header("cache-control", "no-store")
      .type("text/html; charset=utf-8")
      .send(
        page(
          mail.subject,
          `<p><a href="/dev/mailbox">← Mailbox</a></p><h1>${escapeHtml(mail.subject)}</h1><p>To: ${escapeHtml(mail.to)}<br>${mail.createdAt.toISOString()}</p>${frame}<h2>Text</h2><pre>${linkify(escapeHtml(mail.text))}</pre>`,
        ),
      );
  });
}
