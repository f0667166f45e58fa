import Button from "@mui/material/Button";
import Typography from "@mui/material/Typography";
import { useEffect } from "react";
import { Link as RouterLink } from "react-router";
import { useSession } from "../app/session/SessionProvider.tsx";
import { AuthCard } from "./AuthLayout.tsx";

// Spec §2 "auth-window success": a pop-up closes itself; a full tab offers to continue.
export default function Success() {
  const { session } = useSession();
  useEffect(() => {
    if (window.opener && window.opener !== window) {
      window.opener.postMessage({ type: "workmetrics:auth-success" }, window.location.origin);
      window.close();
    }
  }, []);
  return (
    <AuthCard title="You're all set" subtitle="Your e-mail address is confirmed.">
      <Typography color="text.secondary">{session ? "You are signed in." : "You can sign in now."}</Typography>
      <Button component={RouterLink} to={session ? "/dashboard" : "/auth/login"} variant="contained" size="large">
        {session ? "Continue to the dashboard" : "Sign in"}
      </Button>
    </AuthCard>
  );
}
