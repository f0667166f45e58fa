import Box from "@mui/material/Box";
import Card from "@mui/material/Card";
import Chip from "@mui/material/Chip";
import MenuItem from "@mui/material/MenuItem";
import Skeleton from "@mui/material/Skeleton";
import Stack from "@mui/material/Stack";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableContainer from "@mui/material/TableContainer";
import TableHead from "@mui/material/TableHead";
import TablePagination from "@mui/material/TablePagination";
import TableRow from "@mui/material/TableRow";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { THREE_WAY_REASONS } from "@workmetrics/domain/resources/payables";
import { useSearchParams } from "react-router";
import { useErrorToast } from "../../platform/resource/hooks.ts";
import { usePageTitle } from "../../platform/ui/usePageTitle.ts";
import { useReport } from "../payables/useReport.ts";
import { useSupplierOptions } from "../payables/useSupplierOptions.ts";
import type { AgeingRow } from "../receivables/ageing.ts";
import { ThreeWayDetail } from "./ThreeWayDetail.tsx";

// Issue 11 "/dashboard/three-way-check": the exception queue. Every supplier invoice line with what was ordered,
// received and invoiced and the order's price against the invoice's; filtered by outcome (waiting exceptions by
// default), supplier and reason, with the counts of each; a line opens its invoice beside its order and receipt,
// where who may releases it to pay. The filters live in the address, so a link opens the same view.

const OUTCOMES = [
  { key: "exception", label: "Exceptions" },
  { key: "released", label: "Released" },
  { key: "passed", label: "Passed" },
  { key: "all", label: "All lines" },
] as const;

const PAGE_SIZES = [25, 50, 100];

const qty = (v: unknown) => (v == null ? "—" : String(Number(v)));
const price = (v: unknown) => (v == null ? "—" : Number(v).toFixed(2));

export default function ThreeWayPage() {
  usePageTitle("Three-way check");
  const [params, setParams] = useSearchParams();
  const status = OUTCOMES.some((o) => o.key === params.get("status")) ? String(params.get("status")) : "exception";
  const supplier = Number(params.get("supplier")) || undefined;
  const reason = THREE_WAY_REASONS.some((r) => r.key === params.get("reason"))
    ? String(params.get("reason"))
    : undefined;
  const page = Math.max(0, Number(params.get("page")) || 0);
  const size = PAGE_SIZES.includes(Number(params.get("size"))) ? Number(params.get("size")) : 25;
  const open = Number(params.get("invoice")) || null;
  const set = (changes: Record<string, string | number | undefined | null>) => {
    const next = new URLSearchParams(params);
    for (const [k, v] of Object.entries(changes)) {
      if (v === undefined || v === null || v === "") next.delete(k);
      else next.set(k, String(v));
    }
    setParams(next, { replace: true });
  };
  const queue = useReport({
    name: "three_way_check",
    status,
    ...(supplier ? { company_id: supplier } : {}),
    ...(reason ? { reason } : {}),
    limit: size,
    offset: page * size,
  });
  useErrorToast(queue.error);
  const suppliers = useSupplierOptions("three-way");
  const totals = queue.data?.totals ?? {};
  const count = (k: string) => Number(totals[k] ?? 0);
  const outcomeCount = (k: string) =>
    k === "all"
      ? count("outcome_exception") + count("outcome_released") + count("outcome_passed")
      : count(`outcome_${k}`);

  return (
    <Stack spacing={2}>
      <Box>
        <Typography variant="h4" component="h1">
          Three-way check
        </Typography>
        <Typography color="text.secondary">
          Supplier invoice lines against their purchase order and receipt: ordered, received and invoiced quantities,
          the order's price and the invoice's
        </Typography>
      </Box>
      <Stack direction={{ xs: "column", md: "row" }} spacing={2} sx={{ alignItems: { md: "center" } }}>
        <TextField
          select
          size="small"
          label="Lines"
          value={status}
          onChange={(e) => set({ status: e.target.value === "exception" ? null : e.target.value, page: null })}
          sx={{ minWidth: 200 }}
        >
          {OUTCOMES.map((o) => (
            <MenuItem key={o.key} value={o.key}>
              {o.label} ({outcomeCount(o.key)})
            </MenuItem>
          ))}
        </TextField>
        <TextField
          select
          size="small"
          label="Supplier"
          slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
          value={supplier ?? ""}
          onChange={(e) => set({ supplier: e.target.value || null, page: null })}
          sx={{ minWidth: 240 }}
        >
          <MenuItem value="">Every supplier</MenuItem>
          {(suppliers.data ?? []).map((c) => (
            <MenuItem key={String(c.id)} value={String(c.id)}>
              {String(c.name)}
            </MenuItem>
          ))}
        </TextField>
      </Stack>
      {status !== "passed" && (
        <Stack direction="row" spacing={1} sx={{ flexWrap: "wrap", rowGap: 1 }} aria-label="Reasons">
          <Chip
            label="Every reason"
            color={reason ? "default" : "primary"}
            variant={reason ? "outlined" : "filled"}
            onClick={() => set({ reason: null, page: null })}
          />
          {THREE_WAY_REASONS.map((r) => (
            <Chip
              key={r.key}
              label={`${r.label} (${count(`reason_${r.key}`)})`}
              color={reason === r.key ? "primary" : "default"}
              variant={reason === r.key ? "filled" : "outlined"}
              onClick={() => set({ reason: reason === r.key ? null : r.key, page: null })}
            />
          ))}
        </Stack>
      )}
      <Card variant="outlined">
        <QueueTable rows={queue.data?.rows} loading={queue.isPending} onOpen={(id) => set({ invoice: id })} />
        <TablePagination
          component="div"
          count={count("count")}
          page={page}
          rowsPerPage={size}
          rowsPerPageOptions={PAGE_SIZES}
          onPageChange={(_, p) => set({ page: p || null })}
          onRowsPerPageChange={(e) => set({ size: e.target.value, page: null })}
        />
      </Card>
      {open && <ThreeWayDetail invoiceId={open} onClose={() => set({ invoice: null })} />}
    </Stack>
  );
}

