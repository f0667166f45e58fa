import Badge from "@mui/material/Badge";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Chip from "@mui/material/Chip";
import List from "@mui/material/List";
import ListItemButton from "@mui/material/ListItemButton";
import ListItemText from "@mui/material/ListItemText";
import Paper from "@mui/material/Paper";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { useEffect, useRef, useState } from "react";
import toast from "react-hot-toast";
import { useSearchParams } from "react-router";
import { formatDateTime } from "../../platform/fields/format.ts";
import { usePageTitle } from "../../platform/ui/usePageTitle.ts";
import { useMarketplaceCommand, useMarketplaceLive, useThread, useThreads } from "./api.ts";
import { Empty, Failed, Loading, why } from "./ui.tsx";

// Issue 23 "/dashboard/marketplace-chat": the threads between this workspace and its marketplace buyers or sellers
// (about a listing or an order) with their unread counts, and one thread's messages. New messages arrive live
// (postgres_changes on marketplace_message, which the server sends to the two parties' members only); opening a
// thread marks it read.

export default function ChatPage() {
  usePageTitle("Marketplace chat");
  const [params, setParams] = useSearchParams();
  const selected = params.get("thread") ? Number(params.get("thread")) : null;
  const threads = useThreads();
  const live = useMarketplaceLive();
  const list = threads.data?.threads ?? [];
  const open = (id: number) => setParams({ thread: String(id) });
  return (
    <Stack spacing={2}>
      <Stack direction="row" sx={{ alignItems: "center", gap: 1 }}>
        <Typography variant="h5" component="h1" sx={{ flex: 1 }}>
          Marketplace chat
        </Typography>
        <Chip
          size="small"
          variant="outlined"
          color={live === "live" ? "success" : "default"}
          label={live === "live" ? "Live" : live === "connecting" ? "Connecting…" : "Offline"}
        />
      </Stack>
      {threads.isPending ? (
        <Loading label="Loading chats" />
      ) : threads.isError ? (
        <Failed error={threads.error} />
      ) : list.length === 0 ? (
        <Empty>No chats yet: ask a seller about a listing, or message the other side of an order.</Empty>
      ) : (
        <Stack direction={{ xs: "column", md: "row" }} spacing={2} sx={{ alignItems: "stretch" }}>
          <Paper
            variant="outlined"
            sx={{ width: { md: 320 }, flexShrink: 0, display: { xs: selected ? "none" : "block", md: "block" } }}
          >
            <List aria-label="Chats" disablePadding>
              {list.map((t) => (
                <ListItemButton key={t.id} selected={Number(t.id) === selected} onClick={() => open(Number(t.id))}>
                  <ListItemText
                    primary={
                      <Stack direction="row" sx={{ alignItems: "center", gap: 1 }}>
                        <Box component="span" sx={{ flex: 1, fontWeight: t.unread ? 700 : 400 }}>
                          {t.other_name}
                        </Box>
                        {t.unread > 0 && (
                          <Badge badgeContent={t.unread} color="primary" aria-label={`${t.unread} unread`} />
                        )}
                      </Stack>
                    }
                    secondary={`${t.subject} · ${t.last_message ?? ""}`}
                    slotProps={{ secondary: { noWrap: true } }}
                  />
                </ListItemButton>
              ))}
            </List>
          </Paper>
          {selected ? (
            <Conversation id={selected} onBack={() => setParams({})} />
          ) : (
            <Paper variant="outlined" sx={{ flex: 1, p: 3, display: { xs: "none", md: "block" } }}>
              <Empty>Choose a chat.</Empty>
            </Paper>
          )}
        </Stack>
      )}
    </Stack>
  );
}

function Conversation({ id, onBack }: { id: number; onBack: () => void }) {
  const thread = useThread(id);
  const send = useMarketplaceCommand("marketplace_message_send");
  const [body, setBody] = useState("");
  const end = useRef<HTMLDivElement>(null);
  const count = thread.data?.messages.length ?? 0;
  useEffect(() => {
    if (count) end.current?.scrollIntoView?.({ block: "end" });
  }, [count]);
  const submit = async () => {
    const text = body.trim();
    if (!text) return;
    try {
      await send.mutateAsync({ thread_id: id, body: text });
      setBody("");
    } catch (err) {
      toast.error(why(err));
    }
  };
  if (thread.isPending) return <Loading label="Loading messages" />;
  if (thread.isError) return <Failed error={thread.error} />;
  const { thread: t, messages } = thread.data;
  return (
    <Paper variant="outlined" sx={{ flex: 1, display: "flex", flexDirection: "column", minHeight: 420 }}>
      <Stack direction="row" sx={{ p: 1.5, borderBottom: 1, borderColor: "divider", alignItems: "center", gap: 1 }}>
        <Button size="small" onClick={onBack} sx={{ display: { md: "none" } }}>
          Back
        </Button>
        <Box sx={{ flex: 1 }}>
          <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>
            {t.other_name}
          </Typography>
          <Typography variant="caption" color="text.secondary">
            {t.subject} · you are the {t.side}
          </Typography>
        </Box>
      </Stack>
      <Stack spacing={1} sx={{ p: 2, flex: 1, overflowY: "auto", maxHeight: 520 }} aria-label="Messages" role="log">
        {messages.map((m) => (
          <Box
            key={m.id}
            sx={{
              alignSelf: m.mine ? "flex-end" : "flex-start",
              maxWidth: "80%",
              bgcolor: m.mine ? "primary.main" : "action.hover",
              color: m.mine ? "primary.contrastText" : "text.primary",
              px: 1.5,
              py: 1,
              borderRadius: 2,
            }}
          >
            <Typography variant="caption" sx={{ opacity: 0.8, display: "block" }}>
              {m.sender_name} · {formatDateTime(m.created_at)}
            </Typography>
            <Typography variant="body2" sx={{ whiteSpace: "pre-wrap" }}>
              {m.body}
            </Typography>
          </Box>
        ))}
        <div ref={end} />
      </Stack>
      <Stack
        direction="row"
        spacing={1}
        sx={{ p: 1.5, borderTop: 1, borderColor: "divider" }}
        component="form"
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <TextField
          size="small"
          fullWidth
          multiline
          maxRows={4}
          label="Your message"
          value={body}
          onChange={(e) => setBody(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === "Enter" && !e.shiftKey) {
              e.preventDefault();
              void submit();
            }
          }}
        />
        <Button type="submit" variant="contained" disabled={!body.trim() || send.isPending}>
          Send
        </Button>
      </Stack>
    </Paper>
  );
}
