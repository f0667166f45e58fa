import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Chip from "@mui/material/Chip";
import CircularProgress from "@mui/material/CircularProgress";
import Paper from "@mui/material/Paper";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { useState } from "react";
import toast from "react-hot-toast";
import { DataError } from "../../platform/data-access/errors.ts";
import { statusColor } from "../../platform/fields/format.ts";
import { usePageTitle } from "../../platform/ui/usePageTitle.ts";
import { DiscountTerms, dayText } from "../../public/DiscountTerms.tsx";
import { type MyDiscountForm, useMyDiscountForms, useRespondDiscountForm } from "./api.ts";

// Issue 11: a supplier user's view of the discount requests addressed to their company (a contact of the company
// with their e-mail address): the terms, and Confirm or Reject on the ones waiting.

const LABEL: Record<string, string> = {
  sent: "Waiting for your answer",
  confirmed: "Confirmed",
  rejected: "Rejected",
  expired: "Expired",
  revoked: "Withdrawn",
};

export default function MyDiscountForms() {
  usePageTitle("Supplier discount forms");
  const forms = useMyDiscountForms();
  return (
    <Box>
      <Typography variant="h5" component="h1" gutterBottom>
        Discount requests
      </Typography>
      <Typography color="text.secondary" variant="body2" sx={{ mb: 2 }}>
        The discounts {forms.data?.[0]?.workspace.name ?? "your customer"} asks your company to confirm.
      </Typography>
      {forms.isPending && <CircularProgress aria-label="Loading discount requests" />}
      {forms.isError && <Alert severity="error">{forms.error.message}</Alert>}
      {forms.data?.length === 0 && (
        <Paper variant="outlined" sx={{ p: 4, textAlign: "center" }}>
          <Typography>No discount requests for your company.</Typography>
        </Paper>
      )}
      <Stack spacing={2}>
        {forms.data?.map((f) => (
          <Request key={f.id} form={f} />
        ))}
      </Stack>
    </Box>
  );
}

function Request({ form }: { form: MyDiscountForm }) {
  const respond = useRespondDiscountForm();
  const [name, setName] = useState("");
  const [note, setNote] = useState("");
  const [errors, setErrors] = useState<Record<string, string>>({});

  async function answer(decision: "confirm" | "reject") {
    try {
      await respond.mutateAsync({ id: form.id, decision, name, note: note || null });
      toast.success(decision === "confirm" ? "Discount confirmed" : "Discount rejected");
    } catch (err) {
      if (err instanceof DataError) setErrors(err.fields);
      toast.error(err instanceof Error ? err.message : "Your answer could not be sent");
    }
  }

  return (
    <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 } }} data-testid="discount-request">
      <Stack direction="row" spacing={1} sx={{ alignItems: "center", mb: 2, flexWrap: "wrap" }}>
        <Typography sx={{ fontWeight: 600 }}>Request {form.id}</Typography>
        <Chip
          size="small"
          label={LABEL[form.status] ?? form.status}
          sx={{ bgcolor: statusColor(form.status), color: "#fff" }}
        />
        {form.responder_name && form.responded_at && (
          <Typography variant="body2" color="text.secondary">
            by {form.responder_name} on {dayText(form.responded_at)}
          </Typography>
        )}
      </Stack>
      {form.message && <Typography sx={{ mb: 2, whiteSpace: "pre-line" }}>{form.message}</Typography>}
      <DiscountTerms terms={{ ...form, currency: form.workspace.currency }} />
      {form.status === "sent" && (
        <Stack spacing={2} sx={{ mt: 2 }}>
          <Stack direction={{ xs: "column", sm: "row" }} spacing={2}>
            <TextField
              label="Your name"
              required
              size="small"
              value={name}
              onChange={(e) => setName(e.target.value)}
              error={Boolean(errors.name)}
              helperText={errors.name}
            />
            <TextField
              label="Note (optional)"
              size="small"
              value={note}
              onChange={(e) => setNote(e.target.value)}
              sx={{ flex: 1 }}
            />
          </Stack>
          <Stack direction="row" spacing={1}>
            <Button variant="contained" onClick={() => answer("confirm")} loading={respond.isPending}>
              Confirm discount
            </Button>
            <Button color="error" onClick={() => answer("reject")} disabled={respond.isPending}>
              Reject
            </Button>
          </Stack>
        </Stack>
      )}
    </Paper>
  );
}
