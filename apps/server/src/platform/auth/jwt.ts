import type { AuthMethodReference } from "@workmetrics/domain/db/schema";
import { errors, jwtVerify, SignJWT } from "jose";

// Issue 3 rule 2: HS256 access tokens, one hour, a small leeway for clock skew.
export const ACCESS_TOKEN_SECONDS = 3600;
export const CLOCK_SKEW_SECONDS = 30;

export type AccessClaims = {
  iss: string;
  sub: string;
  aud: "authenticated";
  exp: number;
  iat: number;
  role: "authenticated";
  aal: "aal1" | "aal2";
  amr: AuthMethodReference[];
  session_id: string;
  email: string;
  phone: string;
  app_metadata: Record<string, unknown>;
  user_metadata: Record<string, unknown>;
  is_anonymous: false;
  // Workspace claims from the `user` row; null for users outside any workspace (platform operators).
  workspace_id: string | null;
  workspace_slug: string | null;
  role_id: number | null;
};

export type Signer = {
  issuer: string;
  sign(claims: Omit<AccessClaims, "iss" | "iat" | "exp" | "aud" | "role">, nowSeconds: number): Promise<string>;
  anonKey(): Promise<string>;
  verify(token: string, opts?: { ignoreExpiry?: boolean }): Promise<AccessClaims | null>;
};

export function createSigner(secret: string, publicUrl: string): Signer {
  const key = new TextEncoder().encode(secret);
  const issuer = `${publicUrl}/auth/v1`;
  let anon: Promise<string> | null = null;
  return {
    issuer,
    sign(claims, now) {
      return new SignJWT({ ...claims, role: "authenticated" })
        .setProtectedHeader({ alg: "HS256", typ: "JWT" })
        .setIssuer(issuer)
        .setAudience("authenticated")
        .setIssuedAt(now)
        .setExpirationTime(now + ACCESS_TOKEN_SECONDS)
        .sign(key);
    },
    // DESIGN §2.1: the public anon key is a long-lived JWT with role anon; it grants nothing beyond no key.
    anonKey() {
      anon ??= new SignJWT({ role: "anon" })
        .setProtectedHeader({ alg: "HS256", typ: "JWT" })
        .setIssuer(issuer)
        .setIssuedAt(1_767_225_600)
        .setExpirationTime(4_102_444_800)
        .sign(key);
      return anon;
    },
    async verify(token, opts = {}) {
      try {
        const { payload } = await jwtVerify(token, key, {
          algorithms: ["HS256"],
          audience: "authenticated",
          clockTolerance: opts.ignoreExpiry ? Number.MAX_SAFE_INTEGER : CLOCK_SKEW_SECONDS,
        });
        if (
          payload.role !== "authenticated" ||
          typeof payload.session_id !== "string" ||
          typeof payload.sub !== "string"
        ) {
          return null;
        }
        return payload as unknown as AccessClaims;
      } catch (err) {
        if (err instanceof errors.JOSEError || err instanceof TypeError) return null;
        throw err;
      }
    },
  };
}

// Spec §5: a session token has three dot-separated parts and a payload that decodes to a JSON object.
export function decodePayload(token: string): Record<string, unknown> | null {
  const parts = token.split(".");
  if (parts.length !== 3 || parts.some((p) => !/^[A-Za-z0-9_-]+$/.test(p))) return null;
  try {
    const payload: unknown = JSON.parse(Buffer.from(parts[1], "base64url").toString("utf8"));
    return payload && typeof payload === "object" && !Array.isArray(payload)
      ? (payload as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}
