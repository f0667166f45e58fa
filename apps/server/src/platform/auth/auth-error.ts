import type { FastifyReply, FastifyRequest } from "fastify";

// GoTrue's error codes as auth-js reads them (lib/error-codes.ts); only the ones this server answers.
export type AuthErrorCode =
  | "unexpected_failure"
  | "validation_failed"
  | "bad_json"
  | "email_exists"
  | "bad_jwt"
  | "not_admin"
  | "no_authorization"
  | "user_not_found"
  | "session_not_found"
  | "refresh_token_not_found"
  | "refresh_token_already_used"
  | "flow_state_not_found"
  | "flow_state_expired"
  | "user_banned"
  | "email_provider_disabled"
  | "phone_provider_disabled"
  | "mfa_factor_not_found"
  | "mfa_challenge_expired"
  | "mfa_verification_failed"
  | "insufficient_aal"
  | "email_not_confirmed"
  | "phone_not_confirmed"
  | "reauth_nonce_missing"
  | "user_already_exists"
  | "provider_disabled"
  | "reauthentication_needed"
  | "same_password"
  | "reauthentication_not_valid"
  | "otp_expired"
  | "weak_password"
  | "over_request_rate_limit"
  | "over_email_send_rate_limit"
  | "bad_code_verifier"
  | "invalid_credentials"
  | "email_address_invalid"
  | "not_found";

export class AuthError extends Error {
  constructor(
    readonly status: number,
    readonly code: AuthErrorCode,
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

export const API_VERSION = "2024-01-01";

// GoTrue answers `{code, message}` to clients that send X-Supabase-Api-Version ≥ 2024-01-01 (auth-js does),
// and the legacy `{code: <status>, error_code, msg}` to everyone else.
export function sendAuthError(req: FastifyRequest, reply: FastifyReply, err: AuthError): FastifyReply {
  const version = req.headers["x-supabase-api-version"];
  const modern = typeof version === "string" && /^\d{4}-\d{2}-\d{2}$/.test(version) && version >= API_VERSION;
  reply.code(err.status).header("x-supabase-api-version", API_VERSION);
  if (err.status === 429) reply.header("retry-after", String(err.extra.retryAfter ?? 60));
  const { retryAfter: _r, ...extra } = err.extra;
  return modern
    ? reply.send({ code: err.code, message: err.message, ...extra })
    : reply.send({ code: err.status, error_code: err.code, msg: err.message, ...extra });
}

export const badRequest = (code: AuthErrorCode, message: string, extra?: Record<string, unknown>) =>
  new AuthError(400, code, message, extra);
export const unprocessable = (code: AuthErrorCode, message: string, extra?: Record<string, unknown>) =>
  new AuthError(422, code, message, extra);
