import { hkdfSync } from "node:crypto";
import { errors, jwtVerify, SignJWT } from "jose";
import { StorageError } from "./storage-error.ts";

// A signed URL carries a JWT naming one object (bucket/path and its stable id) in one workspace until it expires,
// signed with a key derived from JWT_SECRET for this purpose only (an access token can never pass for one).
export type SignedClaims = { url: string; ws: string; oid: string };

export const MAX_SIGNED_SECONDS = 365 * 24 * 3600;

export function createUrlSigner(secret: string) {
  const key = new Uint8Array(hkdfSync("sha256", secret, "workmetrics", "storage-signed-url", 32));
  return {
    sign(claims: SignedClaims, expiresIn: number): Promise<string> {
      const now = Math.floor(Date.now() / 1000);
      return new SignJWT({ ...claims })
        .setProtectedHeader({ alg: "HS256", typ: "JWT" })
        .setIssuedAt(now)
        .setExpirationTime(now + expiresIn)
        .sign(key);
    },
    async verify(token: string | undefined): Promise<SignedClaims> {
      if (!token) throw new StorageError(400, "InvalidJWT", "This link has no token.");
      try {
        const { payload } = await jwtVerify(token, key, { algorithms: ["HS256"] });
        const { url, ws, oid } = payload;
        if (typeof url !== "string" || typeof ws !== "string" || typeof oid !== "string") {
          throw new errors.JWTInvalid("claims");
        }
        return { url, ws, oid };
      } catch (err) {
        if (err instanceof errors.JWTExpired) {
          throw new StorageError(400, "InvalidJWT", "This link has expired. Ask for a new one.");
        }
        if (err instanceof errors.JOSEError || err instanceof TypeError) {
          throw new StorageError(400, "InvalidJWT", "This link is not valid.");
        }
        throw err;
      }
    },
  };
}

export type UrlSigner = ReturnType<typeof createUrlSigner>;
