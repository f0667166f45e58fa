import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import Chip from "@mui/material/Chip";
import LinearProgress from "@mui/material/LinearProgress";
import Paper from "@mui/material/Paper";
import Stack from "@mui/material/Stack";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableContainer from "@mui/material/TableContainer";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import Typography from "@mui/material/Typography";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { errorMessage } from "@workmetrics/domain";
import type { OperatorJob } from "@workmetrics/domain/jobs";
import { useState } from "react";
import toast from "react-hot-toast";
import { useSession } from "../../app/session/SessionProvider.tsx";
import { apiFetch } from "../../platform/api.ts";
import { formatDateTime, humanize } from "../../platform/fields/format.ts";
import { ConfirmDialog } from "../../platform/ui/ConfirmDialog.tsx";
import { usePageTitle } from "../../platform/ui/usePageTitle.ts";

// Issue 20 §1: the platform operator's dead-letter list — jobs whose attempts are spent (dead) or that failed and
// wait for their next try, across every workspace — with a Retry for each (GET/POST /api/platform/jobs).

type FailedJob = OperatorJob;

const KEY = ["platform-jobs"];

function what(j: FailedJob): string {
  if (j.name === "mail") return [j.subject, j.to ? `to ${j.to}` : null].filter(Boolean).join(" ");
  return humanize(j.name.replace(/\./g, " "));
}

export default function FailedJobsPage() {
  usePageTitle("Failed jobs");
  const { session } = useSession();
  const qc = useQueryClient();
  const auth = { authorization: `Bearer ${session?.access_token}` };
  const jobs = useQuery({
    queryKey: KEY,
    queryFn: () => apiFetch<{ jobs: FailedJob[] }>("/api/platform/jobs", { headers: auth }),
    enabled: Boolean(session),
    refetchInterval: 15_000,
  });
  const [retrying, setRetrying] = useState<FailedJob | null>(null);

  if (jobs.isPending) return <LinearProgress aria-label="Loading the failed jobs" />;
  if (jobs.isError) return <Alert severity="warning">{errorMessage(jobs.error, "The jobs could not be loaded")}</Alert>;
  const rows = jobs.data.jobs;
  return (
    <Stack spacing={2}>
      <Typography variant="h5" component="h1">
        Failed jobs
      </Typography>
      <Typography variant="body2" color="text.secondary">
        Background work that failed: e-mails the mail server did not take and scheduled sweeps. A job is retried on its
        own with growing waits; once its attempts are spent it is dead and waits here for a retry.
      </Typography>
      {rows.length === 0 ? (
        <Paper variant="outlined" sx={{ p: 4, textAlign: "center" }}>
          <Typography gutterBottom>No failed jobs.</Typography>
          <Typography variant="body2" color="text.secondary">
            Every e-mail and sweep has gone through.
          </Typography>
        </Paper>
      ) : (
        <TableContainer component={Paper} variant="outlined" sx={{ overflowX: "auto" }}>
          <Table size="small" aria-label="Failed jobs">
            <TableHead>
              <TableRow>
                <TableCell>Job</TableCell>
                <TableCell>Workspace</TableCell>
                <TableCell>State</TableCell>
                <TableCell>Attempts</TableCell>
                <TableCell>Last error</TableCell>
                <TableCell>Last tried</TableCell>
                <TableCell />
              </TableRow>
            </TableHead>
            <TableBody>
              {rows.map((j) => (
                <TableRow key={j.id}>
                  <TableCell>{what(j)}</TableCell>
                  <TableCell>{j.workspace ?? "Platform"}</TableCell>
                  <TableCell>
                    {j.status === "dead" ? (
                      <Chip size="small" color="error" label="Dead" />
                    ) : (
                      <Chip size="small" label={`Retrying ${formatDateTime(j.run_at)}`} />
                    )}
                  </TableCell>
                  <TableCell>
                    {j.attempts} of {j.max_attempts}
                  </TableCell>
                  <TableCell sx={{ maxWidth: 360, overflowWrap: "anywhere" }}>{j.last_error ?? "—"}</TableCell>
                  <TableCell sx={{ whiteSpace: "nowrap" }}>{formatDateTime(j.updated_at)}</TableCell>
                  <TableCell align="right">
                    <Button size="small" onClick={() => setRetrying(j)}>
                      Retry
                    </Button>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      )}
      {retrying && (
        <ConfirmDialog
          open
          title="Retry this job now?"
          body={`${what(retrying)} is run again now, with one more attempt.`}
          confirmLabel="Retry"
          onCancel={() => setRetrying(null)}
          onConfirm={async () => {
            try {
              await apiFetch(`/api/platform/jobs/${retrying.id}/retry`, { method: "POST", headers: auth });
              toast.success("The job is queued again");
              setRetrying(null);
              await qc.invalidateQueries({ queryKey: KEY });
            } catch (err) {
              toast.error(errorMessage(err, "The job could not be retried"));
            }
          }}
        />
      )}
    </Stack>
  );
}
