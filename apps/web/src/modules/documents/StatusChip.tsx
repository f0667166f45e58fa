import Chip from "@mui/material/Chip";
import { statusHex, statusLabel, type WebDocType } from "./types.ts";

// A document's status in its machine's colour and label (spec §4 colours), in lists and on the page.
export function StatusChip({ type, status, dense }: { type: WebDocType; status: string; dense?: boolean }) {
  return (
    <Chip
      size="small"
      label={statusLabel(type, status)}
      data-status={status}
      sx={{ bgcolor: statusHex(type, status), color: "#fff", fontWeight: 500, height: dense ? 22 : 24 }}
    />
  );
}
