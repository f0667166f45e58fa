import MenuItem from "@mui/material/MenuItem";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { useQuery } from "@tanstack/react-query";
import type { FieldDef } from "@workmetrics/domain/resources/types";
import { createContext, useContext } from "react";
import { useDataProvider } from "../../platform/data-access/provider.ts";
import { DateField } from "../../platform/fields/DateField.tsx";
import { formatDate, formatNumber, humanize } from "../../platform/fields/format.ts";
import { useChoiceFilters } from "../../platform/fields/placeFilters.ts";
import { useReadable } from "../../platform/resource/access.ts";
import { resourceByName } from "../../platform/resource/definition.ts";
import type { DocLabels } from "./api.ts";
import { Picker } from "./Picker.tsx";

// One of a type's own fields on the document page (valid until, customer PO, a delivery's location …), edited or
// shown by its kind, so a type declared later gets its fields without code here.

const uuidOrNumber = (v: unknown): number | string => (/^\d+$/.test(String(v)) ? Number(v) : String(v));

// The names the server gave for the document's references the member may not read (document_labels).
export const DocumentLabels = createContext<DocLabels>({});

type Props = {
  field: FieldDef;
  value: unknown;
  onChange(value: unknown): void;
  readOnly?: boolean;
  dense?: boolean;
  error?: string;
};

function ReferenceField({ field, value, onChange, readOnly, dense, error }: Props) {
  const data = useDataProvider();
  const ref = field.reference as NonNullable<typeof field.reference>;
  // A user's id is a uuid; every other record's a number.
  const id = value === null || value === undefined || value === "" ? null : uuidOrNumber(value);
  const readable = useReadable()(ref.resource);
  const named = useContext(DocumentLabels)[ref.resource]?.[String(id)];
  const narrowed = useChoiceFilters(ref.resource);
  const label = useQuery({
    queryKey: [ref.resource, "one", String(id), ref.display],
    queryFn: () => data.getOne(ref.resource, id as number | string, `id,${ref.display}`),
    enabled: id !== null && readable,
    staleTime: 60_000,
  });
  if (readOnly)
    return (
      <Typography variant="body2">{id === null ? "—" : String(label.data?.[ref.display] ?? named ?? "…")}</Typography>
    );
  const target = resourceByName(ref.resource);
  return (
    <Picker
      resource={ref.resource}
      label={field.label}
      hideLabel={dense}
      select={`id,${ref.display}`}
      display={ref.display}
      filters={[
        ...Object.entries(ref.where ?? {}).map(([column, v]) => ({ column, op: "eq" as const, value: v })),
        ...narrowed,
      ]}
      search={target.search.length ? target.search : [ref.display]}
      value={id === null ? null : (label.data ?? { id, [ref.display]: named ?? "…" })}
      onChange={(r) => onChange(r ? uuidOrNumber(r.id) : null)}
      size="small"
      variant={dense ? "standard" : "outlined"}
      required={field.required}
      error={error}
    />
  );
}

export function RecordField(props: Props) {
  const { field, value, onChange, readOnly, dense, error } = props;
  if (field.kind === "reference" && field.reference) return <ReferenceField {...props} />;
  const text = value === null || value === undefined ? "" : String(value);
  if (readOnly) {
    const shown =
      field.kind === "date"
        ? formatDate(text)
        : ["number", "money", "integer", "percent"].includes(field.kind)
          ? formatNumber(text)
          : field.kind === "enum"
            ? humanize(text)
            : text;
    return <Typography variant="body2">{shown || "—"}</Typography>;
  }
  const common = {
    label: dense ? undefined : field.label,
    size: "small" as const,
    fullWidth: true,
    variant: dense ? ("standard" as const) : ("outlined" as const),
    value: text,
    error: Boolean(error),
    helperText: error,
    required: field.required,
    onChange: (e: React.ChangeEvent<HTMLInputElement>) => onChange(e.target.value === "" ? null : e.target.value),
  };
  switch (field.kind) {
    case "date":
      return (
        <DateField
          label={common.label}
          name={field.label}
          size="small"
          value={text}
          error={common.error}
          helperText={common.helperText}
          required={common.required}
          onChange={(v) => onChange(v === "" ? null : v)}
        />
      );
    case "enum":
      return (
        <TextField {...common} select slotProps={{ htmlInput: { "aria-label": field.label } }}>
          <MenuItem value="">—</MenuItem>
          {(field.options ?? []).map((o) => (
            <MenuItem key={o} value={o}>
              {humanize(o)}
            </MenuItem>
          ))}
        </TextField>
      );
    case "textarea":
      return <TextField {...common} multiline minRows={2} slotProps={{ htmlInput: { "aria-label": field.label } }} />;
    case "number":
    case "money":
    case "integer":
    case "percent":
      return <TextField {...common} slotProps={{ htmlInput: { inputMode: "decimal", "aria-label": field.label } }} />;
    default:
      return <TextField {...common} slotProps={{ htmlInput: { "aria-label": field.label } }} />;
  }
}
