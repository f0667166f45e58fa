import ArrowBack from "@mui/icons-material/ArrowBack";
import PhotoCameraOutlined from "@mui/icons-material/PhotoCameraOutlined";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Card from "@mui/material/Card";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { dec } from "@workmetrics/domain/documents/decimal";
import { useMemo, useRef, useState } from "react";
import toast from "react-hot-toast";
import { Link, useNavigate, useParams } from "react-router";
import { runOrQueue } from "../shell/outbox.ts";
import { ScanField } from "../shell/ScanField.tsx";
import { qtyText, useReceiptsDue } from "./data.ts";
import { compressPhoto, Empty, LoadError, Loading, OfflineNote, PageHead, QtyStepper } from "./widgets.tsx";

// Receiving one purchase order (issue 22): scan a product (or tap +) to count what arrived, per line; more than is
// left on a line warns and asks why; a photo of the supplier's delivery order; Receive makes the supplier delivery
// order as the back office does — through the outbox, so it works with the network gone and lands once.
export function ReceiveOrderPage() {
  const { id } = useParams();
  const navigate = useNavigate();
  const due = useReceiptsDue();
  const order = due.orders.find((o) => o.id === Number(id));
  const [qty, setQty] = useState<Record<number, string>>({});
  const [reason, setReason] = useState("");
  const [doNumber, setDoNumber] = useState("");
  const [photo, setPhoto] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const fileRef = useRef<HTMLInputElement>(null);

  const lines = order?.lines ?? [];
  const over = useMemo(
    () => lines.filter((l) => qty[l.line_id] && dec(qty[l.line_id]).greaterThan(dec(l.remaining))),
    [lines, qty],
  );
  const entered = lines.filter((l) => qty[l.line_id] && dec(qty[l.line_id]).greaterThan(0));

  if (due.isPending) return <Loading label="Loading the order" />;
  if (due.error && !due.data) return <LoadError error={due.error} retry={() => void due.refetch()} />;
  if (!order) {
    return (
      <Box>
        <Back />
        <Empty title="Nothing left to receive">This order is received in full, or is no longer open.</Empty>
      </Box>
    );
  }

  const add = (productId: number) => {
    const line =
      lines.find((l) => l.product_id === productId && dec(qty[l.line_id] || "0").lessThan(dec(l.remaining))) ??
      lines.find((l) => l.product_id === productId);
    if (!line) {
      toast.error("That product is not on this order");
      return;
    }
    setQty((q) => ({
      ...q,
      [line.line_id]: dec(q[line.line_id] || "0")
        .plus(1)
        .toString(),
    }));
  };

  const takePhoto = async (file: File | undefined) => {
    if (!file) return;
    try {
      setPhoto(await compressPhoto(file));
    } catch (err) {
      toast.error(err instanceof Error ? err.message : "The photo could not be read");
    }
  };

  const receive = async () => {
    setProblem(null);
    if (entered.length === 0) {
      setProblem("Enter the quantity received of at least one line");
      return;
    }
    if (over.length > 0 && !reason.trim()) {
      setProblem("Say why more than ordered arrived");
      return;
    }
    setBusy(true);
    try {
      const res = await runOrQueue(
        "warehouse_receive",
        {
          purchase_order_id: order.id,
          lines: entered.map((l) => ({ line_id: l.line_id, qty: qty[l.line_id] })),
          ...(over.length > 0 ? { over_reason: reason.trim() } : {}),
          ...(doNumber.trim() ? { supplier_do_number: doNumber.trim() } : {}),
          ...(photo ? { photo } : {}),
        },
        { label: `Receive ${entered.length} line${entered.length === 1 ? "" : "s"} of ${order.number ?? "an order"}` },
      );
      if (res.status === "refused") {
        setProblem(res.message);
        return;
      }
      if (res.status === "done") {
        toast.success(`Received — ${res.result.number ?? "supplier delivery order"}`);
        void due.refetch();
      } else {
        toast.success("Saved on this phone — it is sent when the network is back");
      }
      navigate("/dashboard");
    } finally {
      setBusy(false);
    }
  };

  return (
    <Box sx={{ pb: 2 }}>
      <Back />
      <PageHead title={order.number ?? "Purchase order"} sub={order.supplier} />
      <OfflineNote isOffline={due.isOffline} savedAt={due.savedAt} what="the order" />
      {order.pending.length > 0 && (
        <Alert severity="info" sx={{ mb: 1.5 }}>
          {order.pending.length} receipt{order.pending.length === 1 ? "" : "s"} of this order wait to be sent; what is
          left below already counts {order.pending.length === 1 ? "it" : "them"}.
        </Alert>
      )}
      <ScanField
        label="Scan a product"
        placeholder="Scan or search a product on this order"
        onProduct={(p) => add(p.id)}
      />
      <Stack spacing={1} sx={{ mt: 1.5 }}>
        {lines.map((l) => {
          const isOver = over.includes(l);
          return (
            <Card key={l.line_id} variant="outlined" sx={{ p: 1.5 }} data-testid={`receive-line-${l.line_no}`}>
              <Typography sx={{ fontWeight: 600 }}>{l.description}</Typography>
              <Typography variant="body2" color="text.secondary">
                {l.sku ? `${l.sku} · ` : ""}
                {qtyText(l.remaining)} of {qtyText(l.ordered)} {l.unit ?? ""} left to receive
              </Typography>
              <Stack direction="row" sx={{ alignItems: "center", justifyContent: "space-between", mt: 1 }}>
                <Typography variant="body2">Received now</Typography>
                <QtyStepper
                  label={`Received of ${l.description}`}
                  value={qty[l.line_id] ?? ""}
                  onChange={(v) => setQty((q) => ({ ...q, [l.line_id]: v }))}
                  error={isOver}
                />
              </Stack>
              {isOver && (
                <Typography variant="body2" color="warning.main" sx={{ mt: 0.5 }}>
                  More than the {qtyText(l.remaining)} ordered and not yet received
                </Typography>
              )}
            </Card>
          );
        })}
      </Stack>
      {over.length > 0 && (
        <Alert severity="warning" sx={{ mt: 1.5 }}>
          <Typography variant="body2" sx={{ mb: 1 }}>
            More than ordered on {over.length} line{over.length === 1 ? "" : "s"}. Say why before receiving.
          </Typography>
          <TextField
            fullWidth
            required
            label="Reason for receiving more"
            value={reason}
            onChange={(e) => setReason(e.target.value)}
          />
        </Alert>
      )}
      <TextField
        fullWidth
        label="Supplier's delivery order number"
        value={doNumber}
        onChange={(e) => setDoNumber(e.target.value)}
        sx={{ mt: 1.5 }}
      />
      <input
        ref={fileRef}
        type="file"
        accept="image/*"
        capture="environment"
        hidden
        data-testid="receipt-photo"
        onChange={(e) => void takePhoto(e.target.files?.[0])}
      />
      <Stack direction="row" spacing={1.5} sx={{ alignItems: "center", mt: 1.5 }}>
        <Button
          variant="outlined"
          size="large"
          startIcon={<PhotoCameraOutlined />}
          onClick={() => fileRef.current?.click()}
          sx={{ minHeight: 48 }}
        >
          {photo ? "Retake photo" : "Photo of their delivery order"}
        </Button>
        {photo && (
          <Box
            component="img"
            src={photo}
            alt="The supplier's delivery order"
            sx={{ width: 56, height: 56, objectFit: "cover", borderRadius: 1, border: 1, borderColor: "divider" }}
          />
        )}
      </Stack>
      {problem && (
        <Alert severity="error" sx={{ mt: 1.5 }}>
          {problem}
        </Alert>
      )}
      <Button
        fullWidth
        variant="contained"
        size="large"
        onClick={() => void receive()}
        disabled={busy}
        sx={{ mt: 2, minHeight: 56, fontSize: 18 }}
      >
        {busy
          ? "Receiving…"
          : `Receive ${entered.length || ""} line${entered.length === 1 ? "" : "s"}`.replace("  ", " ")}
      </Button>
    </Box>
  );
}

function Back() {
  return (
    <Button component={Link} to="/dashboard" startIcon={<ArrowBack />} sx={{ mb: 1, minHeight: 44 }}>
      Orders
    </Button>
  );
}
