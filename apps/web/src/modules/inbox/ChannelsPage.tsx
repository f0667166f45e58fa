import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import Chip from "@mui/material/Chip";
import CircularProgress from "@mui/material/CircularProgress";
import Link from "@mui/material/Link";
import MenuItem from "@mui/material/MenuItem";
import Paper from "@mui/material/Paper";
import Stack from "@mui/material/Stack";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableContainer from "@mui/material/TableContainer";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { decide, errorMessage } from "@workmetrics/domain";
import type { ChannelAccountView, MetaChannel } from "@workmetrics/domain/commands/inbox";
import { type FormEvent, useRef, useState } from "react";
import toast from "react-hot-toast";
import { Link as RouterLink, useSearchParams } from "react-router";
import { DataError } from "../../platform/data-access/errors.ts";
import { formatDateTime } from "../../platform/fields/format.ts";
import { useMember } from "../../platform/resource/access.ts";
import { ConfirmDialog } from "../../platform/ui/ConfirmDialog.tsx";
import { usePageTitle } from "../../platform/ui/usePageTitle.ts";
import {
  useChannelAccounts,
  useConnect,
  useDisconnect,
  useInstagramConnect,
  useOutlookConnect,
  useSignIns,
} from "./api.ts";
import { CHANNEL_LABEL, CHANNEL_SLUG } from "./channels.ts";

// Issue 24 "/dashboard/cca": the workspace's connected channel accounts — connect a WhatsApp number, a Facebook page
// or an Instagram account with the id Meta shows and a long-lived token (checked with Meta before it is kept), each
// account's state, reconnecting with a new token, and disconnecting (the token is deleted).

const STATE: Record<string, { label: string; color: "success" | "warning" | "error" | "default" }> = {
  connected: { label: "Connected", color: "success" },
  needs_reauth: { label: "Needs re-authorising", color: "warning" },
  failing: { label: "Failing", color: "error" },
  disconnected: { label: "Disconnected", color: "default" },
};

const ID_HELP: Record<MetaChannel, string> = {
  whatsapp: "The phone number ID from WhatsApp Manager → API setup (not the phone number itself)",
  facebook: "The Facebook page's ID (Page settings → About)",
  instagram: "The Instagram business account's ID",
};

type Fault = { message: string; field?: string };

type SignInResult = Record<string, { severity: "success" | "warning" | "error"; text: string }>;

// How the return from a service's sign-in went (/outlook/callback and /instagram/callback send the browser back with
// ?outlook=… or ?instagram=…, and the service's words in ?detail).
const OUTLOOK_RESULT: SignInResult = {
  connected: { severity: "success", text: "Outlook is connected: new mail arrives in the inbox." },
  failing: { severity: "warning", text: "Outlook is connected, but Microsoft could not be subscribed to" },
  failed: { severity: "error", text: "Outlook could not be connected" },
  refused: { severity: "error", text: "Microsoft's sign-in was cancelled or refused" },
};
const INSTAGRAM_RESULT: SignInResult = {
  connected: { severity: "success", text: "Instagram is connected: its direct messages arrive in the inbox." },
  failing: { severity: "warning", text: "Instagram is connected, but its messages could not be subscribed to" },
  failed: { severity: "error", text: "Instagram could not be connected" },
  refused: { severity: "error", text: "Instagram's sign-in was cancelled or refused" },
};

// Issue 24: an account that connects through its service's own sign-in, not with a pasted token — an Outlook
// mailbox (Microsoft's OAuth) and an Instagram professional account (Instagram's business login).
function SignInConnect(props: {
  id: string;
  title: string;
  service: string;
  action: string; // what the button connects: "Connect Outlook", "Reconnect with Instagram"
  param: string;
  results: SignInResult;
  start: { isPending: boolean; mutateAsync(): Promise<{ url: string }> };
  reconnect: boolean;
  children: string;
}) {
  const { id, title, service, action, param, results, start, reconnect } = props;
  const [search, setSearch] = useSearchParams();
  const result = results[search.get(param) ?? ""];
  const detail = search.get(param) ? search.get("detail") : null;
  return (
    <Paper variant="outlined" component="section" aria-labelledby={`${id}-title`} sx={{ p: 2 }}>
      <Typography id={`${id}-title`} variant="h6" component="h2" gutterBottom>
        {title}
      </Typography>
      {result && (
        <Alert
          severity={result.severity}
          sx={{ mb: 1.5 }}
          onClose={() => {
            search.delete(param);
            search.delete("detail");
            setSearch(search, { replace: true });
          }}
        >
          {result.text}
          {detail ? `: ${detail}` : ""}
        </Alert>
      )}
      <Typography color="text.secondary" sx={{ mb: 1.5 }}>
        {props.children}
      </Typography>
      <Button
        variant="contained"
        disabled={start.isPending}
        onClick={async () => {
          try {
            const { url } = await start.mutateAsync();
            window.location.assign(url);
          } catch (e) {
            toast.error(errorMessage(e, `${service} could not be connected`));
          }
        }}
      >
        {start.isPending ? `Opening ${service}…` : `${reconnect ? "Reconnect" : "Connect"} ${action}`}
      </Button>
    </Paper>
  );
}

