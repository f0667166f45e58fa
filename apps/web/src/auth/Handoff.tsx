import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import CircularProgress from "@mui/material/CircularProgress";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import { samePath } from "@workmetrics/domain";
import { useEffect, useRef, useState } from "react";
import { useSearchParams } from "react-router";
import { setRemember } from "../app/session/client.ts";
import { useSession } from "../app/session/SessionProvider.tsx";
import { ApiError, apiFetch } from "../platform/api.ts";
import { AuthCard } from "./AuthLayout.tsx";

type TokenResponse = { access_token: string; refresh_token: string };

// Issue 22: the other host of the workspace opened this page with a single-use code (GET /auth/handoff?code=…&to=…);
// it becomes a session of the same person here, without the password, then the page asked for opens (the host
// rules apply there as on any page load).
export default function Handoff() {
  const { client, cookiesSynced } = useSession();
  const [params] = useSearchParams();
  const [error, setError] = useState<string | null>(null);
  const started = useRef(false);
  const to = samePath(params.get("to"), "/dashboard");
  const code = params.get("code") ?? "";

  useEffect(() => {
    if (!client || started.current) return;
    started.current = true;
    // The code leaves the address bar and the history at once.
    window.history.replaceState(null, "", `/auth/handoff?to=${encodeURIComponent(to)}`);
    if (!code) {
      setError("This sign-in link is incomplete. Sign in with your password instead.");
      return;
    }
    if (params.get("remember") === "1") setRemember(true);
    (async () => {
      const session = await apiFetch<TokenResponse>("/api/auth/handoff/exchange", { method: "POST", json: { code } });
      const { error: setErr } = await client.auth.setSession(session);
      if (setErr) throw new Error(setErr.message);
      await cookiesSynced();
      window.location.replace(to);
    })().catch((err: unknown) => {
      setError(
        err instanceof ApiError || err instanceof Error
          ? err.message
          : "We could not sign you in here. Sign in with your password instead.",
      );
    });
  }, [client, code, to, params, cookiesSynced]);

  return (
    <AuthCard title={error ? "This link did not sign you in" : "Signing you in"}>
      {error ? (
        <Stack spacing={2}>
          <Alert severity="warning">{error}</Alert>
          <Button
            variant="contained"
            size="large"
            href={`/auth/login?redirectedFrom=${encodeURIComponent(to)}`}
            sx={{ minHeight: 48 }}
          >
            Sign in
          </Button>
        </Stack>
      ) : (
        <Stack direction="row" spacing={2} sx={{ alignItems: "center" }}>
          <CircularProgress size={24} />
          <Typography color="text.secondary">One moment…</Typography>
        </Stack>
      )}
    </AuthCard>
  );
}
