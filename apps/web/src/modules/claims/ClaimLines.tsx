import AddIcon from "@mui/icons-material/Add";
import DeleteOutlined from "@mui/icons-material/DeleteOutlined";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Card from "@mui/material/Card";
import CardContent from "@mui/material/CardContent";
import Chip from "@mui/material/Chip";
import Divider from "@mui/material/Divider";
import Grid from "@mui/material/Grid";
import IconButton from "@mui/material/IconButton";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableContainer from "@mui/material/TableContainer";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { formatMoney } from "@workmetrics/domain/money";
import { useMemo, useState } from "react";
import { formatCents } from "../../platform/fields/format.ts";
import { emptyLine, isBlank, type LineDraft } from "../documents/lines.ts";
import type { LinesEditorProps } from "../documents/types.ts";
import { DoneToDate } from "./DoneToDate.tsx";
import { claimRows, liveClaim } from "./figures.ts";
import { asTyped, type Measure, percentOfQty, qtyOfPercent, switchMeasure, withUnit } from "./measure.ts";

// A claim's lines and figures on the document page (WebDocType.editor): per line the contract amount, what the
// previous claim had to date (read-only), the work done to date (typed in %, or measured in quantity against the
// line's contract quantity — DoneToDate), the amount to date and this claim; variations are lines of their own with
// an agreed contract amount (and quantity, when measured). The figures are claimFigures' — the function the
// server prices with — over the previous claim's figures the draft carries, so what the clerk sees is what is saved.

const text = (v: unknown) => (v === null || v === undefined ? "" : String(v));
const amount = (v: string) => formatCents(v);
const pct = (v: unknown) => `${Number(text(v) || "0").toString()}%`;

function Figure({ label, value, strong, testId }: { label: string; value: string; strong?: boolean; testId?: string }) {
  return (
    <Box sx={{ display: "flex", justifyContent: "space-between", gap: 2, py: 0.25 }}>
      <Typography variant={strong ? "subtitle1" : "body2"} color={strong ? "text.primary" : "text.secondary"}>
        {label}
      </Typography>
      <Typography
        variant={strong ? "subtitle1" : "body2"}
        sx={{ fontVariantNumeric: "tabular-nums", fontWeight: strong ? 600 : 400, whiteSpace: "nowrap" }}
        data-testid={testId}
      >
        {value}
      </Typography>
    </Box>
  );
}

