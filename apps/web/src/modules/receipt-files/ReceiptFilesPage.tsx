import DownloadOutlined from "@mui/icons-material/DownloadOutlined";
import VisibilityOutlined from "@mui/icons-material/VisibilityOutlined";
import Box from "@mui/material/Box";
import Card from "@mui/material/Card";
import Dialog from "@mui/material/Dialog";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import IconButton from "@mui/material/IconButton";
import Link from "@mui/material/Link";
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
import Tooltip from "@mui/material/Tooltip";
import Typography from "@mui/material/Typography";
import { useQuery } from "@tanstack/react-query";
import { errorMessage, formatBytes } from "@workmetrics/domain";
import { useState } from "react";
import toast from "react-hot-toast";
import { Link as RouterLink, useSearchParams } from "react-router";
import { useDataProvider } from "../../platform/data-access/provider.ts";
import { DateField } from "../../platform/fields/DateField.tsx";
import { formatDate } from "../../platform/fields/format.ts";
import { useErrorToast } from "../../platform/resource/hooks.ts";
import { useDashboardBase } from "../../platform/resource/paths.ts";
import { useViewer } from "../../platform/session/viewer.tsx";
import { usePageTitle } from "../../platform/ui/usePageTitle.ts";
import { FilePreview } from "../files/FilePreview.tsx";
import { signedUrl } from "../files/files-api.ts";
import { useReport } from "../payables/useReport.ts";
import { useSupplierOptions } from "../payables/useSupplierOptions.ts";
import type { AgeingRow } from "../receivables/ageing.ts";

// Issue 11 "/dashboard/supplier-delivery-order-attachment-files": every file attached to a supplier delivery order
// (the supplier's DO scans and photos, attached on the receipt's page), across all receipts, newest first; filtered
// by supplier, purchase order and receipt date; an image or PDF previews beside its details, any file downloads.

const PAGE_SIZES = [25, 50, 100];
const DAY = /^\d{4}-\d{2}-\d{2}$/;

