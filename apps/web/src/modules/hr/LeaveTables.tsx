import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import Chip from "@mui/material/Chip";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import Paper from "@mui/material/Paper";
import Stack from "@mui/material/Stack";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableContainer from "@mui/material/TableContainer";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { errorMessage } from "@workmetrics/domain";
import type { LeaveRequestView } from "@workmetrics/domain/commands/hr";
import { type ReactNode, useState } from "react";
import toast from "react-hot-toast";
import { formatDate, humanize, statusColor } from "../../platform/fields/format.ts";
import { useBalances, useCancelLeave, useDecideLeave, useOwnRequests, useToDecide } from "./api.ts";

// Issue 21 §4: the leave page's tables — the requests waiting for the caller's decision, their own requests and
// the balances they may read (their own, their reports', or everyone's for HR).

const Status = ({ status }: { status: string }) => (
  <Chip
    size="small"
    label={humanize(status)}
    data-status={status}
    sx={{ bgcolor: statusColor(status), color: "#fff", fontWeight: 500 }}
  />
);

// A column shown from the tablet up: on a phone the table keeps what fits (the rest is on the request's page).
const wide = { display: { xs: "none", md: "table-cell" } };

const plural = (days: string) => `${Number(days)} day${Number(days) === 1 ? "" : "s"}`;

const dates = (r: { start_date: string; end_date: string; half_day: boolean }) =>
  r.start_date === r.end_date
    ? `${formatDate(r.start_date)}${r.half_day ? " (half day)" : ""}`
    : `${formatDate(r.start_date)} – ${formatDate(r.end_date)}`;

function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <Paper variant="outlined" component="section" aria-labelledby={id} sx={{ p: 2 }}>
      <Typography id={id} variant="h6" component="h2" gutterBottom>
        {title}
      </Typography>
      {children}
    </Paper>
  );
}

type Head = string | { label: string; wide: true };

function Grid({ label, head, children }: { label: string; head: Head[]; children: ReactNode }) {
  return (
    <TableContainer sx={{ overflowX: "auto" }}>
      <Table size="small" aria-label={label}>
        <TableHead>
          <TableRow>
            {head.map((h) =>
              typeof h === "string" ? (
                <TableCell key={h}>{h}</TableCell>
              ) : (
                <TableCell key={h.label} sx={wide}>
                  {h.label}
                </TableCell>
              ),
            )}
          </TableRow>
        </TableHead>
        <TableBody>{children}</TableBody>
      </Table>
    </TableContainer>
  );
}

export function ToDecide() {
  const list = useToDecide();
  const decide = useDecideLeave();
  const [rejecting, setRejecting] = useState<LeaveRequestView | null>(null);
  const [why, setWhy] = useState("");
  const run = (r: LeaveRequestView, decision: "approve" | "reject", reason?: string) =>
    decide.mutate(
      { id: Number(r.id), decision, reason: reason || null },
      {
        onSuccess: () => {
          toast.success(`${r.employee_name}'s leave ${decision === "approve" ? "approved" : "rejected"}`);
          setRejecting(null);
          setWhy("");
        },
        onError: (e) => toast.error(errorMessage(e, "The decision could not be saved")),
      },
    );
  if (!list.data || list.data.length === 0) return null;
  return (
    <Section id="to-decide" title="Waiting for your decision">
      <Grid
        label="Leave to decide"
        head={["Employee", { label: "Kind", wide: true }, "Dates", { label: "Reason", wide: true }, ""]}
      >
        {list.data.map((r) => (
          <TableRow key={r.id}>
            <TableCell>
              {r.employee_name}
              {/* On a phone the kind goes under the name, so Approve and Reject fit without scrolling sideways. */}
              <Typography variant="body2" color="text.secondary" sx={{ display: { md: "none" } }}>
                {r.leave_type_name}
              </Typography>
            </TableCell>
            <TableCell sx={wide}>{r.leave_type_name}</TableCell>
            <TableCell>
              {dates(r)}
              <Typography variant="body2" color="text.secondary">
                {plural(r.days)}
              </Typography>
            </TableCell>
            <TableCell sx={wide}>{r.reason ?? "—"}</TableCell>
            <TableCell align="right">
              <Stack direction={{ xs: "column", sm: "row" }} spacing={1} sx={{ justifyContent: "flex-end" }}>
                <Button size="small" variant="contained" onClick={() => run(r, "approve")} disabled={decide.isPending}>
                  Approve
                </Button>
                <Button size="small" color="error" onClick={() => setRejecting(r)} disabled={decide.isPending}>
                  Reject
                </Button>
              </Stack>
            </TableCell>
          </TableRow>
        ))}
      </Grid>
      <Dialog open={rejecting !== null} onClose={() => setRejecting(null)} fullWidth maxWidth="xs">
        <DialogTitle>Reject {rejecting?.employee_name}'s leave</DialogTitle>
        <DialogContent>
          <TextField
            autoFocus
            fullWidth
            label="Why"
            margin="dense"
            value={why}
            onChange={(e) => setWhy(e.target.value)}
            helperText="The employee reads this"
          />
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setRejecting(null)}>Keep it</Button>
          <Button
            color="error"
            disabled={!why.trim() || decide.isPending}
            onClick={() => rejecting && run(rejecting, "reject", why.trim())}
          >
            Reject
          </Button>
        </DialogActions>
      </Dialog>
    </Section>
  );
}

