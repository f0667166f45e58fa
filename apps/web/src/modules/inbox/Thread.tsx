import ArrowBackOutlined from "@mui/icons-material/ArrowBackOutlined";
import AttachFileOutlined from "@mui/icons-material/AttachFileOutlined";
import PlaceOutlined from "@mui/icons-material/PlaceOutlined";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Chip from "@mui/material/Chip";
import CircularProgress from "@mui/material/CircularProgress";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import Divider from "@mui/material/Divider";
import IconButton from "@mui/material/IconButton";
import Link from "@mui/material/Link";
import Menu from "@mui/material/Menu";
import MenuItem from "@mui/material/MenuItem";
import Paper from "@mui/material/Paper";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import ToggleButton from "@mui/material/ToggleButton";
import ToggleButtonGroup from "@mui/material/ToggleButtonGroup";
import Typography from "@mui/material/Typography";
import { useQuery } from "@tanstack/react-query";
import { decide, errorMessage } from "@workmetrics/domain";
import type { CommandResult } from "@workmetrics/domain/commands";
import type { MessageView, OpenDocument } from "@workmetrics/domain/commands/inbox";
import { type FormEvent, useEffect, useRef, useState } from "react";
import toast from "react-hot-toast";
import { Link as RouterLink, useNavigate } from "react-router";
import { useSession } from "../../app/session/SessionProvider.tsx";
import { useDataProvider } from "../../platform/data-access/provider.ts";
import { formatAmount, formatDate, formatDateTime, humanize } from "../../platform/fields/format.ts";
import { useMember } from "../../platform/resource/access.ts";
import { useAssign, useCannedReplies, useMakeQuotation, useNote, useReply, useSetStatus, useThread } from "./api.ts";
import { CHANNEL_LABEL } from "./channels.ts";

// Issue 24: one conversation — its messages (the customer's on the left, ours on the right, private notes in
// yellow), who has it (take it, hand it back; a manager hands it to anyone), its status, Meta's 24-hour window (a
// reply inside it; a template outside it), canned replies, and beside it the contact, the company and their open
// quotations, orders and unpaid invoices — any of which is sent as a PDF in one click — and "Create quotation".

type ThreadData = CommandResult<"conversation_thread">;

const DOC_PATH: Record<string, string> = {
  quotation: "quotations",
  sales_order: "sales-orders",
  invoice: "invoices",
  delivery_order: "delivery-orders",
  receipt: "receipts",
  credit_note: "credit-notes",
};

const TICKS: Record<string, string> = {
  queued: "Sending…",
  sent: "Sent ✓",
  delivered: "Delivered ✓✓",
  read: "Read ✓✓",
  failed: "Not sent",
};

