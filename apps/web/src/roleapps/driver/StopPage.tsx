import ArrowBack from "@mui/icons-material/ArrowBack";
import CallOutlined from "@mui/icons-material/CallOutlined";
import PlaceOutlined from "@mui/icons-material/PlaceOutlined";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Card from "@mui/material/Card";
import CardContent from "@mui/material/CardContent";
import Chip from "@mui/material/Chip";
import CircularProgress from "@mui/material/CircularProgress";
import Divider from "@mui/material/Divider";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import { FAILURE_REASON_LABELS } from "@workmetrics/domain/commands/driver";
import { useState } from "react";
import toast from "react-hot-toast";
import { Link, useParams } from "react-router";
import { formatDateTime } from "../../platform/fields/format.ts";
import { runOrQueue } from "../shell/outbox.ts";
import { useTripDate } from "./TripPage.tsx";
import { localDay, mapsLink, type ShownStop, STATE_COLOR, STATE_LABEL, telLink, useTrip } from "./trip.ts";

// One stop (issue 22): the customer, the address (opens the phone's maps), the contact (tap to call), the items and
// the notes; Arrived, then Delivered or Failed.

export const back = (date: string) => `/dashboard${date === localDay() ? "" : `?date=${date}`}`;
export const stopPath = (id: number | string, date: string, rest = "") =>
  `/dashboard/stops/${String(id)}${rest}${date === localDay() ? "" : `?date=${date}`}`;

export function useStop(): { stop: ShownStop | null; date: string; trip: ReturnType<typeof useTrip> } {
  const { id } = useParams();
  const [date] = useTripDate();
  const trip = useTrip(date);
  return { stop: trip.stops.find((s) => String(s.id) === id) ?? null, date, trip };
}

export function StopMissing({ trip, date }: { trip: ReturnType<typeof useTrip>; date: string }) {
  if (trip.isPending) {
    return (
      <Stack sx={{ alignItems: "center", py: 6 }}>
        <CircularProgress aria-label="Loading the stop" />
      </Stack>
    );
  }
  return (
    <Stack spacing={2}>
      <Alert severity={trip.error ? "error" : "info"}>
        {trip.error instanceof Error ? trip.error.message : "This stop is not on your trip for this day."}
      </Alert>
      <Button component={Link} to={back(date)} startIcon={<ArrowBack />}>
        Back to the trip
      </Button>
    </Stack>
  );
}

export function StopPage() {
  const { stop, date, trip } = useStop();
  const [busy, setBusy] = useState(false);
  if (!stop) return <StopMissing trip={trip} date={date} />;
  const s = stop;

  const arrive = async () => {
    setBusy(true);
    try {
      const res = await runOrQueue(
        "delivery_arrive",
        { id: Number(s.id), device_time: new Date().toISOString() },
        { label: `Arrived at ${s.company_name} (${s.number})` },
      );
      if (res.status === "refused") toast.error(res.message);
      else if (res.status === "queued") toast("Arrival saved on this phone; it is sent when the network is back");
      else void trip.refresh();
    } finally {
      setBusy(false);
    }
  };

  const place = [s.company_name, s.address].filter(Boolean).join(", ");
  const done = s.state === "delivered" || s.state === "failed";
  return (
    <Stack spacing={1.5}>
      <Stack direction="row" spacing={1} sx={{ alignItems: "center" }}>
        <Button component={Link} to={back(date)} startIcon={<ArrowBack />} sx={{ minHeight: 48 }}>
          Trip
        </Button>
        <Box sx={{ flex: 1 }} />
        <Chip label={STATE_LABEL[s.state]} color={STATE_COLOR[s.state]} data-testid="stop-state" />
        {s.pending.length > 0 && <Chip variant="outlined" color="warning" label="Waiting to send" />}
      </Stack>
      <Box>
        <Typography variant="h5" component="h1" sx={{ fontWeight: 600 }}>
          {s.company_name}
        </Typography>
        <Typography color="text.secondary">{s.number}</Typography>
      </Box>

      <Stack direction="row" spacing={1}>
        <Button
          variant="outlined"
          fullWidth
          startIcon={<PlaceOutlined />}
          href={mapsLink(place)}
          target="_blank"
          rel="noopener"
          sx={{ minHeight: 48, justifyContent: "flex-start", textAlign: "left" }}
        >
          <Box component="span" sx={{ whiteSpace: "pre-line" }}>
            {s.address || "Open in maps"}
          </Box>
        </Button>
      </Stack>
      {s.phone && (
        <Button
          variant="outlined"
          startIcon={<CallOutlined />}
          href={telLink(s.phone)}
          sx={{ minHeight: 48, justifyContent: "flex-start" }}
        >
          {s.contact_name ? `${s.contact_name} · ` : ""}
          {s.phone}
        </Button>
      )}

      <Card variant="outlined">
        <CardContent>
          <Typography variant="subtitle2" gutterBottom>
            Items
          </Typography>
          <Stack divider={<Divider flexItem />} spacing={0.75}>
            {s.lines.map((l) => (
              <Stack
                key={`${l.sku}-${l.description}-${l.qty}`}
                direction="row"
                spacing={1}
                sx={{ justifyContent: "space-between" }}
              >
                <Box sx={{ minWidth: 0 }}>
                  <Typography>{l.description}</Typography>
                  {l.sku && (
                    <Typography variant="caption" color="text.secondary">
                      {l.sku}
                    </Typography>
                  )}
                </Box>
                <Typography sx={{ fontWeight: 600, whiteSpace: "nowrap" }}>
                  {l.qty} {l.unit ?? ""}
                </Typography>
              </Stack>
            ))}
          </Stack>
          {trip.showsTotals && s.total && (
            <Typography sx={{ mt: 1, textAlign: "right" }}>
              Total {s.currency} {s.total}
            </Typography>
          )}
        </CardContent>
      </Card>

      {s.notes && (
        <Alert severity="info" icon={false}>
          <Typography variant="subtitle2">Notes</Typography>
          <Typography sx={{ whiteSpace: "pre-line" }}>{s.notes}</Typography>
        </Alert>
      )}

      {s.state === "delivered" && (
        <Alert severity="success">
          Delivered to {s.received_by}
          {s.received_at ? ` at ${formatDateTime(s.received_at)}` : ""}.
        </Alert>
      )}
      {s.state === "failed" && s.failure_reason && (
        <Alert severity="error">
          Failed: {FAILURE_REASON_LABELS[s.failure_reason]}
          {s.failure_note ? ` — ${s.failure_note}` : ""}. Dispatch decides what happens next.
        </Alert>
      )}
      {s.arrived_at && !done && (
        <Typography variant="body2" color="text.secondary">
          Arrived at {formatDateTime(s.arrived_at)}
        </Typography>
      )}

      {!done && (
        <Stack spacing={1} sx={{ pt: 1 }}>
          {s.state === "open" && (
            <Button variant="contained" size="large" onClick={arrive} disabled={busy} sx={{ minHeight: 56 }}>
              Arrived
            </Button>
          )}
          <Stack direction="row" spacing={1}>
            <Button
              component={Link}
              to={stopPath(s.id, date, "/deliver")}
              variant={s.state === "arrived" ? "contained" : "outlined"}
              color="success"
              size="large"
              fullWidth
              sx={{ minHeight: 56 }}
            >
              Delivered
            </Button>
            <Button
              component={Link}
              to={stopPath(s.id, date, "/fail")}
              variant="outlined"
              color="error"
              size="large"
              fullWidth
              sx={{ minHeight: 56 }}
            >
              Failed
            </Button>
          </Stack>
        </Stack>
      )}
    </Stack>
  );
}
