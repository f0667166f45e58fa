import Button from "@mui/material/Button";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { BusinessDetails } from "@workmetrics/domain/schemas/business-details";
import { useEffect, useState } from "react";
import toast from "react-hot-toast";
import { ApiError } from "../../platform/api.ts";
import { Section } from "../account/Section.tsx";
import { useWorkspaceApi } from "./api.ts";

// What a Singapore tax invoice must name of the seller (IRAS): the address, UEN and GST registration number, printed
// on every document's letterhead. Checked here with the same schema the server uses.

type Details = { business_address: string | null; uen: string | null; gst_registration_number: string | null };
type Field = keyof Details;

export function BusinessSection() {
  const { call } = useWorkspaceApi();
  const queryClient = useQueryClient();
  const query = useQuery({ queryKey: ["workspace-details"], queryFn: () => call<Details>("/api/workspace/details") });
  const [values, setValues] = useState<Record<Field, string>>({
    business_address: "",
    uen: "",
    gst_registration_number: "",
  });
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});

  useEffect(() => {
    if (!query.data) return;
    setValues({
      business_address: query.data.business_address ?? "",
      uen: query.data.uen ?? "",
      gst_registration_number: query.data.gst_registration_number ?? "",
    });
  }, [query.data]);

  const save = useMutation({
    mutationFn: () => call<Details>("/api/workspace/details", { method: "PUT", json: values }),
    onSuccess: (data) => {
      queryClient.setQueryData(["workspace-details"], data);
      setErrors({});
      toast.success("Business details saved");
    },
    onError: (err) => {
      if (err instanceof ApiError) setErrors(err.fieldErrors() as Partial<Record<Field, string>>);
      toast.error(err instanceof Error ? err.message : "Could not save the business details");
    },
  });

  function submit() {
    const parsed = BusinessDetails.safeParse(values);
    if (!parsed.success) {
      setErrors(Object.fromEntries(parsed.error.issues.map((i) => [String(i.path[0]), i.message])));
      return;
    }
    save.mutate();
  }

  const field = (name: Field, label: string, help: string, extra: object = {}) => (
    <TextField
      label={label}
      value={values[name]}
      onChange={(e) => setValues((v) => ({ ...v, [name]: e.target.value }))}
      error={Boolean(errors[name])}
      helperText={errors[name] ?? help}
      disabled={query.isLoading}
      fullWidth
      {...extra}
    />
  );

  return (
    <Section title="Business details" description="Printed on your quotations, invoices and other documents.">
      <Stack spacing={2}>
        {field("business_address", "Business address", "As it should read on a tax invoice", {
          multiline: true,
          minRows: 3,
        })}
        <Stack direction={{ xs: "column", sm: "row" }} spacing={2}>
          {field("uen", "UEN", "Your ACRA Unique Entity Number")}
          {field("gst_registration_number", "GST registration number", "Leave empty if not GST-registered")}
        </Stack>
        <Stack direction="row" sx={{ justifyContent: "flex-end" }}>
          <Button variant="contained" onClick={submit} disabled={save.isPending || query.isLoading}>
            Save business details
          </Button>
        </Stack>
      </Stack>
    </Section>
  );
}
