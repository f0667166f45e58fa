import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import LinearProgress from "@mui/material/LinearProgress";
import Skeleton from "@mui/material/Skeleton";
import Typography from "@mui/material/Typography";
import { formatBytes, formatPrice, tierById, userRangeLabel } from "@workmetrics/domain";
import { Link as RouterLink } from "react-router";
import { Section } from "../account/Section.tsx";
import { useOverview } from "./api.ts";

// The plan the workspace pays for, what it costs after any coupon, seats in use, usage credits and storage.
export function PlanSection({ tierTitle }: { tierTitle: string }) {
  const overview = useOverview();
  const sub = overview.data?.subscription;
  const tier = sub ? tierById(sub.tier_id) : undefined;
  const item = (label: string, value: string, testId?: string) => (
    <Box>
      <Typography variant="body2" color="text.secondary">
        {label}
      </Typography>
      <Typography sx={{ fontWeight: 600 }} data-testid={testId}>
        {value}
      </Typography>
    </Box>
  );
  return (
    <Section title="Plan and usage">
      {overview.isError && <Alert severity="error">{overview.error.message}</Alert>}
      {overview.isPending ? (
        <Skeleton variant="rounded" height={90} />
      ) : (
        <Box sx={{ display: "grid", gap: 2, gridTemplateColumns: { xs: "1fr 1fr", md: "repeat(4, 1fr)" } }}>
          {item("Plan", tierTitle, "plan-title")}
          {sub &&
            item(`Price per ${sub.cycle === "monthly" ? "month" : "year"}`, formatPrice(sub.price, "S$"), "plan-price")}
          {sub?.coupon_code && item("Coupon", `${sub.coupon_code} (− ${formatPrice(sub.discount, "S$")})`)}
          {item(
            "Active users",
            `${overview.data?.active_users ?? 0}${tier ? ` (the plan is for ${userRangeLabel(tier)})` : ""}`,
          )}
          {item("Usage credits", formatPrice(overview.data?.credit_balance ?? "0", "S$"), "credit-balance")}
        </Box>
      )}
      {overview.data && <StorageUsage {...overview.data.storage} />}
      <Button component={RouterLink} to="/pricing" sx={{ mt: 2 }}>
        Compare plans
      </Button>
    </Section>
  );
}

// Issue 9 §3: how much of the tier's storage quota the workspace's files take.
function StorageUsage({ used_bytes: used, quota_bytes: quota }: { used_bytes: number; quota_bytes: number }) {
  const percent = quota > 0 ? Math.min(100, (used / quota) * 100) : 100;
  return (
    <Box sx={{ mt: 2, maxWidth: 480 }}>
      <Typography variant="body2" color="text.secondary" data-testid="storage-usage">
        Storage: {formatBytes(used)} of {formatBytes(quota)} used
      </Typography>
      <LinearProgress
        variant="determinate"
        value={percent}
        color={percent >= 90 ? "warning" : "primary"}
        aria-label="Storage used"
        sx={{ mt: 0.5, height: 8, borderRadius: 1 }}
      />
    </Box>
  );
}
