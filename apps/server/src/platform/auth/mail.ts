import { authMail } from "@workmetrics/domain/db/schema";
import nodemailer from "nodemailer";
import type { Db } from "../db/database.ts";
import type { OutgoingMail } from "./mail-templates.ts";

// `inTransaction`: the caller sends from inside an open request transaction. The built-in mailbox then keeps the mail
// once that transaction has let go of the database instead of waiting for it — on PGlite's one connection the wait
// never ends — which is what an SMTP hand-over amounts to anyway: mail that has left is not taken back on rollback.
export type SendOptions = { inTransaction?: boolean };
export type Mailer = { send(mail: OutgoingMail, options?: SendOptions): Promise<void>; close?(): void };

// Issue 3 item 3: nodemailer over SMTP_URL; without it, mail is kept in the database for /dev/mailbox.
export function createMailer(db: Db, smtpUrl: string | undefined, from: string): Mailer {
  if (!smtpUrl) {
    return {
      async send({ to, subject, text, html, cc, attachments }, options) {
        // The mailbox keeps text, not files: it says what was attached and to whom it was copied.
        const extra = [
          cc ? `Cc: ${cc}` : null,
          attachments?.length
            ? `Attached: ${attachments.map((a) => `${a.filename} (${a.content.length} bytes)`).join(", ")}`
            : null,
        ].filter(Boolean);
        const kept = db
          .insert(authMail)
          .values({ to, subject, html, text: extra.length ? `${text}\n\n${extra.join("\n")}` : text });
        if (options?.inTransaction) {
          kept.catch(() => {}); // the dev mailbox only: nothing to tell a caller that has already answered
          return;
        }
        await kept;
      },
    };
  }
  // A pool of SMTP connections (nodemailer's pool=true unless the URL says otherwise): the job worker sends mail
  // after mail, and a new connection for each was most of a send's time. Closed with the server (app.ts).
  const url = new URL(smtpUrl);
  if (!url.searchParams.has("pool")) url.searchParams.set("pool", "true");
  const transport = nodemailer.createTransport(url.toString());
  return {
    close: () => transport.close(),
    async send({ fromName, ...mail }) {
      // A module's mail may go out under another display name (the workspace sending its invoice), same address.
      const address = /<([^>]+)>/.exec(from)?.[1] ?? from;
      await transport.sendMail({ from: fromName ? { name: fromName, address } : from, ...mail });
    },
  };
}
