import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import Paper from "@mui/material/Paper";
import Rating from "@mui/material/Rating";
import Stack from "@mui/material/Stack";
import Tab from "@mui/material/Tab";
import Tabs from "@mui/material/Tabs";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { decide } from "@workmetrics/domain";
import type { MarketplaceOrderView } from "@workmetrics/domain/commands/marketplace";
import { MARKETPLACE_ACCESS } from "@workmetrics/domain/resources/marketplace";
import { useState } from "react";
import toast from "react-hot-toast";
import { Link as RouterLink, useNavigate } from "react-router";
import { formatDateTime } from "../../platform/fields/format.ts";
import { useDashboardBase } from "../../platform/resource/paths.ts";
import { useViewer } from "../../platform/session/viewer.tsx";
import { ConfirmDialog } from "../../platform/ui/ConfirmDialog.tsx";
import { usePageTitle } from "../../platform/ui/usePageTitle.ts";
import { useMarketplaceCommand, useMarketplaceLive, useOrders } from "./api.ts";
import { Empty, Failed, Loading, money, Progress, StatusChip, why } from "./ui.tsx";

// Issue 23 "/dashboard/marketplace-sales-order": the workspace's marketplace orders, bought and sold. The seller
// accepts (its sales order and the buyer's purchase order are made together) or rejects with a reason; the buyer
// cancels one not yet accepted, and rates the seller once it is fulfilled. Each order shows both sides' progress
// as their own documents are submitted; changes arrive live.

export default function OrdersPage() {
  usePageTitle("Marketplace orders");
  const base = useDashboardBase();
  const orders = useOrders();
  useMarketplaceLive();
  const [side, setSide] = useState<"all" | "buyer" | "seller">("all");
  const rows = (orders.data ?? []).filter((o) => side === "all" || o.side === side);
  return (
    <Stack spacing={2}>
      <Stack direction="row" sx={{ alignItems: "center", gap: 1, flexWrap: "wrap" }}>
        <Typography variant="h5" component="h1" sx={{ flex: 1 }}>
          Marketplace orders
        </Typography>
        <Button component={RouterLink} to={`${base}/marketplace`} variant="outlined" size="small">
          Browse the marketplace
        </Button>
      </Stack>
      <Tabs value={side} onChange={(_, v) => setSide(v)} aria-label="Which orders">
        <Tab value="all" label="All" />
        <Tab value="buyer" label="Bought" />
        <Tab value="seller" label="Sold" />
      </Tabs>
      {orders.isPending ? (
        <Loading label="Loading orders" />
      ) : orders.isError ? (
        <Failed error={orders.error} />
      ) : rows.length === 0 ? (
        <Empty>No marketplace orders yet.</Empty>
      ) : (
        rows.map((o) => <OrderCard key={o.id} order={o} />)
      )}
    </Stack>
  );
}

