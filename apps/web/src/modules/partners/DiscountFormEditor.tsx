import AddOutlined from "@mui/icons-material/AddOutlined";
import DeleteOutline from "@mui/icons-material/DeleteOutlined";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import FormControlLabel from "@mui/material/FormControlLabel";
import IconButton from "@mui/material/IconButton";
import Paper from "@mui/material/Paper";
import Radio from "@mui/material/Radio";
import RadioGroup from "@mui/material/RadioGroup";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { useState } from "react";
import toast from "react-hot-toast";
import { DataError } from "../../platform/data-access/errors.ts";
import type { Row } from "../../platform/data-access/provider.ts";
import { DateField } from "../../platform/fields/DateField.tsx";
import { Picker } from "../documents/Picker.tsx";
import { type DiscountFormRow, useSaveDiscountForm } from "./api.ts";

// Issue 11: a supplier discount request as staff draft it — the supplier and the address the link goes to, % off
// (listed products or a whole category) or a price per listed product, the minimum quantity and validity, a message.
// Saved at once with supplier_discount_form_save; the server's refusals land on their fields.

type Item = { key: number; product: Row | null; price: string };
let keys = 0;
const item = (product: Row | null = null, price = ""): Item => ({ key: ++keys, product, price });
const today = () => new Date().toISOString().slice(0, 10);
const inDays = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);

