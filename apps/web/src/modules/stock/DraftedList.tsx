import Alert from "@mui/material/Alert";
import Link from "@mui/material/Link";
import { Link as RouterLink } from "react-router";
import type { DraftResult } from "./api.ts";

// What drafting purchase orders made: each draft opens on the purchase order page; what was left out says why.
export function DraftedList({ result, onClose }: { result: DraftResult; onClose?: () => void }) {
  return (
    <Alert severity="success" onClose={onClose} data-testid="drafted-purchase-orders">
      {result.created.length === 1 ? "Draft purchase order made: " : "Draft purchase orders made: "}
      {result.created.map((c, i) => (
        <span key={c.id}>
          {i > 0 && ", "}
          <Link component={RouterLink} to={`/dashboard/purchase-orders/${c.id}`}>
            {c.supplier} to {c.location} ({c.lines} line{c.lines === 1 ? "" : "s"})
          </Link>
        </span>
      ))}
      {result.skipped?.length
        ? `. Left out (no preferred supplier): ${result.skipped.map((s) => s.product).join(", ")}`
        : ""}
    </Alert>
  );
}