export default function ClaimLines({ doc, header, lines, onChange, readOnly, currency, errors }: LinesEditorProps) {
  const release = doc?.kind === "release";
  const shown = readOnly ? lines.filter((l) => !isBlank(l)) : lines;
  // The measure the clerk chose per line (by its key); until then, measured when it carries a quantity.
  const [measures, setMeasures] = useState<Record<string, Measure>>({});
  const rows = claimRows(doc, shown, measures);
  const live = useMemo(() => liveClaim(doc, header, rows), [rows, header, doc]);
  const f = live.figures;
  const m = (v: string) => formatMoney(v, currency);
  const counted = rows.filter((r) => !isBlank(r.line));

  const set = (index: number, patch: Partial<LineDraft> | { extra: Record<string, unknown> }) =>
    onChange(
      shown.map((l, i) =>
        i === index ? { ...l, ...patch, extra: { ...l.extra, ...("extra" in patch ? patch.extra : {}) } } : l,
      ),
    );
  const measureAs = (index: number, to: Measure) => {
    const r = rows[index];
    setMeasures((m) => ({ ...m, [r.line.key]: to }));
    set(index, { extra: switchMeasure(to, { contractQty: r.contractQty, percent: r.percent, qty: r.qty }) });
  };
  const addVariation = () =>
    onChange([
      ...shown.filter((l) => !isBlank(l)),
      { ...emptyLine(), extra: { contract_amount: "", cumulative_percent: "0", is_variation: true } },
    ]);

  return (
    <Grid container spacing={2}>
      <Grid size={{ xs: 12, lg: 8 }}>
        <Card variant="outlined" sx={{ height: "100%" }}>
          <CardContent sx={{ px: { xs: 1, sm: 2 } }}>
            <Typography variant="subtitle1" component="h2" sx={{ mb: 1 }}>
              {release ? "Retention released" : "Valuation of work done"}
            </Typography>
            {errors?.lines && <Alert severity="error">{errors.lines}</Alert>}
            <TableContainer>
              <Table size="small" aria-label="Claim lines">
                <TableHead>
                  <TableRow>
                    <TableCell>Description</TableCell>
                    <TableCell align="right">{release ? "Amount" : "Contract"}</TableCell>
                    {!release && <TableCell align="right">Previous</TableCell>}
                    {!release && <TableCell align="right">Done to date</TableCell>}
                    {!release && <TableCell align="right">To date</TableCell>}
                    {!release && <TableCell align="right">This claim</TableCell>}
                    {!readOnly && !release && <TableCell padding="none" />}
                  </TableRow>
                </TableHead>
                <TableBody>
                  {rows.map((r, i) => {
                    const fig = f?.lines[counted.indexOf(r)];
                    const newVariation = r.variation && r.saved?.prev_line_id == null && !r.line.extra.prev_line_id;
                    return (
                      <TableRow key={r.line.key} data-testid={`claim-line-${i}`}>
                        <TableCell sx={{ minWidth: 180 }}>
                          {!readOnly && newVariation ? (
                            <TextField
                              size="small"
                              variant="standard"
                              fullWidth
                              placeholder="Variation, e.g. VO-02 extra power points"
                              value={r.line.description}
                              onChange={(e) => set(i, { description: e.target.value })}
                              slotProps={{ htmlInput: { "aria-label": `Description, line ${i + 1}` } }}
                            />
                          ) : (
                            <>
                              {r.line.description}
                              {r.variation && <Chip label="Variation" size="small" sx={{ ml: 1 }} variant="outlined" />}
                            </>
                          )}
                        </TableCell>
                        <TableCell align="right" sx={{ fontVariantNumeric: "tabular-nums" }}>
                          {!readOnly && (newVariation || release) ? (
                            <TextField
                              size="small"
                              variant="standard"
                              value={r.contract}
                              onChange={(e) => set(i, { extra: { contract_amount: e.target.value } })}
                              slotProps={{
                                htmlInput: {
                                  inputMode: "decimal",
                                  "aria-label": `Contract amount, line ${i + 1}`,
                                  style: { textAlign: "right", width: 110 },
                                },
                              }}
                            />
                          ) : (
                            amount(r.contract || "0")
                          )}
                        </TableCell>
                        {!release && (
                          <TableCell align="right" sx={{ fontVariantNumeric: "tabular-nums", color: "text.secondary" }}>
                            {r.measure === "qty" ? withUnit(r.prevQty || "0", r.line.unit) : pct(r.prevPercent)}
                            <Typography variant="caption" sx={{ display: "block" }}>
                              {amount(r.prevAmount)}
                            </Typography>
                          </TableCell>
                        )}
                        {!release && (
                          <TableCell align="right">
                            <DoneToDate
                              line={i + 1}
                              measure={r.measure}
                              percent={asTyped(r.percent, r.saved?.cumulative_percent)}
                              qty={asTyped(r.qty, r.saved?.cumulative_qty)}
                              unit={r.line.unit}
                              contractQty={asTyped(r.contractQty, r.saved?.contract_qty)}
                              derived={
                                r.measure === "qty"
                                  ? percentOfQty(r.contractQty, r.qty)
                                  : qtyOfPercent(r.contractQty, r.percent)
                              }
                              contractQtyEditable={newVariation}
                              measurable={
                                r.measure === "qty" ||
                                newVariation ||
                                (r.contractQty !== "" && (r.line.unit.trim() !== "" || Number(r.contractQty) !== 1))
                              }
                              error={Boolean(
                                errors?.[`lines.${i}.cumulative_percent`] ?? errors?.[`lines.${i}.cumulative_qty`],
                              )}
                              readOnly={readOnly}
                              onMeasure={(to) => measureAs(i, to)}
                              onPercent={(v) => set(i, { extra: { cumulative_percent: v } })}
                              onQty={(v) => set(i, { extra: { cumulative_qty: v } })}
                              onContractQty={(v) => set(i, { extra: { contract_qty: v } })}
                            />
                          </TableCell>
                        )}
                        {!release && (
                          <TableCell align="right" sx={{ fontVariantNumeric: "tabular-nums" }}>
                            {fig ? amount(fig.amount_to_date) : ""}
                          </TableCell>
                        )}
                        {!release && (
                          <TableCell align="right" sx={{ fontVariantNumeric: "tabular-nums", fontWeight: 500 }}>
                            {fig ? amount(fig.line_total) : ""}
                          </TableCell>
                        )}
                        {!readOnly && !release && (
                          <TableCell padding="none">
                            {newVariation && (
                              <IconButton
                                aria-label={`Remove line ${i + 1}`}
                                size="small"
                                onClick={() => onChange(shown.filter((_, j) => j !== i))}
                              >
                                <DeleteOutlined fontSize="small" />
                              </IconButton>
                            )}
                          </TableCell>
                        )}
                      </TableRow>
                    );
                  })}
                  {rows.length === 0 && (
                    <TableRow>
                      <TableCell colSpan={7}>
                        <Typography color="text.secondary">This claim has no lines.</Typography>
                      </TableCell>
                    </TableRow>
                  )}
                </TableBody>
              </Table>
            </TableContainer>
            {!readOnly && !release && (
              <Button startIcon={<AddIcon />} onClick={addVariation} sx={{ mt: 1 }}>
                Add a variation
              </Button>
            )}
          </CardContent>
        </Card>
      </Grid>
      <Grid size={{ xs: 12, lg: 4 }}>
        <Card variant="outlined" sx={{ height: "100%" }}>
          <CardContent>
            <Typography variant="subtitle1" component="h2" sx={{ mb: 1 }}>
              Claim figures
            </Typography>
            {live.error && <Alert severity="warning">{live.error}</Alert>}
            {f && (
              <Box aria-label="Claim figures" data-testid="totals">
                {!release && (
                  <>
                    <Figure label="Contract sum" value={m(f.contract_sum)} />
                    <Figure label="Work done to date" value={m(f.gross_to_date)} />
                    <Figure label="Less previous claims" value={m(f.previous_gross)} />
                    <Figure label="This claim (gross)" value={m(f.this_claim_gross)} strong testId="claim-gross" />
                    <Divider sx={{ my: 1 }} />
                    <Figure
                      label={`Retention to date (${pct(header.retention_percent ?? doc?.retention_percent)}, cap ${amount(f.retention_cap)})`}
                      value={m(f.retention_to_date)}
                    />
                    <Figure label="Retention previously held" value={m(f.previous_retention)} />
                    <Figure label="Retention this claim" value={m(f.retention_this_claim)} testId="claim-retention" />
                  </>
                )}
                {release && <Figure label="Retention released" value={m(f.subtotal)} testId="claim-retention" />}
                <Divider sx={{ my: 1 }} />
                <Figure label="Amount before GST" value={m(f.subtotal)} />
                <Figure label={`GST ${f.tax_code}`} value={m(f.tax_total)} />
                <Figure label="Total" value={m(f.total)} strong testId="totals-total" />
                {doc && doc.status !== "draft" && (
                  <Figure label="Outstanding" value={m(text(doc.outstanding) || "0")} strong />
                )}
              </Box>
            )}
          </CardContent>
        </Card>
      </Grid>
    </Grid>
  );
}
