import { createClient, type SupabaseClient } from "@supabase/supabase-js";

export type AppConfig = { url: string; anonKey: string; baseDomain?: string };

const REMEMBER_KEY = "workmetrics.remember";

// "Remember me" keeps the session in localStorage (survives the browser closing); otherwise sessionStorage.
const storage = {
  getItem: (key: string) => localStorage.getItem(key) ?? sessionStorage.getItem(key),
  setItem: (key: string, value: string) => {
    const remember = localStorage.getItem(REMEMBER_KEY) === "true";
    (remember ? localStorage : sessionStorage).setItem(key, value);
    (remember ? sessionStorage : localStorage).removeItem(key);
  },
  removeItem: (key: string) => {
    localStorage.removeItem(key);
    sessionStorage.removeItem(key);
  },
};

export function setRemember(remember: boolean): void {
  localStorage.setItem(REMEMBER_KEY, String(remember));
}
export const isRemembered = (): boolean => localStorage.getItem(REMEMBER_KEY) === "true";

let configPromise: Promise<AppConfig> | null = null;
let clientPromise: Promise<SupabaseClient> | null = null;

const CONFIG_KEY = "workmetrics.config";

// The last answer is kept for a role app started offline (issue 22): the anon key and base domain do not change
// between loads of this host.
export function getConfig(): Promise<AppConfig> {
  configPromise ??= fetch("/api/config")
    .then(async (r) => {
      if (!r.ok) throw new Error("Cannot reach the server. Check your connection and try again.");
      const cfg = (await r.json()) as AppConfig;
      localStorage.setItem(CONFIG_KEY, JSON.stringify(cfg));
      return cfg;
    })
    .catch((err: Error) => {
      const kept = localStorage.getItem(CONFIG_KEY);
      if (!kept)
        throw err instanceof TypeError
          ? new Error("Cannot reach the server. Check your connection and try again.")
          : err;
      return JSON.parse(kept) as AppConfig;
    });
  return configPromise;
}

// supabase-js against our own server (DESIGN §2.1): auth-js keeps, recovers and refreshes the session itself.
// Always the page's own origin: every workspace host is served by the same process, and same-origin needs no CORS.
export function getSupabase(): Promise<SupabaseClient> {
  clientPromise ??= getConfig().then((cfg) =>
    createClient(window.location.origin, cfg.anonKey, {
      auth: {
        persistSession: true,
        autoRefreshToken: true,
        detectSessionInUrl: true,
        flowType: "pkce",
        storage,
        storageKey: "sb-workmetrics-auth",
      },
      // DESIGN §2.3.2, spec §9: a join times out after 10 s, a heartbeat every 30 s (reconnects 1, 2, 5, 10 s are
      // realtime-js's own).
      realtime: { timeout: 10_000, heartbeatIntervalMs: 30_000 },
    }),
  );
  return clientPromise;
}
