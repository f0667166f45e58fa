import PaymentsOutlined from "@mui/icons-material/PaymentsOutlined";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Checkbox from "@mui/material/Checkbox";
import Chip from "@mui/material/Chip";
import Link from "@mui/material/Link";
import Skeleton from "@mui/material/Skeleton";
import Stack from "@mui/material/Stack";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import Typography from "@mui/material/Typography";
import { AP_AGEING_BUCKETS } from "@workmetrics/domain/reports";
import { useState } from "react";
import { Link as RouterLink } from "react-router";
import { useErrorToast } from "../../platform/resource/hooks.ts";
import { useDashboardBase } from "../../platform/resource/paths.ts";
import type { AgeingRow, ReportColumn } from "../receivables/ageing.ts";
import { alignOf, Cell } from "../receivables/ReportCell.tsx";
import type { Payable } from "./pay.ts";
import { useReport } from "./useReport.ts";

// The drill-down: one supplier's invoices open on the as-of date (ap_ageing with company_id), each linking to its
// page; an invoice the three-way check holds says so and cannot be chosen; the chosen ones are paid together.
export function SupplierInvoices(props: {
  companyId: number;
  company: string;
  asOf: string;
  mayPay: boolean;
  onPay(chosen: Payable[]): void;
}) {
  const { companyId, company, asOf, mayPay, onPay } = props;
  const base = useDashboardBase();
  const detail = useReport({ name: "ap_ageing", as_of: asOf, company_id: companyId });
  useErrorToast(detail.error);
  const [chosen, setChosen] = useState<number[]>([]);
  const rows = detail.data?.rows ?? [];
  // The buckets stay on the supplier's row: an invoice's days past due say which one it is in.
  const columns = (detail.data?.columns ?? []).filter((c) => !AP_AGEING_BUCKETS.some((b) => b.key === c.key));
  const held = (r: AgeingRow) => r.match_status === "exception";
  const payable = rows.filter((r) => !held(r));
  const toggle = (id: number) => setChosen(chosen.includes(id) ? chosen.filter((c) => c !== id) : [...chosen, id]);
  const pay = () =>
    onPay(
      rows
        .filter((r) => chosen.includes(Number(r.id)))
        .map((r) => ({ id: Number(r.id), number: String(r.number), outstanding: String(r.total) })),
    );
  return (
    <Box sx={{ px: 2, py: 1.5 }} data-testid={`supplier-invoices-of-${companyId}`}>
      <Stack direction="row" spacing={1} sx={{ alignItems: "center", mb: 1, flexWrap: "wrap" }}>
        <Typography variant="subtitle2" sx={{ mr: 1 }}>
          Open invoices of {company}
        </Typography>
        <Button size="small" component={RouterLink} to={`${base}/supplier-invoices?supplier=${companyId}`}>
          All supplier invoices
        </Button>
        {mayPay && (
          <Button
            size="small"
            variant="contained"
            startIcon={<PaymentsOutlined />}
            disabled={chosen.length === 0}
            onClick={pay}
          >
            Pay {chosen.length ? `${chosen.length} chosen` : "chosen"}
          </Button>
        )}
      </Stack>
      {detail.isPending ? (
        <Skeleton height={72} />
      ) : (
        <Table size="small" aria-label={`Open invoices of ${company}`}>
          <TableHead>
            <TableRow>
              {mayPay && (
                <TableCell padding="checkbox">
                  <Checkbox
                    size="small"
                    checked={payable.length > 0 && chosen.length === payable.length}
                    indeterminate={chosen.length > 0 && chosen.length < payable.length}
                    onChange={() => setChosen(chosen.length ? [] : payable.map((r) => Number(r.id)))}
                    slotProps={{ input: { "aria-label": "Choose every invoice that may be paid" } }}
                  />
                </TableCell>
              )}
              {columns.map((c) => (
                <TableCell key={c.key} align={alignOf(c)} sx={{ whiteSpace: "nowrap" }}>
                  {c.label}
                </TableCell>
              ))}
            </TableRow>
          </TableHead>
          <TableBody>
            {rows.map((row) => (
              <TableRow key={String(row.id)}>
                {mayPay && (
                  <TableCell padding="checkbox">
                    <Checkbox
                      size="small"
                      disabled={held(row)}
                      checked={chosen.includes(Number(row.id))}
                      onChange={() => toggle(Number(row.id))}
                      slotProps={{ input: { "aria-label": `Choose ${String(row.number)}` } }}
                    />
                  </TableCell>
                )}
                {columns.map((c) => (
                  <TableCell key={c.key} align={alignOf(c)} sx={{ whiteSpace: "nowrap" }}>
                    <InvoiceCell column={c} row={row} base={base} />
                  </TableCell>
                ))}
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
    </Box>
  );
}

function InvoiceCell({ column, row, base }: { column: ReportColumn; row: AgeingRow; base: string }) {
  if (column.key !== "number") return <Cell column={column} row={row} />;
  return (
    <Stack direction="row" spacing={1} sx={{ alignItems: "center" }}>
      <Link component={RouterLink} to={`${base}/supplier-invoices/${String(row.id)}`}>
        {String(row.number ?? row.id)}
      </Link>
      {row.match_status === "exception" && (
        <Chip
          size="small"
          color="warning"
          label="In three-way check"
          component={RouterLink}
          to={`${base}/three-way-check?invoice=${String(row.id)}`}
          clickable
        />
      )}
    </Stack>
  );
}
