import AddOutlined from "@mui/icons-material/AddOutlined";
import ContentCopyOutlined from "@mui/icons-material/ContentCopyOutlined";
import EditOutlined from "@mui/icons-material/EditOutlined";
import OpenInNewOutlined from "@mui/icons-material/OpenInNewOutlined";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Chip from "@mui/material/Chip";
import CircularProgress from "@mui/material/CircularProgress";
import IconButton from "@mui/material/IconButton";
import Paper from "@mui/material/Paper";
import Stack from "@mui/material/Stack";
import Switch from "@mui/material/Switch";
import Tooltip from "@mui/material/Tooltip";
import Typography from "@mui/material/Typography";
import { CATALOG } from "@workmetrics/domain/resources/catalog";
import { useState } from "react";
import toast from "react-hot-toast";
import { useCan } from "../../platform/resource/access.ts";
import { usePageTitle } from "../../platform/ui/usePageTitle.ts";
import { type OrderFormRow, orderFormLink, useOrderForms, useSaveOrderForm, useToggleOrderForm } from "./api.ts";
import { OrderFormDialog, type OrderFormValues } from "./OrderFormDialog.tsx";

// Issue 10 §2 (/dashboard/order-forms): the public links a workspace shares with its customers — each with its
// products, whether it is open, and a button that copies the link. Orders sent through them arrive in Orders.

async function copy(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

export default function OrderForms() {
  usePageTitle("Order forms");
  const can = useCan(CATALOG.order_form);
  const forms = useOrderForms();
  const save = useSaveOrderForm();
  const toggle = useToggleOrderForm();
  const [editing, setEditing] = useState<OrderFormRow | "new" | null>(null);

  async function onSave(values: OrderFormValues) {
    const id = editing && editing !== "new" ? Number(editing.id) : undefined;
    try {
      const saved = await save.mutateAsync({ id, ...values });
      setEditing(null);
      const copied = id ? false : await copy(orderFormLink(saved.token));
      toast.success(copied ? "Order form saved; its link is copied" : "Order form saved");
    } catch (err) {
      toast.error(err instanceof Error ? err.message : "The order form could not be saved");
      throw err;
    }
  }

  async function copyLink(form: OrderFormRow) {
    const link = orderFormLink(form.token);
    if (await copy(link)) toast.success("Link copied");
    else toast(link, { duration: 8000 });
  }

  return (
    <Box>
      <Stack direction="row" sx={{ alignItems: "center", justifyContent: "space-between", mb: 2, gap: 1 }}>
        <Box>
          <Typography variant="h5" component="h1">
            Order forms
          </Typography>
          <Typography color="text.secondary" variant="body2">
            Share a link; customers order without signing in and their orders arrive in Orders.
          </Typography>
        </Box>
        {can("create") && (
          <Button variant="contained" startIcon={<AddOutlined />} onClick={() => setEditing("new")}>
            New
          </Button>
        )}
      </Stack>
      {forms.isPending && <CircularProgress aria-label="Loading order forms" />}
      {forms.isError && <Alert severity="error">{forms.error.message}</Alert>}
      {forms.data?.length === 0 && (
        <Paper variant="outlined" sx={{ p: 4, textAlign: "center" }}>
          <Typography gutterBottom>No order forms yet.</Typography>
          <Typography color="text.secondary" variant="body2">
            Make one with the products your customers reorder, and send them its link.
          </Typography>
        </Paper>
      )}
      <Stack spacing={1.5}>
        {forms.data?.map((form) => (
          <Paper key={String(form.id)} variant="outlined" sx={{ p: 2 }} data-testid="order-form-row">
            <Stack direction={{ xs: "column", sm: "row" }} spacing={1} sx={{ alignItems: { sm: "center" } }}>
              <Box sx={{ flex: 1, minWidth: 0 }}>
                <Stack direction="row" spacing={1} sx={{ alignItems: "center" }}>
                  <Typography sx={{ fontWeight: 600 }}>{form.title}</Typography>
                  <Chip
                    size="small"
                    label={form.active ? "Open" : "Closed"}
                    color={form.active ? "success" : "default"}
                    variant="outlined"
                  />
                </Stack>
                <Typography variant="body2" color="text.secondary" noWrap>
                  {form.company ? `For ${String(form.company.name)}` : "Anyone with the link"} · {form.items.length}{" "}
                  product{form.items.length === 1 ? "" : "s"}
                  {form.items.length > 0 &&
                    `: ${form.items
                      .slice(0, 3)
                      .map((i) => String(i.product?.name ?? ""))
                      .join(", ")}${form.items.length > 3 ? " …" : ""}`}
                </Typography>
              </Box>
              <Stack direction="row" spacing={0.5} sx={{ alignItems: "center" }}>
                <Button size="small" startIcon={<ContentCopyOutlined />} onClick={() => copyLink(form)}>
                  Copy link
                </Button>
                <Tooltip title="Open the form as a customer sees it">
                  <IconButton
                    size="small"
                    component="a"
                    href={orderFormLink(form.token)}
                    target="_blank"
                    rel="noopener"
                    aria-label={`Open ${form.title}`}
                  >
                    <OpenInNewOutlined fontSize="small" />
                  </IconButton>
                </Tooltip>
                {can("update") && (
                  <>
                    <Tooltip title={form.active ? "Close the link" : "Open the link"}>
                      <Switch
                        checked={form.active}
                        onChange={(e) => toggle.mutate({ id: Number(form.id), active: e.target.checked })}
                        slotProps={{ input: { "aria-label": `${form.title} is open` } }}
                      />
                    </Tooltip>
                    <IconButton size="small" onClick={() => setEditing(form)} aria-label={`Edit ${form.title}`}>
                      <EditOutlined fontSize="small" />
                    </IconButton>
                  </>
                )}
              </Stack>
            </Stack>
          </Paper>
        ))}
      </Stack>
      {editing && (
        <OrderFormDialog
          editing={editing === "new" ? null : editing}
          onClose={() => setEditing(null)}
          onSave={onSave}
        />
      )}
    </Box>
  );
}
