import { zodResolver } from "@hookform/resolvers/zod";
import CheckCircleOutline from "@mui/icons-material/CheckCircleOutlineOutlined";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Paper from "@mui/material/Paper";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { parseHost } from "@workmetrics/domain/hosts";
import { projectRegistrationResource } from "@workmetrics/domain/resources/partners";
import { useMemo, useState } from "react";
import { type FieldPath, type Resolver, useController, useForm } from "react-hook-form";
import toast from "react-hot-toast";
import { useSearchParams } from "react-router";
import { ApiError, apiFetch } from "../platform/api.ts";
import { DatePickersProvider } from "../platform/fields/DatePickersProvider.tsx";
import { LazyDateInput } from "../platform/fields/LazyDateInput.tsx";
import { textField } from "../platform/form.ts";
import { usePageTitle } from "../platform/ui/usePageTitle.ts";
import { PublicFormFrame, usePublicLoad } from "./PublicFormFrame.tsx";

// Issue 11: a reseller or customer registers an upcoming project with a workspace, without an account
// (/auth/project-registrations on the workspace's own address, demo.example.com; elsewhere ?workspace=<slug>).
// Validated with the resource's own schema, as the server does; the server's per-field refusals land on the same
// fields, and nothing typed is lost on a refusal.

type Workspace = { name: string; slug: string; logo: string | null; primary_color: string | null; currency: string };
type Values = Record<
  | "end_customer"
  | "project_name"
  | "site"
  | "expected_value"
  | "products_of_interest"
  | "expected_close_date"
  | "contact_name"
  | "contact_company"
  | "contact_email"
  | "contact_phone"
  | "note",
  string
>;

const EMPTY: Values = {
  end_customer: "",
  project_name: "",
  site: "",
  expected_value: "",
  products_of_interest: "",
  expected_close_date: "",
  contact_name: "",
  contact_company: "",
  contact_email: "",
  contact_phone: "",
  note: "",
};

// Optional fields left empty are not sent (the schema reads "" as a value).
const filled = (v: Values) => Object.fromEntries(Object.entries(v).filter(([, x]) => x.trim() !== ""));

async function workspaceSlug(params: URLSearchParams): Promise<string | null> {
  const given = params.get("workspace");
  if (given) return given.toLowerCase();
  const { baseDomain } = await apiFetch<{ baseDomain?: string }>("/api/config");
  const host = parseHost(window.location.host, baseDomain ?? "localhost");
  return host.kind === "workspace" ? host.slug : null;
}

export default function ProjectRegistrationPage() {
  const [params] = useSearchParams();
  const { loaded: workspace, gone } = usePublicLoad(
    params.toString(),
    (signal) =>
      workspaceSlug(params)
        .then((slug) => {
          if (!slug) throw new ApiError(404, "Open this page from the address of the company you register with.", null);
          return apiFetch<{ workspace: Workspace }>(`/api/public/project-registrations/${encodeURIComponent(slug)}`, {
            signal,
          });
        })
        .then((res) => res.workspace),
    "This page could not be loaded. Please try again.",
  );
  const [reference, setReference] = useState<string | null>(null);
  usePageTitle(workspace ? `Register a project — ${workspace.name}` : "Register a project");

  return (
    <PublicFormFrame
      gone={gone}
      loaded={workspace}
      workspace={(workspace) => workspace}
      loadingLabel="Loading the registration form"
    >
      {(workspace) => (
        <>
          {reference ? (
            <Paper variant="outlined" sx={{ p: { xs: 3, sm: 5 }, textAlign: "center" }} role="status">
              <CheckCircleOutline color="success" sx={{ fontSize: 56 }} />
              <Typography variant="h5" component="h1" gutterBottom>
                Thank you — registration {reference} is in
              </Typography>
              <Typography color="text.secondary" sx={{ mb: 3 }}>
                {workspace.name} will review it and tell you by e-mail whether it is approved.
              </Typography>
              <Button onClick={() => setReference(null)}>Register another project</Button>
            </Paper>
          ) : (
            <RegistrationForm workspace={workspace} onSent={setReference} />
          )}
        </>
      )}
    </PublicFormFrame>
  );
}

