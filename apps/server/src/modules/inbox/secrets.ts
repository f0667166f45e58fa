import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";

// Issue 24: a channel's token is kept only sealed — AES-256-GCM with SECRETS_KEY (DESIGN §3.1), the workspace and
// the account in the associated data, so a sealed token copied onto another account or workspace does not open.
// "v1.<iv>.<tag>.<ciphertext>", base64url. Nothing here logs or returns a token.

const aad = (workspaceId: string, accountId: number) => Buffer.from(`channel_account:${workspaceId}:${accountId}`);

export function seal(key: Buffer, workspaceId: string, accountId: number, token: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  cipher.setAAD(aad(workspaceId, accountId));
  const ct = Buffer.concat([cipher.update(token, "utf8"), cipher.final()]);
  const tag = cipher.getAuthTag();
  return ["v1", iv.toString("base64url"), tag.toString("base64url"), ct.toString("base64url")].join(".");
}

export class SealError extends Error {}

export function unseal(key: Buffer, workspaceId: string, accountId: number, sealed: string): string {
  const [v, iv, tag, ct] = sealed.split(".");
  if (v !== "v1" || !iv || !tag || ct === undefined)
    throw new SealError("The stored token is not sealed by this server");
  try {
    const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64url"));
    decipher.setAAD(aad(workspaceId, accountId));
    decipher.setAuthTag(Buffer.from(tag, "base64url"));
    return Buffer.concat([decipher.update(Buffer.from(ct, "base64url")), decipher.final()]).toString("utf8");
  } catch {
    throw new SealError("The stored token does not open with this SECRETS_KEY (or belongs to another account)");
  }
}
