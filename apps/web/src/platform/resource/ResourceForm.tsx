import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Card from "@mui/material/Card";
import CardContent from "@mui/material/CardContent";
import Skeleton from "@mui/material/Skeleton";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import type { FieldDef } from "@workmetrics/domain/resources/types";
import { useMemo } from "react";
import { useNavigate, useParams, useSearchParams } from "react-router";
import { DataError } from "../data-access/errors.ts";
import { FieldInput } from "../fields/FieldInput.tsx";
import { RefusedPage } from "../ui/GatePage.tsx";
import { usePageTitle } from "../ui/usePageTitle.ts";
import { useMember, useResourceDecision } from "./access.ts";
import { columnDefaults, embedName, formFields, recordTitle } from "./definition.ts";
import { useErrorToast, useRecord, useResourceDef } from "./hooks.ts";
import { PageCrumbs, RecordMissing } from "./PageParts.tsx";
import { resourcePaths, useDashboardBase } from "./paths.ts";
import { UnsavedChanges } from "./UnsavedChanges.tsx";
import { useRecordForm } from "./useRecordForm.ts";

const WIDE: FieldDef["kind"][] = ["textarea", "tags", "image"];

// The one create/edit form of every resource: inputs by field kind, the domain's zod schema, server errors on
// the fields they name, a warning before unsaved changes are lost.
export default function ResourceForm() {
  const def = useResourceDef();
  const { id } = useParams();
  const mode = id === undefined ? "create" : "edit";
  const navigate = useNavigate();
  const decision = useResourceDecision(def, mode === "create" ? "create" : "update");
  const operator = useMember().kind === "operator";
  const base = useDashboardBase();
  const paths = resourcePaths(base, def.route ?? "");
  const record = useRecord(def, id);
  const row = record.data;
  const missing = record.error instanceof DataError && record.error.status === 404;
  useErrorToast(missing ? null : record.error);
  // Fields only platform operators write (a workspace's tier) are not offered to anyone else.
  const fields = useMemo(() => formFields(def, mode).filter((f) => operator || !f.operatorOnly), [def, mode, operator]);
  // A new record starts from the column defaults; a create link may preset fields (?company_id=12 from a company).
  const [params] = useSearchParams();
  const prefill = useMemo(() => {
    const out: Record<string, unknown> = columnDefaults(def);
    for (const f of fields) {
      const v = params.get(f.name);
      if (v !== null) out[f.name] = f.kind === "reference" && /^\d+$/.test(v) ? Number(v) : v;
    }
    return out;
  }, [def, fields, params]);
  const title = mode === "create" ? `New ${def.title.toLowerCase()}` : `Edit ${recordTitle(def, row)}`;
  usePageTitle(title);

  const { form, onSubmit, saving, submitting } = useRecordForm({
    def,
    fields,
    mode,
    row,
    prefill,
    onSaved: (saved) => navigate(paths.show(saved.id), { replace: mode === "create" }),
  });

  if (missing) return <RecordMissing def={def} listPath={paths.list} />;
  if (!decision.allowed) {
    return (
      <RefusedPage
        subject={mode === "create" ? `New ${def.title.toLowerCase()}` : def.title}
        refusal={decision}
        home={base}
      />
    );
  }
  const loading = mode === "edit" && !row;
  const rootError = form.formState.errors.root?.message;

  return (
    <Stack spacing={2} component="form" noValidate onSubmit={onSubmit} aria-label={title}>
      <PageCrumbs def={def} listPath={paths.list} current={mode === "create" ? "New" : recordTitle(def, row)} />
      <Typography variant="h5" component="h1">
        {title}
      </Typography>
      {rootError && <Alert severity="error">{rootError}</Alert>}
      <Card variant="outlined">
        <CardContent>
          <Box sx={{ display: "grid", gap: 2.5, gridTemplateColumns: { xs: "1fr", md: "repeat(2, minmax(0, 1fr))" } }}>
            {fields.map((f, i) => (
              <Box key={f.name} sx={{ gridColumn: WIDE.includes(f.kind) ? "1 / -1" : undefined, minWidth: 0 }}>
                {loading ? (
                  <Skeleton variant="rounded" height={56} />
                ) : (
                  <FieldInput
                    field={f}
                    control={form.control}
                    autoFocus={i === 0}
                    referenceLabel={referenceLabelOf(def, f, row)}
                  />
                )}
              </Box>
            ))}
          </Box>
        </CardContent>
      </Card>
      <Stack direction="row" spacing={1} sx={{ justifyContent: "flex-end" }}>
        <Button onClick={() => navigate(mode === "edit" && id ? paths.show(id) : paths.list)}>Cancel</Button>
        <Button type="submit" variant="contained" loading={submitting} disabled={loading}>
          {mode === "create" ? `Create ${def.title.toLowerCase()}` : "Save changes"}
        </Button>
      </Stack>
      <UnsavedChanges dirty={form.formState.isDirty} saving={saving} />
    </Stack>
  );
}

// The label a reference field's current value was embedded with, so its input shows it at once.
function referenceLabelOf(
  def: ReturnType<typeof useResourceDef>,
  f: FieldDef,
  row: Record<string, unknown> | undefined,
): string | null {
  if (f.kind !== "reference" || !row || !f.reference) return null;
  const key = embedName(def, f);
  const embedded = key ? row[key] : null;
  if (!embedded || typeof embedded !== "object") return null;
  const label = (embedded as Record<string, unknown>)[f.reference.display];
  return label === null || label === undefined ? null : String(label);
}