function Bubble({ m }: { m: MessageView }) {
  const mine = m.direction === "out";
  const note = m.direction === "note";
  if (m.kind === "reaction") {
    return (
      <Typography variant="caption" color="text.secondary" sx={{ alignSelf: "flex-start", px: 1 }}>
        Reacted {m.reaction || "(removed)"} {m.reply_to_body ? `to “${m.reply_to_body.slice(0, 60)}”` : ""}
      </Typography>
    );
  }
  const file = m.attachment;
  return (
    <Box
      data-message={m.id}
      data-direction={m.direction}
      sx={{
        alignSelf: mine ? "flex-end" : note ? "center" : "flex-start",
        maxWidth: { xs: "88%", md: "70%" },
        bgcolor: note ? "#fff4c2" : mine ? "#d8eef8" : "background.paper",
        color: note || mine ? "#111" : "text.primary",
        border: 1,
        borderColor: note ? "#e8d27a" : "divider",
        borderRadius: 2,
        px: 1.5,
        py: 1,
      }}
    >
      {note && (
        <Typography variant="caption" sx={{ fontWeight: 600, display: "block" }}>
          Private note · {m.author_name}
        </Typography>
      )}
      {m.reply_to_body && (
        <Box sx={{ borderLeft: 3, borderColor: "primary.main", pl: 1, mb: 0.5, opacity: 0.8 }}>
          <Typography variant="caption">{m.reply_to_body.slice(0, 120)}</Typography>
        </Box>
      )}
      {file?.mime_type.startsWith("image/") && (
        <Box
          component="img"
          src={`/api/inbox/attachments/${file.id}`}
          alt={file.file_name}
          sx={{ maxWidth: "100%", maxHeight: 260, borderRadius: 1, display: "block", mb: 0.5 }}
        />
      )}
      {file && !file.mime_type.startsWith("image/") && (
        <Link href={`/api/inbox/attachments/${file.id}`} target="_blank" rel="noopener" sx={{ display: "block" }}>
          <AttachFileOutlined fontSize="small" sx={{ verticalAlign: "text-bottom" }} aria-hidden /> {file.file_name}
        </Link>
      )}
      {m.kind === "location" && m.location ? (
        <Link
          href={`https://www.openstreetmap.org/?mlat=${(m.location as { latitude: number }).latitude}&mlon=${(m.location as { longitude: number }).longitude}`}
          target="_blank"
          rel="noopener"
        >
          <PlaceOutlined fontSize="small" sx={{ verticalAlign: "text-bottom" }} aria-hidden /> {m.body}
        </Link>
      ) : (
        m.body && (
          <Typography variant="body2" sx={{ whiteSpace: "pre-wrap", overflowWrap: "anywhere" }}>
            {m.kind === "template" ? `Template ${m.body}` : m.body}
          </Typography>
        )
      )}
      {m.error && (
        <Typography variant="caption" color="error" sx={{ display: "block" }}>
          {m.error}
        </Typography>
      )}
      <Typography variant="caption" sx={{ display: "block", textAlign: "right", opacity: 0.7 }}>
        {mine && m.author_name ? `${m.author_name} · ` : ""}
        {formatDateTime(m.created_at)}
        {mine ? ` · ${TICKS[m.status] ?? m.status}` : ""}
      </Typography>
    </Box>
  );
}

function Beside({ t, onSendDoc, sending }: { t: ThreadData; onSendDoc(d: OpenDocument): void; sending: boolean }) {
  const make = useMakeQuotation();
  const navigate = useNavigate();
  // A document's PDF goes out as WhatsApp media or as an Outlook mail's attachment (issue 24).
  const pdfs = t.conversation.channel_id === 1 || t.conversation.channel_id === 4;
  return (
    <Stack spacing={1.5}>
      <Box>
        <Typography variant="overline">Contact</Typography>
        {t.contact ? (
          <>
            <Typography sx={{ fontWeight: 500 }}>{t.contact.name}</Typography>
            <Typography variant="body2" color="text.secondary">
              {[t.contact.phone, t.contact.email].filter(Boolean).join(" · ") || "—"}
            </Typography>
          </>
        ) : (
          <Typography color="text.secondary">Not matched to a contact</Typography>
        )}
      </Box>
      <Box>
        <Typography variant="overline">Company</Typography>
        {t.company ? (
          <Typography>
            <Link component={RouterLink} to={`/dashboard/companies/${t.company.id}`}>
              {t.company.name}
            </Link>
          </Typography>
        ) : (
          <Typography color="text.secondary">—</Typography>
        )}
      </Box>
      <Button
        variant="outlined"
        disabled={!t.company || make.isPending}
        onClick={() =>
          make.mutate(
            { conversation_id: Number(t.conversation.id) },
            {
              onSuccess: (r) => {
                toast.success(
                  r.lines
                    ? `Quotation drafted with ${r.matched.join(", ")}`
                    : "Quotation drafted for the company; add its lines",
                );
                navigate(`/dashboard/quotations/${r.id}`);
              },
              onError: (e) => toast.error(errorMessage(e, "The quotation could not be made")),
            },
          )
        }
      >
        {make.isPending ? "Making…" : "Create quotation"}
      </Button>
      <Divider />
      <Typography variant="overline">Open documents</Typography>
      {t.documents.length === 0 ? (
        <Typography variant="body2" color="text.secondary">
          No open quotations, orders or unpaid invoices.
        </Typography>
      ) : (
        t.documents.map((d) => (
          <Paper key={`${d.type}-${d.id}`} variant="outlined" sx={{ p: 1 }} data-document={`${d.type}-${d.id}`}>
            <Stack direction="row" spacing={1} sx={{ alignItems: "center" }}>
              <Box sx={{ flex: 1, minWidth: 0 }}>
                <Link
                  component={RouterLink}
                  to={`/dashboard/${DOC_PATH[d.type]}/${d.id}`}
                  noWrap
                  sx={{ display: "block" }}
                >
                  {humanize(d.type)} {d.number ?? "(draft)"}
                </Link>
                <Typography variant="caption" color="text.secondary">
                  {humanize(d.status)}
                  {d.date ? ` · ${formatDate(d.date)}` : ""}
                  {d.balance
                    ? ` · owes ${formatAmount(d.balance, "SGD")}`
                    : d.total
                      ? ` · ${formatAmount(d.total, "SGD")}`
                      : ""}
                  {d.linked ? " · linked" : ""}
                </Typography>
              </Box>
              {pdfs && (
                <Button
                  size="small"
                  disabled={
                    sending ||
                    (t.conversation.channel_id === 1 && !t.window_open) ||
                    t.channel_status === "disconnected" ||
                    t.channel_status === "needs_reauth"
                  }
                  onClick={() => onSendDoc(d)}
                >
                  Send PDF
                </Button>
              )}
            </Stack>
          </Paper>
        ))
      )}
    </Stack>
  );
}

