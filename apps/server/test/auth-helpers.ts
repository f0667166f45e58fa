import { AuthClient, type GoTrueClient } from "@supabase/auth-js";
import * as OTPAuth from "otpauth";
import { SMTPServer } from "smtp-server";

export const DEMO_PASSWORD = "demo-pass-2026";

// auth-js exactly as the web app uses it (supabase-js wraps this client), pointed at our server.
export async function authClient(baseUrl: string): Promise<GoTrueClient> {
  const { anonKey } = (await (await fetch(`${baseUrl}/api/config`)).json()) as { anonKey: string };
  return new AuthClient({
    url: `${baseUrl}/auth/v1`,
    headers: { apikey: anonKey, Authorization: `Bearer ${anonKey}` },
    persistSession: false,
    autoRefreshToken: false,
    detectSessionInUrl: false,
  });
}

export const uniqueEmail = (tag: string) =>
  `${tag}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}@example.com`;

export type CaughtMail = { to: string; subject: string; text: string };

// A real SMTP receiver: the server under test sends through nodemailer to it (SMTP_URL).
export async function startMailCatcher(): Promise<{
  url: string;
  mails: CaughtMail[];
  next(to: string): Promise<CaughtMail>;
  close(): Promise<void>;
}> {
  const mails: CaughtMail[] = [];
  const waiters: Array<() => void> = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        const raw = Buffer.concat(chunks).toString("utf8");
        const subject = /^Subject: (.*)$/im.exec(raw)?.[1] ?? "";
        mails.push({
          to: session.envelope.rcptTo.map((r) => r.address).join(","),
          subject,
          text: decodeQuotedPrintable(raw),
        });
        for (const w of waiters.splice(0)) w();
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.server.address();
  const port = address && typeof address === "object" ? address.port : 0;
  const taken = new Set<CaughtMail>();
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    // The next not-yet-read mail to this address; mail is sent before the API answers, so it is normally there.
    async next(to) {
      for (let i = 0; i < 50; i++) {
        const mail = mails.find((m) => !taken.has(m) && m.to.toLowerCase() === to.toLowerCase());
        if (mail) {
          taken.add(mail);
          return mail;
        }
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 100);
        });
      }
      throw new Error(`no mail to ${to}`);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function decodeQuotedPrintable(raw: string): string {
  return raw
    .replace(/=\r?\n/g, "")
    .replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(Number.parseInt(h, 16)));
}

export const linkIn = (text: string): string => {
  const m = /https?:\/\/[^\s"<>]+\/auth\/v1\/verify\?[^\s"<>]+/.exec(text);
  if (!m) throw new Error(`no verify link in: ${text.slice(0, 300)}`);
  return m[0].replace(/&amp;/g, "&");
};

export const codeIn = (text: string): string => {
  const m = /code: (\d{6})/.exec(text);
  if (!m) throw new Error("no code in mail");
  return m[1];
};

// Mail kept by the built-in mailbox (no SMTP_URL), newest first.
type Mail = { subject: string; text: string };

// The dev mailbox's mail to `to`, newest first. `until`: waits (up to 5 s) for the mailbox to hold what it asks — mail
// sent from inside a command's transaction is kept once that transaction lets go of the database (mail.ts), a moment
// after the command has answered.
export async function mailboxTo(baseUrl: string, to: string, until?: (mail: Mail[]) => boolean): Promise<Mail[]> {
  const read = async () =>
    (await (await fetch(`${baseUrl}/dev/mailbox?format=json&to=${encodeURIComponent(to)}`)).json()) as Mail[];
  let mail = await read();
  for (let i = 0; until && !until(mail) && i < 100; i++) {
    await new Promise((r) => setTimeout(r, 50));
    mail = await read();
  }
  return mail;
}

export const some = (mail: Mail[]) => mail.length > 0;

export function totpNow(secret: string): string {
  return new OTPAuth.TOTP({
    secret: OTPAuth.Secret.fromBase32(secret),
    digits: 6,
    period: 30,
    algorithm: "SHA1",
  }).generate();
}

export function fragmentParams(location: string): URLSearchParams {
  return new URLSearchParams(location.split("#")[1] ?? "");
}
