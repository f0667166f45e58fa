import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { useQuery } from "@tanstack/react-query";
import { formatPrice } from "@workmetrics/domain";
import { type BillingCycle, type PriceQuote, quotePrice } from "@workmetrics/domain/schemas/company-signup";
import { useEffect, useState } from "react";
import { apiFetch } from "../platform/api.ts";
import type { PublicTier } from "./queries.ts";

type CouponAnswer = { code: string; quote: PriceQuote };

// The price the owner will pay: plan, cycle, and a coupon the server checks (and re-prices when either changes).
export function SignupSummary(props: {
  tier: PublicTier | undefined;
  cycle: BillingCycle;
  onCoupon(code: string | undefined): void;
}) {
  const { tier, cycle, onCoupon } = props;
  const [code, setCode] = useState("");
  const [applied, setApplied] = useState<string | null>(null);
  const answer = useQuery({
    queryKey: ["coupon", applied, tier?.id, cycle],
    queryFn: () =>
      apiFetch<CouponAnswer>(
        `/api/public/coupons/${encodeURIComponent(applied ?? "")}?tierId=${tier?.id}&cycle=${cycle}`,
      ),
    enabled: Boolean(applied && tier),
    retry: false,
  });
  const valid = answer.isSuccess ? answer.data : null;
  useEffect(() => onCoupon(valid?.code), [valid?.code, onCoupon]);
  if (!tier) return null;
  const quote = valid?.quote ?? quotePrice(tier, cycle);

  const row = (label: string, value: string, testId: string, strong = false) => (
    <Stack direction="row" sx={{ justifyContent: "space-between" }}>
      <Typography sx={{ fontWeight: strong ? 700 : 400 }}>{label}</Typography>
      <Typography sx={{ fontWeight: strong ? 700 : 400 }} data-testid={testId}>
        {value}
      </Typography>
    </Stack>
  );
  return (
    <Stack spacing={1.5}>
      <Stack direction="row" spacing={1}>
        <TextField
          size="small"
          label="Coupon code"
          value={code}
          onChange={(e) => setCode(e.target.value.toUpperCase())}
          sx={{ flex: 1 }}
          error={answer.isError}
        />
        <Button
          variant="outlined"
          onClick={() => setApplied(code.trim() || null)}
          loading={answer.isFetching}
          disabled={!code.trim()}
        >
          Apply
        </Button>
      </Stack>
      {answer.isError && <Alert severity="error">{answer.error.message}</Alert>}
      <Box sx={{ p: 2, borderRadius: 1, bgcolor: "action.hover" }}>
        {row(`${tier.title}, billed ${cycle}`, formatPrice(quote.listPrice, "S$"), "summary-list")}
        {valid && row(`Coupon ${valid.code}`, `− ${formatPrice(quote.discount, "S$")}`, "summary-discount")}
        {row(
          cycle === "monthly" ? "Total per month" : "Total per year",
          formatPrice(quote.price, "S$"),
          "summary-total",
          true,
        )}
        <Typography variant="caption" color="text.secondary">
          Prices exclude GST (9%).
        </Typography>
      </Box>
    </Stack>
  );
}
