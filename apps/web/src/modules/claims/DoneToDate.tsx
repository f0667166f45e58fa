import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import ToggleButton from "@mui/material/ToggleButton";
import ToggleButtonGroup from "@mui/material/ToggleButtonGroup";
import Typography from "@mui/material/Typography";
import { type Measure, withUnit } from "./measure.ts";

// A claim line's work done to date (ClaimLines): typed as a percentage, or — on a line with a contract quantity, or a
// new variation given one — measured as a quantity "of" the contract's; the other shown below as it follows.

type Props = {
  line: number; // 1-based, for the labels
  measure: Measure;
  percent: string;
  qty: string;
  unit: string;
  contractQty: string;
  derived: string; // the percentage a quantity is, or the quantity a percentage is ("" when it cannot be said)
  contractQtyEditable: boolean; // a new variation agrees its quantity here
  measurable: boolean; // offered the choice (not a lump sum of 1 with no unit)
  error?: boolean;
  readOnly: boolean;
  onMeasure(to: Measure): void;
  onPercent(value: string): void;
  onQty(value: string): void;
  onContractQty(value: string): void;
};

// A figure typed in the line: small, right-aligned, a decimal keyboard, named by its label.
function Figure(p: { label: string; width: number; value: string; error?: boolean; onChange(value: string): void }) {
  return (
    <TextField
      size="small"
      variant="standard"
      value={p.value}
      error={p.error}
      onChange={(e) => p.onChange(e.target.value)}
      slotProps={{
        htmlInput: { inputMode: "decimal", "aria-label": p.label, style: { textAlign: "right", width: p.width } },
      }}
    />
  );
}

export function DoneToDate(p: Props) {
  const unit = p.unit.trim();
  const below = p.measure === "qty" ? p.derived && `${p.derived}%` : p.measurable && withUnit(p.derived, unit);
  if (p.readOnly) {
    return (
      <>
        {p.measure === "qty" ? withUnit(p.qty, unit) : `${Number(p.percent || "0").toString()}%`}
        {below && (
          <Typography variant="caption" color="text.secondary" sx={{ display: "block" }}>
            {below}
          </Typography>
        )}
      </>
    );
  }
  return (
    <Stack spacing={0.5} sx={{ alignItems: "flex-end" }}>
      <Stack direction="row" spacing={0.5} sx={{ alignItems: "baseline" }}>
        {p.measure === "qty" ? (
          <>
            <Figure
              label={`Quantity done to date, line ${p.line}`}
              width={56}
              value={p.qty}
              error={p.error}
              onChange={p.onQty}
            />
            <Typography variant="body2" color="text.secondary" sx={{ whiteSpace: "nowrap" }}>
              of
            </Typography>
            {p.contractQtyEditable ? (
              <Figure
                label={`Contract quantity, line ${p.line}`}
                width={48}
                value={p.contractQty}
                onChange={p.onContractQty}
              />
            ) : (
              <Typography variant="body2" sx={{ whiteSpace: "nowrap" }}>
                {withUnit(p.contractQty, "")}
              </Typography>
            )}
            {unit && (
              <Typography variant="body2" color="text.secondary">
                {unit}
              </Typography>
            )}
          </>
        ) : (
          <Figure
            label={`Done to date %, line ${p.line}`}
            width={70}
            value={p.percent}
            error={p.error}
            onChange={p.onPercent}
          />
        )}
      </Stack>
      {p.measurable && (
        <ToggleButtonGroup
          size="small"
          exclusive
          value={p.measure}
          onChange={(_, to: Measure | null) => to && to !== p.measure && p.onMeasure(to)}
          aria-label={`Claim line ${p.line} by`}
        >
          <ToggleButton value="percent" sx={{ py: 0, px: 1, fontSize: 12 }}>
            %
          </ToggleButton>
          <ToggleButton value="qty" sx={{ py: 0, px: 1, fontSize: 12 }}>
            Qty
          </ToggleButton>
        </ToggleButtonGroup>
      )}
      {below && (
        <Typography variant="caption" color="text.secondary" data-testid={`claim-derived-${p.line}`}>
          {below}
        </Typography>
      )}
    </Stack>
  );
}