function TemplateDialog({
  open,
  onClose,
  onSend,
}: {
  open: boolean;
  onClose(): void;
  onSend(t: { name: string; language: string; params: string[] }): void;
}) {
  const [name, setName] = useState("");
  const [language, setLanguage] = useState("en");
  const [params, setParams] = useState("");
  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="sm" aria-labelledby="tpl-title">
      <DialogTitle id="tpl-title">Send an approved template</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          <Typography variant="body2" color="text.secondary">
            Outside the 24-hour window WhatsApp delivers only templates approved in WhatsApp Manager. Give its name as
            approved and a value for each of its parameters, in order.
          </Typography>
          <TextField
            label="Template name"
            value={name}
            onChange={(e) => setName(e.target.value)}
            helperText="e.g. order_follow_up"
            required
          />
          <TextField
            label="Language"
            value={language}
            onChange={(e) => setLanguage(e.target.value)}
            helperText="e.g. en, en_US, zh_CN"
          />
          <TextField
            label="Parameters"
            value={params}
            onChange={(e) => setParams(e.target.value)}
            helperText="One per line: {{1}}, {{2}}, …"
            multiline
            minRows={2}
          />
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cancel</Button>
        <Button
          variant="contained"
          disabled={!name.trim()}
          onClick={() =>
            onSend({
              name: name.trim(),
              language: language.trim() || "en",
              params: params
                .split("\n")
                .map((p) => p.trim())
                .filter(Boolean),
            })
          }
        >
          Send template
        </Button>
      </DialogActions>
    </Dialog>
  );
}

