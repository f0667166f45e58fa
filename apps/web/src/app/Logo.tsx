import Box from "@mui/material/Box";
import Typography from "@mui/material/Typography";
import { AppLink } from "./links.tsx";

export function Logo({ to = "/", compact = false }: { to?: string; compact?: boolean }) {
  return (
    <Box
      component={AppLink}
      to={to}
      aria-label="Workmetrics home"
      sx={{ display: "inline-flex", alignItems: "center", gap: 1, color: "inherit", textDecoration: "none" }}
    >
      <Box component="img" src="/favicon.svg" alt="" sx={{ width: 32, height: 32 }} />
      {!compact && (
        <Typography component="span" sx={{ fontWeight: 700, fontSize: 20, letterSpacing: -0.3 }}>
          Workmetrics
        </Typography>
      )}
    </Box>
  );
}
