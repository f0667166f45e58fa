import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import Link from "@mui/material/Link";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import { type FormEvent, useState } from "react";
import toast from "react-hot-toast";
import { Link as RouterLink, useNavigate } from "react-router";
import { FullScreenSpinner } from "../app/FullScreenSpinner.tsx";
import { useSession } from "../app/session/SessionProvider.tsx";
import { AuthCard } from "./AuthLayout.tsx";

// Reached from the e-mailed recovery link: auth-js exchanges the link's code for a session first.
export default function Reset() {
  const { client, session, loading } = useSession();
  const navigate = useNavigate();
  const [password, setPassword] = useState("");
  const [confirm, setConfirm] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  if (loading) return <FullScreenSpinner />;
  if (!session) {
    return (
      <AuthCard title="This link has expired" subtitle="Reset links work once and only for an hour.">
        <Button component={RouterLink} to="/auth/recover" variant="contained">
          Send a new link
        </Button>
      </AuthCard>
    );
  }

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!client) return;
    if (password.length < 8) return setError("Use at least 8 characters.");
    if (password !== confirm) return setError("The two passwords do not match.");
    setBusy(true);
    setError(null);
    const { error: err } = await client.auth.updateUser({ password });
    setBusy(false);
    if (err) return setError(err.message);
    toast.success("Password changed");
    navigate("/dashboard", { replace: true });
  }

  return (
    <AuthCard title="Choose a new password" subtitle={`For ${session.user.email ?? "your account"}.`}>
      <Stack component="form" spacing={2} onSubmit={submit} noValidate aria-label="Set a new password">
        {error && <Alert severity="error">{error}</Alert>}
        <TextField
          label="New password"
          type="password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          autoComplete="new-password"
          autoFocus
          helperText="At least 8 characters. Long passphrases are welcome."
        />
        <TextField
          label="Repeat new password"
          type="password"
          value={confirm}
          onChange={(e) => setConfirm(e.target.value)}
          autoComplete="new-password"
        />
        <Button type="submit" variant="contained" size="large" loading={busy}>
          Save password
        </Button>
      </Stack>
      <Link component={RouterLink} to="/auth/login" variant="body2">
        Back to sign in
      </Link>
    </AuthCard>
  );
}