function OutlookConnect({ reconnect }: { reconnect: boolean }) {
  const start = useOutlookConnect();
  return (
    <SignInConnect
      id="outlook"
      title="Outlook (Sales Email)"
      service="Microsoft"
      action="Outlook"
      param="outlook"
      results={OUTLOOK_RESULT}
      start={start}
      reconnect={reconnect}
    >
      Sign in with the Microsoft account of the sales mailbox. Its mail arrives in the inbox, replies are sent from it,
      and documents can be saved to its OneDrive.
    </SignInConnect>
  );
}

function InstagramConnect({ reconnect }: { reconnect: boolean }) {
  const start = useInstagramConnect();
  return (
    <SignInConnect
      id="instagram"
      title="Instagram"
      service="Instagram"
      action="with Instagram"
      param="instagram"
      results={INSTAGRAM_RESULT}
      start={start}
      reconnect={reconnect}
    >
      Sign in with your Instagram professional account. Its direct messages arrive in the inbox and replies go out from
      it. (An account managed through a Facebook page can also be connected with its token below.)
    </SignInConnect>
  );
}

function ConnectForm({
  preset,
  onDone,
}: {
  preset: { channel: MetaChannel; external_id: string } | null;
  onDone(): void;
}) {
  const connect = useConnect();
  const [channel, setChannel] = useState<MetaChannel>(preset?.channel ?? "whatsapp");
  const [externalId, setExternalId] = useState(preset?.external_id ?? "");
  const [token, setToken] = useState("");
  const [name, setName] = useState("");
  const [fault, setFault] = useState<Fault | null>(null);
  const tokenRef = useRef<HTMLInputElement>(null);
  const err = (f: string) => (fault?.field === f ? fault.message : undefined);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setFault(null);
    if (!externalId.trim())
      return setFault({ field: "external_id", message: "Give the id Meta shows for the account" });
    if (!token.trim())
      return setFault({ field: "access_token", message: "Paste the account's long-lived access token" });
    connect.mutate(
      { channel, external_id: externalId.trim(), access_token: token.trim(), display_name: name.trim() || null },
      {
        onSuccess: (a) => {
          toast.success(`${CHANNEL_LABEL[a.channel_id]} connected: ${a.display_name ?? a.external_id}`);
          setToken("");
          setExternalId("");
          setName("");
          onDone();
        },
        onError: (e) => {
          const field = e instanceof DataError ? Object.keys(e.fields)[0] : undefined;
          setFault({ message: errorMessage(e, "The account could not be connected"), field });
        },
      },
    );
  };
  return (
    <Paper
      variant="outlined"
      component="form"
      onSubmit={submit}
      aria-labelledby="connect-title"
      sx={{ p: 2 }}
      noValidate
    >
      <Typography id="connect-title" variant="h6" component="h2" gutterBottom>
        {preset ? "Reconnect an account" : "Connect an account"}
      </Typography>
      <Stack spacing={2}>
        {fault && !fault.field && <Alert severity="error">{fault.message}</Alert>}
        <Stack direction={{ xs: "column", md: "row" }} spacing={2}>
          <TextField
            select
            label="Channel"
            value={channel}
            onChange={(e) => setChannel(e.target.value as MetaChannel)}
            sx={{ minWidth: 180 }}
            disabled={Boolean(preset)}
          >
            {(["whatsapp", "facebook", "instagram"] as const).map((c) => (
              <MenuItem key={c} value={c}>
                {CHANNEL_LABEL[CHANNEL_SLUG[c]]}
              </MenuItem>
            ))}
          </TextField>
          <TextField
            label="Account ID"
            value={externalId}
            onChange={(e) => setExternalId(e.target.value)}
            error={Boolean(err("external_id"))}
            helperText={err("external_id") ?? ID_HELP[channel]}
            required
            fullWidth
            disabled={Boolean(preset)}
            slotProps={{ htmlInput: { inputMode: "numeric" } }}
          />
          <TextField
            label="Name shown (optional)"
            value={name}
            onChange={(e) => setName(e.target.value)}
            helperText="Meta's name for the account, when empty"
            fullWidth
          />
        </Stack>
        <TextField
          label="Long-lived access token"
          type="password"
          autoComplete="off"
          inputRef={tokenRef}
          value={token}
          onChange={(e) => setToken(e.target.value)}
          error={Boolean(err("access_token"))}
          helperText={
            err("access_token") ??
            "A system user's token from Meta Business Settings. It is checked with Meta, kept encrypted and never shown again."
          }
          required
          fullWidth
        />
        <Stack direction="row" spacing={1}>
          <Button type="submit" variant="contained" disabled={connect.isPending}>
            {connect.isPending ? "Checking with Meta…" : preset ? "Reconnect" : "Connect"}
          </Button>
          {preset && <Button onClick={onDone}>Cancel</Button>}
        </Stack>
      </Stack>
    </Paper>
  );
}

