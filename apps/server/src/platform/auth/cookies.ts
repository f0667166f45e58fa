import type { FastifyReply, FastifyRequest } from "fastify";

// Spec §9 and issue 3 item 4: cookies prefixed sb, HttpOnly, SameSite=Lax, Path=/, Secure over https, no Domain.
export const SESSION_COOKIE = "sb-access-token";
export const COOKIE_MAX_AGE = 28_800;
export const COOKIE_MAX_AGE_REMEMBER = 604_800;
// Browsers keep at most 4096 bytes per cookie, name and attributes included: longer tokens are split into
// sb-access-token.0, sb-access-token.1, …
export const CHUNK_SIZE = 3_800;
const MAX_CHUNKS = 8;

// RFC 6265 cookie-octet and token (name) characters.
const COOKIE_VALUE = /^[\x21\x23-\x2B\x2D-\x3A\x3C-\x5B\x5D-\x7E]*$/;
const COOKIE_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

export const isValidCookieName = (name: string) => COOKIE_NAME.test(name);
export const isValidCookieValue = (value: string) => COOKIE_VALUE.test(value);

export function chunk(value: string): string[] {
  const parts: string[] = [];
  for (let i = 0; i < value.length; i += CHUNK_SIZE) parts.push(value.slice(i, i + CHUNK_SIZE));
  return parts.length ? parts : [""];
}

// The token from the sb cookie (joined from its chunks); null when absent or holding invalid characters.
export function readSessionCookie(req: FastifyRequest): string | null {
  const cookies = req.cookies ?? {};
  const whole = cookies[SESSION_COOKIE];
  if (whole !== undefined) return whole && isValidCookieValue(whole) ? whole : null;
  const parts: string[] = [];
  for (let i = 0; i < MAX_CHUNKS; i++) {
    const part = cookies[`${SESSION_COOKIE}.${i}`];
    if (part === undefined) break;
    if (!isValidCookieValue(part)) return null;
    parts.push(part);
  }
  return parts.length ? parts.join("") : null;
}

const existingNames = (req: FastifyRequest) =>
  Object.keys(req.cookies ?? {}).filter((n) => n === SESSION_COOKIE || n.startsWith(`${SESSION_COOKIE}.`));

export function setSessionCookie(req: FastifyRequest, reply: FastifyReply, token: string, remember: boolean): void {
  const parts = chunk(token);
  const names = parts.length === 1 ? [SESSION_COOKIE] : parts.map((_, i) => `${SESSION_COOKIE}.${i}`);
  const options = {
    path: "/",
    httpOnly: true,
    sameSite: "lax" as const,
    secure: req.protocol === "https",
    maxAge: remember ? COOKIE_MAX_AGE_REMEMBER : COOKIE_MAX_AGE,
  };
  names.forEach((name, i) => {
    // Spec §5: names and values with characters a cookie cannot carry are refused, never sent mangled.
    if (!isValidCookieName(name) || !isValidCookieValue(parts[i])) throw new Error("invalid cookie name or value");
    reply.setCookie(name, parts[i], options);
  });
  for (const stale of existingNames(req).filter((n) => !names.includes(n))) clearCookie(req, reply, stale);
}

function clearCookie(req: FastifyRequest, reply: FastifyReply, name: string): void {
  reply.setCookie(name, "", {
    path: "/",
    httpOnly: true,
    sameSite: "lax",
    secure: req.protocol === "https",
    maxAge: 0,
    expires: new Date(0),
  });
}

export function clearSessionCookies(req: FastifyRequest, reply: FastifyReply): void {
  const names = new Set([SESSION_COOKIE, ...existingNames(req)]);
  for (const name of names) clearCookie(req, reply, name);
}
