import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Divider from "@mui/material/Divider";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import type { Totals } from "@workmetrics/domain/documents/totals";
import { formatMoney } from "@workmetrics/domain/money";

// The totals panel: subtotal, document discount, GST per tax code, total (and what is still owed), recomputed as
// the clerk types by the same function the server prices with.

function Line({ label, value, strong, testId }: { label: string; value: string; strong?: boolean; testId?: string }) {
  return (
    <Box sx={{ display: "flex", justifyContent: "space-between", gap: 2, py: 0.25 }}>
      <Typography variant={strong ? "subtitle1" : "body2"} color={strong ? "text.primary" : "text.secondary"}>
        {label}
      </Typography>
      <Typography
        variant={strong ? "subtitle1" : "body2"}
        sx={{ fontVariantNumeric: "tabular-nums", fontWeight: strong ? 600 : 400 }}
        data-testid={testId}
      >
        {value}
      </Typography>
    </Box>
  );
}

export function TotalsPanel(props: {
  totals: Totals | null;
  error: string | null;
  currency: string;
  discountPercent: string;
  onDiscount?: (v: string) => void;
  outstanding?: string | null;
  discountError?: string; // the server's refusal of the document discount, shown at it
}) {
  const { totals, error, currency, discountPercent, onDiscount, outstanding, discountError } = props;
  const m = (v: string) => formatMoney(v, currency);
  return (
    <Stack spacing={1} aria-label="Totals" data-testid="totals">
      {onDiscount && (
        <TextField
          label="Document discount %"
          size="small"
          value={discountPercent}
          onChange={(e) => onDiscount(e.target.value)}
          error={Boolean(discountError)}
          helperText={discountError}
          slotProps={{ htmlInput: { inputMode: "decimal" } }}
        />
      )}
      {error && <Alert severity="warning">{error}</Alert>}
      {totals && (
        <Box>
          <Line label="Subtotal" value={m(totals.subtotal)} testId="totals-subtotal" />
          {totals.discount_amount !== "0.00" && (
            <Line
              label={`Discount${discountPercent ? ` ${discountPercent}%` : ""}`}
              value={`−${m(totals.discount_amount)}`}
            />
          )}
          <Line label="Net" value={m(totals.net_total)} />
          {totals.taxes.map((t) => (
            <Line
              key={t.tax_code}
              label={`GST ${t.tax_code} ${Number(t.rate) * 100}% on ${m(t.net)}`}
              value={m(t.tax)}
            />
          ))}
          <Divider sx={{ my: 1 }} />
          <Line label="Total" value={m(totals.total)} strong testId="totals-total" />
          {outstanding !== undefined && outstanding !== null && (
            <Line label="Outstanding" value={m(outstanding)} strong testId="totals-outstanding" />
          )}
        </Box>
      )}
    </Stack>
  );
}
