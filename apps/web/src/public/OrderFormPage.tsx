import { zodResolver } from "@hookform/resolvers/zod";
import CheckCircleOutline from "@mui/icons-material/CheckCircleOutlineOutlined";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Divider from "@mui/material/Divider";
import Paper from "@mui/material/Paper";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { Dec } from "@workmetrics/domain/documents/decimal";
import { localeFormat, workspaceLocale } from "@workmetrics/domain/locale";
import {
  belowMinimum,
  OrderSubmission,
  type OrderSubmissionInput,
  type PublicOrderForm,
  type SubmittedOrder,
} from "@workmetrics/domain/schemas/order-submission";
import { useMemo, useState } from "react";
import { type FieldErrors, type FieldPath, type Resolver, useForm, useWatch } from "react-hook-form";
import toast from "react-hot-toast";
import { useParams } from "react-router";
import { ApiError, apiFetch } from "../platform/api.ts";
import { textField } from "../platform/form.ts";
import { usePageTitle } from "../platform/ui/usePageTitle.ts";
import { estimateOf, notANumber, validQty } from "./orderQuantity.ts";
import { PublicFormFrame, usePublicLoad } from "./PublicFormFrame.tsx";

// Issue 10 §2: the page a workspace's customers open from an order form link (/auth/order-forms/:token, a guest
// path): the workspace's name and logo, its products at the form's prices with a quantity each (minimums kept),
// the customer's details; sending it makes a Received order in the workspace. Validated with the same schema the
// server uses; the server's per-field refusals land on the same fields.

type Form = OrderSubmissionInput;
type Product = PublicOrderForm["products"][number];

// Issue 21 §1: in the workspace's locale (its currency's; en-SG for SGD).
const money = (amount: string, currency: string) =>
  localeFormat(workspaceLocale({ baseCurrency: currency })).money(new Dec(amount).toFixed(2), currency);
const qtyText = (qty: string) => new Dec(qty).toString();

export default function OrderFormPage() {
  const { token = "" } = useParams();
  const { loaded: form, gone } = usePublicLoad(
    token,
    (signal) => apiFetch<PublicOrderForm>(`/api/public/order-forms/${encodeURIComponent(token)}`, { signal }),
    "This order form could not be loaded. Please try again.",
  );
  const [sent, setSent] = useState<SubmittedOrder | null>(null);
  usePageTitle(form ? `${form.title} — ${form.workspace.name}` : "Order form");

  return (
    <PublicFormFrame
      gone={gone}
      loaded={form}
      workspace={(form) => form.workspace}
      loadingLabel="Loading the order form"
    >
      {(form) => (
        <>{sent ? <Thanks order={sent} form={form} /> : <OrderForm token={token} form={form} onSent={setSent} />}</>
      )}
    </PublicFormFrame>
  );
}

function Thanks({ order, form }: { order: SubmittedOrder; form: PublicOrderForm }) {
  return (
    <Paper variant="outlined" sx={{ p: { xs: 3, sm: 5 }, textAlign: "center" }} role="status">
      <CheckCircleOutline color="success" sx={{ fontSize: 56 }} />
      <Typography variant="h5" component="h1" gutterBottom>
        Thank you — order {order.number} is in
      </Typography>
      <Typography color="text.secondary">
        {form.workspace.name} has received your order of {money(order.total, order.currency)} (GST included) and will
        confirm it with you shortly.
      </Typography>
    </Paper>
  );
}