function OrderCard({ order: o }: { order: MarketplaceOrderView }) {
  const { member } = useViewer();
  const navigate = useNavigate();
  const base = useDashboardBase();
  const accept = useMarketplaceCommand("marketplace_order_accept");
  const reject = useMarketplaceCommand("marketplace_order_reject");
  const cancel = useMarketplaceCommand("marketplace_order_cancel");
  const rate = useMarketplaceCommand("marketplace_order_rate");
  const send = useMarketplaceCommand("marketplace_message_send");
  const [rejecting, setRejecting] = useState(false);
  const [cancelling, setCancelling] = useState(false);
  const [reason, setReason] = useState("");
  const [stars, setStars] = useState<number | null>(null);
  const [note, setNote] = useState("");
  const mayDecide = decide(member, MARKETPLACE_ACCESS.decide).allowed;
  const mayBuy = decide(member, MARKETPLACE_ACCESS.buy).allowed;
  const mayChat = decide(member, MARKETPLACE_ACCESS.chat).allowed;
  const seller = o.side === "seller";
  const run = async (p: Promise<unknown>, done: string) => {
    try {
      await p;
      toast.success(done);
    } catch (err) {
      toast.error(why(err));
    }
  };
  const [writing, setWriting] = useState(false);
  const [message, setMessage] = useState("");
  const chat = () => {
    if (o.thread_id) navigate(`${base}/marketplace-chat?thread=${o.thread_id}`);
    else setWriting(true);
  };
  const startChat = async () => {
    try {
      const m = await send.mutateAsync({ marketplace_sales_order_id: Number(o.id), body: message });
      setWriting(false);
      navigate(`${base}/marketplace-chat?thread=${m.thread_id}`);
    } catch (err) {
      toast.error(why(err));
    }
  };
  return (
    <Paper variant="outlined" sx={{ p: 2 }} data-order={o.number} component="article" aria-label={`Order ${o.number}`}>
      <Stack direction={{ xs: "column", sm: "row" }} sx={{ gap: 1, alignItems: { sm: "center" } }}>
        <Stack sx={{ flex: 1 }}>
          <Typography variant="subtitle1" sx={{ fontWeight: 600 }}>
            {o.number} · {seller ? `sold to ${o.buyer_name}` : `bought from ${o.seller_name}`}
          </Typography>
          <Typography variant="body2" color="text.secondary">
            Placed {formatDateTime(o.placed_at)} · {money(o.total)} incl. GST
          </Typography>
        </Stack>
        <Box sx={{ alignSelf: { xs: "flex-start", sm: "center" } }}>
          <StatusChip status={o.status} />
        </Box>
      </Stack>
      <Stack component="ul" sx={{ pl: 2, my: 1 }}>
        {o.lines.map((l) => (
          <Typography component="li" variant="body2" key={l.id}>
            {Number(l.qty)} × {l.title} at {money(l.unit_price)} = {money(l.line_total)}
          </Typography>
        ))}
      </Stack>
      {o.note && (
        <Typography variant="body2" sx={{ fontStyle: "italic" }}>
          “{o.note}”
        </Typography>
      )}
      {o.reject_reason && (
        <Typography variant="body2" color="error">
          {o.status === "rejected" ? "Rejected" : "Cancelled"}: {o.reject_reason}
        </Typography>
      )}
      {(o.status === "accepted" || o.status === "fulfilled") && (
        <Stack direction="row" sx={{ gap: 2, flexWrap: "wrap", my: 1 }}>
          <Progress label="Delivered" value={o.delivered} />
          <Progress label="Invoiced" value={o.invoiced} />
          <Progress label="Received" value={o.received} />
          <Progress label="Paid" value={o.paid} />
        </Stack>
      )}
      {o.rating != null && (
        <Typography variant="body2">
          Rated {o.rating} of 5{o.rating_note ? `: “${o.rating_note}”` : ""}
        </Typography>
      )}
      <Stack direction="row" sx={{ gap: 1, flexWrap: "wrap", mt: 1 }}>
        {seller && o.status === "placed" && mayDecide && (
          <>
            <Button
              variant="contained"
              size="small"
              disabled={accept.isPending}
              onClick={() =>
                run(accept.mutateAsync({ id: Number(o.id) }), `${o.number} accepted: your sales order is made`)
              }
            >
              Accept
            </Button>
            <Button size="small" color="error" onClick={() => setRejecting(true)}>
              Reject
            </Button>
          </>
        )}
        {!seller && o.status === "placed" && mayBuy && (
          <Button size="small" color="error" onClick={() => setCancelling(true)}>
            Cancel order
          </Button>
        )}
        {seller && o.sales_order_id && (
          <Button size="small" component={RouterLink} to={`${base}/sales-orders/${o.sales_order_id}`}>
            Sales order
          </Button>
        )}
        {!seller && o.purchase_order_id && (
          <Button size="small" component={RouterLink} to={`${base}/purchase-orders/${o.purchase_order_id}`}>
            Purchase order
          </Button>
        )}
        {mayChat && (
          <Button size="small" onClick={chat}>
            {o.thread_id ? "Open chat" : "Message"}
          </Button>
        )}
      </Stack>
      {!seller && o.status === "fulfilled" && o.rating == null && mayBuy && (
        <Stack direction={{ xs: "column", sm: "row" }} sx={{ gap: 1, mt: 1, alignItems: { sm: "center" } }}>
          <Typography variant="body2">Rate {o.seller_name}:</Typography>
          <Rating value={stars} onChange={(_, v) => setStars(v)} aria-label="Rating" />
          <TextField
            size="small"
            label="Note"
            value={note}
            onChange={(e) => setNote(e.target.value)}
            sx={{ flex: 1 }}
          />
          <Button
            size="small"
            variant="contained"
            disabled={!stars || rate.isPending}
            onClick={() =>
              run(
                rate.mutateAsync({ id: Number(o.id), rating: stars as number, note: note.trim() || null }),
                "Thank you for rating",
              )
            }
          >
            Rate
          </Button>
        </Stack>
      )}
      <Dialog
        open={rejecting}
        onClose={() => setRejecting(false)}
        fullWidth
        maxWidth="sm"
        aria-labelledby={`rej-${o.id}`}
      >
        <DialogTitle id={`rej-${o.id}`}>Reject {o.number}</DialogTitle>
        <DialogContent>
          <TextField
            autoFocus
            fullWidth
            multiline
            minRows={2}
            label="Reason (the buyer reads it)"
            value={reason}
            onChange={(e) => setReason(e.target.value)}
            sx={{ mt: 1 }}
          />
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setRejecting(false)}>Keep it</Button>
          <Button
            color="error"
            variant="contained"
            disabled={!reason.trim() || reject.isPending}
            onClick={async () => {
              await run(reject.mutateAsync({ id: Number(o.id), reason }), `${o.number} rejected`);
              setRejecting(false);
            }}
          >
            Reject order
          </Button>
        </DialogActions>
      </Dialog>
      <Dialog open={writing} onClose={() => setWriting(false)} fullWidth maxWidth="sm" aria-labelledby={`msg-${o.id}`}>
        <DialogTitle id={`msg-${o.id}`}>
          A message to {seller ? o.buyer_name : o.seller_name} about {o.number}
        </DialogTitle>
        <DialogContent>
          <TextField
            autoFocus
            fullWidth
            multiline
            minRows={3}
            label="Message"
            value={message}
            onChange={(e) => setMessage(e.target.value)}
            sx={{ mt: 1 }}
          />
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setWriting(false)}>Cancel</Button>
          <Button variant="contained" disabled={!message.trim() || send.isPending} onClick={startChat}>
            Send
          </Button>
        </DialogActions>
      </Dialog>
      <ConfirmDialog
        open={cancelling}
        title={`Cancel ${o.number}?`}
        body={`${o.seller_name} will see it cancelled. This cannot be undone.`}
        confirmLabel="Cancel order"
        dismissLabel="Keep it"
        destructive
        onCancel={() => setCancelling(false)}
        onConfirm={async () => {
          await run(cancel.mutateAsync({ id: Number(o.id) }), `${o.number} cancelled`);
          setCancelling(false);
        }}
      />
    </Paper>
  );
}