export function OwnRequests({ userId }: { userId: string | undefined }) {
  const list = useOwnRequests(userId);
  const cancel = useCancelLeave();
  if (list.isError) return <Alert severity="warning">{errorMessage(list.error, "Your leave could not be read")}</Alert>;
  return (
    <Section id="own-leave" title="Your leave">
      {list.data && list.data.length === 0 ? (
        <Typography color="text.secondary">You have asked for no leave yet.</Typography>
      ) : (
        <Grid label="Your leave" head={["Kind", "Dates", "Status", { label: "Note", wide: true }, ""]}>
          {(list.data ?? []).map((r) => (
            <TableRow key={r.id}>
              <TableCell>{r.leave_type?.name ?? ""}</TableCell>
              <TableCell>
                {dates(r)}
                <Typography variant="body2" color="text.secondary">
                  {plural(r.days)}
                </Typography>
              </TableCell>
              <TableCell>
                <Status status={r.status} />
              </TableCell>
              <TableCell sx={wide}>{r.decision_reason ?? r.reason ?? "—"}</TableCell>
              <TableCell align="right">
                {r.status === "pending" && (
                  <Button
                    size="small"
                    disabled={cancel.isPending}
                    onClick={() =>
                      cancel.mutate(r.id, {
                        onSuccess: () => toast.success("Leave request cancelled"),
                        onError: (e) => toast.error(errorMessage(e, "The request could not be cancelled")),
                      })
                    }
                  >
                    Cancel
                  </Button>
                )}
              </TableCell>
            </TableRow>
          ))}
        </Grid>
      )}
    </Section>
  );
}

export function Balances({ year }: { year: number }) {
  const balances = useBalances(year);
  if (balances.isError) {
    return <Alert severity="warning">{errorMessage(balances.error, "The balances could not be read")}</Alert>;
  }
  const rows = balances.data?.rows ?? [];
  const people = [...new Set(rows.map((r) => r.employee_name))];
  return (
    <Section id="balances" title={`Balances ${year}`}>
      {people.length > 1 && (
        <Typography variant="body2" color="text.secondary" gutterBottom>
          {people.length} employees. Days left are the year's entitlement less leave taken and waiting for a decision.
        </Typography>
      )}
      <Grid
        label={`Leave balances ${year}`}
        head={[
          ...(people.length > 1 ? ["Employee"] : []),
          "Kind",
          { label: "A year", wide: true },
          "Taken",
          { label: "Pending", wide: true },
          "Left",
        ]}
      >
        {rows.map((r) => (
          <TableRow key={`${r.employee_id}-${r.leave_type_id}`}>
            {people.length > 1 && <TableCell>{r.employee_name}</TableCell>}
            <TableCell>{r.leave_type_name}</TableCell>
            <TableCell sx={wide}>{r.entitlement}</TableCell>
            <TableCell>{r.taken}</TableCell>
            <TableCell sx={wide}>{r.pending}</TableCell>
            <TableCell sx={{ fontWeight: 600, color: Number(r.remaining) <= 0 ? "error.main" : undefined }}>
              {r.remaining}
            </TableCell>
          </TableRow>
        ))}
      </Grid>
      {rows.length === 0 && balances.data && (
        <Stack sx={{ pt: 1 }}>
          <Typography color="text.secondary">No employees or leave types yet: HR adds them.</Typography>
        </Stack>
      )}
    </Section>
  );
}
