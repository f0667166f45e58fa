import { zodResolver } from "@hookform/resolvers/zod";
import MarkEmailReadOutlined from "@mui/icons-material/MarkEmailReadOutlined";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Container from "@mui/material/Container";
import InputAdornment from "@mui/material/InputAdornment";
import MenuItem from "@mui/material/MenuItem";
import Paper from "@mui/material/Paper";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import ToggleButton from "@mui/material/ToggleButton";
import ToggleButtonGroup from "@mui/material/ToggleButtonGroup";
import Typography from "@mui/material/Typography";
import { CompanySignupInput, slugFromName } from "@workmetrics/domain/schemas/company-signup";
import { useEffect, useState } from "react";
import { type FieldPath, useForm, useWatch } from "react-hook-form";
import toast from "react-hot-toast";
import { Link as RouterLink, useSearchParams } from "react-router";
import { apiFetch } from "../platform/api.ts";
import { reportSubmitError, textField } from "../platform/form.ts";
import { usePageTitle } from "../platform/ui/usePageTitle.ts";
import { useTiers } from "./queries.ts";
import { SignupSummary } from "./SignupSummary.tsx";
import { useSlugAvailability } from "./useSlugAvailability.ts";

type Form = CompanySignupInput;
type Done = { email: string; workspace: { slug: string; url: string } };

export default function Signup() {
  usePageTitle("Create your workspace");
  const [params] = useSearchParams();
  const tiers = useTiers();
  const [done, setDone] = useState<Done | null>(null);
  const [coupon, setCoupon] = useState<string | undefined>(undefined);
  const initialTier = tiers.data?.find((t) => t.slug === params.get("plan"))?.id ?? 11;
  const form = useForm<Form>({
    resolver: zodResolver(CompanySignupInput),
    mode: "onTouched",
    defaultValues: {
      companyName: "",
      slug: "",
      name: "",
      email: "",
      password: "",
      tierId: initialTier,
      cycle: params.get("cycle") === "yearly" ? "yearly" : "monthly",
      couponCode: "",
    },
  });
  const { handleSubmit, setError, setValue, control, formState, getFieldState } = form;
  const [companyName, slug, tierId, cycle] = useWatch({ control, name: ["companyName", "slug", "tierId", "cycle"] });
  const availability = useSlugAvailability(slug);

  useEffect(() => {
    if (tiers.data && params.get("plan")) setValue("tierId", initialTier);
  }, [tiers.data, initialTier, params, setValue]);

  // The address follows the company name until the user edits it.
  useEffect(() => {
    if (!getFieldState("slug").isDirty) setValue("slug", slugFromName(companyName ?? ""), { shouldValidate: false });
  }, [companyName, getFieldState, setValue]);

  const onSubmit = handleSubmit(async (values) => {
    if (availability.data && !availability.data.available) {
      return setError("slug", { message: availability.data.message ?? "That address is taken" });
    }
    try {
      setDone(await apiFetch<Done>("/api/public/signup", { method: "POST", json: { ...values, couponCode: coupon } }));
      toast.success("Workspace created — check your e-mail");
    } catch (err) {
      reportSubmitError(form, err, "We could not create your workspace");
    }
  });

  const field = (name: FieldPath<Form>) => textField(form, name);
  const host = `${window.location.port ? `:${window.location.port}` : ""}`;

  if (done) {
    return (
      <Container maxWidth="sm" sx={{ py: 8 }}>
        <Paper variant="outlined" sx={{ p: 4, textAlign: "center" }} role="status">
          <MarkEmailReadOutlined color="primary" sx={{ fontSize: 56 }} />
          <Typography variant="h5" component="h1" gutterBottom>
            Confirm your e-mail to open {done.workspace.slug}
          </Typography>
          <Typography color="text.secondary">
            We sent a link to <strong>{done.email}</strong>. Open it and you will land in your new workspace at{" "}
            <strong>{done.workspace.url.replace(/^https?:\/\//, "")}</strong>, signed in.
          </Typography>
        </Paper>
      </Container>
    );
  }

  return (
    <Container maxWidth="lg" sx={{ py: { xs: 4, md: 7 } }}>
      <Typography variant="h3" component="h1" gutterBottom>
        Create your workspace
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 4 }}>
        Your company gets its own address, your team signs in there, and nobody else ever sees your data.
      </Typography>
      <Box
        component="form"
        noValidate
        onSubmit={onSubmit}
        aria-label="Create your workspace"
        sx={{ display: "grid", gap: 3, gridTemplateColumns: { xs: "1fr", md: "3fr 2fr" }, alignItems: "start" }}
      >
        <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 } }}>
          <Stack spacing={2.5}>
            <Typography variant="h6" component="h2">
              Your company
            </Typography>
            <TextField label="Company name" required autoComplete="organization" {...field("companyName")} />
            <TextField
              label="Workspace address"
              required
              {...field("slug")}
              helperText={
                formState.errors.slug?.message ??
                availability.data?.message ??
                (availability.data?.available ? "Available" : " ")
              }
              error={Boolean(formState.errors.slug) || availability.data?.available === false}
              slotProps={{
                input: {
                  endAdornment: (
                    <InputAdornment position="end">
                      .{window.location.hostname.replace(/^[^.]+\.(?=.*\.)/, "")}
                      {host}
                    </InputAdornment>
                  ),
                },
              }}
            />
            <Typography variant="h6" component="h2" sx={{ pt: 1 }}>
              You, the owner
            </Typography>
            <TextField label="Your name" required autoComplete="name" {...field("name")} />
            <TextField label="Work e-mail" required type="email" autoComplete="email" {...field("email")} />
            <TextField
              label="Password"
              required
              type="password"
              autoComplete="new-password"
              {...field("password")}
              helperText={formState.errors.password?.message ?? "At least 8 characters; a passphrase is best."}
            />
          </Stack>
        </Paper>
        <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 } }}>
          <Stack spacing={2.5}>
            <Typography variant="h6" component="h2">
              Your plan
            </Typography>
            {tiers.isError && (
              <Alert severity="error">We could not load the plans. Reload the page to try again.</Alert>
            )}
            <TextField
              select
              label="Plan"
              {...field("tierId")}
              value={tierId ?? ""}
              onChange={(e) => setValue("tierId", Number(e.target.value))}
            >
              {tiers.data?.map((t) => (
                <MenuItem key={t.id} value={t.id}>
                  {t.title}
                </MenuItem>
              ))}
            </TextField>
            <ToggleButtonGroup
              exclusive
              fullWidth
              color="primary"
              value={cycle}
              aria-label="Billing cycle"
              onChange={(_e, v) => v && setValue("cycle", v)}
            >
              <ToggleButton value="monthly">Monthly</ToggleButton>
              <ToggleButton value="yearly">Yearly</ToggleButton>
            </ToggleButtonGroup>
            <SignupSummary tier={tiers.data?.find((t) => t.id === Number(tierId))} cycle={cycle} onCoupon={setCoupon} />
            <Button type="submit" variant="contained" size="large" loading={formState.isSubmitting}>
              Create workspace
            </Button>
            <Typography variant="body2" color="text.secondary">
              Already have one? <RouterLink to="/auth/login">Sign in</RouterLink>
            </Typography>
          </Stack>
        </Paper>
      </Box>
    </Container>
  );
}
