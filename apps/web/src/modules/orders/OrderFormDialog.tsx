import AddOutlined from "@mui/icons-material/AddOutlined";
import DeleteOutline from "@mui/icons-material/DeleteOutlined";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Checkbox from "@mui/material/Checkbox";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import FormControlLabel from "@mui/material/FormControlLabel";
import IconButton from "@mui/material/IconButton";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import useMediaQuery from "@mui/material/useMediaQuery";
import { useState } from "react";
import { DataError } from "../../platform/data-access/errors.ts";
import type { Row } from "../../platform/data-access/provider.ts";
import { Picker } from "../documents/Picker.tsx";
import type { OrderFormRow } from "./api.ts";

// Issue 10 §2: an order form's title, introduction, customer (or anyone), whether the link is open, and its
// products with the price the form shows and the least a customer may order. Saved at once (order_form_save).

type Item = { key: number; product: Row | null; price: string; min_qty: string };
export type OrderFormValues = { form: Record<string, unknown>; items: Array<Record<string, unknown>> };

let keys = 0;
const itemFrom = (product: Row | null, price: string, min: string): Item => ({
  key: ++keys,
  product,
  price,
  min_qty: min,
});

export function OrderFormDialog(props: {
  editing: OrderFormRow | null; // null: a new form
  onClose(): void;
  onSave(values: OrderFormValues): Promise<void>;
}) {
  const e = props.editing;
  const fullScreen = useMediaQuery("(max-width:600px)");
  const [title, setTitle] = useState(e?.title ?? "");
  const [intro, setIntro] = useState(e?.intro ?? "");
  const [company, setCompany] = useState<Row | null>((e?.company as Row | null) ?? null);
  const [active, setActive] = useState(e?.active ?? true);
  const [items, setItems] = useState<Item[]>(
    e?.items.length
      ? e.items.map((i) =>
          itemFrom((i.product as Row | null) ?? null, String(Number(i.price)), String(Number(i.min_qty))),
        )
      : [itemFrom(null, "", "1")],
  );
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);

  const change = (key: number, patch: Partial<Item>) =>
    setItems((all) => all.map((i) => (i.key === key ? { ...i, ...patch } : i)));

  async function save() {
    const chosen = items.filter((i) => i.product);
    const local: Record<string, string> = {};
    if (!title.trim()) local["form.title"] = "Give the form a title";
    if (chosen.length === 0) local.items = "Add at least one product";
    setErrors(local);
    if (Object.keys(local).length) return;
    setBusy(true);
    try {
      await props.onSave({
        form: { title: title.trim(), intro: intro.trim() || null, company_id: company?.id ?? null, active },
        items: chosen.map((i) => ({ product_id: i.product?.id, price: i.price, min_qty: i.min_qty || "1" })),
      });
    } catch (err) {
      if (err instanceof DataError) setErrors(err.fields);
    } finally {
      setBusy(false);
    }
  }

  const itemError = (n: number, field: string) => errors[`items.${n}.${field}`];
  return (
    <Dialog open onClose={props.onClose} fullWidth maxWidth="md" fullScreen={fullScreen}>
      <DialogTitle>{e ? `Edit ${e.title}` : "New order form"}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          <TextField
            label="Title"
            required
            value={title}
            onChange={(ev) => setTitle(ev.target.value)}
            error={Boolean(errors["form.title"])}
            helperText={errors["form.title"]}
            autoFocus
          />
          <TextField
            label="Introduction"
            multiline
            minRows={2}
            value={intro}
            onChange={(ev) => setIntro(ev.target.value)}
            helperText="Shown above the products on the public form"
          />
          <Picker
            resource="company"
            label="Customer (empty: anyone with the link)"
            select="id,name"
            display="name"
            search={["name"]}
            value={company}
            onChange={setCompany}
          />
          <FormControlLabel
            control={<Checkbox checked={active} onChange={(ev) => setActive(ev.target.checked)} />}
            label="The link is open (a closed link answers that the form is no longer available)"
          />
          <Typography variant="subtitle1" component="h3">
            Products
          </Typography>
          {errors.items && <Alert severity="error">{errors.items}</Alert>}
          {items.map((item, n) => (
            <Box
              key={item.key}
              sx={{
                display: "grid",
                gap: 1,
                gridTemplateColumns: { xs: "1fr 1fr auto", sm: "minmax(0, 3fr) 1fr 1fr auto" },
                alignItems: "start",
              }}
            >
              <Box sx={{ gridColumn: { xs: "1 / -1", sm: "auto" } }}>
                <Picker
                  resource="product"
                  label={`Product ${n + 1}`}
                  select="id,name,sku,price"
                  display="name"
                  search={["name", "sku"]}
                  filters={[{ column: "active", op: "eq", value: "true" }]}
                  value={item.product}
                  size="small"
                  error={itemError(n, "product_id")}
                  onChange={(p) =>
                    change(item.key, { product: p, price: item.price || (p ? String(Number(p.price ?? 0)) : "") })
                  }
                  render={(p) => `${String(p.name)}${p.sku ? ` · ${String(p.sku)}` : ""}`}
                />
              </Box>
              <TextField
                label="Price"
                size="small"
                value={item.price}
                onChange={(ev) => change(item.key, { price: ev.target.value })}
                error={Boolean(itemError(n, "price"))}
                helperText={itemError(n, "price")}
                slotProps={{ htmlInput: { inputMode: "decimal" } }}
              />
              <TextField
                label="Minimum"
                size="small"
                value={item.min_qty}
                onChange={(ev) => change(item.key, { min_qty: ev.target.value })}
                error={Boolean(itemError(n, "min_qty"))}
                helperText={itemError(n, "min_qty")}
                slotProps={{ htmlInput: { inputMode: "decimal" } }}
              />
              <IconButton
                aria-label={`Remove product ${n + 1}`}
                onClick={() => setItems((all) => all.filter((i) => i.key !== item.key))}
              >
                <DeleteOutline />
              </IconButton>
            </Box>
          ))}
          <Box>
            <Button startIcon={<AddOutlined />} onClick={() => setItems((all) => [...all, itemFrom(null, "", "1")])}>
              Add product
            </Button>
          </Box>
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={props.onClose}>Cancel</Button>
        <Button variant="contained" onClick={save} loading={busy}>
          Save
        </Button>
      </DialogActions>
    </Dialog>
  );
}
