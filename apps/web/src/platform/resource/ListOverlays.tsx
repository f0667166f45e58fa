import Inventory2Outlined from "@mui/icons-material/Inventory2Outlined";
import Typography from "@mui/material/Typography";
import { GridOverlay } from "@mui/x-data-grid";

declare module "@mui/x-data-grid" {
  interface NoRowsOverlayPropsOverrides {
    title?: string;
    hint?: string;
  }
}

// The empty state: what is missing and what to do about it.
export function EmptyOverlay({ title, hint }: { title?: string; hint?: string }) {
  return (
    <GridOverlay sx={{ flexDirection: "column", gap: 1, p: 3, textAlign: "center" }}>
      <Inventory2Outlined sx={{ fontSize: 48, color: "text.disabled" }} />
      <Typography variant="subtitle1" component="p" sx={{ fontWeight: 600 }}>
        {title ?? "Nothing here yet"}
      </Typography>
      {hint && (
        <Typography variant="body2" color="text.secondary">
          {hint}
        </Typography>
      )}
    </GridOverlay>
  );
}
