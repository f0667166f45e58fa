import ChevronRightOutlined from "@mui/icons-material/ChevronRightOutlined";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Chip from "@mui/material/Chip";
import CircularProgress from "@mui/material/CircularProgress";
import List from "@mui/material/List";
import ListItemButton from "@mui/material/ListItemButton";
import ListItemText from "@mui/material/ListItemText";
import Paper from "@mui/material/Paper";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import { Link } from "react-router";
import { useOutbox } from "../shell/outbox.ts";
import { pendingRefunds, pendingSales, sgd, useOpenSession, useSessionOrders } from "./data.ts";
import { methodLabel } from "./PayDialog.tsx";

// The session's orders (issue 22), newest first, with the sales and refunds the outbox still holds shown as
// pending; a sale opens to refund it or some of its lines.
export function OrdersPage() {
  const session = useOpenSession();
  const orders = useSessionOrders(session.open?.id ?? null);
  const { pending } = useOutbox();
  const queued = [...pendingSales(pending), ...pendingRefunds(pending)];
  return (
    <Stack spacing={2}>
      <Stack direction="row" spacing={1} sx={{ alignItems: "center" }}>
        <Typography variant="h5" component="h2" sx={{ fontWeight: 700, flex: 1 }}>
          {session.open ? "This session's orders" : "Latest orders"}
        </Typography>
        {orders.isOffline && <Chip size="small" color="warning" label="Offline copy" />}
      </Stack>
      {queued.length > 0 && (
        <Paper variant="outlined">
          <List dense aria-label="Waiting to send">
            {queued.map((e) => (
              <ListItemButton
                key={e.key}
                component={Link}
                to={e.name === "pos_sale" ? `/dashboard/receipt/${e.key}` : "#"}
              >
                <ListItemText primary={e.label} secondary={new Date(e.createdAt).toLocaleTimeString()} />
                <Chip size="small" color="warning" label="Pending" />
              </ListItemButton>
            ))}
          </List>
        </Paper>
      )}
      {orders.isLoading ? (
        <Box sx={{ display: "grid", placeItems: "center", py: 6 }} role="status" aria-label="Loading">
          <CircularProgress />
        </Box>
      ) : orders.error && !orders.data ? (
        <Alert severity="error">{(orders.error as Error).message}</Alert>
      ) : (orders.data ?? []).length === 0 ? (
        <Alert severity="info">No sales yet in this session.</Alert>
      ) : (
        <Paper variant="outlined">
          <List aria-label="Orders">
            {(orders.data ?? []).map((o) => (
              <ListItemButton key={o.id} component={Link} to={`/dashboard/orders/${o.id}`} sx={{ minHeight: 64 }}>
                <ListItemText
                  primary={
                    <Stack direction="row" spacing={1} sx={{ alignItems: "center" }}>
                      <span>{o.number}</span>
                      {o.kind === "refund" && <Chip size="small" color="secondary" label="Refund" />}
                      {o.status === "partly_refunded" && <Chip size="small" label="Part refunded" />}
                      {o.status === "refunded" && <Chip size="small" label="Refunded" />}
                    </Stack>
                  }
                  secondary={`${new Date(o.created_at).toLocaleTimeString()} · ${o.company?.name ?? "Walk-in"} · ${o.payments.map((p) => methodLabel(p.method)).join(" + ")}`}
                />
                <Typography sx={{ fontWeight: 700, mr: 1 }}>{sgd(o.total)}</Typography>
                <ChevronRightOutlined color="action" />
              </ListItemButton>
            ))}
          </List>
        </Paper>
      )}
    </Stack>
  );
}
