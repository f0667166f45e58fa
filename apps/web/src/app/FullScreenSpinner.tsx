import Box from "@mui/material/Box";
import CircularProgress from "@mui/material/CircularProgress";

// Spec §2: a full-screen spinner while a page or the signed-in user loads.
export function FullScreenSpinner({ label = "Loading" }: { label?: string }) {
  return (
    <Box
      role="progressbar"
      aria-label={label}
      sx={{ position: "fixed", inset: 0, display: "grid", placeItems: "center", bgcolor: "background.default" }}
    >
      <CircularProgress />
    </Box>
  );
}
