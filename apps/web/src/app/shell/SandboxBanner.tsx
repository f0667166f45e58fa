import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import { localeFormat } from "@workmetrics/domain";
import { useSession } from "../session/SessionProvider.tsx";

// Issue 21 §3: a sandbox (GET /demo) says on every page that it is one, and when it goes. Not dismissible: someone
// who forgets it is a sandbox loses their work at the end of the day.
export function SandboxBanner() {
  const { dbUser } = useSession();
  const expires = dbUser?.profile?.workspace.sandbox_expires_at;
  if (!expires) return null;
  return (
    <Alert
      severity="warning"
      data-testid="sandbox-banner"
      sx={{ mb: 2 }}
      action={
        <Button color="inherit" size="small" href="/pricing/signup">
          Start my company
        </Button>
      }
    >
      <strong>This is a sandbox</strong> — a copy of the demo data that is yours to try anything in. It is removed on{" "}
      {localeFormat().dateTime(expires)}.
    </Alert>
  );
}
