import Alert from "@mui/material/Alert";
import AlertTitle from "@mui/material/AlertTitle";
import Box from "@mui/material/Box";
import Chip from "@mui/material/Chip";
import Paper from "@mui/material/Paper";
import Typography from "@mui/material/Typography";
import { useQuery } from "@tanstack/react-query";
import { type Row, useDataProvider } from "../../platform/data-access/provider.ts";
import { useDecision } from "../../platform/resource/access.ts";

// On a supplier invoice made from a scan (issue 24): why it needs review, and each field read with its confidence —
// green when sure (90% and up), amber when fair, red when the clerk should check it against the paper.

const LABELS: Record<string, string> = {
  supplier_name: "Supplier",
  supplier_uen: "UEN",
  invoice_number: "Their invoice number",
  invoice_date: "Invoice date",
  due_date: "Due date",
  currency: "Currency",
  subtotal: "Subtotal",
  gst: "GST",
  total: "Total",
};

const MONEY = new Set(["subtotal", "gst", "total"]);
const shown = (k: string, v: unknown) => (MONEY.has(k) && typeof v === "number" ? v.toFixed(2) : String(v));

const tone = (c: number) => (c >= 0.9 ? "success" : c >= 0.7 ? "warning" : "error");

export default function ScanPanel({ doc }: { doc: Row }) {
  const data = useDataProvider();
  const may = useDecision({
    audience: "member",
    permission: "supplier_invoice.read",
    feature: "ocr",
    does: "read scanned invoices",
  }).allowed;
  const id = Number(doc.id);
  const scan = useQuery({
    queryKey: ["document_scan", "supplier_invoice", id],
    queryFn: ({ signal }) => data.command("document_scan_get", { type: "supplier_invoice", id }, signal),
    enabled: may && id > 0,
    staleTime: 60_000,
  });
  const s = scan.data;
  if (!s) return null;
  const fields = Object.keys(LABELS).filter((k) => s.fields[k] != null);
  const lines = (s.fields.lines as Array<Record<string, unknown>> | undefined) ?? [];
  return (
    <Paper variant="outlined" sx={{ p: 2 }} aria-label="Read from the scan">
      <Typography variant="subtitle1" gutterBottom>
        Read from the scan ({s.source === "text_layer" ? "the PDF's text" : "OCR"}, {s.path})
      </Typography>
      {s.needs_review ? (
        <Alert severity="warning" sx={{ mb: 2 }}>
          <AlertTitle>Needs review</AlertTitle>
          <Box component="ul" sx={{ m: 0, pl: 2 }}>
            {s.review_reasons.map((r) => (
              <li key={r}>{r}</li>
            ))}
          </Box>
        </Alert>
      ) : (
        <Alert severity="success" sx={{ mb: 2 }}>
          Everything read adds up. Check it against the paper, then submit.
        </Alert>
      )}
      <Box sx={{ display: "flex", flexWrap: "wrap", gap: 1 }}>
        {fields.map((k) => (
          <Chip
            key={k}
            variant="outlined"
            color={tone(s.confidence[k] ?? 0)}
            label={`${LABELS[k]}: ${shown(k, s.fields[k])} · ${Math.round((s.confidence[k] ?? 0) * 100)}%`}
          />
        ))}
        {lines.map((l, i) => {
          const c = Math.min(
            ...["description", "qty", "unit_price", "amount"].map((f) => s.confidence[`lines.${i}.${f}`] ?? 0),
          );
          return (
            <Chip
              // biome-ignore lint/suspicious/noArrayIndexKey: lines are in the order read
              key={`line-${i}`}
              variant="outlined"
              color={tone(c)}
              label={`Line ${i + 1}: ${String(l.description)} ${String(l.qty)} × ${Number(l.unit_price).toFixed(2)} · ${Math.round(c * 100)}%`}
            />
          );
        })}
      </Box>
    </Paper>
  );
}
