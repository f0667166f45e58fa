import AddOutlined from "@mui/icons-material/AddOutlined";
import CalendarMonthOutlined from "@mui/icons-material/CalendarMonthOutlined";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Card from "@mui/material/Card";
import CardContent from "@mui/material/CardContent";
import Chip from "@mui/material/Chip";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import Skeleton from "@mui/material/Skeleton";
import Stack from "@mui/material/Stack";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import Typography from "@mui/material/Typography";
import { useQueryClient } from "@tanstack/react-query";
import {
  CHALLENGE_ACCESS,
  CHALLENGE_TOPIC,
  type ChallengeView,
  METRIC_LABELS,
} from "@workmetrics/domain/resources/challenge";
import { useState } from "react";
import toast from "react-hot-toast";
import { Link as RouterLink, useSearchParams } from "react-router";
import { formatDate } from "../../platform/fields/format.ts";
import { useBroadcast } from "../../platform/realtime/useRealtime.ts";
import { useDecision } from "../../platform/resource/access.ts";
import { useErrorToast } from "../../platform/resource/hooks.ts";
import { useDashboardBase } from "../../platform/resource/paths.ts";
import { useViewer } from "../../platform/session/viewer.tsx";
import { ConfirmDialog } from "../../platform/ui/ConfirmDialog.tsx";
import { usePageTitle } from "../../platform/ui/usePageTitle.ts";
import { CHALLENGES_KEY, useCancelChallenge, useChallenges } from "./api.ts";
import { ChallengeDialog } from "./ChallengeDialog.tsx";
import { formatValue, Leaderboard, Medal, PersonAvatar } from "./Leaderboard.tsx";

// Issue 12 "/dashboard/team-challenge": the running challenges with their live leaderboards (read again whenever
// the server broadcasts "changed" on the team_challenge topic: a document they count has changed), what is
// coming up, and the history of past
// challenges with their winners. Sales managers set challenges up, change and cancel them.

const STATE_CHIP: Record<string, { label: string; color: "success" | "info" | "default" | "warning" | "error" }> = {
  running: { label: "Running", color: "success" },
  upcoming: { label: "Upcoming", color: "info" },
  draft: { label: "Draft", color: "default" },
  finished: { label: "Finished", color: "default" },
  cancelled: { label: "Cancelled", color: "error" },
};

const period = (c: ChallengeView) =>
  c.start_date === c.end_date ? formatDate(c.start_date) : `${formatDate(c.start_date)} – ${formatDate(c.end_date)}`;

function daysLeft(c: ChallengeView): string {
  const ms = Date.parse(`${c.end_date}T23:59:59`) - Date.now();
  const days = Math.max(0, Math.ceil(ms / 86_400_000));
  return days <= 1 ? "Last day" : `${days} days left`;
}

function LiveChip({ status }: { status: string }) {
  if (status === "live") return <Chip size="small" color="success" variant="outlined" label="● Live" />;
  return <Chip size="small" variant="outlined" label={status === "connecting" ? "Connecting…" : "Reconnecting…"} />;
}

function ChallengeCard(props: {
  c: ChallengeView;
  currency: string;
  mayChange: boolean;
  onEdit(): void;
  onCancel(): void;
}) {
  const { c } = props;
  const chip = STATE_CHIP[c.state];
  return (
    <Card variant="outlined" data-challenge={c.id}>
      <CardContent>
        <Stack
          direction={{ xs: "column", sm: "row" }}
          spacing={1}
          sx={{ justifyContent: "space-between", alignItems: { sm: "flex-start" }, mb: 1 }}
        >
          <Box>
            <Stack direction="row" spacing={1} sx={{ alignItems: "center" }}>
              <Typography variant="h6" component="h3">
                {c.name}
              </Typography>
              <Chip size="small" color={chip.color} label={chip.label} />
            </Stack>
            <Typography variant="body2" color="text.secondary">
              {METRIC_LABELS[c.metric]} · {period(c)}
              {c.state === "running" ? ` · ${daysLeft(c)}` : ""}
            </Typography>
            {c.description ? (
              <Typography variant="body2" sx={{ mt: 0.5 }}>
                {c.description}
              </Typography>
            ) : null}
          </Box>
          <Stack direction="row" spacing={1} sx={{ alignItems: "center", flexShrink: 0 }}>
            <Box sx={{ textAlign: "right", mr: 1 }}>
              <Typography variant="caption" color="text.secondary">
                Team total
              </Typography>
              <Typography variant="subtitle1" sx={{ fontWeight: 600 }}>
                {formatValue(c.metric, c.total, props.currency)}
              </Typography>
            </Box>
            {props.mayChange ? (
              <>
                <Button size="small" onClick={props.onEdit}>
                  Change
                </Button>
                <Button size="small" color="error" onClick={props.onCancel}>
                  Cancel
                </Button>
              </>
            ) : null}
          </Stack>
        </Stack>
        <Leaderboard challenge={c} currency={props.currency} />
      </CardContent>
    </Card>
  );
}