function QueueTable(props: { rows: AgeingRow[] | undefined; loading: boolean; onOpen(invoiceId: number): void }) {
  const { rows, loading, onOpen } = props;
  if (loading || !rows) {
    return (
      <Box sx={{ p: 2 }} aria-busy="true" aria-label="Loading the queue">
        {[0, 1, 2, 3].map((i) => (
          <Skeleton key={i} height={36} />
        ))}
      </Box>
    );
  }
  if (!rows.length) {
    return (
      <Box sx={{ p: 4, textAlign: "center" }} data-testid="three-way-empty">
        <Typography variant="h6" component="p">
          Nothing here
        </Typography>
        <Typography color="text.secondary">No supplier invoice line matches these filters.</Typography>
      </Box>
    );
  }
  return (
    <TableContainer>
      <Table size="small" aria-label="Three-way check" data-testid="three-way-table">
        <TableHead>
          <TableRow>
            <TableCell>Invoice</TableCell>
            <TableCell>Supplier</TableCell>
            <TableCell>Item</TableCell>
            <TableCell align="right">Ordered</TableCell>
            <TableCell align="right">Received</TableCell>
            <TableCell align="right">Invoiced</TableCell>
            <TableCell align="right">PO price</TableCell>
            <TableCell align="right">Invoice price</TableCell>
            <TableCell>Outcome</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map((r) => (
            <TableRow
              key={String(r.line_id)}
              hover
              sx={{ cursor: "pointer" }}
              onClick={() => onOpen(Number(r.invoice_id))}
              aria-label={`Open ${String(r.invoice)} line ${String(r.line_no)}`}
            >
              <TableCell sx={{ whiteSpace: "nowrap" }}>
                {String(r.invoice)}
                <Typography variant="caption" color="text.secondary" component="div">
                  {String(r.supplier_invoice_number ?? "")}
                </Typography>
              </TableCell>
              <TableCell>{String(r.supplier)}</TableCell>
              <TableCell>{String(r.description)}</TableCell>
              <TableCell align="right">{qty(r.qty_ordered)}</TableCell>
              <TableCell align="right">{qty(r.qty_received)}</TableCell>
              <TableCell align="right">{qty(r.qty_invoiced)}</TableCell>
              <TableCell align="right">{price(r.po_price)}</TableCell>
              <TableCell align="right">{price(r.invoice_price)}</TableCell>
              <TableCell sx={{ maxWidth: 320 }}>
                {r.reasons ? (
                  <Typography variant="body2" color={r.outcome === "released" ? "text.secondary" : "warning.main"}>
                    {r.outcome === "released" ? "Released: " : ""}
                    {String(r.reasons)}
                  </Typography>
                ) : (
                  <Typography variant="body2" color="success.main">
                    Passes
                  </Typography>
                )}
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
