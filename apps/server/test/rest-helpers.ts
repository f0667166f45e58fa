import { PostgrestClient } from "@supabase/postgrest-js";
import { baseUrl } from "./http.ts";

export const DEMO_PASSWORD = "demo-pass-2026";

let anonKey: Promise<string> | null = null;
export function getAnonKey(): Promise<string> {
  anonKey ??= fetch(`${baseUrl()}/api/config`)
    .then((r) => r.json() as Promise<{ anonKey: string }>)
    .then((c) => c.anonKey);
  return anonKey;
}

const tokens = new Map<string, Promise<string>>();

// A demo user's access token (password grant), cached per e-mail for the test file.
export function tokenFor(email: string): Promise<string> {
  let t = tokens.get(email);
  if (!t) {
    t = (async () => {
      const res = await fetch(`${baseUrl()}/auth/v1/token?grant_type=password`, {
        method: "POST",
        headers: { "content-type": "application/json", apikey: await getAnonKey() },
        body: JSON.stringify({ email, password: DEMO_PASSWORD }),
      });
      if (!res.ok) throw new Error(`sign-in ${email}: ${res.status} ${await res.text()}`);
      return ((await res.json()) as { access_token: string }).access_token;
    })();
    tokens.set(email, t);
  }
  return t;
}

// postgrest-js exactly as supabase-js builds it, pointed at our /rest/v1; no e-mail: anon (the anon key only).
export async function rest(email?: string): Promise<PostgrestClient> {
  const key = await getAnonKey();
  const token = email ? await tokenFor(email) : key;
  return new PostgrestClient(`${baseUrl()}/rest/v1`, { headers: { apikey: key, Authorization: `Bearer ${token}` } });
}

// Raw fetch with a user's bearer token, for headers postgrest-js does not expose.
export async function restFetch(email: string | null, path: string, init: RequestInit = {}) {
  const key = await getAnonKey();
  const headers = new Headers(init.headers);
  headers.set("apikey", key);
  headers.set("authorization", `Bearer ${email ? await tokenFor(email) : key}`);
  if (init.body && !headers.has("content-type")) headers.set("content-type", "application/json");
  const res = await fetch(`${baseUrl()}/rest/v1/${path}`, { ...init, headers });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    // keep the text
  }
  return { status: res.status, headers: res.headers, body, text };
}
