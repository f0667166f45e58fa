import Box from "@mui/material/Box";
import Grid from "@mui/material/Grid";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import type { FieldDef } from "@workmetrics/domain/resources/types";
import { useContext } from "react";
import { useDataProvider } from "../../platform/data-access/provider.ts";
import { DateField } from "../../platform/fields/DateField.tsx";
import { formatDate } from "../../platform/fields/format.ts";
import { useReadable } from "../../platform/resource/access.ts";
import { useViewer } from "../../platform/session/viewer.tsx";
import type { FormState } from "./documentForm.ts";
import { Picker } from "./Picker.tsx";
import { DocumentLabels, RecordField } from "./RecordField.tsx";
import { hasCustomer, type WebDocType } from "./types.ts";

// A document's header on its page: the customer (or supplier) and contact, project, date, currency and rate, the
// type's own fields by their kind, notes and terms (each only where the type's form has it); read-only past draft
// or for whoever may not edit it.

export function DocumentHeaderForm(props: {
  t: WebDocType;
  form: FormState;
  setForm: React.Dispatch<React.SetStateAction<FormState>>;
  setHeader(name: string, v: unknown): void;
  extras: FieldDef[];
  readOnly: boolean;
  errors: Record<string, string>;
}) {
  const { t, form, setForm, setHeader, extras, readOnly, errors } = props;
  const h = form.header;
  const text = (name: string) => (h[name] === null || h[name] === undefined ? "" : String(h[name]));
  const field = (name: string) => t.header.fields.find((f) => f.name === name);
  // A field the type keeps off its form (an expense claim's currency and terms: form: false) is not shown at all.
  const shown = (name: string) => field(name)?.form !== false;
  const companyId = h.company_id == null ? null : Number(h.company_id);
  const customer = hasCustomer(t);
  const labels = useContext(DocumentLabels);
  const named = (resource: string, id: unknown) => (id == null ? undefined : labels[resource]?.[String(id)]);
  const data = useDataProvider();
  const { currency: base } = useViewer();
  const readable = useReadable();
  const project = field("project_id");
  const foreign = text("currency") !== "" && text("currency") !== base;
  // A customer chosen: its primary contact (else its first) fills the contact, unless one was chosen meanwhile.
  const defaultContact = async (id: number) => {
    if (!readable("contact")) return;
    const found = await data
      .getList("contact", {
        select: "id,name,company_id",
        filters: [{ column: "company_id", op: "eq", value: String(id) }],
        order: [
          { column: "is_primary", ascending: false },
          { column: "id", ascending: true },
        ],
        range: [0, 0],
      })
      .catch(() => null);
    const first = found?.data[0];
    if (!first) return;
    setForm((s) =>
      s.header.company_id === id && s.header.contact_id == null
        ? { ...s, contact: first, header: { ...s.header, contact_id: Number(first.id) } }
        : s,
    );
  };
  return (
    <Grid container spacing={2}>
      {customer && (
        <Grid size={{ xs: 12, sm: 6 }}>
          {readOnly ? (
            <ReadOnly
              label={field("company_id")?.label ?? "Customer"}
              value={form.company ? String(form.company.name) : (named("company", h.company_id) ?? "—")}
            />
          ) : (
            <Picker
              resource="company"
              label={field("company_id")?.label ?? "Customer"}
              required
              select="id,name"
              display="name"
              search={["name"]}
              // Suppliers on the buying documents, customers on the others.
              filters={[{ column: t.machine.buying ? "is_supplier" : "is_customer", op: "eq", value: "true" }]}
              value={form.company}
              onChange={(r) => {
                setForm((s) => ({
                  ...s,
                  company: r,
                  contact: r && s.contact && s.contact.company_id === r.id ? s.contact : null,
                  header: { ...s.header, company_id: r ? Number(r.id) : null, contact_id: null },
                }));
                if (r) void defaultContact(Number(r.id));
              }}
              size="small"
              error={errors.company_id}
              autoFocus={!h.company_id}
              testId="doc-customer"
            />
          )}
        </Grid>
      )}
      {customer && (
        <Grid size={{ xs: 12, sm: 6 }}>
          {readOnly ? (
            <ReadOnly
              label="Contact"
              value={form.contact ? String(form.contact.name) : (named("contact", h.contact_id) ?? "—")}
            />
          ) : (
            <Picker
              resource="contact"
              label="Contact"
              select="id,name,company_id"
              display="name"
              search={["name", "email"]}
              filters={companyId ? [{ column: "company_id", op: "eq", value: String(companyId) }] : []}
              value={form.contact}
              onChange={(r) =>
                setForm((s) => ({ ...s, contact: r, header: { ...s.header, contact_id: r ? Number(r.id) : null } }))
              }
              size="small"
              disabled={!companyId}
              error={errors.contact_id}
            />
          )}
        </Grid>
      )}
      {project && (readable("project") || h.project_id != null) && (
        <Grid size={{ xs: 12, sm: 6 }}>
          {readOnly ? (
            <Box>
              <Typography variant="caption" color="text.secondary">
                {project.label}
              </Typography>
              <RecordField field={project} value={h.project_id} onChange={() => undefined} readOnly />
            </Box>
          ) : (
            <RecordField
              field={project}
              value={h.project_id}
              onChange={(v) => setHeader("project_id", v)}
              error={errors.project_id}
            />
          )}
        </Grid>
      )}
      {/* A picker's dd/mm/yyyy and its calendar button need more room than a three-letter currency (at 390 px too). */}
      <Grid size={{ xs: 8, sm: 4 }}>
        {readOnly ? (
          <ReadOnly label="Date" value={formatDate(text("doc_date")) || "—"} />
        ) : (
          <DateField
            label="Date"
            size="small"
            value={text("doc_date")}
            onChange={(v) => setHeader("doc_date", v || null)}
            error={Boolean(errors.doc_date)}
            helperText={errors.doc_date}
          />
        )}
      </Grid>
      {shown("currency") && (
        <Grid size={{ xs: 4, sm: 2 }}>
          {readOnly ? (
            <ReadOnly label="Currency" value={text("currency") || "—"} />
          ) : (
            <TextField
              label="Currency"
              size="small"
              fullWidth
              value={text("currency")}
              onChange={(e) => setHeader("currency", e.target.value.toUpperCase() || null)}
              error={Boolean(errors.currency)}
              helperText={errors.currency}
              slotProps={{ htmlInput: { maxLength: 3 } }}
            />
          )}
        </Grid>
      )}
      {/* Another currency than the workspace's: its rate to the base (the project's factor when it has one). */}
      {foreign && field("rate") && shown("rate") && (
        <Grid size={{ xs: 6, sm: 3 }}>
          {readOnly ? (
            <ReadOnly label={`Rate in ${base} per ${text("currency")}`} value={text("rate") || "—"} />
          ) : (
            <TextField
              label={`Rate in ${base}`}
              size="small"
              fullWidth
              value={text("rate")}
              onChange={(e) => setHeader("rate", e.target.value.trim() || null)}
              error={Boolean(errors.rate)}
              helperText={errors.rate ?? `Per 1 ${text("currency")}; empty: the project's`}
              slotProps={{ htmlInput: { inputMode: "decimal", "aria-label": "Exchange rate" } }}
            />
          )}
        </Grid>
      )}
      {extras.map((f) => (
        <Grid key={f.name} size={{ xs: 12, sm: 6, md: f.kind === "date" ? 4 : 3 }}>
          {readOnly ? (
            <Box>
              <Typography variant="caption" color="text.secondary">
                {f.label}
              </Typography>
              <RecordField field={f} value={h[f.name]} onChange={() => undefined} readOnly />
            </Box>
          ) : (
            <RecordField field={f} value={h[f.name]} onChange={(v) => setHeader(f.name, v)} error={errors[f.name]} />
          )}
        </Grid>
      ))}
      {(["notes", "terms"] as const).map((name) =>
        field(name) && shown(name) ? (
          <Grid key={name} size={{ xs: 12, md: 6 }}>
            {readOnly ? (
              <ReadOnly label={field(name)?.label ?? name} value={text(name) || "—"} multiline />
            ) : (
              <TextField
                label={field(name)?.label}
                size="small"
                fullWidth
                multiline
                minRows={2}
                value={text(name)}
                onChange={(e) => setHeader(name, e.target.value || null)}
                error={Boolean(errors[name])}
                helperText={errors[name]}
              />
            )}
          </Grid>
        ) : null,
      )}
    </Grid>
  );
}

function ReadOnly({ label, value, multiline }: { label: string; value: string; multiline?: boolean }) {
  return (
    <Box>
      <Typography variant="caption" color="text.secondary">
        {label}
      </Typography>
      <Typography variant="body1" sx={{ whiteSpace: multiline ? "pre-wrap" : undefined }}>
        {value}
      </Typography>
    </Box>
  );
}
