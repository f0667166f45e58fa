import { StorageClient } from "@supabase/storage-js";
import { authClient, DEMO_PASSWORD } from "./auth-helpers.ts";
import { baseUrl } from "./http.ts";

// /storage/v1 with @supabase/storage-js as the client, signed in as a demo user.
export type Signed = { storage: StorageClient; token: string; anonKey: string };

export async function signedIn(email: string): Promise<Signed> {
  const auth = await authClient(baseUrl());
  const { data, error } = await auth.signInWithPassword({ email, password: DEMO_PASSWORD });
  if (error || !data.session) throw new Error(`sign-in failed for ${email}: ${error?.message}`);
  const { anonKey } = (await (await fetch(`${baseUrl()}/api/config`)).json()) as { anonKey: string };
  const token = data.session.access_token;
  return {
    storage: new StorageClient(`${baseUrl()}/storage/v1`, { apikey: anonKey, Authorization: `Bearer ${token}` }),
    token,
    anonKey,
  };
}

export const unique = (tag: string) => `${tag}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
export const bytes = (n: number, fill = 97) => new Uint8Array(n).fill(fill);