export default function ReceiptFilesPage() {
  usePageTitle("Receipt attachments");
  const data = useDataProvider();
  const { client } = useViewer();
  const base = useDashboardBase();
  const [params, setParams] = useSearchParams();
  const supplier = Number(params.get("supplier")) || undefined;
  const po = Number(params.get("po")) || undefined;
  const from = DAY.test(params.get("from") ?? "") ? String(params.get("from")) : undefined;
  const to = DAY.test(params.get("to") ?? "") ? String(params.get("to")) : undefined;
  const page = Math.max(0, Number(params.get("page")) || 0);
  const size = PAGE_SIZES.includes(Number(params.get("size"))) ? Number(params.get("size")) : 25;
  const [previewing, setPreviewing] = useState<AgeingRow | null>(null);
  const set = (changes: Record<string, string | number | undefined | null>) => {
    const next = new URLSearchParams(params);
    for (const [k, v] of Object.entries(changes)) {
      if (v === undefined || v === null || v === "") next.delete(k);
      else next.set(k, String(v));
    }
    next.delete("page");
    if (changes.page) next.set("page", String(changes.page));
    setParams(next, { replace: true });
  };
  const files = useReport({
    name: "supplier_receipt_files",
    ...(supplier ? { company_id: supplier } : {}),
    ...(po ? { purchase_order_id: po } : {}),
    ...(from ? { from } : {}),
    ...(to ? { to } : {}),
    limit: size,
    offset: page * size,
  });
  useErrorToast(files.error);
  const suppliers = useSupplierOptions("receipt-files");
  const orders = useQuery({
    queryKey: ["receipt-files", "orders", supplier ?? null],
    queryFn: async () =>
      (
        await data.getList("purchase_order", {
          select: "id,number",
          filters: [
            { column: "number", op: "not.is", value: "null" },
            ...(supplier ? [{ column: "company_id", op: "eq", value: String(supplier) }] : []),
          ],
          order: [{ column: "id", ascending: false }],
          range: [0, 199],
        })
      ).data,
    staleTime: 60_000,
  });
  const download = async (row: AgeingRow) => {
    if (!client) return;
    try {
      const url = await signedUrl(client, String(row.path), 60, true);
      const a = document.createElement("a");
      a.href = url;
      a.download = String(row.file_name);
      a.click();
    } catch (err) {
      toast.error(errorMessage(err, "The file could not be downloaded"));
    }
  };
  const rows = files.data?.rows;
  return (
    <Stack spacing={2}>
      <Box>
        <Typography variant="h4" component="h1">
          Receipt attachments
        </Typography>
        <Typography color="text.secondary">
          The suppliers' delivery orders and photos attached to goods received
        </Typography>
      </Box>
      <Stack direction={{ xs: "column", md: "row" }} spacing={2}>
        <TextField
          select
          size="small"
          label="Supplier"
          slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
          value={supplier ?? ""}
          onChange={(e) => set({ supplier: e.target.value || null, po: null })}
          sx={{ minWidth: 220 }}
        >
          <MenuItem value="">Every supplier</MenuItem>
          {(suppliers.data ?? []).map((c) => (
            <MenuItem key={String(c.id)} value={String(c.id)}>
              {String(c.name)}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          select
          size="small"
          label="Purchase order"
          slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
          value={po ?? ""}
          onChange={(e) => set({ po: e.target.value || null })}
          sx={{ minWidth: 200 }}
        >
          <MenuItem value="">Every purchase order</MenuItem>
          {(orders.data ?? []).map((o) => (
            <MenuItem key={String(o.id)} value={String(o.id)}>
              {String(o.number)}
            </MenuItem>
          ))}
        </TextField>
        <DateField
          size="small"
          fullWidth={false}
          label="Received from"
          value={from ?? ""}
          onChange={(v) => set({ from: v || null })}
        />
        <DateField
          size="small"
          fullWidth={false}
          label="to"
          value={to ?? ""}
          onChange={(v) => set({ to: v || null })}
        />
      </Stack>
      <Card variant="outlined">
        {files.isPending || !rows ? (
          <Box sx={{ p: 2 }} aria-busy="true" aria-label="Loading the files">
            {[0, 1, 2].map((i) => (
              <Skeleton key={i} height={36} />
            ))}
          </Box>
        ) : !rows.length ? (
          <Box sx={{ p: 4, textAlign: "center" }} data-testid="receipt-files-empty">
            <Typography variant="h6" component="p">
              No files
            </Typography>
            <Typography color="text.secondary">
              No receipt matching these filters has a file attached. Attach the supplier's delivery order on the
              receipt's page.
            </Typography>
          </Box>
        ) : (
          <TableContainer>
            <Table size="small" aria-label="Receipt attachments" data-testid="receipt-files-table">
              <TableHead>
                <TableRow>
                  <TableCell>File</TableCell>
                  <TableCell>Receipt</TableCell>
                  <TableCell>Received</TableCell>
                  <TableCell>Supplier</TableCell>
                  <TableCell>Purchase order</TableCell>
                  <TableCell>Supplier's DO</TableCell>
                  <TableCell align="right">Size</TableCell>
                  <TableCell />
                </TableRow>
              </TableHead>
              <TableBody>
                {rows.map((r) => (
                  <TableRow key={String(r.uid)} hover>
                    <TableCell sx={{ wordBreak: "break-word" }}>
                      <Link component="button" onClick={() => setPreviewing(r)} sx={{ textAlign: "left" }}>
                        {String(r.file_name)}
                      </Link>
                    </TableCell>
                    <TableCell sx={{ whiteSpace: "nowrap" }}>
                      <Link component={RouterLink} to={`${base}/supplier-delivery-orders/${String(r.receipt_id)}`}>
                        {String(r.receipt ?? `Draft ${String(r.receipt_id)}`)}
                      </Link>
                    </TableCell>
                    <TableCell sx={{ whiteSpace: "nowrap" }}>{formatDate(r.receipt_date)}</TableCell>
                    <TableCell>{String(r.supplier)}</TableCell>
                    <TableCell sx={{ whiteSpace: "nowrap" }}>
                      {r.purchase_order_id ? (
                        <Link component={RouterLink} to={`${base}/purchase-orders/${String(r.purchase_order_id)}`}>
                          {String(r.purchase_order)}
                        </Link>
                      ) : (
                        "—"
                      )}
                    </TableCell>
                    <TableCell>{String(r.supplier_do_number ?? "—")}</TableCell>
                    <TableCell align="right" sx={{ whiteSpace: "nowrap" }}>
                      {formatBytes(Number(r.size))}
                    </TableCell>
                    <TableCell align="right" sx={{ whiteSpace: "nowrap" }}>
                      <Tooltip title="Preview">
                        <IconButton
                          size="small"
                          aria-label={`Preview ${String(r.file_name)}`}
                          onClick={() => setPreviewing(r)}
                        >
                          <VisibilityOutlined fontSize="small" />
                        </IconButton>
                      </Tooltip>
                      <Tooltip title="Download">
                        <IconButton
                          size="small"
                          aria-label={`Download ${String(r.file_name)}`}
                          onClick={() => download(r)}
                        >
                          <DownloadOutlined fontSize="small" />
                        </IconButton>
                      </Tooltip>
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </TableContainer>
        )}
        <TablePagination
          component="div"
          count={Number(files.data?.totals.count ?? 0)}
          page={page}
          rowsPerPage={size}
          rowsPerPageOptions={PAGE_SIZES}
          onPageChange={(_, p) => set({ page: p || null })}
          onRowsPerPageChange={(e) => set({ size: e.target.value })}
        />
      </Card>
      {previewing && client && (
        <Dialog open onClose={() => setPreviewing(null)} fullWidth maxWidth="md" aria-labelledby="preview-title">
          <DialogTitle id="preview-title">
            {String(previewing.file_name)} · {String(previewing.receipt ?? "")}
          </DialogTitle>
          <DialogContent>
            <FilePreview
              client={client}
              scope="receipt-files"
              entry={{
                kind: "file",
                name: String(previewing.file_name),
                path: String(previewing.path),
                size: Number(previewing.size),
                type: String(previewing.mime_type),
                modified: String(previewing.uploaded_at),
              }}
              onDownload={() => download(previewing)}
              onShare={async () => {
                try {
                  // A week-long link for someone without an account (the supplier, the auditor).
                  const url = await signedUrl(client, String(previewing.path), 7 * 24 * 3600);
                  await navigator.clipboard.writeText(url);
                  toast.success("A link valid for 7 days is copied");
                } catch (err) {
                  toast.error(errorMessage(err, "The link could not be made"));
                }
              }}
            />
          </DialogContent>
        </Dialog>
      )}
    </Stack>
  );
}