export function DiscountFormEditor(props: {
  editing: DiscountFormRow | null;
  onSaved(id: number): void;
  onCancel(): void;
}) {
  const e = props.editing;
  const save = useSaveDiscountForm();
  const [company, setCompany] = useState<Row | null>(e?.company ?? null);
  const [email, setEmail] = useState(e?.contact_email ?? "");
  const [kind, setKind] = useState<"percent" | "price">(e?.discount_kind ?? "percent");
  const [percent, setPercent] = useState(e?.discount_percent ? String(Number(e.discount_percent)) : "");
  const [category, setCategory] = useState<Row | null>(e?.category ?? null);
  const [minQty, setMinQty] = useState(e ? String(Number(e.min_qty)) : "1");
  const [from, setFrom] = useState(e?.valid_from ?? today());
  const [to, setTo] = useState(e?.valid_to ?? inDays(90));
  const [message, setMessage] = useState(e?.message ?? "");
  const [items, setItems] = useState<Item[]>(
    e?.items.length ? e.items.map((i) => item(i.product, i.price == null ? "" : String(Number(i.price)))) : [item()],
  );
  const [errors, setErrors] = useState<Record<string, string>>({});

  const change = (key: number, patch: Partial<Item>) =>
    setItems((all) => all.map((i) => (i.key === key ? { ...i, ...patch } : i)));
  const err = (name: string) => errors[`form.${name}`];

  async function submit() {
    const chosen = items.filter((i) => i.product);
    setErrors({});
    try {
      const saved = await save.mutateAsync({
        id: e ? Number(e.id) : undefined,
        form: {
          company_id: company?.id ?? null,
          contact_email: email.trim(),
          discount_kind: kind,
          discount_percent: kind === "percent" && percent.trim() ? percent.trim() : null,
          category_id: kind === "percent" ? (category?.id ?? null) : null,
          min_qty: minQty.trim() || "1",
          valid_from: from,
          valid_to: to,
          message: message.trim() || null,
        },
        items: chosen.map((i) => ({
          product_id: i.product?.id,
          price: kind === "price" ? i.price.trim() || null : null,
        })),
      });
      toast.success("Discount form saved");
      props.onSaved(saved.id);
    } catch (error) {
      if (error instanceof DataError) setErrors(error.fields);
      toast.error(error instanceof Error ? error.message : "The discount form could not be saved");
    }
  }

  return (
    <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 } }}>
      <Stack spacing={2}>
        <Typography variant="h5" component="h1">
          {e ? `Edit discount form ${e.id}` : "New supplier discount form"}
        </Typography>
        <Box sx={{ display: "grid", gap: 2, gridTemplateColumns: { xs: "1fr", sm: "1fr 1fr" } }}>
          <Picker
            resource="company"
            label="Supplier"
            select="id,name,email"
            display="name"
            search={["name"]}
            filters={[{ column: "is_supplier", op: "eq", value: "true" }]}
            value={company}
            required
            error={err("company_id")}
            onChange={(c) => {
              setCompany(c);
              if (c?.email && !email) setEmail(String(c.email));
            }}
          />
          <TextField
            label="Supplier e-mail (gets the link)"
            required
            type="email"
            value={email}
            onChange={(ev) => setEmail(ev.target.value)}
            error={Boolean(err("contact_email"))}
            helperText={err("contact_email")}
          />
        </Box>
        <RadioGroup row value={kind} onChange={(ev) => setKind(ev.target.value as "percent" | "price")}>
          <FormControlLabel value="percent" control={<Radio />} label="% off" />
          <FormControlLabel value="price" control={<Radio />} label="A price per product" />
        </RadioGroup>
        <Box sx={{ display: "grid", gap: 2, gridTemplateColumns: { xs: "1fr 1fr", sm: "repeat(4, 1fr)" } }}>
          {kind === "percent" && (
            <TextField
              label="Discount %"
              required
              value={percent}
              onChange={(ev) => setPercent(ev.target.value)}
              error={Boolean(err("discount_percent"))}
              helperText={err("discount_percent")}
              slotProps={{ htmlInput: { inputMode: "decimal" } }}
            />
          )}
          <TextField
            label="Minimum quantity"
            value={minQty}
            onChange={(ev) => setMinQty(ev.target.value)}
            error={Boolean(err("min_qty"))}
            helperText={err("min_qty") ?? "per order line"}
            slotProps={{ htmlInput: { inputMode: "decimal" } }}
          />
          <DateField
            label="Valid from"
            name="valid_from"
            required
            value={from}
            onChange={setFrom}
            error={Boolean(err("valid_from"))}
            helperText={err("valid_from")}
          />
          <DateField
            label="Valid to"
            name="valid_to"
            required
            value={to}
            onChange={setTo}
            error={Boolean(err("valid_to"))}
            helperText={err("valid_to")}
          />
        </Box>
        {kind === "percent" && (
          <Picker
            resource="category"
            label="Category (every product in it; or list products below)"
            select="id,name"
            display="name"
            search={["name"]}
            value={category}
            error={err("category_id")}
            onChange={setCategory}
          />
        )}
        <Typography variant="subtitle1" component="h2">
          Products
        </Typography>
        {errors.items && <Alert severity="error">{errors.items}</Alert>}
        {items.map((it, n) => (
          <Box
            key={it.key}
            sx={{
              display: "grid",
              gap: 1,
              alignItems: "start",
              gridTemplateColumns: kind === "price" ? { xs: "1fr auto", sm: "minmax(0, 3fr) 1fr auto" } : "1fr auto",
            }}
          >
            <Box sx={{ gridColumn: kind === "price" ? { xs: "1 / -1", sm: "auto" } : "auto" }}>
              <Picker
                resource="product"
                label={`Product ${n + 1}`}
                select="id,name,sku,cost"
                display="name"
                search={["name", "sku"]}
                filters={[{ column: "active", op: "eq", value: "true" }]}
                value={it.product}
                size="small"
                error={errors[`items.${n}.product_id`]}
                onChange={(p) => change(it.key, { product: p })}
                render={(p) => `${String(p.name)}${p.sku ? ` · ${String(p.sku)}` : ""}`}
              />
            </Box>
            {kind === "price" && (
              <TextField
                label="Price"
                size="small"
                required
                value={it.price}
                onChange={(ev) => change(it.key, { price: ev.target.value })}
                error={Boolean(errors[`items.${n}.price`])}
                helperText={errors[`items.${n}.price`]}
                slotProps={{ htmlInput: { inputMode: "decimal", "aria-label": `Price of product ${n + 1}` } }}
              />
            )}
            <IconButton
              aria-label={`Remove product ${n + 1}`}
              onClick={() => setItems((all) => all.filter((i) => i.key !== it.key))}
            >
              <DeleteOutline />
            </IconButton>
          </Box>
        ))}
        <Box>
          <Button startIcon={<AddOutlined />} onClick={() => setItems((all) => [...all, item()])}>
            Add product
          </Button>
        </Box>
        <TextField
          label="Message to the supplier"
          multiline
          minRows={2}
          value={message}
          onChange={(ev) => setMessage(ev.target.value)}
          helperText="Shown on the page the supplier opens"
        />
        <Stack direction="row" spacing={1} sx={{ justifyContent: "flex-end" }}>
          <Button onClick={props.onCancel}>Cancel</Button>
          <Button variant="contained" onClick={submit} loading={save.isPending}>
            Save draft
          </Button>
        </Stack>
      </Stack>
    </Paper>
  );
}
