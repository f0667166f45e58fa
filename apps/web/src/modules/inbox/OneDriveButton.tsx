import CloudUploadOutlined from "@mui/icons-material/CloudUploadOutlined";
import Button from "@mui/material/Button";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { decide, errorMessage } from "@workmetrics/domain";
import { type FormEvent, useState } from "react";
import toast from "react-hot-toast";
import type { Row } from "../../platform/data-access/provider.ts";
import { useDataProvider } from "../../platform/data-access/provider.ts";
import { useMember } from "../../platform/resource/access.ts";

// Issue 24 "OneDrive" (Premium): a document's PDF saved into a OneDrive folder of the workspace's Microsoft
// connection (onedrive_save). The upload runs in a job; its link lands in the document's history.
const FOLDER_NAMES: Record<string, string> = {
  quotation: "Quotations",
  sales_order: "Sales orders",
  invoice: "Invoices",
  delivery_order: "Delivery orders",
  receipt: "Receipts",
  credit_note: "Credit notes",
};

export default function OneDriveButton({ doc, type }: { doc: Row; status: string; type: string }) {
  const who = useMember();
  const data = useDataProvider();
  const qc = useQueryClient();
  const [open, setOpen] = useState(false);
  const month = new Date().toISOString().slice(0, 7);
  const [folder, setFolder] = useState(`Workmetrics/${FOLDER_NAMES[type] ?? type}/${month}`);
  const [fault, setFault] = useState<string | null>(null);
  const save = useMutation({
    mutationFn: () =>
      data.command("onedrive_save", { document_type: type, document_id: Number(doc.id), folder: folder.trim() }),
    onSettled: () => void qc.invalidateQueries(),
  });
  if (!decide(who, { audience: "member", permission: null, does: "save to OneDrive", feature: "onedrive" }).allowed) {
    return null;
  }
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setFault(null);
    try {
      const r = await save.mutateAsync();
      toast.success(`Saving to OneDrive: ${r.path}`);
      setOpen(false);
    } catch (err) {
      setFault(errorMessage(err, "The document could not be saved to OneDrive"));
    }
  };
  return (
    <>
      <Button variant="outlined" startIcon={<CloudUploadOutlined />} onClick={() => setOpen(true)}>
        Save to OneDrive
      </Button>
      <Dialog open={open} onClose={() => setOpen(false)} fullWidth maxWidth="sm">
        <form onSubmit={submit} noValidate>
          <DialogTitle>Save to OneDrive</DialogTitle>
          <DialogContent>
            <Typography color="text.secondary" sx={{ mb: 2 }}>
              The PDF goes into this folder of the OneDrive of the connected Outlook account. Its link appears in the
              document's history.
            </Typography>
            <TextField
              label="Folder"
              value={folder}
              onChange={(e) => setFolder(e.target.value)}
              error={Boolean(fault)}
              helperText={fault ?? "Folders are made as needed, e.g. Workmetrics/Invoices/2026-11"}
              fullWidth
              autoFocus
            />
          </DialogContent>
          <DialogActions>
            <Button onClick={() => setOpen(false)}>Cancel</Button>
            <Button type="submit" variant="contained" disabled={save.isPending || !folder.trim()}>
              {save.isPending ? "Saving…" : "Save"}
            </Button>
          </DialogActions>
        </form>
      </Dialog>
    </>
  );
}
