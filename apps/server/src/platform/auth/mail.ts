import { authMail } from "@workmetrics/domain/db/schema";
import nodemailer from "nodemailer";
import type { Db } from "../db/database.ts";
import type { OutgoingMail } from "./mail-templates.ts";

export type Mailer = { send(mail: OutgoingMail): Promise<void> };

// Issue 3 item 3: nodemailer over SMTP_URL; without it, mail is kept in the database for /dev/mailbox.
export function createMailer(db: Db, smtpUrl: string | undefined, from: string): Mailer {
  if (!smtpUrl) {
    return {
      async send({ to, subject, text, html, cc, attachments }) {
        // The mailbox keeps text, not files: it says what was attached and to whom it was copied.
        const extra = [
          cc ? `Cc: ${cc}` : null,
          attachments?.length
            ? `Attached: ${attachments.map((a) => `${a.filename} (${a.content.length} bytes)`).join(", ")}`
            : null,
        ].filter(Boolean);
        await db
          .insert(authMail)
          .values({ to, subject, html, text: extra.length ? `${text}\n\n${extra.join("\n")}` : text });
      },
    };
  }
  const transport = nodemailer.createTransport(smtpUrl);
  return {
    async send({ fromName, ...mail }) {
      // A module's mail may go out under another display name (the workspace sending its invoice), same address.
      const address = /<([^>]+)>/.exec(from)?.[1] ?? from;
      await transport.sendMail({ from: fromName ? { name: fromName, address } : from, ...mail });
    },
  };
}
