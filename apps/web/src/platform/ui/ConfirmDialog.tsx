import Button from "@mui/material/Button";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogContentText from "@mui/material/DialogContentText";
import DialogTitle from "@mui/material/DialogTitle";
import { useState } from "react";

// Confirmation before destructive actions; the confirm button shows progress while the action runs. Where the action
// itself is a cancel, the dismiss button says so otherwise ("Keep it"), so the two never both read "Cancel".
export function ConfirmDialog(props: {
  open: boolean;
  title: string;
  body: string;
  confirmLabel: string;
  dismissLabel?: string; // default "Cancel"
  destructive?: boolean;
  onCancel(): void;
  onConfirm(): Promise<void> | void;
}) {
  const [busy, setBusy] = useState(false);
  return (
    <Dialog open={props.open} onClose={busy ? undefined : props.onCancel} aria-labelledby="confirm-title">
      <DialogTitle id="confirm-title">{props.title}</DialogTitle>
      <DialogContent>
        <DialogContentText>{props.body}</DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={props.onCancel} disabled={busy}>
          {props.dismissLabel ?? "Cancel"}
        </Button>
        <Button
          variant="contained"
          color={props.destructive ? "error" : "primary"}
          loading={busy}
          onClick={async () => {
            setBusy(true);
            try {
              await props.onConfirm();
            } finally {
              setBusy(false);
            }
          }}
        >
          {props.confirmLabel}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
