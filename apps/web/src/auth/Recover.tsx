import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import Link from "@mui/material/Link";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import { type FormEvent, useState } from "react";
import { Link as RouterLink } from "react-router";
import { useSession } from "../app/session/SessionProvider.tsx";
import { AuthCard } from "./AuthLayout.tsx";

export default function Recover() {
  const { client } = useSession();
  const [email, setEmail] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [sent, setSent] = useState(false);
  const [busy, setBusy] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!client) return;
    if (!/^\S+@\S+\.\S+$/.test(email.trim())) return setError("Enter the e-mail address you sign in with.");
    setBusy(true);
    setError(null);
    const { error: err } = await client.auth.resetPasswordForEmail(email.trim(), {
      redirectTo: `${window.location.origin}/auth/reset`,
    });
    setBusy(false);
    if (err) return setError(err.message);
    setSent(true);
  }

  return (
    <AuthCard title="Reset your password" subtitle="We will e-mail you a link to choose a new password.">
      {sent ? (
        <Alert severity="success" role="status">
          If an account exists for {email.trim()}, a reset link is on its way. The link works once and expires in an
          hour.
        </Alert>
      ) : (
        <Stack component="form" spacing={2} onSubmit={submit} noValidate aria-label="Reset password">
          {error && <Alert severity="error">{error}</Alert>}
          <TextField
            label="E-mail"
            type="email"
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            autoComplete="email"
            autoFocus
          />
          <Button type="submit" variant="contained" size="large" loading={busy} disabled={!client}>
            Send reset link
          </Button>
        </Stack>
      )}
      <Link component={RouterLink} to="/auth/login" variant="body2">
        Back to sign in
      </Link>
    </AuthCard>
  );
}
