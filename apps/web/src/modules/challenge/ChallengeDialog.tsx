import DeleteOutlined from "@mui/icons-material/DeleteOutlined";
import Autocomplete from "@mui/material/Autocomplete";
import Button from "@mui/material/Button";
import Checkbox from "@mui/material/Checkbox";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import FormControlLabel from "@mui/material/FormControlLabel";
import IconButton from "@mui/material/IconButton";
import MenuItem from "@mui/material/MenuItem";
import Stack from "@mui/material/Stack";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableRow from "@mui/material/TableRow";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { useQuery } from "@tanstack/react-query";
import { CHALLENGE_METRICS, CHALLENGE_PERIODS } from "@workmetrics/domain/db/challenge-schema";
import {
  type ChallengeSaveInput,
  type ChallengeView,
  isCountMetric,
  METRIC_LABELS,
  periodOf,
} from "@workmetrics/domain/resources/challenge";
import { useState } from "react";
import toast from "react-hot-toast";
import { DataError } from "../../platform/data-access/errors.ts";
import { useDataProvider } from "../../platform/data-access/provider.ts";
import { DateField } from "../../platform/fields/DateField.tsx";
import { useSaveChallenge } from "./api.ts";

// Set up or change a challenge (sales managers): what it counts, over which period, who takes part (users and/or
// roles) and the targets (one for everyone, and any participant's own). The server checks it all again.

type Option = { kind: "user" | "role"; id: string; label: string; hint: string };
type Participant = Option & { target: string };

const PERIOD_LABELS: Record<string, string> = {
  week: "A week",
  month: "A month",
  quarter: "A quarter",
  custom: "Custom dates",
};

const today = () => new Date().toISOString().slice(0, 10);

function useParticipantOptions() {
  const data = useDataProvider();
  return useQuery({
    queryKey: ["team_challenge", "participant-options"],
    queryFn: async ({ signal }) => {
      const [users, roles] = await Promise.all([
        data.getList("user", {
          select: "id,name,email",
          filters: [{ column: "active", op: "is", value: "true" }],
          order: [{ column: "name", ascending: true }],
          signal,
        }),
        data.getList("workspace_role", {
          select: "id,title",
          order: [{ column: "title", ascending: true }],
          signal,
        }),
      ]);
      return [
        ...roles.data.map(
          (r): Option => ({ kind: "role", id: String(r.id), label: String(r.title), hint: "Everyone with the role" }),
        ),
        ...users.data.map(
          (u): Option => ({ kind: "user", id: String(u.id), label: String(u.name), hint: String(u.email) }),
        ),
      ];
    },
  });
}

function initialParticipants(c: ChallengeView | null, options: Option[]): Participant[] {
  if (!c) return [];
  return c.participants.map((p) => {
    const kind = p.user_id ? "user" : "role";
    const id = String(p.user_id ?? p.workspace_role_id);
    const known = options.find((o) => o.kind === kind && o.id === id);
    return { kind, id, label: known?.label ?? id, hint: known?.hint ?? "", target: p.target ?? "" };
  });
}

export function ChallengeDialog(props: { open: boolean; challenge: ChallengeView | null; onClose(): void }) {
  const options = useParticipantOptions();
  if (!props.open) return null;
  if (!options.data) {
    return (
      <Dialog open onClose={props.onClose}>
        <DialogContent>
          <Typography>{options.error ? "The users and roles could not be read." : "Loading…"}</Typography>
        </DialogContent>
      </Dialog>
    );
  }
  return <Editor {...props} options={options.data} />;
}

