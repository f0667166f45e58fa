import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import type { AuthError } from "@supabase/supabase-js";
import { type FormEvent, useState } from "react";
import toast from "react-hot-toast";
import { useSession } from "../../app/session/SessionProvider.tsx";
import { Section } from "./Section.tsx";

// Changing e-mail or password needs a recent sign-in; otherwise the server asks for a reauthentication code.
export function CredentialsCard() {
  const { client, session } = useSession();
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [confirm, setConfirm] = useState("");
  const [nonce, setNonce] = useState("");
  const [needsNonce, setNeedsNonce] = useState(false);
  const [message, setMessage] = useState<{ severity: "error" | "info" | "success"; text: string } | null>(null);
  const [busy, setBusy] = useState(false);

  async function handle(err: AuthError | null, done: string) {
    if (!err) {
      setMessage({ severity: "success", text: done });
      toast.success(done);
      setPassword("");
      setConfirm("");
      setNonce("");
      setNeedsNonce(false);
      return;
    }
    if (err.code === "reauthentication_needed" || err.code === "reauthentication_not_valid") {
      await client?.auth.reauthenticate();
      setNeedsNonce(true);
      return setMessage({
        severity: "info",
        text: "For your security we e-mailed you a code. Enter it below and save again.",
      });
    }
    setMessage({ severity: "error", text: err.message });
  }

  async function changeEmail(e: FormEvent) {
    e.preventDefault();
    if (!client) return;
    if (!/^\S+@\S+\.\S+$/.test(email.trim()))
      return setMessage({ severity: "error", text: "Enter a valid e-mail address" });
    setBusy(true);
    const { error } = await client.auth.updateUser(
      { email: email.trim() },
      { emailRedirectTo: `${window.location.origin}/auth/success` },
    );
    setBusy(false);
    await handle(error, `We sent a confirmation link to ${email.trim()}. Your e-mail changes once you open it.`);
  }

  async function changePassword(e: FormEvent) {
    e.preventDefault();
    if (!client) return;
    if (password.length < 8) return setMessage({ severity: "error", text: "Use at least 8 characters." });
    if (password !== confirm) return setMessage({ severity: "error", text: "The two passwords do not match." });
    setBusy(true);
    const { error } = await client.auth.updateUser({ password, ...(nonce ? { nonce } : {}) });
    setBusy(false);
    await handle(error, "Password changed");
  }

  return (
    <Section
      title="Sign-in details"
      description={`You sign in as ${session?.user.email ?? session?.user.phone ?? "—"}.`}
    >
      <Stack spacing={3}>
        {message && <Alert severity={message.severity}>{message.text}</Alert>}
        <Stack
          component="form"
          direction={{ xs: "column", sm: "row" }}
          spacing={2}
          onSubmit={changeEmail}
          noValidate
          aria-label="Change e-mail"
        >
          <TextField
            label="New e-mail"
            type="email"
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            sx={{ flex: 1 }}
            autoComplete="email"
          />
          <Button type="submit" variant="outlined" loading={busy}>
            Change e-mail
          </Button>
        </Stack>
        <Stack component="form" spacing={2} onSubmit={changePassword} noValidate aria-label="Change password">
          <Stack direction={{ xs: "column", sm: "row" }} spacing={2}>
            <TextField
              label="New password"
              type="password"
              value={password}
              onChange={(e) => setPassword(e.target.value)}
              sx={{ flex: 1 }}
              autoComplete="new-password"
            />
            <TextField
              label="Repeat new password"
              type="password"
              value={confirm}
              onChange={(e) => setConfirm(e.target.value)}
              sx={{ flex: 1 }}
              autoComplete="new-password"
            />
          </Stack>
          {needsNonce && (
            <TextField label="Code from the e-mail" value={nonce} onChange={(e) => setNonce(e.target.value.trim())} />
          )}
          <Stack direction="row">
            <Button type="submit" variant="outlined" loading={busy}>
              Change password
            </Button>
          </Stack>
        </Stack>
      </Stack>
    </Section>
  );
}
