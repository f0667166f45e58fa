import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Chip from "@mui/material/Chip";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import toast from "react-hot-toast";
import { useSession } from "../../app/session/SessionProvider.tsx";
import { ConfirmDialog } from "../../platform/ui/ConfirmDialog.tsx";
import { Section } from "./Section.tsx";

type Enrollment = { factorId: string; qr: string; secret: string };

export function MfaCard() {
  const { client, session } = useSession();
  const queryClient = useQueryClient();
  const factors = useQuery({
    queryKey: ["mfa-factors", session?.user.id],
    queryFn: async () => {
      const { data, error } = await client!.auth.mfa.listFactors();
      if (error) throw error;
      return data.totp;
    },
    enabled: Boolean(client && session),
  });
  const verified = factors.data?.find((f) => f.status === "verified");
  const [enrollment, setEnrollment] = useState<Enrollment | null>(null);
  const [code, setCode] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [confirmOff, setConfirmOff] = useState(false);
  const refresh = () => queryClient.invalidateQueries({ queryKey: ["mfa-factors"] });

  async function start() {
    if (!client) return;
    setBusy(true);
    setError(null);
    // Drop a half-finished enrolment first: only one unverified factor may wait at a time.
    for (const f of factors.data ?? []) if (f.status !== "verified") await client.auth.mfa.unenroll({ factorId: f.id });
    const { data, error: err } = await client.auth.mfa.enroll({
      factorType: "totp",
      friendlyName: `Authenticator ${new Date().toISOString().slice(0, 10)}`,
    });
    setBusy(false);
    if (err) return setError(err.message);
    setEnrollment({ factorId: data.id, qr: data.totp.qr_code, secret: data.totp.secret });
  }

  async function verify(e: FormEvent) {
    e.preventDefault();
    if (!client || !enrollment) return;
    if (!/^\d{6}$/.test(code)) return setError("Enter the 6-digit code your app shows.");
    setBusy(true);
    setError(null);
    const { error: err } = await client.auth.mfa.challengeAndVerify({ factorId: enrollment.factorId, code });
    setBusy(false);
    if (err) return setError(err.message);
    setEnrollment(null);
    setCode("");
    toast.success("Two-step verification is on");
    await refresh();
  }

  async function turnOff() {
    if (!client || !verified) return;
    const { error: err } = await client.auth.mfa.unenroll({ factorId: verified.id });
    setConfirmOff(false);
    if (err) return setError(err.message);
    toast.success("Two-step verification is off");
    await refresh();
  }

  return (
    <Section
      title="Two-step verification"
      description="Ask for a code from an authenticator app (TOTP) each time you sign in."
    >
      <Stack spacing={2}>
        {error && <Alert severity="error">{error}</Alert>}
        {verified ? (
          <Stack direction="row" spacing={2} sx={{ alignItems: "center" }}>
            <Chip color="success" label="On" />
            <Typography sx={{ flex: 1 }}>{verified.friendly_name ?? "Authenticator app"}</Typography>
            <Button color="error" variant="outlined" onClick={() => setConfirmOff(true)}>
              Turn off
            </Button>
          </Stack>
        ) : enrollment ? (
          <Stack component="form" spacing={2} onSubmit={verify} noValidate aria-label="Verify authenticator">
            <Typography>Scan this code with your authenticator app, then enter the 6-digit code it shows.</Typography>
            <Box
              component="img"
              src={enrollment.qr}
              alt="QR code for your authenticator app"
              sx={{ width: 180, height: 180, bgcolor: "#fff", p: 1, borderRadius: 1 }}
            />
            <Typography variant="body2" color="text.secondary">
              Can't scan? Enter this key: <code data-testid="totp-secret">{enrollment.secret}</code>
            </Typography>
            <Stack direction="row" spacing={2}>
              <TextField
                label="6-digit code"
                value={code}
                onChange={(e) => setCode(e.target.value.replace(/\D/g, "").slice(0, 6))}
                slotProps={{ htmlInput: { inputMode: "numeric" } }}
              />
              <Button type="submit" variant="contained" loading={busy}>
                Verify and turn on
              </Button>
            </Stack>
          </Stack>
        ) : (
          <Stack direction="row" spacing={2} sx={{ alignItems: "center" }}>
            <Chip label="Off" />
            <Box sx={{ flex: 1 }} />
            <Button variant="contained" onClick={start} loading={busy} disabled={factors.isPending}>
              Set up authenticator
            </Button>
          </Stack>
        )}
      </Stack>
      <ConfirmDialog
        open={confirmOff}
        title="Turn off two-step verification?"
        body="Anyone with your password will be able to sign in to your account."
        confirmLabel="Turn off"
        destructive
        onCancel={() => setConfirmOff(false)}
        onConfirm={turnOff}
      />
    </Section>
  );
}