function Editor({
  challenge,
  options,
  onClose,
}: {
  challenge: ChallengeView | null;
  options: Option[];
  onClose(): void;
}) {
  const save = useSaveChallenge();
  const [name, setName] = useState(challenge?.name ?? "");
  const [description, setDescription] = useState(challenge?.description ?? "");
  const [metric, setMetric] = useState<string>(challenge?.metric ?? "invoices_issued_sum");
  const [period, setPeriod] = useState<string>(challenge?.period_kind ?? "month");
  const initial = challenge ?? periodOf("month", today());
  const [start, setStart] = useState("start_date" in initial ? initial.start_date : initial.start);
  const [end, setEnd] = useState("end_date" in initial ? initial.end_date : initial.end);
  const [target, setTarget] = useState(challenge?.default_target ?? "");
  const [draft, setDraft] = useState(challenge?.status === "draft");
  const [people, setPeople] = useState<Participant[]>(() => initialParticipants(challenge, options));
  const [errors, setErrors] = useState<Record<string, string>>({});

  const pickPeriod = (kind: string, day = start || today()) => {
    setPeriod(kind);
    if (kind !== "custom") {
      const p = periodOf(kind as "week" | "month" | "quarter", day);
      setStart(p.start);
      setEnd(p.end);
    }
  };

  const submit = async () => {
    const args: ChallengeSaveInput = {
      ...(challenge ? { id: challenge.id } : {}),
      name,
      description: description || null,
      metric: metric as ChallengeSaveInput["metric"],
      period_kind: period as ChallengeSaveInput["period_kind"],
      start_date: start,
      end_date: end,
      default_target: target === "" ? null : target,
      status: draft ? "draft" : "active",
      participants: people.map((p) => ({
        ...(p.kind === "user" ? { user_id: p.id } : { workspace_role_id: Number(p.id) }),
        target: p.target === "" ? null : p.target,
      })),
    };
    try {
      await save.mutateAsync(args);
      toast.success(challenge ? "Challenge saved" : "Challenge set up");
      onClose();
    } catch (err) {
      const fields = err instanceof DataError ? err.fields : {};
      setErrors(fields);
      toast.error(err instanceof Error ? err.message : "The challenge could not be saved");
    }
  };

  const unit = isCountMetric(metric) ? "number" : "amount excl. GST";
  return (
    <Dialog
      open
      onClose={save.isPending ? undefined : onClose}
      fullWidth
      maxWidth="sm"
      aria-labelledby="challenge-title"
    >
      <DialogTitle id="challenge-title">{challenge ? `Change ${challenge.name}` : "New team challenge"}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          <TextField
            label="Name"
            required
            value={name}
            onChange={(e) => setName(e.target.value)}
            error={Boolean(errors.name)}
            helperText={errors.name}
            slotProps={{ htmlInput: { maxLength: 200 } }}
          />
          <TextField
            label="What counts"
            select
            required
            value={metric}
            onChange={(e) => setMetric(e.target.value)}
            helperText="Counted from the documents themselves: submitted in the period and not cancelled"
          >
            {CHALLENGE_METRICS.map((m) => (
              <MenuItem key={m} value={m}>
                {METRIC_LABELS[m]}
              </MenuItem>
            ))}
          </TextField>
          <Stack direction={{ xs: "column", sm: "row" }} spacing={2}>
            <TextField
              label="Period"
              select
              value={period}
              onChange={(e) => pickPeriod(e.target.value)}
              sx={{ minWidth: 160 }}
            >
              {CHALLENGE_PERIODS.map((p) => (
                <MenuItem key={p} value={p}>
                  {PERIOD_LABELS[p]}
                </MenuItem>
              ))}
            </TextField>
            <DateField
              label={period === "custom" ? "Starts" : "Any day of it"}
              name="start_date"
              value={start}
              onChange={(v) => (period === "custom" ? setStart(v) : pickPeriod(period, v))}
              error={Boolean(errors.start_date)}
              helperText={errors.start_date}
            />
            <DateField
              label="Ends"
              name="end_date"
              value={end}
              disabled={period !== "custom"}
              onChange={setEnd}
              error={Boolean(errors.end_date)}
              helperText={errors.end_date}
            />
          </Stack>
          <TextField
            label="Target per participant"
            value={target}
            onChange={(e) => setTarget(e.target.value)}
            error={Boolean(errors.default_target)}
            helperText={errors.default_target ?? `Optional: the ${unit} each participant aims for`}
            slotProps={{ htmlInput: { inputMode: "decimal" } }}
          />
          <Autocomplete
            multiple
            options={options}
            value={people}
            isOptionEqualToValue={(a, b) => a.kind === b.kind && a.id === b.id}
            groupBy={(o) => (o.kind === "role" ? "Roles" : "Users")}
            getOptionLabel={(o) => o.label}
            renderOption={(props, o) => (
              <li {...props} key={`${o.kind}-${o.id}`}>
                <Stack>
                  <Typography variant="body2">{o.label}</Typography>
                  <Typography variant="caption" color="text.secondary">
                    {o.hint}
                  </Typography>
                </Stack>
              </li>
            )}
            onChange={(_e, value) =>
              setPeople(
                value.map((v) => {
                  const had = people.find((p) => p.kind === v.kind && p.id === v.id);
                  return had ?? { ...v, target: "" };
                }),
              )
            }
            renderInput={(params) => (
              <TextField
                {...params}
                label="Participants"
                error={Boolean(errors.participants)}
                helperText={errors.participants ?? "Users, or roles (everyone holding the role takes part)"}
              />
            )}
          />
          {people.length > 0 ? (
            <Table size="small" aria-label="Targets">
              <TableBody>
                {people.map((p, i) => (
                  <TableRow key={`${p.kind}-${p.id}`}>
                    <TableCell>
                      <Typography variant="body2">{p.label}</Typography>
                      <Typography variant="caption" color="text.secondary">
                        {p.kind === "role" ? "Role" : "User"}
                      </Typography>
                    </TableCell>
                    <TableCell sx={{ width: 180 }}>
                      <TextField
                        size="small"
                        label="Own target"
                        placeholder={target || "—"}
                        value={p.target}
                        error={Boolean(errors[`participants.${i}.target`])}
                        helperText={errors[`participants.${i}.target`]}
                        onChange={(e) =>
                          setPeople(people.map((q, j) => (j === i ? { ...q, target: e.target.value } : q)))
                        }
                        slotProps={{ htmlInput: { inputMode: "decimal", "aria-label": `Target of ${p.label}` } }}
                      />
                    </TableCell>
                    <TableCell sx={{ width: 48 }}>
                      <IconButton
                        aria-label={`Remove ${p.label}`}
                        onClick={() => setPeople(people.filter((_q, j) => j !== i))}
                      >
                        <DeleteOutlined />
                      </IconButton>
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          ) : null}
          <TextField
            label="Description"
            multiline
            minRows={2}
            value={description}
            onChange={(e) => setDescription(e.target.value)}
            helperText="Optional: the prize, the rules"
            slotProps={{ htmlInput: { maxLength: 2000 } }}
          />
          <FormControlLabel
            control={<Checkbox checked={draft} onChange={(e) => setDraft(e.target.checked)} />}
            label="Keep as a draft (the team does not see it yet)"
          />
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={save.isPending}>
          Cancel
        </Button>
        <Button variant="contained" onClick={submit} loading={save.isPending}>
          {challenge ? "Save" : "Set up challenge"}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
