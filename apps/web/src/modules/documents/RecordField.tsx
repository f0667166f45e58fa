import MenuItem from "@mui/material/MenuItem";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { useQuery } from "@tanstack/react-query";
import type { FieldDef } from "@workmetrics/domain/resources/types";
import { useDataProvider } from "../../platform/data-access/provider.ts";
import { formatDate, formatNumber, humanize } from "../../platform/fields/format.ts";
import { resourceByName } from "../../platform/resource/definition.ts";
import { Picker } from "./Picker.tsx";

// One of a type's own fields on the document page (valid until, customer PO, a delivery's location …), edited or
// shown by its kind, so a type declared later gets its fields without code here.

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
  const ref = field.reference as { resource: string; display: string };
  const id = value === null || value === undefined || value === "" ? null : Number(value);
  const label = useQuery({
    queryKey: [ref.resource, "one", String(id), ref.display],
    queryFn: () => data.getOne(ref.resource, id as number, `id,${ref.display}`),
    enabled: id !== null,
    staleTime: 60_000,
  });
  if (readOnly)
    return <Typography variant="body2">{id === null ? "—" : String(label.data?.[ref.display] ?? "…")}</Typography>;
  const target = resourceByName(ref.resource);
  return (
    <Picker
      resource={ref.resource}
      label={field.label}
      hideLabel={dense}
      select={`id,${ref.display}`}
      display={ref.display}
      search={target.search.length ? target.search : [ref.display]}
      value={id === null ? null : (label.data ?? { id, [ref.display]: "…" })}
      onChange={(r) => onChange(r ? Number(r.id) : null)}
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
        <TextField
          {...common}
          type="date"
          slotProps={{ inputLabel: { shrink: true }, htmlInput: { "aria-label": field.label } }}
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
