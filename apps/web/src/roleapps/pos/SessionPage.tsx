import PictureAsPdfOutlined from "@mui/icons-material/PictureAsPdfOutlined";
import PrintOutlined from "@mui/icons-material/PrintOutlined";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import CircularProgress from "@mui/material/CircularProgress";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogContentText from "@mui/material/DialogContentText";
import DialogTitle from "@mui/material/DialogTitle";
import Divider from "@mui/material/Divider";
import Paper from "@mui/material/Paper";
import Stack from "@mui/material/Stack";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import type { PosZReport } from "@workmetrics/domain/commands/pos";
import { dec, money } from "@workmetrics/domain/documents/decimal";
import { useState } from "react";
import { Link } from "react-router";
import { useSession } from "../../app/session/SessionProvider.tsx";
import { callCommand } from "../../platform/commands.ts";
import { useShiftData } from "../shell/offline-cache.ts";
import { runOrQueue } from "../shell/outbox.ts";
import { sgd, useOpenSession } from "./data.ts";
import { methodLabel } from "./PayDialog.tsx";
import { PrintStyles } from "./Receipt.tsx";

// The session (issue 22): its figures to date, and closing it with the counted cash — the expected cash (float + cash
// taken − cash refunded − change), the counted and the difference, then the Z report (sales by method, tax,
// refunds, discounts) as a page to print and a PDF.

const LAST_Z = "wm-pos-last-z";

export function SessionPage() {
  const session = useOpenSession();
  const [closed, setClosed] = useState<PosZReport | null>(() => {
    try {
      return JSON.parse(localStorage.getItem(LAST_Z) ?? "null") as PosZReport | null;
    } catch {
      return null;
    }
  });
  if (session.isLoading) {
    return (
      <Box sx={{ display: "grid", placeItems: "center", py: 6 }} role="status" aria-label="Loading">
        <CircularProgress />
      </Box>
    );
  }
  if (session.open) {
    return (
      <OpenSession
        id={Number(session.open.id)}
        onClosed={(z) => {
          if (z) {
            localStorage.setItem(LAST_Z, JSON.stringify(z));
            setClosed(z);
          }
          void session.refresh();
        }}
      />
    );
  }
  return (
    <Stack spacing={2} sx={{ maxWidth: 560, mx: "auto" }}>
      <PrintStyles />
      {session.queuedOpen ? (
        <Alert severity="info">The session opens as soon as the network is back.</Alert>
      ) : (
        <Alert
          severity="info"
          action={
            <Button component={Link} to="/dashboard" color="inherit">
              Open
            </Button>
          }
        >
          No session is open at your counter.
        </Alert>
      )}
      {closed && <ZReport z={closed} />}
    </Stack>
  );
}

function OpenSession({ id, onClosed }: { id: number; onClosed(z: PosZReport | null): void }) {
  const { client } = useSession();
  const z = useShiftData(["pos-z", String(id)], async () => {
    if (!client) throw new Error("Not signed in");
    return callCommand(client, "pos_z_report", { session_id: id });
  });
  const [counted, setCounted] = useState("");
  const [confirm, setConfirm] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [queued, setQueued] = useState(false);
  const [busy, setBusy] = useState(false);
  const ok = /^\d+(\.\d{1,2})?$/.test(counted.trim());
  const expected = z.data?.expected_cash ?? null;
  const difference = ok && expected ? money(dec(counted.trim()).minus(dec(expected))) : null;

  async function close() {
    setBusy(true);
    setError(null);
    const res = await runOrQueue(
      "pos_session_close",
      { session_id: id, counted_cash: counted.trim() },
      { label: `Close session ${id} with ${sgd(counted.trim())} counted` },
    );
    setBusy(false);
    setConfirm(false);
    if (res.status === "refused") return setError(res.message);
    if (res.status === "queued") {
      setQueued(true);
      return onClosed(null);
    }
    onClosed(res.result);
  }

  return (
    <Stack spacing={2} sx={{ maxWidth: 560, mx: "auto" }}>
      <Typography variant="h5" component="h2" sx={{ fontWeight: 700 }}>
        Session {id}
      </Typography>
      {z.isLoading ? (
        <CircularProgress aria-label="Loading" />
      ) : z.error && !z.data ? (
        <Alert severity="error">{(z.error as Error).message}</Alert>
      ) : z.data ? (
        <Paper variant="outlined" sx={{ p: 2 }}>
          <Stack spacing={0.5}>
            <Line left="Sales" right={`${z.data.sales_count} · ${sgd(z.data.net_sales)}`} />
            <Line left="Refunds" right={`${z.data.refunds_count} · ${sgd(z.data.refunds)}`} />
            <Line left="Opening float" right={sgd(z.data.session.opening_float)} />
            <Line left="Expected in the drawer" right={sgd(z.data.expected_cash)} strong />
            {z.isOffline && (
              <Typography variant="caption" color="warning.main">
                As of {z.savedAt ? new Date(z.savedAt).toLocaleTimeString() : "earlier"}: sales made offline are not
                counted yet
              </Typography>
            )}
          </Stack>
        </Paper>
      ) : null}
      {queued && <Alert severity="info">The close is kept: it is sent once, as soon as the network is back.</Alert>}
      <Paper variant="outlined" sx={{ p: 2 }}>
        <Stack spacing={2}>
          <Typography sx={{ fontWeight: 700 }}>Close the session</Typography>
          <TextField
            label="Counted cash (S$)"
            value={counted}
            onChange={(e) => setCounted(e.target.value)}
            slotProps={{ htmlInput: { inputMode: "decimal" } }}
            error={counted !== "" && !ok}
            helperText={
              counted !== "" && !ok ? "Give an amount like 412.50" : "Everything in the drawer, float included"
            }
          />
          {difference && (
            <Typography color={dec(difference).isZero() ? "success.main" : "warning.main"} role="status">
              {dec(difference).isZero()
                ? "The drawer matches."
                : `${dec(difference).isNegative() ? "Short" : "Over"} by ${sgd(dec(difference).abs().toFixed(2))}`}
            </Typography>
          )}
          {error && <Alert severity="error">{error}</Alert>}
          <Button
            variant="contained"
            size="large"
            disabled={!ok || busy}
            onClick={() => setConfirm(true)}
            sx={{ minHeight: 52 }}
          >
            Close session
          </Button>
        </Stack>
      </Paper>
      <Dialog open={confirm} onClose={() => setConfirm(false)}>
        <DialogTitle>Close session {id}?</DialogTitle>
        <DialogContent>
          <DialogContentText>
            Counted {sgd(counted || "0")}
            {expected ? `, expected ${sgd(expected)}` : ""}. The difference is posted to Cash Over/Short and no more
            sales can be made in this session.
          </DialogContentText>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setConfirm(false)}>Cancel</Button>
          <Button variant="contained" onClick={close} disabled={busy}>
            Close session
          </Button>
        </DialogActions>
      </Dialog>
    </Stack>
  );
}

