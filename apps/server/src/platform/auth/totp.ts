import { Secret, TOTP } from "otpauth";

// RFC 6238 TOTP (SHA-1, 6 digits, 30 s), as authenticator apps expect — through otpauth, a well-kept library, rather
// than our own HMAC and base32 (issue 21 §2: a security primitive comes from the library).
export const TOTP_PERIOD = 30;
const TOTP_OPTIONS = { algorithm: "SHA1", digits: 6, period: TOTP_PERIOD } as const;

const totpFor = (secret: string, label?: { issuer: string; account: string }) =>
  new TOTP({
    ...TOTP_OPTIONS,
    secret: Secret.fromBase32(secret),
    ...(label ? { issuer: label.issuer, label: label.account } : {}),
  });

export const base32Encode = (bytes: Uint8Array): string => new Secret({ buffer: Uint8Array.from(bytes).buffer }).base32;

export function base32Decode(text: string): Buffer {
  if (!/^[A-Z2-7]*=*$/i.test(text)) throw new Error("invalid base32");
  return Buffer.from(Secret.fromBase32(text.toUpperCase()).bytes);
}

// 160 bits, the size RFC 4226 recommends for HMAC-SHA-1.
export const newTotpSecret = (): string => new Secret({ size: 20 }).base32;

export const totpStep = (nowMs: number): number => Math.floor(nowMs / 1000 / TOTP_PERIOD);

// The code of one time step (the HOTP of its counter).
export const hotp = (secret: string, counter: number): string =>
  totpFor(secret).generate({ timestamp: counter * TOTP_PERIOD * 1000 });

// Accepts the current step and one either side (clock drift); returns the matched step or null.
export function verifyTotp(secret: string, code: string, nowMs: number, window = 1): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const delta = totpFor(secret).validate({ token: code, timestamp: nowMs, window });
  return delta === null ? null : totpStep(nowMs) + delta;
}

export const totpUri = (opts: { secret: string; issuer: string; account: string }): string =>
  totpFor(opts.secret, opts).toString();
