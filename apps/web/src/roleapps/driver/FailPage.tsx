import ArrowBack from "@mui/icons-material/ArrowBack";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import FormControlLabel from "@mui/material/FormControlLabel";
import Radio from "@mui/material/Radio";
import RadioGroup from "@mui/material/RadioGroup";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { FAILURE_REASON_LABELS } from "@workmetrics/domain/commands/driver";
import { DELIVERY_FAILURE_REASONS } from "@workmetrics/domain/db/selling-schema";
import { useState } from "react";
import toast from "react-hot-toast";
import { Link, useNavigate } from "react-router";
import { runOrQueue } from "../shell/outbox.ts";
import { currentFix } from "./proof.ts";
import { back, StopMissing, stopPath, useStop } from "./StopPage.tsx";

type Reason = (typeof DELIVERY_FAILURE_REASONS)[number];

// Failed (issue 22): why, from a list (other needs words); the delivery goes back to dispatch.
export function FailPage() {
  const { stop, date, trip } = useStop();
  const navigate = useNavigate();
  const [reason, setReason] = useState<Reason | null>(null);
  const [note, setNote] = useState("");
  const [busy, setBusy] = useState(false);
  const [tried, setTried] = useState(false);
  if (!stop) return <StopMissing trip={trip} date={date} />;
  if (stop.state === "delivered" || stop.state === "failed") {
    return (
      <Stack spacing={2}>
        <Alert severity="info">This stop is already {stop.state}.</Alert>
        <Button component={Link} to={back(date)} startIcon={<ArrowBack />}>
          Back to the trip
        </Button>
      </Stack>
    );
  }
  const needsNote = reason === "other" && !note.trim();

  const submit = async () => {
    setTried(true);
    if (!reason || needsNote) return;
    setBusy(true);
    try {
      const fix = await currentFix(3_000);
      const at = "lat" in fix ? fix : null;
      const res = await runOrQueue(
        "delivery_fail",
        {
          id: Number(stop.id),
          reason,
          note: note.trim() || null,
          lat: at?.lat ?? null,
          lng: at?.lng ?? null,
          accuracy: at?.accuracy ?? null,
          device_time: new Date().toISOString(),
        },
        { label: `Failed ${stop.number} (${FAILURE_REASON_LABELS[reason].toLowerCase()})` },
      );
      if (res.status === "refused") {
        toast.error(res.message);
        return;
      }
      toast(
        res.status === "queued"
          ? `${stop.number} reported failed on this phone; it is sent when the network is back`
          : `${stop.number} reported failed: dispatch is told`,
      );
      if (res.status === "done") void trip.refresh();
      navigate(back(date));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Stack spacing={2}>
      <Stack direction="row">
        <Button component={Link} to={stopPath(stop.id, date)} startIcon={<ArrowBack />} sx={{ minHeight: 48 }}>
          Stop
        </Button>
      </Stack>
      <Box>
        <Typography variant="h5" component="h1" sx={{ fontWeight: 600 }}>
          Could not deliver {stop.number}
        </Typography>
        <Typography color="text.secondary">{stop.company_name}</Typography>
      </Box>
      <RadioGroup
        aria-label="Why the delivery failed"
        value={reason ?? ""}
        onChange={(e) => setReason(e.target.value as Reason)}
      >
        {DELIVERY_FAILURE_REASONS.map((r) => (
          <FormControlLabel
            key={r}
            value={r}
            control={<Radio />}
            label={FAILURE_REASON_LABELS[r]}
            sx={{ minHeight: 48, border: 1, borderColor: "divider", borderRadius: 2, mx: 0, mb: 1, pr: 2 }}
          />
        ))}
      </RadioGroup>
      {tried && !reason && <Alert severity="warning">Choose why the delivery failed</Alert>}
      <TextField
        label={reason === "other" ? "What went wrong" : "Note (optional)"}
        required={reason === "other"}
        multiline
        minRows={2}
        value={note}
        onChange={(e) => setNote(e.target.value)}
        error={tried && needsNote}
        helperText={tried && needsNote ? "Say what went wrong" : " "}
        slotProps={{ htmlInput: { maxLength: 1000, "data-testid": "failure-note" } }}
      />
      <Button variant="contained" color="error" size="large" onClick={submit} disabled={busy} sx={{ minHeight: 56 }}>
        {busy ? "Saving…" : "Report failed"}
      </Button>
    </Stack>
  );
}
