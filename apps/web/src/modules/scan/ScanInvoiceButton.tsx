import DocumentScannerOutlined from "@mui/icons-material/DocumentScannerOutlined";
import Button from "@mui/material/Button";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import LinearProgress from "@mui/material/LinearProgress";
import Typography from "@mui/material/Typography";
import { errorMessage, STORAGE_ACTIONS } from "@workmetrics/domain";
import { useRef, useState } from "react";
import toast from "react-hot-toast";
import { useNavigate } from "react-router";
import { useDataProvider } from "../../platform/data-access/provider.ts";
import { useDecision } from "../../platform/resource/access.ts";
import { useViewer } from "../../platform/session/viewer.tsx";
import { ensureBucket, files } from "../files/files-api.ts";

// "Scan an invoice" (issue 24, Premium OCR): the clerk picks a PDF or a photo; it is kept in the workspace's files
// under scans/, read by the server (document_from_scan) into a draft supplier invoice, and the draft opens — with
// what was read and why it needs review shown on it. Offered to whoever may make supplier invoices and add files,
// in a tier with OCR (the server's rule, the same decision).

const ACCEPT = "application/pdf,image/png,image/jpeg,image/webp";

export default function ScanInvoiceButton() {
  const { client } = useViewer();
  const data = useDataProvider();
  const navigate = useNavigate();
  const input = useRef<HTMLInputElement>(null);
  const [step, setStep] = useState<string | null>(null);
  const may = useDecision({
    audience: "member",
    permission: "supplier_invoice.create",
    feature: "ocr",
    subject: "Supplier invoices",
    does: "scan supplier invoices",
  });
  const mayUpload = useDecision(STORAGE_ACTIONS["file.create"]).allowed;
  if (!may.allowed || !mayUpload || !client) return null;

  async function scan(file: File) {
    if (!client) return;
    try {
      setStep("Uploading…");
      await ensureBucket(client.storage);
      const path = `scans/${Date.now()}-${file.name.replace(/[^A-Za-z0-9._-]+/g, "_")}`;
      const { error } = await files(client).upload(path, file, {
        contentType: file.type || "application/octet-stream",
        upsert: false,
      });
      if (error) throw new Error(error.message);
      setStep("Reading the invoice… (a photo takes a few seconds)");
      const made = await data.command("document_from_scan", { type: "supplier_invoice", bucket: "files", path });
      toast.success(made.needs_review ? "Draft made — check what is highlighted" : "Draft made from the scan");
      navigate(`./${String(made.id)}`, { relative: "path" });
    } catch (err) {
      toast.error(errorMessage(err, "The invoice could not be read"));
    } finally {
      setStep(null);
    }
  }

  return (
    <>
      <input
        ref={input}
        type="file"
        accept={ACCEPT}
        hidden
        aria-label="Invoice file to scan"
        onChange={(e) => {
          const f = e.target.files?.[0];
          e.target.value = "";
          if (f) void scan(f);
        }}
      />
      <Button
        variant="outlined"
        startIcon={<DocumentScannerOutlined />}
        onClick={() => input.current?.click()}
        disabled={step !== null}
        sx={{ flexShrink: 0 }}
      >
        Scan an invoice
      </Button>
      <Dialog open={step !== null} aria-labelledby="scan-progress-title">
        <DialogTitle id="scan-progress-title">Scanning the invoice</DialogTitle>
        <DialogContent sx={{ minWidth: 300 }}>
          <Typography variant="body2" gutterBottom>
            {step}
          </Typography>
          <LinearProgress />
        </DialogContent>
        <DialogActions />
      </Dialog>
    </>
  );
}
