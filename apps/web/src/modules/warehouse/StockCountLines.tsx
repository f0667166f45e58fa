import Card from "@mui/material/Card";
import CardContent from "@mui/material/CardContent";
import Stack from "@mui/material/Stack";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableContainer from "@mui/material/TableContainer";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import Typography from "@mui/material/Typography";
import { dec, money, plain, sum } from "@workmetrics/domain/documents/decimal";
import { formatCents } from "../../platform/fields/format.ts";
import type { LinesEditorProps } from "../documents/types.ts";

// A stock count's lines for the manager's review (issue 22), in place of the lines grid and totals: what was counted,
// what the books held when it was submitted, the difference and its value at cost, and the net adjustment Apply
// posts (Dr 5010 Stock Adjustment / Cr 1200 Stock for a loss, the reverse for a gain). Read only: counts come from
// the warehouse app.

type Line = Record<string, unknown>;
const q = (v: unknown) => (v === null || v === undefined || v === "" ? "—" : plain(dec(String(v))));

export default function StockCountLines({ doc, currency }: LinesEditorProps) {
  const lines = ((doc?.lines as Line[] | undefined) ?? [])
    .slice()
    .sort((a, b) => Number(a.line_no) - Number(b.line_no));
  const costed = lines.every((l) => l.unit_cost != null);
  const value = (l: Line) => money(dec(String(l.difference ?? "0")).times(dec(String(l.unit_cost ?? "0"))));
  const net = costed ? money(sum(lines.map(value))) : null;
  const off = lines.filter((l) => !dec(String(l.difference ?? "0")).isZero()).length;
  return (
    <Card variant="outlined">
      <CardContent>
        <Stack
          direction="row"
          sx={{ justifyContent: "space-between", alignItems: "baseline", mb: 1, flexWrap: "wrap" }}
        >
          <Typography variant="subtitle1" component="h2">
            Counted lines
          </Typography>
          <Typography variant="body2" color="text.secondary" data-testid="count-summary">
            {lines.length} counted · {off} with a difference
            {net !== null &&
              ` · net ${dec(net).isNegative() ? "loss" : "gain"} ${currency} ${formatCents(dec(net).abs().toFixed(2))}`}
          </Typography>
        </Stack>
        <TableContainer>
          <Table size="small" aria-label="Counted lines">
            <TableHead>
              <TableRow>
                <TableCell>#</TableCell>
                <TableCell>Product</TableCell>
                <TableCell align="right">Counted</TableCell>
                <TableCell align="right">System</TableCell>
                <TableCell align="right">Difference</TableCell>
                {costed && <TableCell align="right">Value at cost ({currency})</TableCell>}
              </TableRow>
            </TableHead>
            <TableBody>
              {lines.map((l) => {
                const d = dec(String(l.difference ?? "0"));
                const color = d.isZero() ? undefined : d.isNegative() ? "error.main" : "success.main";
                return (
                  <TableRow key={String(l.id)}>
                    <TableCell>{String(l.line_no)}</TableCell>
                    <TableCell>
                      <Typography variant="body2">{String(l.description ?? "")}</Typography>
                      <Typography variant="caption" color="text.secondary">
                        {String(l.sku ?? "")}
                      </Typography>
                    </TableCell>
                    <TableCell align="right">{q(l.counted_qty)}</TableCell>
                    <TableCell align="right">{q(l.system_qty)}</TableCell>
                    <TableCell align="right" sx={{ color, fontWeight: d.isZero() ? undefined : 600 }}>
                      {d.isPositive() && !d.isZero() ? "+" : ""}
                      {q(l.difference)}
                    </TableCell>
                    {costed && (
                      <TableCell align="right" sx={{ color }}>
                        {formatCents(value(l))}
                      </TableCell>
                    )}
                  </TableRow>
                );
              })}
            </TableBody>
          </Table>
        </TableContainer>
      </CardContent>
    </Card>
  );
}
