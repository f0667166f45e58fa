import type { Mailer } from "../auth/mail.ts";
import type { OutgoingMail } from "../auth/mail-templates.ts";
import type { Db, Tx } from "../db/database.ts";
import type { CommandDeps } from "./deps.ts";
import type { JobHandler } from "./worker.ts";

// Issue 20 §1: every e-mail goes through the outbox — a "mail" job written in the transaction of what causes it and
// sent by the worker through the server's mailer, retried with backoff when the mail server does not take it. The
// payload is the whole mail (attachments as base64): what is sent is what the command saw, whatever changes later.

export const MAIL_JOB = "mail";

type StoredAttachment = { filename: string; contentType: string; base64: string };
export type MailPayload = Omit<OutgoingMail, "attachments"> & { attachments?: StoredAttachment[] };

// What a mail is about: its workspace (RLS: a request's job must carry the request's workspace) and the document
// whose history shows its state.
export type MailAbout = { workspaceId?: string | null; docType?: string; docId?: number };

export function mailPayload(mail: OutgoingMail): MailPayload {
  const { attachments, ...rest } = mail;
  return {
    ...rest,
    ...(attachments?.length
      ? {
          attachments: attachments.map((a) => ({
            filename: a.filename,
            contentType: a.contentType,
            base64: a.content.toString("base64"),
          })),
        }
      : {}),
  };
}

// Enqueues `mail` in `tx`; the job's id.
export async function queueMail(
  deps: Pick<CommandDeps, "jobs">,
  tx: Tx | Db,
  mail: OutgoingMail,
  about: MailAbout = {},
): Promise<number | null> {
  return deps.jobs.enqueue(tx, {
    name: MAIL_JOB,
    payload: mailPayload(mail),
    workspaceId: about.workspaceId ?? null,
    docType: about.docType ?? null,
    docId: about.docId ?? null,
  });
}

export const mailHandler =
  (mailer: Mailer): JobHandler =>
  async (payload: MailPayload) => {
    const { attachments, ...mail } = payload;
    await mailer.send({
      ...mail,
      ...(attachments?.length
        ? {
            attachments: attachments.map((a) => ({
              filename: a.filename,
              contentType: a.contentType,
              content: Buffer.from(a.base64, "base64"),
            })),
          }
        : {}),
    });
  };
