import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Chip from "@mui/material/Chip";
import CircularProgress from "@mui/material/CircularProgress";
import LinearProgress from "@mui/material/LinearProgress";
import Paper from "@mui/material/Paper";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import type { ReactNode } from "react";
import { formatAmount, humanize, STATUS_HEX, statusColor } from "../../platform/fields/format.ts";

// Issue 23: pieces the marketplace pages share.

export const money = (v: string | number | null | undefined) => formatAmount(v ?? "0", "SGD");

export function Section({
  id,
  title,
  action,
  children,
}: {
  id: string;
  title: string;
  action?: ReactNode;
  children: ReactNode;
}) {
  return (
    <Paper variant="outlined" component="section" aria-labelledby={id} sx={{ p: 2 }}>
      <Stack direction="row" sx={{ alignItems: "center", mb: 1, gap: 1, flexWrap: "wrap" }}>
        <Typography id={id} variant="h6" component="h2" sx={{ flex: 1 }}>
          {title}
        </Typography>
        {action}
      </Stack>
      {children}
    </Paper>
  );
}

export function Loading({ label }: { label: string }) {
  return (
    <Box sx={{ display: "flex", justifyContent: "center", py: 4 }} role="status" aria-label={label}>
      <CircularProgress size={28} />
    </Box>
  );
}

// A refusal in the server's words (DataError's message).
export const why = (err: unknown) => (err instanceof Error ? err.message : String(err));

// A refusal or failure in the server's words, never an empty list.
export function Failed({ error }: { error: unknown }) {
  return <Alert severity="error">{why(error)}</Alert>;
}

export function Empty({ children }: { children: ReactNode }) {
  return (
    <Typography color="text.secondary" sx={{ py: 3, textAlign: "center" }}>
      {children}
    </Typography>
  );
}

// A marketplace order's status in the spec's colours: waiting yellow, under way blue, done green, refused red.
const ORDER_COLORS: Record<string, keyof typeof STATUS_HEX> = {
  placed: "yellow",
  accepted: "blue",
  fulfilled: "green",
  rejected: "red",
  cancelled: "red",
};

export function StatusChip({ status }: { status: string }) {
  const bg = ORDER_COLORS[status] ? STATUS_HEX[ORDER_COLORS[status]] : statusColor(status);
  return (
    <Chip
      size="small"
      label={humanize(status)}
      data-status={status}
      sx={{ bgcolor: bg, color: "#fff", fontWeight: 500 }}
    />
  );
}

const STOCK: Record<string, { label: string; color: "success" | "warning" | "error" }> = {
  in: { label: "In stock", color: "success" },
  low: { label: "Low stock", color: "warning" },
  out: { label: "Out of stock", color: "error" },
};

export function StockChip({ level, qty }: { level: string; qty?: string | null }) {
  const s = STOCK[level] ?? STOCK.in;
  return <Chip size="small" variant="outlined" color={s.color} label={qty ? `${s.label}: ${Number(qty)}` : s.label} />;
}

export function Stars({ rating, count }: { rating: string | null; count: number }) {
  if (!count)
    return (
      <Typography variant="body2" color="text.secondary">
        No ratings yet
      </Typography>
    );
  return (
    <Typography variant="body2" aria-label={`Rated ${rating} of 5 by ${count}`}>
      <Box component="span" sx={{ color: "#f5a623" }} aria-hidden>
        ★
      </Box>{" "}
      {rating} ({count})
    </Typography>
  );
}

// One side's progress of an order: 0 to 1.
export function Progress({ label, value }: { label: string; value: string }) {
  const pct = Math.round(Number(value) * 100);
  return (
    <Box sx={{ minWidth: 120, flex: 1 }}>
      <Typography variant="caption" color="text.secondary">
        {label}: {pct}%
      </Typography>
      <LinearProgress
        variant="determinate"
        value={pct}
        aria-label={`${label} ${pct}%`}
        color={pct === 100 ? "success" : "primary"}
      />
    </Box>
  );
}
