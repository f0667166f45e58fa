import type { DatesSetArg, EventClickArg, EventInput } from "@fullcalendar/core";
import dayGridPlugin from "@fullcalendar/daygrid";
import FullCalendar from "@fullcalendar/react";
import ContentCopyOutlined from "@mui/icons-material/ContentCopyOutlined";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Card from "@mui/material/Card";
import CardContent from "@mui/material/CardContent";
import Chip from "@mui/material/Chip";
import IconButton from "@mui/material/IconButton";
import LinearProgress from "@mui/material/LinearProgress";
import Stack from "@mui/material/Stack";
import { useTheme } from "@mui/material/styles";
import TextField from "@mui/material/TextField";
import Tooltip from "@mui/material/Tooltip";
import Typography from "@mui/material/Typography";
import { useQueryClient } from "@tanstack/react-query";
import type { CalendarEvent } from "@workmetrics/domain/resources/challenge";
import { useMemo, useState } from "react";
import toast from "react-hot-toast";
import { useNavigate } from "react-router";
import { useTableChanges } from "../../platform/realtime/useRealtime.ts";
import { useReadable } from "../../platform/resource/access.ts";
import { useErrorToast } from "../../platform/resource/hooks.ts";
import { useDashboardBase } from "../../platform/resource/paths.ts";
import { ConfirmDialog } from "../../platform/ui/ConfirmDialog.tsx";
import { usePageTitle } from "../../platform/ui/usePageTitle.ts";
import { CALENDAR_KEY, useCalendarEvents, useCalendarFeed, useRegenerateFeed } from "./api.ts";

// Issue 12 "/dashboard/team-challenge/calendar": month, week and day views (FullCalendar) of challenge periods,
// planned deliveries, quotation expiries, invoice and bill due dates, loan due-backs and PO expected dates — only
// what the member may read (the server narrows each source to their read scope) — each opening its document. The
// calendar is read again when a document it shows changes (postgres_changes), and each member may subscribe to it
// as an .ics feed.

const KINDS: Record<CalendarEvent["kind"], { label: string; color: string }> = {
  challenge: { label: "Challenges", color: "#7b1fa2" },
  delivery: { label: "Deliveries", color: "#2e7d32" },
  quotation_expiry: { label: "Quotation expiries", color: "#ef6c00" },
  invoice_due: { label: "Invoices due", color: "#1565c0" },
  bill_due: { label: "Bills due", color: "#c62828" },
  loan_due: { label: "Loans due back", color: "#6d4c41" },
  po_expected: { label: "PO expected", color: "#00838f" },
  leave: { label: "Leave", color: "#5e35b1" }, // issue 21 §4: the team's approved leave
  holiday: { label: "Public holidays", color: "#455a64" },
};

// The documents the calendar shows: a change to one the member reads (postgres_changes) reads it again.
const CALENDAR_TABLES = [
  "delivery_order",
  "quotation",
  "invoice",
  "supplier_invoice",
  "loan_form",
  "purchase_order",
] as const;

const iso = (d: Date) =>
  `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-${String(d.getDate()).padStart(2, "0")}`;

function dayAfter(day: string): string {
  const d = new Date(`${day}T00:00:00`);
  d.setDate(d.getDate() + 1);
  return iso(d);
}

function FeedCard() {
  const feed = useCalendarFeed();
  const regenerate = useRegenerateFeed();
  const [shown, setShown] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const make = async () => {
    try {
      const made = await regenerate.mutateAsync();
      setShown(`${window.location.origin}${made.path}`);
      setConfirming(false);
    } catch (err) {
      toast.error(err instanceof Error ? err.message : "The feed address could not be made");
    }
  };
  const copy = async () => {
    if (!shown) return;
    try {
      await navigator.clipboard.writeText(shown);
      toast.success("Feed address copied");
    } catch {
      toast.error("Copy it by hand: the browser did not allow copying");
    }
  };
  return (
    <Card variant="outlined">
      <CardContent>
        <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>
          Subscribe in your calendar app
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1.5 }}>
          An .ics address for Google Calendar, Outlook or Apple Calendar with what you may read here. Keep it private:
          anyone with it sees these events. It is shown once; a new address stops the old one.
        </Typography>
        {shown ? (
          <Stack direction="row" spacing={1} sx={{ alignItems: "center" }}>
            <TextField
              size="small"
              fullWidth
              value={shown}
              label="Your feed address"
              slotProps={{ htmlInput: { readOnly: true, "aria-label": "Your feed address" } }}
              onFocus={(e) => e.target.select()}
            />
            <Tooltip title="Copy">
              <IconButton aria-label="Copy the feed address" onClick={copy}>
                <ContentCopyOutlined />
              </IconButton>
            </Tooltip>
          </Stack>
        ) : feed.isPending ? (
          <LinearProgress sx={{ maxWidth: 240 }} />
        ) : feed.data?.exists ? (
          <Stack direction="row" spacing={1} sx={{ alignItems: "center", flexWrap: "wrap" }}>
            <Typography variant="body2">You have a feed address.</Typography>
            <Button size="small" onClick={() => setConfirming(true)}>
              Make a new address
            </Button>
          </Stack>
        ) : (
          <Button variant="outlined" size="small" onClick={make} loading={regenerate.isPending}>
            Make my feed address
          </Button>
        )}
      </CardContent>
      <ConfirmDialog
        open={confirming}
        title="Make a new feed address?"
        body="The address you have now stops working at once; calendars subscribed to it must be given the new one."
        confirmLabel="Make a new address"
        destructive
        onCancel={() => setConfirming(false)}
        onConfirm={make}
      />
    </Card>
  );
}

