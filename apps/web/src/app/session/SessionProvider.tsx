import type { AuthChangeEvent, Session, SupabaseClient } from "@supabase/supabase-js";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { ANONYMOUS, type Member } from "@workmetrics/domain";
import { workspaceLocale } from "@workmetrics/domain/locale";
import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from "react";
import { ApiError, apiFetch } from "../../platform/api.ts";
import { setDisplayLocale } from "../../platform/fields/format.ts";
import { type Viewer, ViewerProvider } from "../../platform/session/viewer.tsx";
import { getSupabase, isRemembered } from "./client.ts";
import type { DbUser } from "./types.ts";

type SessionState = {
  client: SupabaseClient | null;
  session: Session | null;
  loading: boolean; // the auth session is still being recovered
  error: string | null;
  dbUser: DbUser | undefined;
  dbUserLoading: boolean;
  needsMfa: boolean; // signed in with a password but the second step is still due
  dbUserError: { message: string; status: number } | null;
  signOut(returnTo?: string): Promise<void>;
  // Resolves once the server's cookies follow the latest auth event (await before a full page load).
  cookiesSynced(): Promise<void>;
};

// The session's client (and /api/config before it) starts loading as soon as this module does — before the pages
// under the provider have loaded and it has rendered — so a page opened directly waits on neither in turn.
void getSupabase().catch(() => undefined);

const Ctx = createContext<SessionState | null>(null);
const DB_USER = "db-user";

// Spec §2/§4: every auth state change is posted to /api/auth/callback so the server's cookies follow the session.
let lastPost: Promise<void> = Promise.resolve();
function postCallback(event: AuthChangeEvent, session: Session | null): Promise<void> {
  lastPost = lastPost.then(() => sendCallback(event, session));
  return lastPost;
}
const cookiesSynced = () => lastPost;

// The small answer is read to the end: an unread body keeps the request open, so the page never goes network-idle.
async function sendCallback(event: AuthChangeEvent, session: Session | null): Promise<void> {
  await fetch("/api/auth/callback", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ event, session, remember: isRemembered() }),
    credentials: "same-origin",
  })
    .then((res) => res.text())
    .catch(() => undefined);
}

export function SessionProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const [client, setClient] = useState<SupabaseClient | null>(null);
  const [session, setSession] = useState<Session | null>(null);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let unsubscribe: (() => void) | undefined;
    let cancelled = false;
    getSupabase().then(
      (c) => {
        if (cancelled) return;
        setClient(c);
        const { data } = c.auth.onAuthStateChange((event, s) => {
          setSession(s);
          setLoading(false);
          if (event !== "INITIAL_SESSION") void postCallback(event, s);
        });
        unsubscribe = () => data.subscription.unsubscribe();
        void adoptLinkSession(c);
      },
      (err: Error) => {
        setError(err.message);
        setLoading(false);
      },
    );
    return () => {
      cancelled = true;
      unsubscribe?.();
    };
  }, []);

  const userId = session?.user.id;
  const token = session?.access_token;
  // An MFA user's aal1 session cannot read the user; the aal2 token after the code must fetch it afresh.
  const aal = token ? tokenClaim(token, "aal") : undefined;
  const needsMfa = aal === "aal1" && Boolean(session?.user.factors?.some((f) => f.status === "verified"));
  // Spec §9: the database user is fresh for 60 s and refetched when the auth user changes.
  const dbUserQuery = useQuery({
    queryKey: [DB_USER, userId, aal],
    queryFn: () => loadDbUser(userId as string, token as string),
    // Until the code step, a user with a verified factor holds an aal1 token the server will not accept.
    enabled: Boolean(userId && token) && !needsMfa,
    staleTime: 60_000,
    retry: (count, err) => count < 3 && !(err instanceof ApiError && err.status === 401),
  });

  const signOut = useCallback(
    async (returnTo = "/auth/login") => {
      // Spec §4: sign out of auth, call the logout endpoint, drop the cached database user. Auth first, so its
      // logout call still has a live session to end (the other order leaves auth-js a 403 to swallow).
      await client?.auth.signOut({ scope: "local" });
      // Let every queued callback (SIGNED_OUT last) reach the server first, so none re-sets a cookie afterwards.
      await cookiesSynced();
      await fetch(`/api/auth/logout?returnTo=${encodeURIComponent(returnTo)}`, {
        redirect: "manual",
        credentials: "same-origin",
      }).catch(() => undefined);
      queryClient.removeQueries({ queryKey: [DB_USER] });
      forgetDbUser();
    },
    [client, queryClient],
  );

  const value = useMemo<SessionState>(
    () => ({
      client,
      session,
      loading,
      error,
      dbUser: dbUserQuery.data,
      dbUserLoading: dbUserQuery.isPending && Boolean(userId) && !needsMfa,
      needsMfa,
      dbUserError: dbUserQuery.error
        ? {
            message: dbUserQuery.error.message,
            status: dbUserQuery.error instanceof ApiError ? dbUserQuery.error.status : 0,
          }
        : null,
      signOut,
      cookiesSynced,
    }),
    [
      client,
      session,
      loading,
      error,
      needsMfa,
      dbUserQuery.data,
      dbUserQuery.isPending,
      dbUserQuery.error,
      userId,
      signOut,
    ],
  );
  const viewer = useMemo(() => viewerOf(client, dbUserQuery.data), [client, dbUserQuery.data]);
  return (
    <Ctx.Provider value={value}>
      <ViewerProvider value={viewer}>{children}</ViewerProvider>
    </Ctx.Provider>
  );
}

