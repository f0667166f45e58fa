import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Chip from "@mui/material/Chip";
import CircularProgress from "@mui/material/CircularProgress";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogContentText from "@mui/material/DialogContentText";
import DialogTitle from "@mui/material/DialogTitle";
import Paper from "@mui/material/Paper";
import Stack from "@mui/material/Stack";
import Tab from "@mui/material/Tab";
import Tabs from "@mui/material/Tabs";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { OfflineConflictView } from "@workmetrics/domain/commands/roleapps";
import { useState } from "react";
import toast from "react-hot-toast";
import { useDataProvider } from "../../platform/data-access/provider.ts";
import { formatDateTime } from "../../platform/fields/format.ts";
import { retryUnlessClientError } from "../../platform/resource/hooks.ts";
import { usePageTitle } from "../../platform/ui/usePageTitle.ts";

const APP_LABEL: Record<string, string> = { driver: "Driver app", warehouse: "Warehouse app", pos: "Point of sale" };
type Status = "open" | "resolved";

// Issue 22 "Offline": what a driver, storekeeper or cashier did offline and the server refused when it was sent
// (stock gone, a document cancelled meanwhile). Nothing is dropped: the person saw it in their app, and a manager
// sees it here, follows it up and marks it resolved.
export default function OfflineConflictsPage() {
  usePageTitle("Offline conflicts");
  const data = useDataProvider();
  const qc = useQueryClient();
  const [status, setStatus] = useState<Status>("open");
  const [resolving, setResolving] = useState<OfflineConflictView | null>(null);
  const list = useQuery({
    queryKey: ["offline-conflicts", status],
    queryFn: ({ signal }) => data.command("offline_conflict_list", { status, limit: 200 }, signal),
    retry: retryUnlessClientError,
  });
  const resolve = useMutation({
    mutationFn: (v: { id: number; note: string }) =>
      data.command("offline_conflict_resolve", { id: v.id, note: v.note || null }),
    onSuccess: async () => {
      toast.success("Marked resolved");
      setResolving(null);
      await qc.invalidateQueries({ queryKey: ["offline-conflicts"] });
    },
    onError: (err: Error) => toast.error(err.message),
  });

  return (
    <Stack spacing={2}>
      <Box>
        <Typography variant="h5" component="h1" sx={{ fontWeight: 700 }}>
          Offline conflicts
        </Typography>
        <Typography color="text.secondary">
          Actions taken offline in the driver, warehouse and POS apps that the server refused when they were sent. They
          did not happen: follow each up, then mark it resolved.
        </Typography>
      </Box>
      <Tabs value={status} onChange={(_e, v: Status) => setStatus(v)} aria-label="Which conflicts">
        <Tab value="open" label={`Open${list.data && status === "open" ? ` (${list.data.open})` : ""}`} />
        <Tab value="resolved" label="Resolved" />
      </Tabs>
      {list.isPending ? (
        <Box sx={{ display: "grid", placeItems: "center", py: 6 }}>
          <CircularProgress aria-label="Loading conflicts" />
        </Box>
      ) : list.error || !list.data ? (
        <Alert severity="error">{(list.error as Error | null)?.message ?? "The conflicts could not be read"}</Alert>
      ) : list.data.rows.length === 0 ? (
        <Paper variant="outlined" sx={{ p: 4, textAlign: "center" }}>
          <Typography color="text.secondary">
            {status === "open"
              ? "No open conflicts: everything done offline reached the books."
              : "No conflict has been resolved yet."}
          </Typography>
        </Paper>
      ) : (
        <Stack spacing={1.5} component="ul" sx={{ listStyle: "none", p: 0, m: 0 }} aria-label="Conflicts">
          {list.data.rows.map((c) => (
            <Paper key={String(c.id)} variant="outlined" component="li" sx={{ p: 2 }}>
              <Stack direction={{ xs: "column", sm: "row" }} spacing={2} sx={{ alignItems: { sm: "flex-start" } }}>
                <Box sx={{ flex: 1, minWidth: 0 }}>
                  <Stack direction="row" spacing={1} sx={{ alignItems: "center", flexWrap: "wrap", mb: 0.5 }}>
                    <Typography sx={{ fontWeight: 600 }}>{c.label}</Typography>
                    <Chip size="small" label={APP_LABEL[c.app] ?? c.app} />
                  </Stack>
                  <Alert severity="error" variant="outlined" sx={{ py: 0, my: 0.5 }}>
                    {c.message}
                  </Alert>
                  <Typography variant="body2" color="text.secondary">
                    {c.user_name ?? "Someone"} · done {c.acted_at ? formatDateTime(c.acted_at) : "offline"} · refused{" "}
                    {formatDateTime(c.created_at)} · {c.command}
                  </Typography>
                  {c.args_summary && (
                    <Typography
                      variant="caption"
                      color="text.secondary"
                      component="p"
                      sx={{ fontFamily: "monospace", wordBreak: "break-all", mt: 0.5 }}
                    >
                      {c.args_summary}
                    </Typography>
                  )}
                  {c.resolved_at && (
                    <Typography variant="body2" sx={{ mt: 0.5 }}>
                      Resolved by {c.resolved_by_name ?? "a manager"} on {formatDateTime(c.resolved_at)}
                      {c.resolution_note ? `: ${c.resolution_note}` : ""}
                    </Typography>
                  )}
                </Box>
                {!c.resolved_at && (
                  <Button variant="outlined" onClick={() => setResolving(c)}>
                    Mark resolved
                  </Button>
                )}
              </Stack>
            </Paper>
          ))}
        </Stack>
      )}
      {resolving && (
        <ResolveDialog
          conflict={resolving}
          busy={resolve.isPending}
          onCancel={() => setResolving(null)}
          onConfirm={(note) => resolve.mutate({ id: Number(resolving.id), note })}
        />
      )}
    </Stack>
  );
}

function ResolveDialog(props: {
  conflict: OfflineConflictView;
  busy: boolean;
  onCancel(): void;
  onConfirm(note: string): void;
}) {
  const [note, setNote] = useState("");
  return (
    <Dialog open onClose={props.busy ? undefined : props.onCancel} aria-labelledby="resolve-title" fullWidth>
      <DialogTitle id="resolve-title">Mark this conflict resolved?</DialogTitle>
      <DialogContent>
        <DialogContentText sx={{ mb: 2 }}>
          “{props.conflict.label}” was refused: {props.conflict.message}. It moves to the resolved list, with your name.
        </DialogContentText>
        <TextField
          label="What was done (optional)"
          fullWidth
          multiline
          minRows={2}
          value={note}
          onChange={(e) => setNote(e.target.value)}
          slotProps={{ htmlInput: { maxLength: 1000 } }}
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={props.onCancel} disabled={props.busy}>
          Cancel
        </Button>
        <Button variant="contained" loading={props.busy} onClick={() => props.onConfirm(note.trim())}>
          Mark resolved
        </Button>
      </DialogActions>
    </Dialog>
  );
}
