import ArrowBackOutlined from "@mui/icons-material/ArrowBackOutlined";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Chip from "@mui/material/Chip";
import CircularProgress from "@mui/material/CircularProgress";
import Paper from "@mui/material/Paper";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import { useState } from "react";
import toast from "react-hot-toast";
import { Link as RouterLink, useNavigate, useParams } from "react-router";
import { useCurrency } from "../../platform/fields/FieldDisplay.tsx";
import { statusColor } from "../../platform/fields/format.ts";
import { useDecision } from "../../platform/resource/access.ts";
import { resourcePaths, useDashboardBase } from "../../platform/resource/paths.ts";
import { ConfirmDialog } from "../../platform/ui/ConfirmDialog.tsx";
import { usePageTitle } from "../../platform/ui/usePageTitle.ts";
import { DiscountTerms, dayText } from "../../public/DiscountTerms.tsx";
import { DISCOUNT_NEEDS } from "./access.ts";
import { type DiscountFormRow, useDiscountForm, useRevokeDiscountForm, useSendDiscountForm } from "./api.ts";
import { DiscountFormEditor } from "./DiscountFormEditor.tsx";

// Issue 11: one supplier discount request — new, its draft edited, or shown with what can be done next: Send (a
// new link each time, e-mailed; the link is shown once to copy), Revoke, and the supplier's answer.

const STATUS: Record<string, string> = {
  draft: "Draft",
  sent: "Sent",
  confirmed: "Confirmed",
  rejected: "Rejected",
  expired: "Expired",
  revoked: "Revoked",
};

export default function DiscountFormPage() {
  const { id = "new" } = useParams();
  const editing = id === "new" || window.location.pathname.endsWith("/edit");
  const navigate = useNavigate();
  const paths = resourcePaths(useDashboardBase(), "supplier-discount-forms");
  const form = useDiscountForm(id === "new" ? null : Number(id));
  usePageTitle(id === "new" ? "New supplier discount form" : `Supplier discount form ${id}`);

  if (id !== "new" && form.isPending) return <CircularProgress aria-label="Loading the discount form" />;
  if (form.isError) return <Alert severity="error">{form.error.message}</Alert>;
  if (editing) {
    return (
      <DiscountFormEditor
        editing={form.data ?? null}
        onSaved={(saved) => navigate(paths.show(saved))}
        onCancel={() => navigate(id === "new" ? paths.list : paths.show(id))}
      />
    );
  }
  return form.data ? <Shown form={form.data} listPath={paths.list} editPath={paths.edit(id)} /> : null;
}

// A sent link past its expiry is Expired, though the server's sweep may not have written it yet.
const statusOf = (form: DiscountFormRow) =>
  form.status === "sent" && form.link_expires_at && new Date(form.link_expires_at).getTime() <= Date.now()
    ? "expired"
    : form.status;

function Shown(props: { form: DiscountFormRow; listPath: string; editPath: string }) {
  const { listPath, editPath } = props;
  const form = { ...props.form, status: statusOf(props.form) };
  const mayUpdate = useDecision(DISCOUNT_NEEDS.update).allowed;
  const send = useSendDiscountForm();
  const revoke = useRevokeDiscountForm();
  const [link, setLink] = useState<string | null>(null);
  const [revoking, setRevoking] = useState(false);
  const id = Number(form.id);
  const currency = useCurrency();

  async function onSend() {
    try {
      const res = await send.mutateAsync({ id });
      setLink(res.link);
      toast.success(`Sent to ${form.contact_email}`);
    } catch (err) {
      toast.error(err instanceof Error ? err.message : "The form could not be sent");
    }
  }
  async function onRevoke() {
    try {
      await revoke.mutateAsync({ id });
      setLink(null);
      toast.success("Revoked: the link no longer works");
    } catch (err) {
      toast.error(err instanceof Error ? err.message : "The form could not be revoked");
    }
  }

  const products = form.items.map((i) => ({
    product_id: i.product_id,
    name: String(i.product?.name ?? `#${i.product_id}`),
    sku: i.product?.sku == null ? null : String(i.product.sku),
    unit: i.product?.unit == null ? null : String(i.product.unit),
    price: i.price,
  }));
  const terms = { ...form, category: form.category ? String(form.category.name) : null, products, currency };
  return (
    <Stack spacing={2}>
      <Box>
        <Button component={RouterLink} to={listPath} startIcon={<ArrowBackOutlined />} size="small">
          Supplier discount forms
        </Button>
      </Box>
      <Stack direction={{ xs: "column", sm: "row" }} spacing={1} sx={{ alignItems: { sm: "center" } }}>
        <Typography variant="h5" component="h1" sx={{ flex: 1 }}>
          Discount form {form.id} · {String(form.company?.name ?? "")}
        </Typography>
        <Chip
          label={STATUS[form.status] ?? form.status}
          data-status={form.status}
          sx={{ bgcolor: statusColor(form.status), color: "#fff", alignSelf: { xs: "flex-start", sm: "center" } }}
        />
      </Stack>
      {mayUpdate && (
        <Stack direction="row" spacing={1} sx={{ flexWrap: "wrap" }}>
          {form.status === "draft" && (
            <Button component={RouterLink} to={editPath}>
              Edit
            </Button>
          )}
          {["draft", "sent", "expired"].includes(form.status) && (
            <Button variant="contained" onClick={onSend} loading={send.isPending}>
              {form.status === "draft" ? "Send" : "Send a new link"}
            </Button>
          )}
          {["draft", "sent"].includes(form.status) && (
            <Button color="error" onClick={() => setRevoking(true)}>
              Revoke
            </Button>
          )}
        </Stack>
      )}
      {link && (
        <Alert severity="success">
          E-mailed to {form.contact_email}. The link (shown once):{" "}
          <Box component="span" sx={{ wordBreak: "break-all" }} data-testid="discount-link">
            {link}
          </Box>
        </Alert>
      )}
      <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 } }}>
        <DiscountTerms terms={terms} />
        {form.message && (
          <Typography sx={{ mt: 2, whiteSpace: "pre-line" }} color="text.secondary">
            Message: {form.message}
          </Typography>
        )}
      </Paper>
      <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 } }}>
        <Typography variant="subtitle1" component="h2" gutterBottom>
          Link and answer
        </Typography>
        <Typography color="text.secondary">
          {form.sent_at
            ? `Sent to ${form.contact_email} on ${dayText(form.sent_at)}; the link ${form.status === "expired" ? "expired" : "works until"} ${form.link_expires_at ? dayText(form.link_expires_at) : "—"}.`
            : `Not sent yet; it will go to ${form.contact_email}.`}
        </Typography>
        {form.responded_at && (
          <Typography sx={{ mt: 1 }} data-testid="discount-answer">
            {STATUS[form.status]} by {form.responder_name} on {dayText(form.responded_at)}
            {form.responder_note ? ` — “${form.responder_note}”` : ""}
          </Typography>
        )}
      </Paper>
      <ConfirmDialog
        open={revoking}
        title="Revoke this discount request?"
        body="The supplier's link stops working and says the request was withdrawn."
        confirmLabel="Revoke"
        destructive
        onCancel={() => setRevoking(false)}
        onConfirm={async () => {
          await onRevoke();
          setRevoking(false);
        }}
      />
    </Stack>
  );
}
