import { type RoleApp, workspaceHost } from "@workmetrics/domain";
import { apiFetch } from "../../platform/api.ts";
import { getConfig, getSupabase, isRemembered } from "./client.ts";

// Signing in once across a workspace's hosts (issue 22): tokens live per origin, so the signed-in side asks the
// server for a short-lived, single-use code and opens the other host's /auth/handoff with it, which exchanges it for
// a session of the same person (the host rules still apply there).
export async function handoffUrl(app: RoleApp, to = "/dashboard"): Promise<string> {
  const client = await getSupabase();
  const { data } = await client.auth.getSession();
  const token = data.session?.access_token;
  const { baseDomain } = await getConfig();
  const slugFromHost = window.location.hostname.split(".")[0];
  const { code, slug } = await apiFetch<{ code: string; slug: string; expires_in: number }>("/api/auth/handoff", {
    method: "POST",
    headers: token ? { authorization: `Bearer ${token}` } : {},
    json: { app },
  });
  const host = workspaceHost(slug || slugFromHost, baseDomain ?? "localhost", app, window.location.port || undefined);
  return `${window.location.protocol}//${host}/auth/handoff?code=${encodeURIComponent(code)}&to=${encodeURIComponent(to)}${isRemembered() ? "&remember=1" : ""}`;
}

// Opens the other host signed in; a failure (offline, refused) falls back to its sign-in page.
export async function openSignedIn(app: RoleApp, to = "/dashboard"): Promise<void> {
  try {
    window.location.assign(await handoffUrl(app, to));
  } catch (err) {
    const { baseDomain } = await getConfig().catch(() => ({ baseDomain: "localhost" }));
    const slug = window.location.hostname.split(".")[0];
    const host = workspaceHost(slug, baseDomain ?? "localhost", app, window.location.port || undefined);
    if (navigator.onLine === false) throw err;
    window.location.assign(`${window.location.protocol}//${host}/auth/login?redirectedFrom=${encodeURIComponent(to)}`);
  }
}
