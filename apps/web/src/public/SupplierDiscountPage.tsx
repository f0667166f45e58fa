import { zodResolver } from "@hookform/resolvers/zod";
import CheckCircleOutline from "@mui/icons-material/CheckCircleOutlineOutlined";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Paper from "@mui/material/Paper";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import {
  DiscountAnswer,
  type DiscountAnswerInput,
  type PublicDiscountForm,
} from "@workmetrics/domain/resources/partners";
import { useState } from "react";
import { useForm } from "react-hook-form";
import toast from "react-hot-toast";
import { useParams } from "react-router";
import { ApiError, apiFetch } from "../platform/api.ts";
import { textField } from "../platform/form.ts";
import { usePageTitle } from "../platform/ui/usePageTitle.ts";
import { DiscountTerms, dayText } from "./DiscountTerms.tsx";
import { PublicFormFrame, usePublicLoad } from "./PublicFormFrame.tsx";

// Issue 11: the page a supplier opens from a discount request's e-mailed link (/auth/supplier-discount-forms/:token,
// a guest path): the workspace, the terms asked, and Confirm or Reject with their name and a note — no account. An
// answered request says how it was answered; an expired or withdrawn link says so in words (the server's 410).

type Answered = { status: string; responder_name: string | null; responded_at?: string | null };

export default function SupplierDiscountPage() {
  const { token = "" } = useParams();
  const [answered, setAnswered] = useState<Answered | null>(null);
  const { loaded: form, gone } = usePublicLoad(
    token,
    (signal) =>
      apiFetch<PublicDiscountForm>(`/api/public/supplier-discount-forms/${encodeURIComponent(token)}`, { signal }).then(
        (f) => {
          if (f.status !== "sent") setAnswered(f);
          return f;
        },
      ),
    "This request could not be loaded. Please try again.",
  );
  usePageTitle(form ? `Discount request — ${form.workspace.name}` : "Discount request");

  return (
    <PublicFormFrame
      gone={gone}
      loaded={form}
      workspace={(form) => form.workspace}
      loadingLabel="Loading the discount request"
    >
      {(form) => (
        <>
          <Typography variant="h4" component="h1" gutterBottom>
            Please confirm a discount
          </Typography>
          <Typography color="text.secondary" sx={{ mb: 3 }}>
            {form.workspace.name} asks {form.supplier} to confirm these terms for its purchase orders.
          </Typography>
          {form.message && (
            <Paper variant="outlined" sx={{ p: 2, mb: 3, whiteSpace: "pre-line" }}>
              <Typography>{form.message}</Typography>
            </Paper>
          )}
          <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 }, mb: 3 }}>
            <DiscountTerms terms={{ ...form, currency: form.workspace.currency }} />
          </Paper>
          {answered ? (
            <Done answered={answered} workspace={form.workspace.name} />
          ) : (
            <AnswerForm token={token} expires={form.link_expires_at} onDone={setAnswered} />
          )}
        </>
      )}
    </PublicFormFrame>
  );
}

function Done({ answered, workspace }: { answered: Answered; workspace: string }) {
  const confirmed = answered.status === "confirmed";
  return (
    <Paper variant="outlined" sx={{ p: { xs: 3, sm: 4 }, textAlign: "center" }} role="status">
      <CheckCircleOutline color={confirmed ? "success" : "disabled"} sx={{ fontSize: 48 }} />
      <Typography variant="h5" component="h2" gutterBottom>
        {confirmed ? "Discount confirmed" : "Discount rejected"}
      </Typography>
      <Typography color="text.secondary">
        {answered.responder_name ? `Answered by ${answered.responder_name}` : "Answered"}
        {answered.responded_at ? ` on ${dayText(answered.responded_at)}` : ""}. {workspace} has been told
        {confirmed ? " and will apply it to new purchase orders." : "."}
      </Typography>
    </Paper>
  );
}

function AnswerForm(props: { token: string; expires: string | null; onDone(a: Answered): void }) {
  const rhf = useForm<DiscountAnswerInput>({
    resolver: zodResolver(DiscountAnswer),
    mode: "onTouched",
    defaultValues: { decision: "confirm", name: "", note: "" },
  });
  const [busy, setBusy] = useState<"confirm" | "reject" | null>(null);

  const send = (decision: "confirm" | "reject") =>
    rhf.handleSubmit(async (values) => {
      setBusy(decision);
      try {
        const res = await apiFetch<Answered>(`/api/public/supplier-discount-forms/${encodeURIComponent(props.token)}`, {
          method: "POST",
          json: { ...values, decision },
        });
        props.onDone({ ...res, responded_at: new Date().toISOString() });
      } catch (err) {
        if (err instanceof ApiError) {
          for (const [field, message] of Object.entries(err.fieldErrors())) {
            if (field === "name" || field === "note") rhf.setError(field, { message });
          }
        }
        toast.error(err instanceof Error ? err.message : "Your answer could not be sent. Please try again.");
      } finally {
        setBusy(null);
      }
    })();

  return (
    <Box component="form" noValidate onSubmit={(e) => e.preventDefault()}>
      <Typography variant="h6" component="h2" gutterBottom>
        Your answer
      </Typography>
      <Stack spacing={2} sx={{ mb: 3 }}>
        <TextField {...textField(rhf, "name")} label="Your name" required autoComplete="name" />
        <TextField {...textField(rhf, "note")} label="Note (optional)" multiline minRows={2} />
      </Stack>
      <Stack direction={{ xs: "column", sm: "row" }} spacing={2} sx={{ alignItems: { sm: "center" } }}>
        <Button
          variant="contained"
          size="large"
          loading={busy === "confirm"}
          disabled={busy !== null}
          onClick={() => send("confirm")}
        >
          Confirm discount
        </Button>
        <Button
          variant="outlined"
          color="error"
          size="large"
          loading={busy === "reject"}
          disabled={busy !== null}
          onClick={() => send("reject")}
        >
          Reject
        </Button>
        {props.expires && (
          <Typography variant="body2" color="text.secondary">
            This link works until {dayText(props.expires)}.
          </Typography>
        )}
      </Stack>
    </Box>
  );
}
