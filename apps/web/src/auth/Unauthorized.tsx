import Button from "@mui/material/Button";
import Stack from "@mui/material/Stack";
import { Link as RouterLink } from "react-router";
import { AuthCard } from "./AuthLayout.tsx";

export default function Unauthorized() {
  return (
    <AuthCard
      title="You don't have access to that page"
      subtitle="Your role does not include it. Ask your workspace administrator if you need it."
    >
      <Stack direction="row" spacing={1}>
        <Button component={RouterLink} to="/dashboard" variant="contained">
          Go to the dashboard
        </Button>
        <Button component={RouterLink} to="/auth/login">
          Sign in as someone else
        </Button>
      </Stack>
    </AuthCard>
  );
}
