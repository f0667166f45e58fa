import { authMail } from "@workmetrics/domain/db/schema";
import nodemailer from "nodemailer";
import type { Db } from "../db/database.ts";
import type { Mail } from "./mail-templates.ts";

export type Mailer = { send(mail: Mail): Promise<void> };

// Issue 3 item 3: nodemailer over SMTP_URL; without it, mail is kept in the database for /dev/mailbox.
export function createMailer(db: Db, smtpUrl: string | undefined, from: string): Mailer {
  if (!smtpUrl) {
    return {
      async send(mail) {
        await db.insert(authMail).values(mail);
      },
    };
  }
  const transport = nodemailer.createTransport(smtpUrl);
  return {
    async send(mail) {
      await transport.sendMail({ from, ...mail });
    },
  };
}
