import Button from "@mui/material/Button";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogContentText from "@mui/material/DialogContentText";
import DialogTitle from "@mui/material/DialogTitle";
import { useQuery } from "@tanstack/react-query";
import type { OfferedAction } from "@workmetrics/domain/documents/machine";
import { useDataProvider } from "../../platform/data-access/provider.ts";
import { retryUnlessClientError } from "../../platform/resource/hooks.ts";
import { type DocRow, docKey } from "./api.ts";
import type { WebDocType } from "./types.ts";

// Issue 20 §3: the page's buttons come from pure guards over the rows it read; whether a cancel is refused by what
// stands on the document (a debit note against an invoice) is asked when the clerk opens it (document_action_check,
// which tries the cancel and rolls it back), never on every read of the page.
export function useActionCheck(t: WebDocType, doc: DocRow | null, asking: OfferedAction): string | null {
  const data = useDataProvider();
  const id = doc ? Number(doc.id) : null;
  const q = useQuery({
    queryKey: [...docKey(t.type, id ?? "new"), "check", asking.action, doc?.status],
    queryFn: ({ signal }) =>
      data.command("document_action_check", { type: t.type, id: id as number, action: asking.action }, signal),
    enabled: id !== null && asking.action === "cancel",
    staleTime: 0,
    gcTime: 0,
    retry: retryUnlessClientError,
  });
  return q.data?.blocked ?? null;
}

// The action refused before it is run: why, and a way back.
export function ActionBlockedDialog(props: { title: string; reason: string; dismissLabel: string; onClose(): void }) {
  return (
    <Dialog open onClose={props.onClose} aria-labelledby="action-blocked-title">
      <DialogTitle id="action-blocked-title">{props.title}</DialogTitle>
      <DialogContent>
        <DialogContentText data-testid="action-blocked">{props.reason}</DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button variant="contained" onClick={props.onClose}>
          {props.dismissLabel}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
