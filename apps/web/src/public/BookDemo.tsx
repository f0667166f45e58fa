import { zodResolver } from "@hookform/resolvers/zod";
import CheckCircleOutline from "@mui/icons-material/CheckCircleOutlineOutlined";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Container from "@mui/material/Container";
import MenuItem from "@mui/material/MenuItem";
import Paper from "@mui/material/Paper";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { COMPANY_SIZES, DEMO_INTERESTS, DemoRequestInput } from "@workmetrics/domain/schemas/demo-request";
import { useState } from "react";
import { type FieldPath, useController, useForm } from "react-hook-form";
import toast from "react-hot-toast";
import { Link as RouterLink } from "react-router";
import { apiFetch } from "../platform/api.ts";
import { DatePickersProvider } from "../platform/fields/DatePickersProvider.tsx";
import { LazyDateInput } from "../platform/fields/LazyDateInput.tsx";
import { reportSubmitError, textField } from "../platform/form.ts";
import { usePageTitle } from "../platform/ui/usePageTitle.ts";

type Form = DemoRequestInput;
const EMPTY: Form = {
  name: "",
  email: "",
  phone: "",
  companyName: "",
  companySize: "" as Form["companySize"],
  interest: "" as Form["interest"],
  preferredDate: "",
  message: "",
};

export default function BookDemo() {
  usePageTitle("Book a demo");
  const [booked, setBooked] = useState<string | null>(null);
  const form = useForm<Form>({
    resolver: zodResolver(DemoRequestInput),
    defaultValues: EMPTY,
    mode: "onTouched",
  });
  const { handleSubmit, formState } = form;
  const { isSubmitting } = formState;

  const onSubmit = handleSubmit(async (values) => {
    try {
      await apiFetch("/api/public/demo-requests", { method: "POST", json: values });
      toast.success("Demo booked — we'll be in touch within one business day.");
      setBooked(values.email);
    } catch (err) {
      reportSubmitError(form, err, "We could not book your demo. Please try again.");
    }
  });

  const field = (name: FieldPath<Form>) => textField(form, name);
  const { field: date, fieldState: dateState } = useController({ control: form.control, name: "preferredDate" });

  return (
    <Container maxWidth="md" sx={{ py: { xs: 4, md: 8 } }}>
      <Typography variant="h3" component="h1" gutterBottom>
        Book a demo
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 4 }}>
        Tell us a little about your company and we will set up a 30-minute walk-through with your kind of documents.
      </Typography>
      <Paper variant="outlined" sx={{ p: { xs: 2, sm: 4 } }}>
        {booked ? (
          <Stack spacing={2} sx={{ alignItems: "center", textAlign: "center", py: 4 }} role="status">
            <CheckCircleOutline color="success" sx={{ fontSize: 56 }} />
            <Typography variant="h5" component="h2">
              Thank you — your demo request is in
            </Typography>
            <Typography color="text.secondary">
              We will write to <strong>{booked}</strong> within one business day to confirm a time.
            </Typography>
            <Button component={RouterLink} to="/" variant="outlined">
              Back to the home page
            </Button>
          </Stack>
        ) : (
          <Box component="form" noValidate onSubmit={onSubmit} aria-label="Book a demo">
            <Box sx={{ display: "grid", gap: 2.5, gridTemplateColumns: { xs: "1fr", sm: "1fr 1fr" } }}>
              <TextField label="Your name" required autoComplete="name" {...field("name")} />
              <TextField label="Work e-mail" required type="email" autoComplete="email" {...field("email")} />
              <TextField label="Company name" required autoComplete="organization" {...field("companyName")} />
              <TextField label="Phone (optional)" type="tel" autoComplete="tel" {...field("phone")} />
              <TextField select label="Company size" required defaultValue="" {...field("companySize")}>
                {COMPANY_SIZES.map((s) => (
                  <MenuItem key={s} value={s}>
                    {s} people
                  </MenuItem>
                ))}
              </TextField>
              <TextField select label="What would you like to see?" required defaultValue="" {...field("interest")}>
                {DEMO_INTERESTS.map((s) => (
                  <MenuItem key={s} value={s}>
                    {s}
                  </MenuItem>
                ))}
              </TextField>
              <DatePickersProvider>
                <LazyDateInput
                  kind="date"
                  name={date.name}
                  label="Preferred date (optional)"
                  value={date.value}
                  onChange={date.onChange}
                  onBlur={date.onBlur}
                  inputRef={date.ref}
                  error={Boolean(dateState.error)}
                  helperText={dateState.error?.message}
                />
              </DatePickersProvider>
              <Box sx={{ display: { xs: "none", sm: "block" } }} />
              <TextField
                label="Anything we should know? (optional)"
                multiline
                minRows={3}
                sx={{ gridColumn: "1 / -1" }}
                {...field("message")}
              />
            </Box>
            <Stack direction={{ xs: "column", sm: "row" }} spacing={2} sx={{ mt: 3, alignItems: { sm: "center" } }}>
              <Button type="submit" variant="contained" size="large" loading={isSubmitting}>
                Book my demo
              </Button>
              <Typography variant="body2" color="text.secondary">
                We use your details only to arrange the demo. See our{" "}
                <RouterLink to="/privacy">privacy notice</RouterLink>.
              </Typography>
            </Stack>
          </Box>
        )}
      </Paper>
    </Container>
  );
}
