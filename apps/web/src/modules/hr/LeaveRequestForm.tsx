import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import Checkbox from "@mui/material/Checkbox";
import FormControlLabel from "@mui/material/FormControlLabel";
import MenuItem from "@mui/material/MenuItem";
import Paper from "@mui/material/Paper";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { errorMessage } from "@workmetrics/domain";
import { formatDays, leaveDays } from "@workmetrics/domain/resources/hr";
import { useState } from "react";
import toast from "react-hot-toast";
import { DataError } from "../../platform/data-access/errors.ts";
import { DateField } from "../../platform/fields/DateField.tsx";
import { useAskLeave, useHolidays, useLeaveTypes } from "./api.ts";

// Issue 21 §4: ask for leave. The working days are shown as the server will count them (the same leaveDays over
// the workspace's public holidays); the server checks the balance and says what is left when it is not enough.

type Fault = { message: string; field?: string };

function faultOf(e: unknown): Fault {
  const field = e instanceof DataError ? Object.keys(e.fields)[0] : undefined;
  return { message: errorMessage(e, "The leave could not be asked"), field };
}

export function LeaveRequestForm({ year }: { year: number }) {
  const types = useLeaveTypes();
  const holidays = useHolidays(year);
  const ask = useAskLeave();
  const [typeId, setTypeId] = useState<number | "">("");
  const [start, setStart] = useState("");
  const [end, setEnd] = useState("");
  const [halfDay, setHalfDay] = useState(false);
  const [reason, setReason] = useState("");
  const [fault, setFault] = useState<Fault | null>(null);

  const off = new Set((holidays.data ?? []).map((h) => h.date));
  const ready = typeId !== "" && start && end && end >= start;
  const days = ready ? leaveDays(start, end, off, halfDay && start === end) : null;

  const submit = () => {
    if (typeId === "") return setFault({ message: "Choose the kind of leave", field: "leave_type_id" });
    if (!start || !end)
      return setFault({ message: "Give the first and last day", field: start ? "end_date" : "start_date" });
    setFault(null);
    ask.mutate(
      {
        leave_type_id: typeId,
        start_date: start,
        end_date: end,
        half_day: halfDay && start === end,
        reason: reason || null,
      },
      {
        onSuccess: (r) => {
          toast.success(`Leave asked: ${r.days} day${r.days === "1" ? "" : "s"}, waiting for your manager`);
          setStart("");
          setEnd("");
          setHalfDay(false);
          setReason("");
        },
        onError: (e) => setFault(faultOf(e)),
      },
    );
  };

  const err = (field: string) => (fault?.field === field ? fault.message : undefined);
  return (
    <Paper variant="outlined" sx={{ p: 2 }} component="section" aria-labelledby="ask-leave">
      <Typography id="ask-leave" variant="h6" component="h2" gutterBottom>
        Ask for leave
      </Typography>
      <Stack direction={{ xs: "column", md: "row" }} spacing={2} sx={{ alignItems: { md: "flex-start" } }}>
        <TextField
          select
          label="Kind of leave"
          value={typeId}
          onChange={(e) => setTypeId(Number(e.target.value))}
          error={Boolean(err("leave_type_id"))}
          helperText={err("leave_type_id")}
          sx={{ minWidth: 220 }}
          size="small"
        >
          {(types.data ?? []).map((t) => (
            <MenuItem key={t.id} value={t.id}>
              {t.name}
            </MenuItem>
          ))}
        </TextField>
        <DateField
          label="From"
          size="small"
          fullWidth={false}
          value={start}
          onChange={(v) => {
            setStart(v);
            if (!end || end < v) setEnd(v);
          }}
          error={Boolean(err("start_date"))}
          helperText={err("start_date")}
        />
        <DateField
          label="To"
          size="small"
          fullWidth={false}
          value={end}
          onChange={setEnd}
          min={start || undefined}
          error={Boolean(err("end_date"))}
          helperText={err("end_date")}
        />
        <FormControlLabel
          control={<Checkbox checked={halfDay} onChange={(e) => setHalfDay(e.target.checked)} />}
          label="Half day"
          disabled={!start || start !== end}
        />
      </Stack>
      <Stack direction={{ xs: "column", md: "row" }} spacing={2} sx={{ mt: 2, alignItems: { md: "center" } }}>
        <TextField
          label="Reason (optional)"
          size="small"
          value={reason}
          onChange={(e) => setReason(e.target.value)}
          sx={{ flex: 1 }}
          slotProps={{ htmlInput: { maxLength: 1000 } }}
        />
        <Typography variant="body2" color="text.secondary" aria-live="polite" sx={{ minWidth: 160 }}>
          {days === null ? "" : `${formatDays(days)} working day${days === 1 ? "" : "s"}`}
        </Typography>
        <Button variant="contained" onClick={submit} disabled={ask.isPending}>
          Ask for leave
        </Button>
      </Stack>
      {fault && !fault.field && (
        <Alert severity="warning" sx={{ mt: 2 }}>
          {fault.message}
        </Alert>
      )}
    </Paper>
  );
}