function OrderForm(props: { token: string; form: PublicOrderForm; onSent(order: SubmittedOrder): void }) {
  const { form } = props;
  // The shared schema, then each product's minimum, so every problem shows at once.
  const resolver = useMemo<Resolver<Form>>(() => {
    const base = zodResolver(OrderSubmission) as unknown as Resolver<Form>;
    return async (values, context, options) => {
      const result = await base(values, context, options);
      const short = form.products.flatMap((p, i) => {
        const q = String(values.items?.[i]?.qty ?? "").trim();
        const letters = notANumber(q);
        if (letters) return [{ i, message: letters }];
        return validQty(q) && belowMinimum(q, p.min_qty)
          ? [{ i, message: `The minimum for ${p.name} is ${qtyText(p.min_qty)}` }]
          : [];
      });
      if (short.length === 0) return result;
      const errors = { ...result.errors } as FieldErrors<Form>;
      // The schema's item errors may be an array or an object with a root message: keep both, by index.
      const items: unknown[] = Object.assign([], errors.items ?? {});
      for (const { i, message } of short) items[i] = { qty: { type: "min", message } };
      (errors as Record<string, unknown>).items = items;
      return { values: {}, errors };
    };
  }, [form]);
  const rhf = useForm<Form>({
    resolver,
    mode: "onTouched",
    defaultValues: {
      name: "",
      company: "",
      email: "",
      phone: "",
      delivery_address: "",
      note: "",
      items: form.products.map((p) => ({ product_id: p.product_id, qty: "" })),
    },
  });
  const items = useWatch({ control: rhf.control, name: "items" });
  const { isSubmitting } = rhf.formState;
  const itemsError = rhf.formState.errors.items?.root?.message ?? rhf.formState.errors.items?.message;

  const estimate = estimateOf(
    form.products,
    form.products.map((_, i) => items?.[i]?.qty),
  );

  const onSubmit = rhf.handleSubmit(async (values) => {
    try {
      const order = await apiFetch<SubmittedOrder>(`/api/public/order-forms/${encodeURIComponent(props.token)}`, {
        method: "POST",
        json: { ...values, items: values.items.filter((i) => String(i.qty).trim() !== "") },
      });
      props.onSent(order);
    } catch (err) {
      if (err instanceof ApiError) {
        const fields = err.fieldErrors();
        // The server numbers the items it was sent: map them back to the products on the page.
        const sentItems = values.items.map((v, i) => ({ ...v, i })).filter((v) => String(v.qty).trim() !== "");
        for (const [field, message] of Object.entries(fields)) {
          const m = /^items\.(\d+)\.(qty|product_id)$/.exec(field);
          const target = m ? `items.${sentItems[Number(m[1])]?.i ?? 0}.qty` : field;
          rhf.setError(target as FieldPath<Form>, { message });
        }
      }
      toast.error(err instanceof Error ? err.message : "Your order could not be sent. Please try again.");
    }
  });

  const field = (name: FieldPath<Form>) => textField(rhf, name);
  return (
    <Box component="form" noValidate onSubmit={onSubmit}>
      <Typography variant="h4" component="h1" gutterBottom>
        {form.title}
      </Typography>
      {form.customer && (
        <Typography color="text.secondary" gutterBottom>
          For {form.customer}
        </Typography>
      )}
      {form.intro && (
        <Typography sx={{ mb: 3, whiteSpace: "pre-line" }} color="text.secondary">
          {form.intro}
        </Typography>
      )}
      <Paper variant="outlined" sx={{ mb: 3 }}>
        {form.products.map((p, i) => (
          <ProductRow key={p.product_id} product={p} currency={form.workspace.currency} index={i} rhf={rhf} />
        ))}
        <Divider />
        <Stack direction="row" sx={{ justifyContent: "space-between", p: 2 }}>
          <Typography>Estimated total before GST</Typography>
          <Typography sx={{ fontWeight: 600 }} data-testid="order-estimate">
            {money(estimate.toString(), form.workspace.currency)}
          </Typography>
        </Stack>
      </Paper>
      {itemsError && (
        <Alert severity="error" sx={{ mb: 2 }}>
          {itemsError}
        </Alert>
      )}
      <Typography variant="h6" component="h2" gutterBottom>
        Your details
      </Typography>
      <Box sx={{ display: "grid", gap: 2, gridTemplateColumns: { xs: "1fr", sm: "1fr 1fr" }, mb: 3 }}>
        <TextField {...field("name")} label="Your name" required autoComplete="name" />
        <TextField {...field("company")} label="Company" autoComplete="organization" />
        <TextField {...field("email")} label="E-mail" type="email" required autoComplete="email" />
        <TextField {...field("phone")} label="Phone" type="tel" autoComplete="tel" />
        <TextField
          {...field("delivery_address")}
          label="Delivery address"
          required
          multiline
          minRows={2}
          autoComplete="street-address"
          sx={{ gridColumn: { sm: "1 / -1" } }}
        />
        <TextField {...field("note")} label="Note" multiline minRows={2} sx={{ gridColumn: { sm: "1 / -1" } }} />
      </Box>
      <Button type="submit" variant="contained" size="large" loading={isSubmitting}>
        Send order
      </Button>
    </Box>
  );
}

function ProductRow(props: {
  product: Product;
  currency: string;
  index: number;
  rhf: ReturnType<typeof useForm<Form>>;
}) {
  const { product: p, index: i, rhf } = props;
  const error = rhf.formState.errors.items?.[i]?.qty?.message;
  const min = new Dec(p.min_qty);
  const { ref, ...qty } = rhf.register(`items.${i}.qty`);
  return (
    <Stack
      direction={{ xs: "column", sm: "row" }}
      spacing={2}
      sx={{ p: 2, alignItems: { sm: "center" }, borderBottom: 1, borderColor: "divider" }}
    >
      {p.image && (
        <Box component="img" src={p.image} alt="" sx={{ width: 56, height: 56, objectFit: "cover", borderRadius: 1 }} />
      )}
      <Box sx={{ flex: 1, minWidth: 0 }}>
        <Typography sx={{ fontWeight: 600 }}>{p.name}</Typography>
        <Typography variant="body2" color="text.secondary">
          {[p.sku, `${money(p.price, props.currency)}${p.unit ? ` per ${p.unit}` : ""}`].filter(Boolean).join(" · ")}
          {min.greaterThan(1) ? ` · minimum ${qtyText(p.min_qty)}` : ""}
        </Typography>
      </Box>
      <TextField
        {...qty}
        inputRef={ref}
        label="Quantity"
        size="small"
        slotProps={{ htmlInput: { inputMode: "decimal", "aria-label": `Quantity of ${p.name}` } }}
        error={Boolean(error)}
        helperText={error}
        sx={{ width: { xs: "100%", sm: 160 } }}
      />
    </Stack>
  );
}
