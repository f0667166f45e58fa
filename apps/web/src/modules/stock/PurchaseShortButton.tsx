import ShoppingCartOutlined from "@mui/icons-material/ShoppingCartOutlined";
import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import Stack from "@mui/material/Stack";
import { useState } from "react";
import toast from "react-hot-toast";
import { DataError } from "../../platform/data-access/errors.ts";
import type { Row } from "../../platform/data-access/provider.ts";
import { useDecision } from "../../platform/resource/access.ts";
import { Picker } from "../documents/Picker.tsx";
import { DRAFT_PURCHASE_ORDERS, type DraftResult, usePurchaseShort } from "./api.ts";
import { DraftedList } from "./DraftedList.tsx";

// Issue 11 "Create a PO from sales-order lines that lack stock": on a submitted sales order still to deliver, for a
// buyer (purchase_order.create), drafts purchase orders for what stock and open purchase orders do not cover
// (purchase_short). A product without a reorder level's supplier or location makes the server ask; the dialog then
// asks the buyer for them and tries again.

const STILL_TO_DELIVER = ["to_deliver_and_bill", "to_deliver", "on_hold"];

export default function PurchaseShortButton({ doc, status }: { doc: Row; status: string }) {
  const may = useDecision(DRAFT_PURCHASE_ORDERS).allowed;
  const purchase = usePurchaseShort();
  const [asking, setAsking] = useState<{ message: string } | null>(null);
  const [supplier, setSupplier] = useState<Row | null>(null);
  const [location, setLocation] = useState<Row | null>(null);
  const [made, setMade] = useState<DraftResult | null>(null);
  if (!may || !STILL_TO_DELIVER.includes(status)) return null;

  async function go(withChoices: boolean) {
    try {
      const res = await purchase.mutateAsync({
        sales_order_id: Number(doc.id),
        ...(withChoices
          ? { supplier_id: supplier ? Number(supplier.id) : null, location_id: location ? Number(location.id) : null }
          : {}),
      });
      setAsking(null);
      setMade(res);
    } catch (err) {
      if (err instanceof DataError && err.status === 422 && (err.fields.supplier_id || err.fields.location_id)) {
        setAsking({ message: err.message });
        return;
      }
      toast.error(err instanceof Error ? err.message : "The purchase orders could not be drafted");
    }
  }

  return (
    <>
      <Button
        variant="outlined"
        startIcon={<ShoppingCartOutlined />}
        loading={purchase.isPending && !asking}
        onClick={() => go(false)}
      >
        Purchase what is short
      </Button>
      <Dialog open={asking !== null} onClose={() => setAsking(null)} fullWidth maxWidth="xs">
        <DialogTitle>Purchase what is short</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            <Alert severity="info">{asking?.message}</Alert>
            <Picker
              resource="company"
              label="Supplier"
              select="id,name"
              display="name"
              search={["name"]}
              filters={[{ column: "is_supplier", op: "is", value: "true" }]}
              value={supplier}
              onChange={setSupplier}
              testId="short-supplier"
            />
            <Picker
              resource="location"
              label="Deliver to"
              select="id,name"
              display="name"
              search={["name", "code"]}
              value={location}
              onChange={setLocation}
              testId="short-location"
            />
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setAsking(null)}>Cancel</Button>
          <Button variant="contained" loading={purchase.isPending} onClick={() => go(true)}>
            Draft purchase orders
          </Button>
        </DialogActions>
      </Dialog>
      <Dialog open={made !== null} onClose={() => setMade(null)} fullWidth maxWidth="sm">
        <DialogTitle>Purchase orders drafted</DialogTitle>
        <DialogContent>
          {made && <DraftedList result={made} />}
          {made?.short?.length ? (
            <Alert severity="info" sx={{ mt: 2 }}>
              Short: {made.short.map((s) => `${s.product} ${s.qty}`).join(", ")}
            </Alert>
          ) : null}
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setMade(null)}>Close</Button>
        </DialogActions>
      </Dialog>
    </>
  );
}
