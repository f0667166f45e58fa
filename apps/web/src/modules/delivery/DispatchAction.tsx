import LocalShippingOutlined from "@mui/icons-material/LocalShippingOutlined";
import Button from "@mui/material/Button";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import Paper from "@mui/material/Paper";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import { useQueryClient } from "@tanstack/react-query";
import { ROLE } from "@workmetrics/domain";
import { useState } from "react";
import toast from "react-hot-toast";
import { useSession } from "../../app/session/SessionProvider.tsx";
import { callCommand } from "../../platform/commands.ts";
import type { Row } from "../../platform/data-access/provider.ts";
import { DateField } from "../../platform/fields/DateField.tsx";
import { useDecision } from "../../platform/resource/access.ts";
import { Picker } from "../documents/Picker.tsx";

const today = () => {
  const d = new Date();
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-${String(d.getDate()).padStart(2, "0")}`;
};

// Dispatch (issue 22): the selected delivery orders to one driver for one date, in the order selected, after the
// stops the driver already has that day (delivery_dispatch). Only drivers are offered, as the server allows.
export default function DispatchAction({ ids, onDone }: { ids: number[]; onDone(): void }) {
  const { client } = useSession();
  const qc = useQueryClient();
  const may = useDecision({
    audience: "member",
    permission: "delivery_order.update",
    feature: "erp",
    subject: "Delivery orders",
    does: "dispatch delivery orders",
  });
  const [open, setOpen] = useState(false);
  const [driver, setDriver] = useState<Row | null>(null);
  const [date, setDate] = useState(today());
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  if (!may.allowed) return null;

  const submit = async () => {
    if (!client || !driver) {
      setError("Choose the driver");
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const res = await callCommand(client, "delivery_dispatch", { ids, driver_id: String(driver.id), date });
      toast.success(
        `${res.dispatched} delivery order${res.dispatched === 1 ? "" : "s"} assigned to ${res.driver_name} for ${res.date}`,
      );
      await qc.invalidateQueries({ queryKey: ["delivery_order"] });
      setOpen(false);
      onDone();
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Paper variant="outlined" sx={{ px: 2, py: 1 }}>
      <Stack direction="row" spacing={2} sx={{ alignItems: "center", flexWrap: "wrap" }}>
        <Typography variant="body2">{ids.length} selected</Typography>
        <Button variant="contained" startIcon={<LocalShippingOutlined />} onClick={() => setOpen(true)}>
          Assign driver and date
        </Button>
      </Stack>
      <Dialog open={open} onClose={() => !busy && setOpen(false)} fullWidth maxWidth="xs">
        <DialogTitle>Assign driver and date</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            <Typography variant="body2" color="text.secondary">
              {ids.length} delivery order{ids.length === 1 ? "" : "s"}, in the order selected, after the driver's other
              stops that day. A failed delivery goes out again.
            </Typography>
            <Picker
              resource="user"
              label="Driver"
              select="id,name,email"
              display="name"
              search={["name", "email"]}
              filters={[
                { column: "role_id", op: "eq", value: String(ROLE.Driver) },
                { column: "active", op: "eq", value: "true" },
              ]}
              required
              autoFocus
              value={driver}
              onChange={setDriver}
              testId="dispatch-driver"
            />
            <DateField label="Date" required value={date} onChange={setDate} testId="dispatch-date" />
            {error && (
              <Typography color="error" variant="body2" role="alert">
                {error}
              </Typography>
            )}
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setOpen(false)} disabled={busy}>
            Cancel
          </Button>
          <Button variant="contained" onClick={submit} disabled={busy || !driver || !date}>
            Assign
          </Button>
        </DialogActions>
      </Dialog>
    </Paper>
  );
}
