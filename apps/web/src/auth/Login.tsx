import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import Checkbox from "@mui/material/Checkbox";
import FormControlLabel from "@mui/material/FormControlLabel";
import Link from "@mui/material/Link";
import Stack from "@mui/material/Stack";
import { useTheme } from "@mui/material/styles";
import TextField from "@mui/material/TextField";
import { MESSAGES, parseHost, REDIRECTS, samePath } from "@workmetrics/domain";
import { type FormEvent, useEffect, useState } from "react";
import toast from "react-hot-toast";
import { Link as RouterLink, useNavigate, useSearchParams } from "react-router";
import { getConfig, isRemembered, setRemember } from "../app/session/client.ts";
import { useSession } from "../app/session/SessionProvider.tsx";
import { installRoleApp } from "../roleapps/shell/pwa.ts";
import { AuthCard } from "./AuthLayout.tsx";

const looksLikePhone = (v: string) => /^\+?[\d\s-]{6,}$/.test(v.trim());

// Only same-app paths are followed after sign-in (the one rule the server's redirects use too).
export const safeRedirect = (target: string | null): string => samePath(target, REDIRECTS.loginSuccess);

export default function Login() {
  const { client, error: unreachable, cookiesSynced } = useSession();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [identifier, setIdentifier] = useState("");
  const [password, setPassword] = useState("");
  const [remember, setRememberState] = useState(isRemembered());
  const [code, setCode] = useState("");
  const [step, setStep] = useState<"password" | "mfa">("password");
  const [failure, setError] = useState<string | null>(params.get("message"));
  const error = failure ?? unreachable;
  const [busy, setBusy] = useState(false);
  const next = safeRedirect(params.get("redirectedFrom"));
  const { session, loading, needsMfa } = useSession();

  // Issue 22: on a role app's host the sign-in page installs the app's worker too, so after a first visit it opens
  // offline (its navigations fall back to the cached shell) and the app is installable before signing in.
  const theme = useTheme();
  useEffect(() => {
    void getConfig()
      .then(({ baseDomain }) => {
        const host = parseHost(window.location.host, baseDomain ?? "localhost");
        if (host.kind === "workspace" && host.app !== "main") installRoleApp(theme.palette.primary.main);
      })
      .catch(() => undefined);
  }, [theme.palette.primary.main]);

  // A forced sign-out (host and tier rules, spec §8) arrives with its message: say it as a toast too.
  const forced = params.get("message");
  useEffect(() => {
    if (forced) toast.error(forced, { id: "forced-sign-out" });
  }, [forced]);

  // Already signed in (e.g. the root of a workspace host sends everyone here): go straight on, or to the code step.
  useEffect(() => {
    if (loading || !session || step !== "password" || busy || params.get("message")) return;
    if (needsMfa) setStep("mfa");
    else void cookiesSynced().then(() => navigate(next, { replace: true }));
  }, [loading, session, needsMfa, step, busy, params, navigate, next, cookiesSynced]);

  async function signIn(e: FormEvent) {
    e.preventDefault();
    if (!client) return;
    if (!identifier.trim() || !password) return setError(MESSAGES.emailOrPhoneRequired);
    setBusy(true);
    setError(null);
    setRemember(remember);
    const id = identifier.trim();
    const { error: err } = await client.auth.signInWithPassword(
      looksLikePhone(id) ? { phone: id, password } : { email: id, password },
    );
    if (err) {
      setBusy(false);
      return setError(err.message);
    }
    const { data: aal } = await client.auth.mfa.getAuthenticatorAssuranceLevel();
    if (aal && aal.nextLevel === "aal2" && aal.currentLevel !== "aal2") {
      setBusy(false);
      return setStep("mfa");
    }
    // Still busy until the page changes, so the "already signed in" effect does not race the cookies.
    await cookiesSynced();
    navigate(next, { replace: true });
  }

  async function verifyCode(e: FormEvent) {
    e.preventDefault();
    if (!client) return;
    if (!/^\d{6}$/.test(code)) return setError("Enter the 6-digit code from your authenticator app.");
    setBusy(true);
    setError(null);
    const { data: factors, error: listErr } = await client.auth.mfa.listFactors();
    const factor = factors?.totp.find((f) => f.status === "verified");
    if (listErr || !factor) {
      setBusy(false);
      return setError(listErr?.message ?? "No authenticator is set up for this account.");
    }
    const { error: err } = await client.auth.mfa.challengeAndVerify({ factorId: factor.id, code });
    setBusy(false);
    if (err) return setError(err.message);
    await cookiesSynced();
    navigate(next, { replace: true });
  }

  if (step === "mfa") {
    return (
      <AuthCard title="Two-step verification" subtitle="Enter the 6-digit code from your authenticator app.">
        <Stack component="form" spacing={2} onSubmit={verifyCode} noValidate>
          {error && <Alert severity="error">{error}</Alert>}
          <TextField
            label="Authentication code"
            value={code}
            onChange={(e) => setCode(e.target.value.replace(/\D/g, "").slice(0, 6))}
            autoFocus
            slotProps={{ htmlInput: { inputMode: "numeric", autoComplete: "one-time-code" } }}
          />
          <Button type="submit" variant="contained" size="large" loading={busy}>
            Verify
          </Button>
        </Stack>
      </AuthCard>
    );
  }

  return (
    <AuthCard title="Sign in" subtitle="Welcome back. Sign in with your work e-mail or phone.">
      <Stack component="form" spacing={2} onSubmit={signIn} noValidate aria-label="Sign in">
        {error && <Alert severity="error">{error}</Alert>}
        <TextField
          label="E-mail or phone"
          value={identifier}
          onChange={(e) => setIdentifier(e.target.value)}
          autoComplete="username"
          autoFocus
        />
        <TextField
          label="Password"
          type="password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          autoComplete="current-password"
        />
        <Stack direction="row" sx={{ alignItems: "center", justifyContent: "space-between" }}>
          <FormControlLabel
            control={<Checkbox checked={remember} onChange={(e) => setRememberState(e.target.checked)} />}
            label="Remember me"
          />
          <Link component={RouterLink} to="/auth/recover" variant="body2">
            Forgot password?
          </Link>
        </Stack>
        <Button type="submit" variant="contained" size="large" loading={busy} disabled={!client}>
          Sign in
        </Button>
      </Stack>
    </AuthCard>
  );
}
