import AttachFileOutlined from "@mui/icons-material/AttachFileOutlined";
import Badge from "@mui/material/Badge";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Chip from "@mui/material/Chip";
import IconButton from "@mui/material/IconButton";
import Link from "@mui/material/Link";
import List from "@mui/material/List";
import ListItemButton from "@mui/material/ListItemButton";
import ListItemText from "@mui/material/ListItemText";
import Paper from "@mui/material/Paper";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import type { RealtimeChannel } from "@supabase/supabase-js";
import { useCallback, useEffect, useRef, useState } from "react";
import toast from "react-hot-toast";
import { useSearchParams } from "react-router";
import { getSupabase } from "../../app/session/client.ts";
import { useSession } from "../../app/session/SessionProvider.tsx";
import { useDataProvider } from "../../platform/data-access/provider.ts";
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

// The thread's room (`marketplace-thread:<id>`, which the server lets only the two parties join, across their
// workspaces): who else has the chat open (presence), and "… is typing" (a broadcast, shown for 3 s).
function useThreadRoom(id: number) {
  const { dbUser } = useSession();
  const me = `${dbUser?.profile?.name ?? "Someone"} (${dbUser?.profile?.workspace.name ?? ""})`;
  const [typing, setTyping] = useState<string | null>(null);
  const [online, setOnline] = useState<string[]>([]);
  const channel = useRef<RealtimeChannel | null>(null);
  const lastSent = useRef(0);
  useEffect(() => {
    let gone = false;
    let ch: RealtimeChannel | null = null;
    let timer: ReturnType<typeof setTimeout> | undefined;
    void (async () => {
      const sb = await getSupabase();
      await sb.realtime.setAuth();
      if (gone) return;
      ch = sb.channel(`marketplace-thread:${id}`, { config: { presence: { key: me } } });
      ch.on("broadcast", { event: "typing" }, ({ payload }) => {
        setTyping(String((payload as { name?: string }).name ?? "Someone"));
        clearTimeout(timer);
        timer = setTimeout(() => setTyping(null), 3000);
      });
      ch.on("presence", { event: "sync" }, () => {
        if (ch) setOnline(Object.keys(ch.presenceState()).filter((k) => k !== me));
      });
      const joined = ch;
      joined.subscribe((status) => {
        if (status !== "SUBSCRIBED" || gone) return;
        channel.current = joined;
        void joined.track({ at: new Date().toISOString() });
      });
    })();
    return () => {
      gone = true;
      clearTimeout(timer);
      channel.current = null;
      const left = ch;
      if (left) void getSupabase().then((sb) => sb.removeChannel(left));
    };
  }, [id, me]);
  const typed = useCallback(() => {
    if (!channel.current || Date.now() - lastSent.current < 1500) return;
    lastSent.current = Date.now();
    void channel.current.send({ type: "broadcast", event: "typing", payload: { name: me } });
  }, [me]);
  return { typing, online, typed };
}

const MAX_FILE_BYTES = 5 * 1024 * 1024;
const sizeLabel = (n: number) =>
  n < 1024 ? `${n} B` : n < 1048576 ? `${Math.round(n / 1024)} KB` : `${(n / 1048576).toFixed(1)} MB`;

const readAsDataUrl = (file: File) =>
  new Promise<string>((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error("The file could not be read"));
    reader.readAsDataURL(file);
  });

// A message's file: read through marketplace_attachment (the two parties only) and saved by the browser.
function AttachmentLink({ messageId, name, size }: { messageId: number; name: string; size: number | null }) {
  const data = useDataProvider();
  const [busy, setBusy] = useState(false);
  const download = async () => {
    setBusy(true);
    try {
      const file = await data.command("marketplace_attachment", { message_id: messageId });
      const bytes = Uint8Array.from(atob(file.data), (c) => c.charCodeAt(0));
      const url = URL.createObjectURL(new Blob([bytes], { type: file.mime }));
      const a = document.createElement("a");
      a.href = url;
      a.download = file.name;
      a.click();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
    } catch (err) {
      toast.error(why(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Link
      component="button"
      type="button"
      color="inherit"
      onClick={() => void download()}
      disabled={busy}
      sx={{ display: "inline-flex", alignItems: "center", gap: 0.5, mt: 0.5, textAlign: "left" }}
    >
      <AttachFileOutlined fontSize="inherit" aria-hidden />
      {name}
      {size != null && ` (${sizeLabel(size)})`}
    </Link>
  );
}

function Conversation({ id, onBack }: { id: number; onBack: () => void }) {
  const thread = useThread(id);
  const room = useThreadRoom(id);
  const send = useMarketplaceCommand("marketplace_message_send");
  const [body, setBody] = useState("");
  const [file, setFile] = useState<File | null>(null);
  const picker = useRef<HTMLInputElement>(null);
  const end = useRef<HTMLDivElement>(null);
  const count = thread.data?.messages.length ?? 0;
  useEffect(() => {
    if (count) end.current?.scrollIntoView?.({ block: "end" });
  }, [count]);
  const pick = (f: File | undefined) => {
    if (!f) return;
    if (f.size > MAX_FILE_BYTES) toast.error(`${f.name} is larger than 5 MB`);
    else setFile(f);
    if (picker.current) picker.current.value = "";
  };
  const submit = async () => {
    const text = body.trim() || (file ? `Sent ${file.name}` : "");
    if (!text) return;
    try {
      const attachment = file ? { name: file.name, data: await readAsDataUrl(file) } : undefined;
      await send.mutateAsync({ thread_id: id, body: text, ...(attachment ? { attachment } : {}) });
      setBody("");
      setFile(null);
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
            {room.online.length > 0 && ` · here now: ${room.online.join(", ")}`}
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
            {m.attachment_name && (
              <AttachmentLink messageId={Number(m.id)} name={m.attachment_name} size={m.attachment_size} />
            )}
          </Box>
        ))}
        <div ref={end} />
      </Stack>
      <Typography variant="caption" color="text.secondary" sx={{ px: 2, minHeight: 20 }} aria-live="polite">
        {room.typing ? `${room.typing} is typing…` : ""}
      </Typography>
      {file && (
        <Box sx={{ px: 1.5 }}>
          <Chip
            size="small"
            icon={<AttachFileOutlined />}
            label={`${file.name} (${sizeLabel(file.size)})`}
            onDelete={() => setFile(null)}
          />
        </Box>
      )}
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
        <input ref={picker} type="file" hidden aria-label="File to send" onChange={(e) => pick(e.target.files?.[0])} />
        <IconButton aria-label="Attach a file" onClick={() => picker.current?.click()} sx={{ alignSelf: "center" }}>
          <AttachFileOutlined />
        </IconButton>
        <TextField
          size="small"
          fullWidth
          multiline
          maxRows={4}
          label="Your message"
          value={body}
          onChange={(e) => {
            setBody(e.target.value);
            room.typed();
          }}
          onKeyDown={(e) => {
            if (e.key === "Enter" && !e.shiftKey) {
              e.preventDefault();
              void submit();
            }
          }}
        />
        <Button type="submit" variant="contained" disabled={(!body.trim() && !file) || send.isPending}>
          Send
        </Button>
      </Stack>
    </Paper>
  );
}
