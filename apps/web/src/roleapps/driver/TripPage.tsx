import ArrowDownward from "@mui/icons-material/ArrowDownward";
import ArrowUpward from "@mui/icons-material/ArrowUpward";
import ChevronLeft from "@mui/icons-material/ChevronLeft";
import ChevronRight from "@mui/icons-material/ChevronRight";
import DragIndicator from "@mui/icons-material/DragIndicator";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Card from "@mui/material/Card";
import CardActionArea from "@mui/material/CardActionArea";
import Chip from "@mui/material/Chip";
import CircularProgress from "@mui/material/CircularProgress";
import IconButton from "@mui/material/IconButton";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import { useEffect, useRef, useState } from "react";
import toast from "react-hot-toast";
import { Link, useSearchParams } from "react-router";
import { formatDateTime, formatSpelledDate } from "../../platform/fields/format.ts";
import { runOrQueue } from "../shell/outbox.ts";
import { localDay, rememberOrder, type ShownStop, STATE_COLOR, STATE_LABEL, shiftDay, useTrip } from "./trip.ts";

// The day's stops (issue 22): open ones in the driver's order — dragged by the handle, or moved with the arrow
// buttons (keyboard, one hand) — and, on the Done tab, those delivered or failed. The order is kept on the server
// (delivery_reorder through the outbox).

// The day shown: the address's ?date=, else the one last chosen today on this tab (the tabs and a stop's pages keep
// it), else today.
const CHOSEN = "driver-trip-date";
const isDay = (v: string | null): v is string => /^\d{4}-\d{2}-\d{2}$/.test(v ?? "");

export function useTripDate(): [string, (d: string) => void] {
  const [params, setParams] = useSearchParams();
  const given = params.get("date");
  // A day given in the address (a link, a reload) is the one chosen.
  useEffect(() => {
    if (isDay(given)) sessionStorage.setItem(CHOSEN, `${localDay()} ${given}`);
  }, [given]);
  let date = localDay();
  if (isDay(given)) date = given;
  else {
    const [on, chosen] = (sessionStorage.getItem(CHOSEN) ?? "").split(" ");
    if (on === localDay() && isDay(chosen)) date = chosen;
  }
  return [
    date,
    (d) => {
      sessionStorage.setItem(CHOSEN, `${localDay()} ${d}`);
      setParams(d === localDay() ? {} : { date: d }, { replace: true });
    },
  ];
}

export function DateSwitch({ date, onChange }: { date: string; onChange(d: string): void }) {
  const today = localDay();
  const word =
    date === today
      ? "Today"
      : date === shiftDay(today, 1)
        ? "Tomorrow"
        : date === shiftDay(today, -1)
          ? "Yesterday"
          : null;
  return (
    <Stack direction="row" sx={{ alignItems: "center", justifyContent: "space-between", mb: 1.5 }}>
      <IconButton aria-label="Previous day" onClick={() => onChange(shiftDay(date, -1))} size="large">
        <ChevronLeft />
      </IconButton>
      <Box sx={{ textAlign: "center" }}>
        <Typography variant="h6" component="h1" sx={{ lineHeight: 1.2 }} data-testid="trip-date">
          {word ?? formatSpelledDate(date)}
        </Typography>
        {word && (
          <Typography variant="body2" color="text.secondary">
            {formatSpelledDate(date)}
          </Typography>
        )}
      </Box>
      <Stack direction="row" sx={{ alignItems: "center" }}>
        {date !== today && (
          <Button size="small" onClick={() => onChange(today)}>
            Today
          </Button>
        )}
        <IconButton aria-label="Next day" onClick={() => onChange(shiftDay(date, 1))} size="large">
          <ChevronRight />
        </IconButton>
      </Stack>
    </Stack>
  );
}

