import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import Grid from "@mui/material/Grid";
import Link from "@mui/material/Link";
import Paper from "@mui/material/Paper";
import Skeleton from "@mui/material/Skeleton";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import { useQueryClient } from "@tanstack/react-query";
import { errorMessage } from "@workmetrics/domain";
import { useState } from "react";
import toast from "react-hot-toast";
import { Link as RouterLink } from "react-router";
import { useDataProvider } from "../../platform/data-access/provider.ts";
import { formatDate } from "../../platform/fields/format.ts";
import { useDecision } from "../../platform/resource/access.ts";
import { useErrorToast } from "../../platform/resource/hooks.ts";
import { useDashboardBase } from "../../platform/resource/paths.ts";
import { ReasonDialog } from "../documents/DocumentDialogs.tsx";
import { useReport } from "../payables/useReport.ts";
import type { AgeingRow } from "../receivables/ageing.ts";

// One supplier invoice in the three-way check, line by line: the purchase order, the receipt and the invoice side
// by side (three_way_check with invoice_id), each a link to its page; Release (with the reason) for who may.

const RELEASE = {
  audience: "member",
  permission: "supplier_invoice.release",
  feature: "erp",
  does: "release supplier invoices to pay",
} as const;

const qty = (v: unknown) => (v == null ? "—" : String(Number(v)));
const price = (v: unknown) => (v == null ? "—" : Number(v).toFixed(2));

export function ThreeWayDetail({ invoiceId, onClose }: { invoiceId: number; onClose(): void }) {
  const base = useDashboardBase();
  const data = useDataProvider();
  const qc = useQueryClient();
  const detail = useReport({ name: "three_way_check", invoice_id: invoiceId, limit: 500 });
  useErrorToast(detail.error);
  const mayRelease = useDecision(RELEASE).allowed;
  const [releasing, setReleasing] = useState(false);
  const lines = detail.data?.rows ?? [];
  const head = lines[0];
  const link = (path: string, id: unknown, text: unknown) =>
    id == null ? (
      <Typography color="text.secondary">None</Typography>
    ) : (
      <Link component={RouterLink} to={`${base}/${path}/${String(id)}`} onClick={onClose}>
        {String(text)}
      </Link>
    );
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="lg" aria-labelledby="three-way-title">
      <DialogTitle id="three-way-title">
        {head ? `${String(head.invoice)} from ${String(head.supplier)}` : "Supplier invoice"}
      </DialogTitle>
      <DialogContent>
        {detail.isPending ? (
          <Skeleton height={160} />
        ) : !head ? (
          <Alert severity="info">This supplier invoice has no lines to check.</Alert>
        ) : (
          <Stack spacing={2}>
            <Status head={head} />
            {lines.map((l) => (
              <Box key={String(l.line_id)} data-testid={`three-way-line-${String(l.line_no)}`}>
                <Typography variant="subtitle2" sx={{ mb: 1 }}>
                  Line {String(l.line_no)}: {String(l.description)}
                </Typography>
                <Grid container spacing={1.5}>
                  <Side title="Purchase order" link={link("purchase-orders", l.purchase_order_id, l.purchase_order)}>
                    <Fact label="Date" value={formatDate(l.purchase_order_date)} />
                    <Fact label="Ordered" value={qty(l.qty_ordered)} />
                    <Fact label="Received in all" value={qty(l.qty_received)} />
                    <Fact label="Billed in all" value={qty(l.qty_billed)} />
                    <Fact label="Price" value={price(l.po_price)} />
                  </Side>
                  <Side title="Receipt" link={link("supplier-delivery-orders", l.receipt_id, l.receipt)}>
                    <Fact label="Date" value={formatDate(l.receipt_date)} />
                    <Fact label="Supplier's DO" value={String(l.supplier_do_number ?? "—")} />
                    <Fact label="Accepted" value={qty(l.qty_accepted)} />
                    <Fact
                      label="Rejected"
                      value={`${qty(l.qty_rejected)}${l.reject_reason ? ` (${String(l.reject_reason)})` : ""}`}
                    />
                  </Side>
                  <Side title="Supplier invoice" link={link("supplier-invoices", l.invoice_id, l.invoice)}>
                    <Fact label="Supplier's number" value={String(l.supplier_invoice_number ?? "—")} />
                    <Fact label="Invoiced" value={qty(l.qty_invoiced)} />
                    <Fact
                      label="Price"
                      value={`${price(l.invoice_price)}${l.price_difference_percent != null && Number(l.price_difference_percent) !== 0 ? ` (${Number(l.price_difference_percent) > 0 ? "+" : ""}${String(l.price_difference_percent)}%)` : ""}`}
                    />
                  </Side>
                </Grid>
                {l.reasons ? (
                  <Alert severity={l.outcome === "released" ? "info" : "warning"} sx={{ mt: 1 }}>
                    {String(l.reasons)}
                  </Alert>
                ) : (
                  <Alert severity="success" sx={{ mt: 1 }}>
                    Passes the three-way check
                  </Alert>
                )}
              </Box>
            ))}
          </Stack>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Close</Button>
        {mayRelease && head?.match_status === "exception" && (
          <Button variant="contained" color="warning" onClick={() => setReleasing(true)}>
            Release to pay
          </Button>
        )}
      </DialogActions>
      {releasing && head && (
        <ReasonDialog
          open
          title={`Release ${String(head.invoice)} to pay`}
          prompt="It did not pass the three-way check. Why may it be paid? Your name, the time and the reason are kept in its history."
          confirmLabel="Release to pay"
          onCancel={() => setReleasing(false)}
          onConfirm={async (reason) => {
            try {
              await data.command("document_transition", {
                type: "supplier_invoice",
                id: invoiceId,
                action: "release",
                reason,
              });
              toast.success(`${String(head.invoice)} released to pay`);
              setReleasing(false);
              await qc.invalidateQueries({ queryKey: ["report"] });
            } catch (err) {
              toast.error(errorMessage(err, "The invoice could not be released"));
            }
          }}
        />
      )}
    </Dialog>
  );
}

function Status({ head }: { head: AgeingRow }) {
  if (head.match_status === "released") {
    return (
      <Alert severity="info">
        Released to pay on {formatDate(head.released_at)}: {String(head.release_reason ?? "")}
      </Alert>
    );
  }
  if (head.match_status === "exception") {
    return <Alert severity="warning">Waiting in the three-way check: it cannot be paid until it is released.</Alert>;
  }
  return <Alert severity="success">Matched: every line passes the three-way check.</Alert>;
}

function Side({ title, link, children }: { title: string; link: React.ReactNode; children: React.ReactNode }) {
  return (
    <Grid size={{ xs: 12, md: 4 }}>
      <Paper variant="outlined" sx={{ p: 1.5, height: "100%" }}>
        <Typography variant="overline" color="text.secondary">
          {title}
        </Typography>
        <Box sx={{ mb: 1 }}>{link}</Box>
        <Stack spacing={0.5}>{children}</Stack>
      </Paper>
    </Grid>
  );
}

function Fact({ label, value }: { label: string; value: string }) {
  return (
    <Stack direction="row" sx={{ justifyContent: "space-between", gap: 2 }}>
      <Typography variant="body2" color="text.secondary">
        {label}
      </Typography>
      <Typography variant="body2">{value || "—"}</Typography>
    </Stack>
  );
}
