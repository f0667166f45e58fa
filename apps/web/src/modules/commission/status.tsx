import Chip from "@mui/material/Chip";

// A statement's status: open (computed now), approved (frozen, owed) or paid.
const STATUS: Record<string, { label: string; color: "default" | "info" | "success" | "warning" }> = {
  open: { label: "Open", color: "warning" },
  approved: { label: "Approved", color: "info" },
  paid: { label: "Paid", color: "success" },
};

export function StatusChip({ status }: { status: string }) {
  const s = STATUS[status] ?? { label: status, color: "default" as const };
  return <Chip size="small" label={s.label} color={s.color} variant="outlined" />;
}
