import Alert from "@mui/material/Alert";
import Badge from "@mui/material/Badge";
import Box from "@mui/material/Box";
import Chip from "@mui/material/Chip";
import CircularProgress from "@mui/material/CircularProgress";
import List from "@mui/material/List";
import ListItemButton from "@mui/material/ListItemButton";
import MenuItem from "@mui/material/MenuItem";
import Paper from "@mui/material/Paper";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import ToggleButton from "@mui/material/ToggleButton";
import ToggleButtonGroup from "@mui/material/ToggleButtonGroup";
import Typography from "@mui/material/Typography";
import { useQueryClient } from "@tanstack/react-query";
import { errorMessage } from "@workmetrics/domain";
import type { ConversationRow } from "@workmetrics/domain/commands/inbox";
import { useEffect, useMemo, useRef, useState } from "react";
import { useSearchParams } from "react-router";
import { formatDate, formatDateTime } from "../../platform/fields/format.ts";
import { useTableChanges } from "../../platform/realtime/useRealtime.ts";
import { usePageTitle } from "../../platform/ui/usePageTitle.ts";
import { INBOX_KEY, type ListFilters, useConversations } from "./api.ts";
import { CHANNEL_LABEL } from "./channels.ts";
import { Thread } from "./Thread.tsx";

// Issue 24 "/dashboard/inbox": every channel's conversations in one list (filters: channel, mine, unassigned,
// status, company or a search), kept live over realtime; the chosen conversation's thread beside it (on a phone:
// instead of it). The conversation is the address's ?c=, so a link or a reload opens the same one.

// Today's messages by their time, older ones by their day (the workspace's formats).
function when(v: string | null): string {
  if (!v) return "";
  const today = new Date().toDateString() === new Date(v).toDateString();
  return today ? (formatDateTime(v).split(", ").pop() ?? "") : formatDate(v);
}

function Row({ c, selected, onOpen }: { c: ConversationRow; selected: boolean; onOpen(): void }) {
  return (
    <ListItemButton
      selected={selected}
      onClick={onOpen}
      data-conversation={c.id}
      aria-label={`Conversation with ${c.title}`}
      sx={{ alignItems: "flex-start", borderBottom: 1, borderColor: "divider", py: 1.25 }}
    >
      <Stack sx={{ minWidth: 0, flex: 1 }} spacing={0.25}>
        <Stack direction="row" spacing={1} sx={{ alignItems: "center" }}>
          <Typography sx={{ fontWeight: c.unread ? 700 : 500, flex: 1, minWidth: 0 }} noWrap>
            {c.title}
          </Typography>
          <Typography variant="caption" color="text.secondary" sx={{ whiteSpace: "nowrap" }}>
            {when(c.last_message_at)}
          </Typography>
        </Stack>
        {c.company_name && c.company_name !== c.title && (
          <Typography variant="body2" color="text.secondary" noWrap>
            {c.company_name}
          </Typography>
        )}
        <Stack direction="row" spacing={1} sx={{ alignItems: "center" }}>
          <Typography variant="body2" color="text.secondary" noWrap sx={{ flex: 1, minWidth: 0 }}>
            {c.last_message_preview ?? ""}
          </Typography>
          {c.unread > 0 && (
            <Badge badgeContent={c.unread} color="primary" sx={{ mr: 1 }} aria-label={`${c.unread} unread`} />
          )}
        </Stack>
        <Stack direction="row" spacing={0.5} sx={{ flexWrap: "wrap", gap: 0.5 }}>
          <Chip size="small" label={CHANNEL_LABEL[c.channel_id]} variant="outlined" />
          {c.status !== "open" && <Chip size="small" label={c.status === "pending" ? "Pending" : "Resolved"} />}
          <Chip
            size="small"
            label={c.assignee_name ? c.assignee_name : "Unassigned"}
            color={c.assignee_name ? "default" : "warning"}
            variant={c.assignee_name ? "filled" : "outlined"}
          />
          {c.labels.map((l) => (
            <Chip key={l} size="small" label={l} color="secondary" variant="outlined" />
          ))}
        </Stack>
      </Stack>
    </ListItemButton>
  );
}