const Line = ({ left, right, strong }: { left: string; right: string; strong?: boolean }) => (
  <Stack direction="row" sx={{ justifyContent: "space-between" }}>
    <Typography sx={{ fontWeight: strong ? 700 : 400 }}>{left}</Typography>
    <Typography sx={{ fontWeight: strong ? 700 : 400 }}>{right}</Typography>
  </Stack>
);

export function ZReport({ z }: { z: PosZReport }) {
  const s = z.session;
  return (
    <Stack spacing={1.5}>
      <Stack direction="row" spacing={1} sx={{ alignItems: "center" }}>
        <Typography variant="h6" component="h3" sx={{ fontWeight: 700, flex: 1 }}>
          Z report · session {s.id}
        </Typography>
        <Button startIcon={<PrintOutlined />} onClick={() => window.print()}>
          Print
        </Button>
        <Button
          component="a"
          href={`/api/documents/pos_session/${s.id}/pdf`}
          target="_blank"
          rel="noopener"
          startIcon={<PictureAsPdfOutlined />}
        >
          PDF
        </Button>
      </Stack>
      <Paper id="pos-print" variant="outlined" sx={{ p: 2 }}>
        <Stack spacing={0.5}>
          <Typography sx={{ fontWeight: 700 }}>{z.workspace_name}</Typography>
          <Typography variant="body2" color="text.secondary">
            {s.location_name} · opened {new Date(String(s.opened_at)).toLocaleString()}
            {s.opened_by_name ? ` by ${s.opened_by_name}` : ""}
            {s.closed_at ? ` · closed ${new Date(String(s.closed_at)).toLocaleString()}` : ""}
          </Typography>
          <Divider sx={{ my: 1 }} />
          <Line left={`Sales (${z.sales_count})`} right={sgd(z.gross_sales)} />
          <Line left="Discounts" right={`−${sgd(z.discounts)}`} />
          <Line left="Net sales (incl. GST)" right={sgd(z.net_sales)} strong />
          <Line left={`Refunds (${z.refunds_count})`} right={`−${sgd(z.refunds)}`} />
          <Divider sx={{ my: 1 }} />
          <Table size="small" aria-label="Sales by method">
            <TableHead>
              <TableRow>
                <TableCell>Method</TableCell>
                <TableCell align="right">Sales</TableCell>
                <TableCell align="right">Refunds</TableCell>
                <TableCell align="right">Net</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {z.by_method.map((m) => (
                <TableRow key={m.method}>
                  <TableCell>{methodLabel(m.method)}</TableCell>
                  <TableCell align="right">{money(m.sales)}</TableCell>
                  <TableCell align="right">{money(m.refunds)}</TableCell>
                  <TableCell align="right">{money(m.net)}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
          <Divider sx={{ my: 1 }} />
          <Line left="GST on sales" right={sgd(z.tax_sales)} />
          <Line left="GST on refunds" right={`−${sgd(z.tax_refunds)}`} />
          <Line left="GST net" right={sgd(z.tax_net)} strong />
          <Divider sx={{ my: 1 }} />
          <Line left="Opening float" right={sgd(s.opening_float)} />
          <Line left="+ Cash taken" right={sgd(z.cash_sales)} />
          <Line left="− Cash refunded" right={sgd(z.cash_refunds)} />
          <Line left="− Change given" right={sgd(z.change_given)} />
          <Line left="Expected cash" right={sgd(z.expected_cash)} strong />
          <Line left="Counted cash" right={s.counted_cash == null ? "—" : sgd(s.counted_cash)} strong />
          <Line left="Difference" right={s.difference == null ? "—" : sgd(s.difference)} strong />
        </Stack>
      </Paper>
    </Stack>
  );
}
