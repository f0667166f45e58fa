import { sealer } from "../auth/crypto.ts";
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
type OpenPayload = Omit<OutgoingMail, "attachments"> & { attachments?: StoredAttachment[] };
// A mail that carries a secret (a sign-in link, a reset code) is kept sealed until it is sent: only its address and
// subject are readable in the job table (by an operator, a backup), the rest is AES-256-GCM under a key derived from
// JWT_SECRET (`mailSealer`). Pruning after the send drops the sealed part as it drops an open body.
type SealedPayload = Pick<OutgoingMail, "to" | "subject"> & { sealed: string };
export type MailPayload = OpenPayload | SealedPayload;

// What a mail is about: its workspace (RLS: a request's job must carry the request's workspace) and the document
// whose history shows its state.
export type MailAbout = { workspaceId?: string | null; docType?: string; docId?: number };

export type MailSealer = { seal(plain: string): string; open(sealed: string): string };
export const mailSealer = (jwtSecret: string): MailSealer => sealer(jwtSecret, "mail-job");

export function mailPayload(mail: OutgoingMail): OpenPayload {
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
  about: MailAbout & { sealWith?: MailSealer } = {},
): Promise<number | null> {
  const open = mailPayload(mail);
  const payload: MailPayload = about.sealWith
    ? { to: mail.to, subject: mail.subject, sealed: about.sealWith.seal(JSON.stringify(open)) }
    : open;
  return deps.jobs.enqueue(tx, {
    name: MAIL_JOB,
    payload,
    workspaceId: about.workspaceId ?? null,
    docType: about.docType ?? null,
    docId: about.docId ?? null,
  });
}

export const mailHandler =
  (mailer: Mailer, sealing?: MailSealer): JobHandler =>
  async (stored: MailPayload) => {
    let payload: OpenPayload;
    if ("sealed" in stored) {
      if (!sealing) throw new Error("This server cannot open a sealed mail (no sealer configured)");
      payload = JSON.parse(sealing.open(stored.sealed)) as OpenPayload;
    } else payload = stored;
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