// The database user, kept on the device for a role app opened with no network (issue 22 "Offline"): the last answer
// the server gave for this person, until they sign out. Online the server's answer always wins.
const DB_USER_KEY = "workmetrics.db-user";

async function loadDbUser(userId: string, token: string): Promise<DbUser> {
  try {
    const fresh = await apiFetch<DbUser>("/api/auth/user", { headers: { authorization: `Bearer ${token}` } });
    localStorage.setItem(DB_USER_KEY, JSON.stringify(fresh));
    return fresh;
  } catch (err) {
    const kept = err instanceof ApiError && err.status === 0 ? localStorage.getItem(DB_USER_KEY) : null;
    const user = kept ? (JSON.parse(kept) as DbUser) : null;
    if (user && user.user.id === userId) return user;
    throw err;
  }
}

const forgetDbUser = () => localStorage.removeItem(DB_USER_KEY);

// Who the generic screens and the access rule see: an operator, a member with the permissions and tier the
// server checks, or nobody yet.
function viewerOf(client: SupabaseClient | null, dbUser: DbUser | undefined): Viewer {
  const profile = dbUser?.profile;
  const member: Member = dbUser?.is_platform_operator
    ? { kind: "operator" }
    : profile
      ? { kind: "member", permissions: profile.role.permissions, features: profile.workspace.tier.features }
      : ANONYMOUS;
  const currency = profile?.workspace.base_currency ?? "SGD";
  // Issue 21 §1: dates, numbers and money on every page read in the workspace's locale. Set here, as the member
  // is known and before the pages under this provider render with it.
  setDisplayLocale(workspaceLocale({ baseCurrency: currency }));
  return { client, member, known: Boolean(dbUser), currency };
}

export function useSession(): SessionState {
  const ctx = useContext(Ctx);
  if (!ctx) throw new Error("useSession outside SessionProvider");
  return ctx;
}

function tokenClaim(token: string, claim: string): unknown {
  try {
    const payload = JSON.parse(atob(token.split(".")[1].replace(/-/g, "+").replace(/_/g, "/")));
    return payload?.[claim];
  } catch {
    return undefined;
  }
}

// Links the server sends on its own (company sign-up, invitations) carry the session in the fragment, as GoTrue's
// implicit flow does; the client runs the PKCE flow for what it starts itself, so it adopts such a session here.
async function adoptLinkSession(client: SupabaseClient): Promise<void> {
  const hash = new URLSearchParams(window.location.hash.slice(1));
  const access_token = hash.get("access_token");
  const refresh_token = hash.get("refresh_token");
  if (!access_token || !refresh_token) return;
  window.history.replaceState(null, "", window.location.pathname + window.location.search);
  await client.auth.setSession({ access_token, refresh_token });
}