function RegistrationForm({ workspace, onSent }: { workspace: Workspace; onSent(reference: string): void }) {
  const resolver = useMemo<Resolver<Values>>(() => {
    const base = zodResolver(projectRegistrationResource.insert as never) as unknown as Resolver<Values>;
    return async (values, context, options) => {
      const result = await base(filled(values) as Values, context, options);
      return Object.keys(result.errors).length ? result : { values, errors: {} };
    };
  }, []);
  const rhf = useForm<Values>({ resolver, mode: "onTouched", defaultValues: EMPTY });
  const { isSubmitting } = rhf.formState;
  const field = (name: FieldPath<Values>) => textField(rhf, name);
  const { field: closeDate, fieldState: closeDateState } = useController({
    control: rhf.control,
    name: "expected_close_date",
  });

  const onSubmit = rhf.handleSubmit(async (values) => {
    try {
      const res = await apiFetch<{ reference: string }>(
        `/api/public/project-registrations/${encodeURIComponent(workspace.slug)}`,
        { method: "POST", json: filled(values) },
      );
      rhf.reset(EMPTY);
      onSent(res.reference);
    } catch (err) {
      if (err instanceof ApiError) {
        for (const [name, message] of Object.entries(err.fieldErrors())) {
          if (name in EMPTY) rhf.setError(name as FieldPath<Values>, { message });
        }
      }
      toast.error(err instanceof Error ? err.message : "Your registration could not be sent. Please try again.");
    }
  });

  const full = { gridColumn: { sm: "1 / -1" } };
  return (
    <Box component="form" noValidate onSubmit={onSubmit}>
      <Typography variant="h4" component="h1" gutterBottom>
        Register a project
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 3 }}>
        Tell {workspace.name} about an upcoming project so it is registered to you. No account is needed.
      </Typography>
      <Typography variant="h6" component="h2" gutterBottom>
        The project
      </Typography>
      <Box sx={{ display: "grid", gap: 2, gridTemplateColumns: { xs: "1fr", sm: "1fr 1fr" }, mb: 3 }}>
        <TextField {...field("end_customer")} label="End customer" required />
        <TextField {...field("project_name")} label="Project name" required />
        <TextField {...field("site")} label="Site" sx={full} autoComplete="street-address" />
        <TextField
          {...field("expected_value")}
          label={`Expected value (${workspace.currency})`}
          slotProps={{ htmlInput: { inputMode: "decimal" } }}
        />
        <DatePickersProvider>
          <LazyDateInput
            kind="date"
            name={closeDate.name}
            label="Expected close date"
            value={closeDate.value}
            onChange={closeDate.onChange}
            onBlur={closeDate.onBlur}
            inputRef={closeDate.ref}
            error={Boolean(closeDateState.error)}
            helperText={closeDateState.error?.message}
          />
        </DatePickersProvider>
        <TextField {...field("products_of_interest")} label="Products of interest" multiline minRows={2} sx={full} />
      </Box>
      <Typography variant="h6" component="h2" gutterBottom>
        Your details
      </Typography>
      <Box sx={{ display: "grid", gap: 2, gridTemplateColumns: { xs: "1fr", sm: "1fr 1fr" }, mb: 3 }}>
        <TextField {...field("contact_name")} label="Your name" required autoComplete="name" />
        <TextField {...field("contact_company")} label="Your company" autoComplete="organization" />
        <TextField {...field("contact_email")} label="E-mail" type="email" required autoComplete="email" />
        <TextField {...field("contact_phone")} label="Phone" type="tel" autoComplete="tel" />
        <TextField {...field("note")} label="Note" multiline minRows={2} sx={full} />
      </Box>
      <Button type="submit" variant="contained" size="large" loading={isSubmitting}>
        Send registration
      </Button>
    </Box>
  );
}