function Winners({ c, currency }: { c: ChallengeView; currency: string }) {
  const top = c.leaderboard.filter((r) => r.badge);
  if (c.state === "cancelled") return <Typography variant="body2">—</Typography>;
  if (top.length === 0) return <Typography variant="body2">No winner: nothing was achieved</Typography>;
  return (
    <Stack spacing={0.5}>
      {top.map((r) => (
        <Stack key={r.user_id} direction="row" spacing={1} sx={{ alignItems: "center" }}>
          <Medal place={r.badge as number} awarded />
          <PersonAvatar name={r.name} size={22} />
          <Typography variant="body2">
            {r.name} · {formatValue(c.metric, r.value, currency)}
          </Typography>
        </Stack>
      ))}
    </Stack>
  );
}

export default function TeamChallengePage() {
  usePageTitle("Team challenge");
  const { currency } = useViewer();
  const base = useDashboardBase();
  const qc = useQueryClient();
  const [params, setParams] = useSearchParams();
  const challenges = useChallenges();
  useErrorToast(challenges.error);
  const mayCreate = useDecision(CHALLENGE_ACCESS.create).allowed;
  const mayChange = useDecision(CHALLENGE_ACCESS.update).allowed;
  const calendar = useDecision(CHALLENGE_ACCESS.calendar).allowed;
  const status = useBroadcast(CHALLENGE_TOPIC, "changed", () => {
    void qc.invalidateQueries({ queryKey: CHALLENGES_KEY });
  });
  const [editing, setEditing] = useState<ChallengeView | null | "new">(null);
  const [cancelling, setCancelling] = useState<ChallengeView | null>(null);
  const cancel = useCancelChallenge();

  const all = challenges.data ?? [];
  const running = all.filter((c) => c.state === "running");
  const coming = all.filter((c) => c.state === "upcoming" || c.state === "draft");
  const past = all.filter((c) => c.state === "finished" || c.state === "cancelled");
  const shownId = Number(params.get("challenge")) || null;
  const shown = shownId ? (all.find((c) => c.id === shownId) ?? null) : null;
  const card = (c: ChallengeView) => (
    <ChallengeCard
      key={c.id}
      c={c}
      currency={currency}
      mayChange={mayChange}
      onEdit={() => setEditing(c)}
      onCancel={() => setCancelling(c)}
    />
  );
  const show = (id: number | null) => {
    const next = new URLSearchParams(params);
    if (id) next.set("challenge", String(id));
    else next.delete("challenge");
    setParams(next, { replace: true });
  };

  return (
    <Stack spacing={3}>
      <Stack
        direction={{ xs: "column", sm: "row" }}
        spacing={1}
        sx={{ justifyContent: "space-between", alignItems: { sm: "center" } }}
      >
        <Box>
          <Stack direction="row" spacing={1} sx={{ alignItems: "center" }}>
            <Typography variant="h5" component="h1">
              Team challenge
            </Typography>
            <LiveChip status={status} />
          </Stack>
          <Typography variant="body2" color="text.secondary">
            Goals counted from the documents themselves; the leaderboards move as soon as a document is submitted
          </Typography>
        </Box>
        <Stack direction="row" spacing={1}>
          {calendar ? (
            <Button component={RouterLink} to={`${base}/team-challenge/calendar`} startIcon={<CalendarMonthOutlined />}>
              Calendar
            </Button>
          ) : null}
          {mayCreate ? (
            <Button variant="contained" startIcon={<AddOutlined />} onClick={() => setEditing("new")}>
              New challenge
            </Button>
          ) : null}
        </Stack>
      </Stack>

      {challenges.isPending ? (
        <Stack spacing={2}>
          <Skeleton variant="rounded" height={220} />
          <Skeleton variant="rounded" height={120} />
        </Stack>
      ) : challenges.error ? (
        <Alert severity="error">{(challenges.error as Error).message}</Alert>
      ) : (
        <>
          <Stack spacing={2} component="section" aria-label="Running challenges">
            <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>
              Running now
            </Typography>
            {running.length === 0 ? (
              <Card variant="outlined">
                <CardContent>
                  <Typography color="text.secondary">
                    No challenge is running.{" "}
                    {mayCreate ? "Set one up with New challenge: pick a goal, a period and who takes part." : ""}
                  </Typography>
                </CardContent>
              </Card>
            ) : (
              running.map(card)
            )}
          </Stack>

          {coming.length > 0 ? (
            <Stack spacing={2} component="section" aria-label="Coming up">
              <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>
                Coming up
              </Typography>
              {coming.map(card)}
            </Stack>
          ) : null}

          <Stack spacing={1} component="section" aria-label="Past challenges">
            <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>
              History
            </Typography>
            <Card variant="outlined">
              {past.length === 0 ? (
                <CardContent>
                  <Typography color="text.secondary">No challenge has finished yet.</Typography>
                </CardContent>
              ) : (
                <Box sx={{ overflowX: "auto" }}>
                  <Table size="small" aria-label="Past challenges">
                    <TableHead>
                      <TableRow>
                        <TableCell>Challenge</TableCell>
                        <TableCell>Period</TableCell>
                        <TableCell>Winners</TableCell>
                        <TableCell align="right">Team total</TableCell>
                      </TableRow>
                    </TableHead>
                    <TableBody>
                      {past.map((c) => (
                        <TableRow key={c.id} hover sx={{ cursor: "pointer" }} onClick={() => show(c.id)}>
                          <TableCell>
                            <Typography variant="body2" sx={{ fontWeight: 600 }}>
                              {c.name}
                            </Typography>
                            <Typography variant="caption" color="text.secondary">
                              {METRIC_LABELS[c.metric]}
                              {c.state === "cancelled" ? " · cancelled" : ""}
                            </Typography>
                          </TableCell>
                          <TableCell sx={{ whiteSpace: "nowrap" }}>{period(c)}</TableCell>
                          <TableCell>
                            <Winners c={c} currency={currency} />
                          </TableCell>
                          <TableCell align="right">{formatValue(c.metric, c.total, currency)}</TableCell>
                        </TableRow>
                      ))}
                    </TableBody>
                  </Table>
                </Box>
              )}
            </Card>
          </Stack>
        </>
      )}

      {shown ? (
        <Dialog open onClose={() => show(null)} fullWidth maxWidth="md" aria-labelledby="shown-title">
          <DialogTitle id="shown-title">
            {shown.name} · {STATE_CHIP[shown.state].label}
          </DialogTitle>
          <DialogContent>
            <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
              {METRIC_LABELS[shown.metric]} · {period(shown)} · team total{" "}
              {formatValue(shown.metric, shown.total, currency)}
            </Typography>
            <Leaderboard challenge={shown} currency={currency} />
          </DialogContent>
          <DialogActions>
            <Button onClick={() => show(null)}>Close</Button>
          </DialogActions>
        </Dialog>
      ) : null}

      <ChallengeDialog
        open={editing !== null}
        challenge={editing === "new" ? null : editing}
        onClose={() => setEditing(null)}
      />
      <ConfirmDialog
        open={cancelling !== null}
        title={`Cancel ${cancelling?.name ?? "the challenge"}?`}
        body="The challenge stops and stays in the history as cancelled, without winners. This cannot be undone."
        confirmLabel="Cancel challenge"
        destructive
        onCancel={() => setCancelling(null)}
        onConfirm={async () => {
          if (!cancelling) return;
          try {
            await cancel.mutateAsync(cancelling.id);
            toast.success(`${cancelling.name} cancelled`);
            setCancelling(null);
          } catch (err) {
            toast.error(err instanceof Error ? err.message : "The challenge could not be cancelled");
          }
        }}
      />
    </Stack>
  );
}
