import Alert from "@mui/material/Alert";
import Chip from "@mui/material/Chip";
import LinearProgress from "@mui/material/LinearProgress";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableContainer from "@mui/material/TableContainer";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import Typography from "@mui/material/Typography";
import { errorMessage } from "@workmetrics/domain";
import { formatDateTime, humanize } from "../../platform/fields/format.ts";
import { type HistoryEvent, useHistory } from "./api.ts";
import { StatusChip } from "./StatusChip.tsx";
import { transitionLabelOf, type WebDocType } from "./types.ts";

// The audit history (document_event): who, when, what, from → to, the reason; a save lists the fields it changed.

function details(action: string, changes: Record<string, unknown> | null): string {
  if (!changes || typeof changes !== "object") return "";
  if (action === "save") {
    const names = Object.keys(changes);
    return names.length ? `Changed ${names.map((n) => humanize(n).toLowerCase()).join(", ")}` : "";
  }
  // A settle or a conversion says what caused it ({ by: "DO-2026-00004" }).
  return Object.values(changes)
    .filter((v) => typeof v === "string" || typeof v === "number")
    .map(String)
    .join(", ");
}

// An e-mail's state (issue 20 §1): queued until the server's worker hands it over, then sent, or failed with why.
function mailState(mail: HistoryEvent["mail"]) {
  if (!mail) return null;
  const label = {
    queued: "Queued",
    retrying: "Not sent yet, retrying",
    sent: "Sent",
    failed: "Failed",
  }[mail.status];
  const color = mail.status === "sent" ? "success" : mail.status === "failed" ? "error" : "default";
  return (
    <Typography component="div" variant="body2" color={mail.status === "failed" ? "error" : "text.secondary"}>
      <Chip size="small" label={label} color={color} variant="outlined" sx={{ mr: 1 }} />
      {mail.error && mail.status !== "sent" ? mail.error : null}
    </Typography>
  );
}

export function HistoryPanel({ type, id }: { type: WebDocType; id: number }) {
  const history = useHistory(type, id);
  if (history.isPending) return <LinearProgress aria-label="Loading the history" />;
  if (history.isError)
    return <Alert severity="warning">{errorMessage(history.error, "The history could not be loaded")}</Alert>;
  return (
    <TableContainer sx={{ overflowX: "auto" }}>
      <Table size="small" aria-label="History">
        <TableHead>
          <TableRow>
            <TableCell>When</TableCell>
            <TableCell>Who</TableCell>
            <TableCell>Action</TableCell>
            <TableCell>Status</TableCell>
            <TableCell>Reason / details</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {history.data.map((e) => (
            <TableRow key={e.id}>
              <TableCell sx={{ whiteSpace: "nowrap" }}>{formatDateTime(e.at)}</TableCell>
              <TableCell>{e.user_name ?? "—"}</TableCell>
              <TableCell>{transitionLabelOf(type, e.action)}</TableCell>
              <TableCell sx={{ whiteSpace: "nowrap" }}>
                {e.from_status && e.from_status !== e.to_status && (
                  <>
                    <StatusChip type={type} status={e.from_status} dense /> →{" "}
                  </>
                )}
                {e.to_status && <StatusChip type={type} status={e.to_status} dense />}
              </TableCell>
              <TableCell>
                <Typography variant="body2">{e.reason ?? details(e.action, e.changes)}</Typography>
                {mailState(e.mail)}
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