export function TripPage({ show }: { show: "open" | "done" }) {
  const [date, setDate] = useTripDate();
  const trip = useTrip(date);
  const open = trip.stops.filter((s) => s.state === "open" || s.state === "arrived");
  const done = trip.stops.filter((s) => s.state === "delivered" || s.state === "failed");
  const list = show === "open" ? open : done;

  const reorder = async (ids: number[]) => {
    const all = [...ids, ...done.map((s) => Number(s.id))];
    rememberOrder(date, all);
    const res = await runOrQueue("delivery_reorder", { date, ids: all }, { label: `New order of ${date}'s stops` });
    if (res.status === "refused") toast.error(res.message);
    else if (res.status === "done") void trip.refresh();
  };

  return (
    <Box>
      <DateSwitch date={date} onChange={setDate} />
      {trip.isOffline && trip.data && (
        <Alert severity="warning" sx={{ mb: 1.5 }}>
          Offline — showing the trip as of {trip.savedAt ? formatDateTime(trip.savedAt) : "the last visit"}.
        </Alert>
      )}
      {trip.isPending ? (
        <Stack sx={{ alignItems: "center", py: 6 }}>
          <CircularProgress aria-label="Loading the trip" />
        </Stack>
      ) : trip.error && !trip.data ? (
        <Alert severity="error" action={<Button onClick={() => void trip.refetch()}>Retry</Button>}>
          {trip.error instanceof Error ? trip.error.message : "The trip could not be loaded"}
        </Alert>
      ) : list.length === 0 ? (
        <Stack spacing={1} sx={{ alignItems: "center", py: 6, textAlign: "center" }}>
          <Typography variant="h6">{show === "open" ? "No stops to make" : "Nothing delivered yet"}</Typography>
          <Typography color="text.secondary">
            {show === "open"
              ? trip.stops.length
                ? "Every stop of this day is done."
                : "Dispatch has given you no deliveries for this day."
              : "Stops you deliver or report failed show here."}
          </Typography>
        </Stack>
      ) : show === "open" ? (
        <>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
            {open.length} stop{open.length === 1 ? "" : "s"} to make · drag ⋮⋮ or use the arrows to change the order
          </Typography>
          <Reorderable stops={open} date={date} onReorder={reorder} showsTotals={trip.showsTotals} />
        </>
      ) : (
        <Stack spacing={1.5}>
          {done.map((s) => (
            <StopCard key={String(s.id)} stop={s} date={date} showsTotals={trip.showsTotals} />
          ))}
        </Stack>
      )}
    </Box>
  );
}

// Drag by the handle with any pointer (a finger, a mouse): the card follows, the others make room; let go to keep
// the order. The arrow buttons do the same one step at a time.
function Reorderable(props: {
  stops: ShownStop[];
  date: string;
  showsTotals: boolean;
  onReorder(ids: number[]): void;
}) {
  const ids = props.stops.map((s) => Number(s.id));
  const [drag, setDrag] = useState<{ from: number; to: number; dy: number } | null>(null);
  const items = useRef<Array<HTMLDivElement | null>>([]);
  const start = useRef<{ y: number; mids: number[] } | null>(null);

  const move = (from: number, to: number) => {
    if (to < 0 || to >= ids.length || to === from) return;
    const next = [...ids];
    const [one] = next.splice(from, 1);
    next.splice(to, 0, one);
    props.onReorder(next);
  };

  const onDown = (i: number) => (e: React.PointerEvent) => {
    e.preventDefault();
    (e.currentTarget as HTMLElement).setPointerCapture(e.pointerId);
    const mids = items.current.slice(0, props.stops.length).map((el) => {
      const r = el?.getBoundingClientRect();
      return r ? r.top + r.height / 2 : 0;
    });
    start.current = { y: e.clientY, mids };
    setDrag({ from: i, to: i, dy: 0 });
  };
  const onMove = (e: React.PointerEvent) => {
    if (!drag || !start.current) return;
    const dy = e.clientY - start.current.y;
    const y = start.current.mids[drag.from] + dy;
    const mids = start.current.mids;
    let to = drag.from;
    if (y > mids[drag.from]) {
      mids.forEach((m, j) => {
        if (j > drag.from && y > m) to = j;
      });
    } else {
      for (let j = drag.from - 1; j >= 0; j--) if (y < mids[j]) to = j;
    }
    setDrag({ ...drag, to, dy });
  };
  const onUp = () => {
    if (drag) move(drag.from, drag.to);
    setDrag(null);
    start.current = null;
  };

  // While dragging, the others shift by the dragged card's height to show where it lands.
  const shift = (j: number) => {
    if (!drag || j === drag.from) return 0;
    const h = (items.current[drag.from]?.getBoundingClientRect().height ?? 0) + 12;
    if (drag.from < drag.to && j > drag.from && j <= drag.to) return -h;
    if (drag.from > drag.to && j >= drag.to && j < drag.from) return h;
    return 0;
  };

  return (
    <Stack spacing={1.5} data-testid="trip-stops">
      {props.stops.map((s, i) => (
        <Box
          key={String(s.id)}
          ref={(el: HTMLDivElement | null) => {
            items.current[i] = el;
          }}
          sx={{
            position: "relative",
            transform: `translateY(${drag?.from === i ? drag.dy : shift(i)}px)`,
            transition: drag?.from === i ? "none" : "transform 120ms",
            zIndex: drag?.from === i ? 2 : 1,
            boxShadow: drag?.from === i ? 8 : 0,
            borderRadius: 2,
          }}
        >
          <StopCard
            stop={s}
            date={props.date}
            seq={i + 1}
            showsTotals={props.showsTotals}
            handle={
              <Stack sx={{ alignItems: "center", pl: 0.5 }}>
                <IconButton
                  size="small"
                  aria-label={`Move stop ${i + 1} up`}
                  disabled={i === 0}
                  onClick={() => move(i, i - 1)}
                >
                  <ArrowUpward fontSize="small" />
                </IconButton>
                <Box
                  role="button"
                  aria-label={`Drag stop ${i + 1}`}
                  data-testid={`drag-stop-${i + 1}`}
                  onPointerDown={onDown(i)}
                  onPointerMove={onMove}
                  onPointerUp={onUp}
                  onPointerCancel={onUp}
                  sx={{ touchAction: "none", cursor: "grab", p: 1, display: "flex", color: "text.secondary" }}
                >
                  <DragIndicator />
                </Box>
                <IconButton
                  size="small"
                  aria-label={`Move stop ${i + 1} down`}
                  disabled={i === props.stops.length - 1}
                  onClick={() => move(i, i + 1)}
                >
                  <ArrowDownward fontSize="small" />
                </IconButton>
              </Stack>
            }
          />
        </Box>
      ))}
    </Stack>
  );
}