export default function ChannelsPage() {
  usePageTitle("Channels");
  const who = useMember();
  const accounts = useChannelAccounts();
  const disconnect = useDisconnect();
  const [preset, setPreset] = useState<{ channel: MetaChannel; external_id: string } | null>(null);
  const [leaving, setLeaving] = useState<ChannelAccountView | null>(null);
  const canConnect = decide(who, {
    audience: "member",
    permission: "channel_account.create",
    does: "connect",
    feature: "communication_channels",
  }).allowed;
  // Outlook's and Instagram's sign-ins are offered only where this server is set up for them.
  const signIns = useSignIns(canConnect);
  const canDisconnect = decide(who, {
    audience: "member",
    permission: "channel_account.delete",
    does: "disconnect",
  }).allowed;
  const webhook = `${window.location.origin}/webhooks/meta`;
  return (
    <Stack spacing={2}>
      <Typography variant="h5" component="h1">
        Channels
      </Typography>
      <Typography color="text.secondary">
        Messages to these accounts arrive in the{" "}
        <Link component={RouterLink} to="/dashboard/inbox">
          inbox
        </Link>
        . In your Meta app, point the webhook at <code>{webhook}</code>.
      </Typography>
      {canConnect && signIns.data?.outlook && (
        <OutlookConnect
          reconnect={Boolean(accounts.data?.some((a) => a.channel_id === 4 && a.status !== "disconnected"))}
        />
      )}
      {canConnect && signIns.data?.instagram && (
        <InstagramConnect
          reconnect={Boolean(accounts.data?.some((a) => a.channel_id === 3 && a.status !== "disconnected"))}
        />
      )}
      {canConnect && (
        <ConnectForm key={preset ? `re-${preset.external_id}` : "new"} preset={preset} onDone={() => setPreset(null)} />
      )}
      <Paper variant="outlined" component="section" aria-labelledby="accounts-title" sx={{ p: 2 }}>
        <Typography id="accounts-title" variant="h6" component="h2" gutterBottom>
          Connected accounts
        </Typography>
        {accounts.isPending ? (
          <CircularProgress size={24} aria-label="Loading accounts" />
        ) : accounts.isError ? (
          <Alert severity="error">{errorMessage(accounts.error, "The accounts could not be read")}</Alert>
        ) : accounts.data.length === 0 ? (
          <Typography color="text.secondary">No account is connected yet.</Typography>
        ) : (
          <TableContainer sx={{ overflowX: "auto" }}>
            <Table size="small" aria-label="Channel accounts">
              <TableHead>
                <TableRow>
                  <TableCell>Channel</TableCell>
                  <TableCell>Account</TableCell>
                  <TableCell>State</TableCell>
                  <TableCell sx={{ display: { xs: "none", md: "table-cell" } }}>Last error</TableCell>
                  <TableCell align="right">Actions</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {accounts.data.map((a) => {
                  const slug = Object.entries(CHANNEL_SLUG).find(([, id]) => id === a.channel_id)?.[0] as MetaChannel;
                  return (
                    <TableRow key={a.id} data-account={a.external_id}>
                      <TableCell>{CHANNEL_LABEL[a.channel_id]}</TableCell>
                      <TableCell>
                        {a.display_name ?? "—"}
                        <Typography variant="body2" color="text.secondary">
                          ID {a.external_id}
                        </Typography>
                      </TableCell>
                      <TableCell>
                        <Chip size="small" label={STATE[a.status]?.label ?? a.status} color={STATE[a.status]?.color} />
                      </TableCell>
                      <TableCell sx={{ display: { xs: "none", md: "table-cell" } }}>
                        {a.last_error ? (
                          <>
                            {a.last_error}
                            <Typography variant="body2" color="text.secondary">
                              {a.last_error_at ? formatDateTime(a.last_error_at) : ""}
                            </Typography>
                          </>
                        ) : (
                          "—"
                        )}
                      </TableCell>
                      <TableCell align="right" sx={{ whiteSpace: "nowrap" }}>
                        {canConnect && slug && (
                          <Button
                            size="small"
                            onClick={() => setPreset({ channel: slug, external_id: a.external_id ?? "" })}
                          >
                            Reconnect
                          </Button>
                        )}
                        {canDisconnect && a.status !== "disconnected" && (
                          <Button size="small" color="error" onClick={() => setLeaving(a)}>
                            Disconnect
                          </Button>
                        )}
                      </TableCell>
                    </TableRow>
                  );
                })}
              </TableBody>
            </Table>
          </TableContainer>
        )}
      </Paper>
      <ConfirmDialog
        open={leaving !== null}
        title="Disconnect this account?"
        body={`Its token is deleted and its messages stop arriving. Its conversations stay. You can reconnect it with a new token.`}
        confirmLabel="Disconnect"
        destructive
        onCancel={() => setLeaving(null)}
        onConfirm={async () => {
          if (!leaving) return;
          try {
            await disconnect.mutateAsync(Number(leaving.id));
            toast.success("Disconnected; the token is deleted");
          } catch (e) {
            toast.error(errorMessage(e, "The account could not be disconnected"));
          }
          setLeaving(null);
        }}
      />
    </Stack>
  );
}