export default function InboxPage() {
  usePageTitle("Inbox");
  const [params, setParams] = useSearchParams();
  const selected = params.get("c") ? Number(params.get("c")) : null;
  const companyId = params.get("company") ? Number(params.get("company")) : null;
  const [channel, setChannel] = useState<number | "">("");
  const [status, setStatus] = useState<"" | "open" | "pending" | "resolved">("open");
  const [who, setWho] = useState<"all" | "mine" | "unassigned">("all");
  const [search, setSearch] = useState("");
  const [term, setTerm] = useState("");
  useEffect(() => {
    const t = setTimeout(() => setTerm(search.trim()), 300);
    return () => clearTimeout(t);
  }, [search]);
  const filters: ListFilters = useMemo(
    () => ({
      channel_id: channel === "" ? null : channel,
      status: status || null,
      mine: who === "mine",
      unassigned: who === "unassigned",
      company_id: companyId,
      search: term || null,
      limit: 100,
    }),
    [channel, status, who, companyId, term],
  );
  const list = useConversations(filters);
  const qc = useQueryClient();
  // A change of a conversation or message the member reads: the list and the open thread are read again (at most
  // every 400 ms, however many arrive together).
  const pending = useRef<ReturnType<typeof setTimeout> | null>(null);
  const live = useTableChanges(["conversation", "conversation_message"], () => {
    if (pending.current) return;
    pending.current = setTimeout(() => {
      pending.current = null;
      void qc.invalidateQueries({ queryKey: INBOX_KEY });
    }, 400);
  });
  const open = (id: number | null) => {
    const next = new URLSearchParams(params);
    if (id === null) next.delete("c");
    else next.set("c", String(id));
    setParams(next);
  };
  const rows = list.data?.rows ?? [];
  const companyName = companyId ? rows.find((r) => r.company_id === companyId)?.company_name : null;

  const listPane = (
    <Paper
      variant="outlined"
      sx={{
        width: { xs: "100%", md: 360 },
        flexShrink: 0,
        display: { xs: selected ? "none" : "flex", md: "flex" },
        flexDirection: "column",
        minHeight: 0,
      }}
    >
      <Stack spacing={1} sx={{ p: 1.5, borderBottom: 1, borderColor: "divider" }}>
        <TextField
          size="small"
          label="Search names and companies"
          value={search}
          onChange={(e) => setSearch(e.target.value)}
        />
        <Stack direction="row" spacing={1}>
          <TextField
            select
            size="small"
            label="Channel"
            value={channel}
            onChange={(e) => setChannel(e.target.value === "" ? "" : Number(e.target.value))}
            slotProps={{ inputLabel: { shrink: true }, select: { displayEmpty: true } }}
            sx={{ flex: 1 }}
          >
            <MenuItem value="">All channels</MenuItem>
            {[1, 2, 3].map((c) => (
              <MenuItem key={c} value={c}>
                {CHANNEL_LABEL[c]}
              </MenuItem>
            ))}
          </TextField>
          <TextField
            select
            size="small"
            label="Status"
            value={status}
            onChange={(e) => setStatus(e.target.value as typeof status)}
            slotProps={{ inputLabel: { shrink: true }, select: { displayEmpty: true } }}
            sx={{ flex: 1 }}
          >
            <MenuItem value="">Any status</MenuItem>
            <MenuItem value="open">Open</MenuItem>
            <MenuItem value="pending">Pending</MenuItem>
            <MenuItem value="resolved">Resolved</MenuItem>
          </TextField>
        </Stack>
        <ToggleButtonGroup
          size="small"
          exclusive
          value={who}
          onChange={(_e, v) => v && setWho(v)}
          aria-label="Whose conversations"
          fullWidth
        >
          <ToggleButton value="all">All</ToggleButton>
          <ToggleButton value="mine">Mine</ToggleButton>
          <ToggleButton value="unassigned">Unassigned</ToggleButton>
        </ToggleButtonGroup>
        {companyId && (
          <Chip
            label={`Company: ${companyName ?? `#${companyId}`}`}
            onDelete={() => {
              const next = new URLSearchParams(params);
              next.delete("company");
              setParams(next);
            }}
          />
        )}
      </Stack>
      <Box sx={{ overflowY: "auto", flex: 1, minHeight: 0 }}>
        {list.isPending ? (
          <Stack sx={{ p: 3, alignItems: "center" }}>
            <CircularProgress size={28} aria-label="Loading conversations" />
          </Stack>
        ) : list.isError ? (
          <Alert severity="error" sx={{ m: 1.5 }}>
            {errorMessage(list.error, "The conversations could not be read")}
          </Alert>
        ) : rows.length === 0 ? (
          <Typography color="text.secondary" sx={{ p: 2 }}>
            No conversations here. Messages sent to your connected WhatsApp, Facebook and Instagram accounts appear as
            they arrive.
          </Typography>
        ) : (
          <List disablePadding aria-label="Conversations">
            {rows.map((c) => (
              <Row key={c.id} c={c} selected={Number(c.id) === selected} onOpen={() => open(Number(c.id))} />
            ))}
          </List>
        )}
      </Box>
    </Paper>
  );

  return (
    <Stack spacing={1.5} sx={{ height: { md: "calc(100vh - 64px - 48px)" }, minHeight: 0 }}>
      <Stack direction="row" spacing={2} sx={{ alignItems: "center" }}>
        <Typography variant="h5" component="h1" sx={{ flex: 1 }}>
          Inbox
        </Typography>
        <Chip
          size="small"
          variant="outlined"
          color={live === "live" ? "success" : "default"}
          label={live === "live" ? "Live" : live === "connecting" ? "Connecting…" : "Offline"}
        />
      </Stack>
      <Stack direction="row" spacing={1.5} sx={{ flex: 1, minHeight: 0 }}>
        {listPane}
        <Box sx={{ flex: 1, minWidth: 0, minHeight: 0, display: { xs: selected ? "flex" : "none", md: "flex" } }}>
          {selected ? (
            <Thread key={selected} id={selected} onBack={() => open(null)} />
          ) : (
            <Paper variant="outlined" sx={{ flex: 1, display: "grid", placeItems: "center", p: 3 }}>
              <Typography color="text.secondary">Choose a conversation to read and answer it.</Typography>
            </Paper>
          )}
        </Box>
      </Stack>
    </Stack>
  );
}
