import LoginOutlined from "@mui/icons-material/LoginOutlined";
import Button from "@mui/material/Button";
import Container from "@mui/material/Container";
import Paper from "@mui/material/Paper";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import { samePath } from "@workmetrics/domain";
import { AppLink, useAppSearchParams } from "../app/links.tsx";

// Someone signed out who opened a dashboard address is sent to /?redirectedFrom=… (spec §2): say why, with the
// sign-in action up front, and come back to that page after signing in (issue 9).
export function SignInToContinue() {
  const params = useAppSearchParams();
  const from = params.get("redirectedFrom");
  if (!from) return null;
  const back = samePath(from, "/dashboard");
  return (
    <Container maxWidth="md" sx={{ pt: 3 }}>
      <Paper
        variant="outlined"
        role="region"
        aria-label="Sign in to continue"
        sx={{ p: { xs: 2, sm: 3 }, borderColor: "primary.main" }}
      >
        <Stack direction={{ xs: "column", sm: "row" }} spacing={2} sx={{ alignItems: { sm: "center" } }}>
          <Stack spacing={0.5} sx={{ flex: 1 }}>
            <Typography variant="h6" component="h2">
              Sign in to continue
            </Typography>
            <Typography variant="body2" color="text.secondary">
              The page you opened ({back}) is for signed-in members of a workspace.
            </Typography>
          </Stack>
          <Button
            variant="contained"
            size="large"
            startIcon={<LoginOutlined />}
            component={AppLink}
            to={`/auth/login?redirectedFrom=${encodeURIComponent(back)}`}
            autoFocus
          >
            Sign in
          </Button>
        </Stack>
      </Paper>
    </Container>
  );
}