function StopCard(props: {
  stop: ShownStop;
  date: string;
  seq?: number;
  showsTotals: boolean;
  handle?: React.ReactNode;
}) {
  const s = props.stop;
  const items = s.lines.length;
  return (
    <Card variant="outlined" sx={{ display: "flex", alignItems: "stretch", borderRadius: 2 }} data-testid="stop-card">
      {props.handle}
      <CardActionArea
        component={Link}
        to={`/dashboard/stops/${String(s.id)}${props.date === localDay() ? "" : `?date=${props.date}`}`}
        sx={{ p: 1.5, minHeight: 88 }}
      >
        <Stack direction="row" spacing={1.5} sx={{ alignItems: "flex-start" }}>
          {props.seq !== undefined && (
            <Box
              sx={{
                minWidth: 32,
                height: 32,
                borderRadius: "50%",
                bgcolor: "primary.main",
                color: "primary.contrastText",
                display: "flex",
                alignItems: "center",
                justifyContent: "center",
                fontWeight: 700,
              }}
            >
              {props.seq}
            </Box>
          )}
          <Box sx={{ flex: 1, minWidth: 0 }}>
            <Typography variant="subtitle1" sx={{ fontWeight: 600 }} noWrap>
              {s.company_name}
            </Typography>
            <Typography variant="body2" color="text.secondary" sx={{ whiteSpace: "pre-line" }}>
              {s.address || "No address on file"}
            </Typography>
            <Stack direction="row" spacing={1} sx={{ alignItems: "center", mt: 0.75, flexWrap: "wrap", rowGap: 0.5 }}>
              <Chip size="small" label={STATE_LABEL[s.state]} color={STATE_COLOR[s.state]} />
              {s.pending.length > 0 && <Chip size="small" variant="outlined" color="warning" label="Waiting to send" />}
              <Typography variant="caption" color="text.secondary">
                {s.number} · {items} item{items === 1 ? "" : "s"}
                {props.showsTotals && s.total ? ` · ${s.currency} ${s.total}` : ""}
              </Typography>
            </Stack>
          </Box>
        </Stack>
      </CardActionArea>
    </Card>
  );
}
