import Box from "@mui/material/Box";
import Paper from "@mui/material/Paper";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import type { ReactNode } from "react";
import { Logo } from "../app/Logo.tsx";
import { ModeToggle } from "../app/ModeToggle.tsx";
import { usePageTitle } from "../platform/ui/usePageTitle.ts";

export function AuthCard({ title, subtitle, children }: { title: string; subtitle?: ReactNode; children: ReactNode }) {
  usePageTitle(title);
  return (
    <Box
      component="main"
      sx={{
        minHeight: "100vh",
        display: "grid",
        placeItems: "center",
        p: 2,
        background: (t) => (t.palette.mode === "light" ? "linear-gradient(160deg, #e8f4fa, #fafafa)" : undefined),
      }}
    >
      <Box sx={{ position: "fixed", top: 8, right: 8 }}>
        <ModeToggle color="default" />
      </Box>
      <Paper variant="outlined" sx={{ width: "100%", maxWidth: 420, p: { xs: 3, sm: 4 } }}>
        <Stack spacing={3}>
          <Logo />
          <Box>
            <Typography variant="h5" component="h1" sx={{ fontWeight: 700 }}>
              {title}
            </Typography>
            {subtitle && (
              <Typography color="text.secondary" sx={{ mt: 0.5 }}>
                {subtitle}
              </Typography>
            )}
          </Box>
          {children}
        </Stack>
      </Paper>
    </Box>
  );
}
