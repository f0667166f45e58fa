import Button from "@mui/material/Button";
import Typography from "@mui/material/Typography";
import { samePath } from "@workmetrics/domain";
import { useEffect } from "react";
import { Link as RouterLink, useNavigate, useSearchParams } from "react-router";
import { useSession } from "../app/session/SessionProvider.tsx";
import { AuthCard } from "./AuthLayout.tsx";

// Spec §2 "auth-window success": a pop-up closes itself; a full tab offers to continue. A one-time sign-in link that
// names where to go (`?next=`, a path of this site: the sandbox of GET /demo) goes there as soon as the session is in.
export default function Success() {
  const { session } = useSession();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const next = params.get("next") ? samePath(params.get("next")!, "/dashboard") : null;
  useEffect(() => {
    if (window.opener && window.opener !== window) {
      window.opener.postMessage({ type: "workmetrics:auth-success" }, window.location.origin);
      window.close();
    }
  }, []);
  useEffect(() => {
    if (session && next) navigate(next, { replace: true });
  }, [session, next, navigate]);
  if (next) {
    return (
      <AuthCard title="Signing you in" subtitle="Your workspace is ready.">
        <Typography color="text.secondary">{session ? "You are signed in." : "One moment…"}</Typography>
        <Button component={RouterLink} to={session ? next : "/auth/login"} variant="contained" size="large">
          {session ? "Continue" : "Sign in"}
        </Button>
      </AuthCard>
    );
  }
  return (
    <AuthCard title="You're all set" subtitle="Your e-mail address is confirmed.">
      <Typography color="text.secondary">{session ? "You are signed in." : "You can sign in now."}</Typography>
      <Button component={RouterLink} to={session ? "/dashboard" : "/auth/login"} variant="contained" size="large">
        {session ? "Continue to the dashboard" : "Sign in"}
      </Button>
    </AuthCard>
  );
}