export function Thread({ id, onBack }: { id: number; onBack(): void }) {
  const thread = useThread(id);
  const { session } = useSession();
  const me = session?.user.id;
  const reply = useReply();
  const note = useNote();
  const assign = useAssign();
  const setStatus = useSetStatus();
  const data = useDataProvider();
  const [text, setText] = useState("");
  const [mode, setMode] = useState<"reply" | "note">("reply");
  const [tplOpen, setTplOpen] = useState(false);
  const [besideOpen, setBesideOpen] = useState(false);
  const [cannedAt, setCannedAt] = useState<HTMLElement | null>(null);
  const canned = useCannedReplies(Boolean(thread.data?.can_reply));
  const who = useMember();
  const canSaveCanned = decide(who, {
    audience: "member",
    permission: "canned_reply.create",
    does: "save canned replies",
    feature: "communication_channels",
  }).allowed;
  const members = useQuery({
    queryKey: ["inbox", "members"],
    queryFn: async ({ signal }) =>
      (
        await data.getList("user", {
          select: "id,name",
          filters: [{ column: "active", op: "eq", value: "true" }],
          order: [{ column: "name", ascending: true }],
          range: [0, 199],
          signal,
        })
      ).data as unknown as Array<{ id: string; name: string }>,
    enabled: Boolean(thread.data?.can_assign_others),
  });
  const end = useRef<HTMLDivElement>(null);
  const count = thread.data?.messages.length ?? 0;
  useEffect(() => {
    if (count) end.current?.scrollIntoView({ block: "end" });
  }, [count]);

  if (thread.isPending) {
    return (
      <Paper variant="outlined" sx={{ flex: 1, display: "grid", placeItems: "center" }}>
        <CircularProgress aria-label="Loading the conversation" />
      </Paper>
    );
  }
  if (thread.isError) {
    return (
      <Paper variant="outlined" sx={{ flex: 1, p: 2 }}>
        <Button startIcon={<ArrowBackOutlined />} onClick={onBack} sx={{ display: { md: "none" }, mb: 1 }}>
          Conversations
        </Button>
        <Alert severity="error">{errorMessage(thread.error, "The conversation could not be read")}</Alert>
      </Paper>
    );
  }
  const t = thread.data;
  const c = t.conversation;
  const lastSeen = t.messages.length ? Number(t.messages[t.messages.length - 1].id) : undefined;
  const mineNow = c.assignee_id === me;

  const send = (
    args: Omit<Parameters<typeof reply.mutate>[0], "conversation_id" | "seen_message_id">,
    done?: () => void,
  ) =>
    reply.mutate(
      { conversation_id: Number(c.id), seen_message_id: lastSeen, ...args },
      {
        onSuccess: () => done?.(),
        onError: (e) => toast.error(errorMessage(e, "The message could not be sent")),
      },
    );
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const body = text.trim();
    if (!body) return;
    if (mode === "note") {
      note.mutate(
        { conversation_id: Number(c.id), body },
        {
          onSuccess: () => setText(""),
          onError: (err) => toast.error(errorMessage(err, "The note could not be kept")),
        },
      );
    } else send({ body }, () => setText(""));
  };
  const take = (userId: string | null) =>
    assign.mutate(
      { conversation_id: Number(c.id), user_id: userId, expected_assignee_id: c.assignee_id },
      {
        onSuccess: (r) => toast.success(r.assignee_name ? `${r.assignee_name} has it now` : "Handed back: unassigned"),
        onError: (e) => toast.error(errorMessage(e, "The conversation could not be assigned")),
      },
    );
  const sendDoc = (d: OpenDocument) =>
    send({ document: { type: d.type, id: Number(d.id) } }, () =>
      toast.success(`${humanize(d.type)} ${d.number ?? ""} sent as a PDF`),
    );
  const closes = t.window_closes_at ? new Date(t.window_closes_at) : null;
  const meta = c.channel_id !== 4;
  const blocked = t.channel_status === "disconnected" || t.channel_status === "needs_reauth";

  return (
    <Stack direction="row" spacing={1.5} sx={{ flex: 1, minWidth: 0, minHeight: 0 }}>
      <Paper
        variant="outlined"
        sx={{ flex: 1, minWidth: 0, display: "flex", flexDirection: "column", minHeight: { xs: "70vh", md: 0 } }}
      >
        <Stack
          direction="row"
          spacing={1}
          sx={{ p: 1.5, alignItems: "center", borderBottom: 1, borderColor: "divider", flexWrap: "wrap", rowGap: 1 }}
        >
          <IconButton onClick={onBack} aria-label="Back to the conversations" sx={{ display: { md: "none" } }}>
            <ArrowBackOutlined />
          </IconButton>
          <Box sx={{ flex: 1, minWidth: 160 }}>
            <Typography variant="h6" component="h2" noWrap>
              {c.title}
            </Typography>
            <Typography variant="body2" color="text.secondary" noWrap>
              {CHANNEL_LABEL[c.channel_id]} ·{" "}
              {c.channel_id === 1
                ? `+${c.external_thread_id}`
                : c.channel_id === 4
                  ? (t.contact?.email ?? "e-mail") // an Outlook thread's id is Graph's conversationId: the address says more
                  : c.external_thread_id}
              {c.company_name ? ` · ${c.company_name}` : ""}
            </Typography>
          </Box>
          <Button size="small" sx={{ display: { lg: "none" } }} onClick={() => setBesideOpen(true)}>
            Customer
          </Button>
          {t.can_assign_others ? (
            <TextField
              select
              size="small"
              label="Assigned to"
              value={c.assignee_id ?? ""}
              onChange={(e) => take(e.target.value || null)}
              sx={{ minWidth: 170 }}
            >
              <MenuItem value="">Unassigned</MenuItem>
              {c.assignee_id && !members.data?.some((u) => u.id === c.assignee_id) && (
                <MenuItem value={c.assignee_id}>{c.assignee_name}</MenuItem>
              )}
              {(members.data ?? []).map((u) => (
                <MenuItem key={u.id} value={u.id}>
                  {u.name}
                </MenuItem>
              ))}
            </TextField>
          ) : c.assignee_id ? (
            mineNow ? (
              <Button size="small" variant="outlined" onClick={() => take(null)} disabled={assign.isPending}>
                Hand back
              </Button>
            ) : (
              <Chip label={`${c.assignee_name} has it`} />
            )
          ) : (
            <Button size="small" variant="contained" onClick={() => me && take(me)} disabled={assign.isPending || !me}>
              Take it
            </Button>
          )}
          {t.can_reply && (
            <TextField
              select
              size="small"
              label="Status"
              value={c.status}
              onChange={(e) =>
                setStatus.mutate(
                  { conversation_id: Number(c.id), status: e.target.value as "open" },
                  { onError: (err) => toast.error(errorMessage(err, "The status could not be changed")) },
                )
              }
              sx={{ minWidth: 120 }}
            >
              <MenuItem value="open">Open</MenuItem>
              <MenuItem value="pending">Pending</MenuItem>
              <MenuItem value="resolved">Resolved</MenuItem>
            </TextField>
          )}
        </Stack>
        {blocked && (
          <Alert severity="error" sx={{ borderRadius: 0 }}>
            {t.channel_status === "needs_reauth"
              ? "Meta refused this number's token, so replies cannot be sent."
              : "This number is disconnected, so replies cannot be sent."}{" "}
            <Link component={RouterLink} to="/dashboard/cca">
              Reconnect it on Channel accounts
            </Link>
          </Alert>
        )}
        {meta && !blocked && (
          <Alert severity={t.window_open ? "info" : "warning"} sx={{ borderRadius: 0 }}>
            {t.window_open && closes
              ? `Reply window open until ${formatDateTime(closes.toISOString())}.`
              : "More than 24 hours since the customer wrote: WhatsApp delivers only approved templates now."}
          </Alert>
        )}
        <Stack
          spacing={1}
          sx={{ flex: 1, overflowY: "auto", p: 1.5, bgcolor: "background.default", minHeight: 0 }}
          aria-label="Messages"
        >
          {t.messages.length === 0 && <Typography color="text.secondary">No messages yet.</Typography>}
          {t.messages.map((m) => (
            <Bubble key={m.id} m={m} />
          ))}
          <div ref={end} />
        </Stack>
        {t.can_reply && (
          <Box component="form" onSubmit={submit} sx={{ p: 1.5, borderTop: 1, borderColor: "divider" }}>
            <Stack spacing={1}>
              <Stack direction="row" spacing={1} sx={{ alignItems: "center", flexWrap: "wrap", rowGap: 1 }}>
                <ToggleButtonGroup
                  size="small"
                  exclusive
                  value={mode}
                  onChange={(_e, v) => v && setMode(v)}
                  aria-label="Reply or note"
                >
                  <ToggleButton value="reply">Reply</ToggleButton>
                  <ToggleButton value="note">Private note</ToggleButton>
                </ToggleButtonGroup>
                <Button
                  size="small"
                  onClick={(e) => setCannedAt(e.currentTarget)}
                  disabled={!canned.data?.length && !(canSaveCanned && text.trim())}
                >
                  Canned replies
                </Button>
                {c.channel_id === 1 && (
                  <Button size="small" onClick={() => setTplOpen(true)}>
                    Template…
                  </Button>
                )}
              </Stack>
              <Menu anchorEl={cannedAt} open={Boolean(cannedAt)} onClose={() => setCannedAt(null)}>
                {(canned.data ?? []).map((r) => (
                  <MenuItem
                    key={r.id}
                    onClick={() => {
                      setText((v) => (v ? `${v}\n${r.body}` : r.body));
                      setCannedAt(null);
                    }}
                  >
                    {r.title}
                  </MenuItem>
                ))}
                {canSaveCanned && (
                  <MenuItem
                    disabled={!text.trim()}
                    onClick={() => {
                      setCannedAt(null);
                      const title = window.prompt("A title for this canned reply", text.trim().slice(0, 40));
                      if (!title?.trim()) return;
                      data
                        .create("canned_reply", { title: title.trim(), body: text.trim() })
                        .then(() => {
                          toast.success(`Canned reply “${title.trim()}” saved`);
                          void canned.refetch();
                        })
                        .catch((e) => toast.error(errorMessage(e, "The canned reply could not be saved")));
                    }}
                  >
                    Save the message as a canned reply…
                  </MenuItem>
                )}
              </Menu>
              <Stack direction="row" spacing={1} sx={{ alignItems: "flex-end" }}>
                <TextField
                  label={mode === "note" ? "Note for your team (the customer never sees it)" : "Message"}
                  value={text}
                  onChange={(e) => setText(e.target.value)}
                  multiline
                  maxRows={6}
                  fullWidth
                  disabled={mode === "reply" && ((meta && !t.window_open) || blocked)}
                  onKeyDown={(e) => {
                    if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) submit(e as unknown as FormEvent);
                  }}
                />
                <Button
                  type="submit"
                  variant="contained"
                  disabled={
                    !text.trim() ||
                    reply.isPending ||
                    note.isPending ||
                    (mode === "reply" && ((meta && !t.window_open) || blocked))
                  }
                >
                  {mode === "note" ? "Add note" : reply.isPending ? "Sending…" : "Send"}
                </Button>
              </Stack>
            </Stack>
          </Box>
        )}
      </Paper>
      <Paper
        variant="outlined"
        sx={{ width: 300, flexShrink: 0, p: 1.5, overflowY: "auto", display: { xs: "none", lg: "block" } }}
        aria-label="Customer"
      >
        <Beside t={t} onSendDoc={sendDoc} sending={reply.isPending} />
      </Paper>
      <Dialog
        open={besideOpen}
        onClose={() => setBesideOpen(false)}
        fullWidth
        maxWidth="xs"
        aria-labelledby="beside-title"
      >
        <DialogTitle id="beside-title">Customer</DialogTitle>
        <DialogContent>
          <Beside
            t={t}
            onSendDoc={(d) => {
              setBesideOpen(false);
              sendDoc(d);
            }}
            sending={reply.isPending}
          />
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setBesideOpen(false)}>Close</Button>
        </DialogActions>
      </Dialog>
      <TemplateDialog
        open={tplOpen}
        onClose={() => setTplOpen(false)}
        onSend={(tpl) => send({ template: tpl }, () => setTplOpen(false))}
      />
    </Stack>
  );
}
