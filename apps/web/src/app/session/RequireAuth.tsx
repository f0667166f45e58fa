import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Stack from "@mui/material/Stack";
import { decideHost, parseHost, ROLE, type RoleApp } from "@workmetrics/domain";
import { type ReactNode, useEffect, useState } from "react";
import toast from "react-hot-toast";
import { Navigate, useLocation } from "react-router";
import { FullScreenSpinner } from "../FullScreenSpinner.tsx";
import { getConfig } from "./client.ts";
import { useSession } from "./SessionProvider.tsx";

// Spec §2: a protected page needs a session and shows a full-screen spinner until the database user is loaded.
// `children` receives the app this host serves: the back office ("main") or a role app (pos, driver, warehouse).
export function RequireAuth({ children }: { children: (app: RoleApp) => ReactNode }) {
  const { session, loading, needsMfa, dbUser, dbUserLoading, dbUserError, signOut } = useSession();
  const location = useLocation();
  const app = useHostRules();

  if (loading) return <FullScreenSpinner />;
  const from = `${location.pathname}${location.search}`;
  if (!session || needsMfa) return <Navigate to={`/auth/login?redirectedFrom=${encodeURIComponent(from)}`} replace />;
  // The server no longer accepts this session (ended elsewhere, user deactivated): sign in again.
  if (dbUserError?.status === 401) return <SignOutTo path={`/auth/login?redirectedFrom=${encodeURIComponent(from)}`} />;
  if (dbUserError) {
    return (
      <Box sx={{ minHeight: "100vh", display: "grid", placeItems: "center", p: 2 }}>
        <Stack spacing={2} sx={{ maxWidth: 420 }}>
          <Alert severity="error">We could not load your account: {dbUserError.message}</Alert>
          <Button variant="contained" onClick={() => signOut().then(() => window.location.assign("/auth/login"))}>
            Sign in again
          </Button>
        </Stack>
      </Box>
    );
  }
  if (dbUserLoading || !dbUser || !app) return <FullScreenSpinner label="Loading your workspace" />;
  return children(app);
}

// DESIGN §3.3: host rules on every page load once the user is known; the app the host serves once allowed.
function useHostRules(): RoleApp | null {
  const { dbUser, signOut } = useSession();
  const [app, setApp] = useState<RoleApp | null>(null);
  useEffect(() => {
    if (!dbUser) return;
    let cancelled = false;
    getConfig().then(async ({ baseDomain }) => {
      if (cancelled) return;
      const profile = dbUser.profile;
      const ws = profile?.workspace;
      const decision = ws
        ? decideHost({
            host: window.location.host,
            path: window.location.pathname,
            baseDomain: baseDomain ?? "localhost",
            user: {
              roleId: profile?.role_id ?? 0,
              workspaceSlug: ws.slug,
              tierId: ws.tier_id,
              isOwner: profile?.role_id === ROLE.Owner,
            },
          })
        : ({ action: "allow" } as const);
      if (decision.action === "redirect") {
        // Another workspace's /_workspaces address: the same page of one's own, told why.
        if (decision.message) toast(decision.message);
        return window.location.replace(`${decision.to}${window.location.search}${window.location.hash}`);
      }
      if (decision.action !== "signOut") {
        const host = parseHost(window.location.host, baseDomain ?? "localhost");
        return setApp(host.kind === "workspace" ? host.app : "main");
      }
      await signOut();
      if (decision.message) toast.error(decision.message);
      const port = window.location.port ? `:${window.location.port}` : "";
      // Sent to another host, the person signs in there, told why, and returns to the page they asked for.
      const back = decision.path === "/auth/login" ? "" : `&redirectedFrom=${encodeURIComponent(decision.path)}`;
      const login = `/auth/login?message=${encodeURIComponent(decision.message ?? "")}${back}`;
      if (decision.toHost) window.location.assign(`${window.location.protocol}//${decision.toHost}${port}${login}`);
      else window.location.assign(login);
    });
    return () => {
      cancelled = true;
    };
  }, [dbUser, signOut]);
  return app;
}

function SignOutTo({ path }: { path: string }) {
  const { signOut } = useSession();
  useEffect(() => {
    signOut().then(() => window.location.assign(path));
  }, [signOut, path]);
  return <FullScreenSpinner />;
}