export default function CalendarPage() {
  usePageTitle("Calendar");
  const base = useDashboardBase();
  const navigate = useNavigate();
  const theme = useTheme();
  const qc = useQueryClient();
  const [range, setRange] = useState<{ from: string; to: string } | null>(null);
  const events = useCalendarEvents(range);
  useErrorToast(events.error);
  const readable = useReadable();
  const tables = useMemo(() => CALENDAR_TABLES.filter((t) => readable(t)), [readable]);
  useTableChanges(tables, () => {
    void qc.invalidateQueries({ queryKey: CALENDAR_KEY });
  });

  const list = events.data ?? [];
  const counts = useMemo(() => {
    const out: Partial<Record<CalendarEvent["kind"], number>> = {};
    for (const e of list) out[e.kind] = (out[e.kind] ?? 0) + 1;
    return out;
  }, [list]);
  const items: EventInput[] = useMemo(
    () =>
      list.map((e) => ({
        id: e.id,
        title: e.title,
        start: e.start,
        end: dayAfter(e.end),
        allDay: true,
        url: e.url,
        backgroundColor: KINDS[e.kind].color,
        borderColor: KINDS[e.kind].color,
        textColor: "#fff",
        extendedProps: { kind: e.kind },
      })),
    [list],
  );

  const onDates = (arg: DatesSetArg) => {
    const last = new Date(arg.end);
    last.setDate(last.getDate() - 1);
    setRange({ from: iso(arg.start), to: iso(last) });
  };
  const onClick = (arg: EventClickArg) => {
    arg.jsEvent.preventDefault();
    const url = arg.event.url;
    if (url) navigate(url.replace(/^\/dashboard/, base));
  };

  return (
    <Stack spacing={2}>
      <Box>
        <Typography variant="h5" component="h1">
          Calendar
        </Typography>
        <Typography variant="body2" color="text.secondary">
          Challenges, deliveries, expiries and due dates you may read; click an event to open its document
        </Typography>
      </Box>
      <Stack direction="row" spacing={1} sx={{ flexWrap: "wrap", rowGap: 1 }} aria-label="Legend">
        {(Object.keys(KINDS) as Array<CalendarEvent["kind"]>).map((k) => (
          <Chip
            key={k}
            size="small"
            label={`${KINDS[k].label} · ${counts[k] ?? 0}`}
            sx={{ bgcolor: KINDS[k].color, color: "#fff" }}
          />
        ))}
      </Stack>
      {events.error ? <Alert severity="error">{(events.error as Error).message}</Alert> : null}
      <Card variant="outlined">
        {events.isFetching ? <LinearProgress aria-label="Loading events" /> : <Box sx={{ height: 4 }} />}
        <CardContent
          sx={{
            px: { xs: 1, sm: 2 },
            "& .fc": { fontFamily: theme.typography.fontFamily, fontSize: 14 },
            "& .fc .fc-button-primary": {
              bgcolor: theme.palette.primary.main,
              borderColor: theme.palette.primary.main,
              textTransform: "capitalize",
            },
            "& .fc .fc-button-primary:not(:disabled).fc-button-active, & .fc .fc-button-primary:not(:disabled):active":
              { bgcolor: theme.palette.secondary.main, borderColor: theme.palette.secondary.main },
            "& .fc .fc-toolbar": { flexWrap: "wrap", gap: 1 },
            "& .fc .fc-toolbar-title": { fontSize: { xs: 16, sm: 20 } },
            "& .fc-event": { cursor: "pointer" },
            "& .fc-theme-standard td, & .fc-theme-standard th, & .fc-theme-standard .fc-scrollgrid": {
              borderColor: theme.palette.divider,
            },
          }}
        >
          <FullCalendar
            plugins={[dayGridPlugin]}
            initialView="dayGridMonth"
            headerToolbar={{ left: "prev,next today", center: "title", right: "dayGridMonth,dayGridWeek,dayGridDay" }}
            buttonText={{ today: "Today", month: "Month", week: "Week", day: "Day" }}
            firstDay={1}
            height="auto"
            dayMaxEvents={4}
            views={{ dayGridWeek: { dayMaxEvents: false }, dayGridDay: { dayMaxEvents: false } }}
            events={items}
            datesSet={onDates}
            eventClick={onClick}
            eventDidMount={(arg) => {
              arg.el.title = arg.event.title; // the whole title, which a narrow day cuts short
            }}
            eventDisplay="block"
            noEventsText="Nothing in this period"
          />
        </CardContent>
      </Card>
      <FeedCard />
    </Stack>
  );
}
