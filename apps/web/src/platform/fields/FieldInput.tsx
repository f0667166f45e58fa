import Autocomplete from "@mui/material/Autocomplete";
import Chip from "@mui/material/Chip";
import FormControlLabel from "@mui/material/FormControlLabel";
import FormHelperText from "@mui/material/FormHelperText";
import InputAdornment from "@mui/material/InputAdornment";
import MenuItem from "@mui/material/MenuItem";
import Switch from "@mui/material/Switch";
import TextField from "@mui/material/TextField";
import { textLimit } from "@workmetrics/domain/resources/fields";
import type { FieldDef } from "@workmetrics/domain/resources/types";
import { type Control, useController } from "react-hook-form";
import type { Id } from "../data-access/provider.ts";
import type { FormValues } from "./convert.ts";
import { useCurrency } from "./FieldDisplay.tsx";
import { humanize } from "./format.ts";
import { LazyDateInput } from "./LazyDateInput.tsx";
import { MultiReferenceInput, ReferenceInput } from "./ReferenceInput.tsx";

type Props = {
  field: FieldDef;
  control: Control<FormValues>;
  referenceLabel?: string | null;
  disabled?: boolean;
  autoFocus?: boolean;
};

const INPUT_TYPE: Partial<Record<FieldDef["kind"], string>> = {
  email: "email",
  phone: "tel",
  url: "url",
};

const NUMERIC: Partial<Record<FieldDef["kind"], "numeric" | "decimal">> = {
  integer: "numeric",
  number: "decimal",
  money: "decimal",
  percent: "decimal",
};

// One input per field kind, bound to react-hook-form; messages come from the resource's schema or the server.
export function FieldInput({ field, control, referenceLabel, disabled, autoFocus }: Props) {
  const { field: f, fieldState } = useController({ name: field.name, control });
  const currency = useCurrency();
  const error = fieldState.error?.message;
  const common = {
    name: field.name,
    label: field.label,
    required: field.required,
    error: Boolean(error),
    helperText: error ?? field.help,
    disabled: disabled || field.readOnly,
    fullWidth: true,
    autoFocus,
    inputRef: f.ref,
    onBlur: f.onBlur,
  };

  switch (field.kind) {
    case "boolean":
      return (
        <div>
          <FormControlLabel
            control={
              <Switch
                name={field.name}
                checked={Boolean(f.value)}
                onChange={(e) => f.onChange(e.target.checked)}
                onBlur={f.onBlur}
                disabled={common.disabled}
              />
            }
            label={field.label}
          />
          {common.helperText && <FormHelperText error={Boolean(error)}>{common.helperText}</FormHelperText>}
        </div>
      );
    case "date":
    case "datetime":
      return (
        <LazyDateInput
          kind={field.kind}
          name={field.name}
          label={field.label}
          value={f.value}
          onChange={f.onChange}
          onBlur={f.onBlur}
          inputRef={f.ref}
          required={field.required}
          error={common.error}
          helperText={common.helperText}
          disabled={common.disabled}
          autoFocus={autoFocus}
        />
      );
    case "reference":
      return (
        <ReferenceInput
          field={field}
          value={(f.value as Id | null) ?? null}
          initialLabel={referenceLabel}
          onChange={f.onChange}
          onBlur={f.onBlur}
          error={error}
          disabled={common.disabled}
          inputRef={f.ref}
        />
      );
    case "enum":
    case "status":
      return (
        <TextField {...common} select value={(f.value as string) ?? ""} onChange={(e) => f.onChange(e.target.value)}>
          {!field.required && (
            <MenuItem value="">
              <em>None</em>
            </MenuItem>
          )}
          {(field.options ?? []).map((o) => (
            <MenuItem key={o} value={o}>
              {humanize(o)}
            </MenuItem>
          ))}
        </TextField>
      );
    case "tags":
      if (field.reference) {
        return (
          <MultiReferenceInput
            field={field}
            value={Array.isArray(f.value) ? (f.value as Id[]) : []}
            onChange={f.onChange}
            onBlur={f.onBlur}
            error={error}
            disabled={common.disabled}
            inputRef={f.ref}
          />
        );
      }
      return (
        <Autocomplete<string, true, false, boolean>
          multiple
          freeSolo={!field.options}
          options={[...(field.options ?? [])]}
          value={Array.isArray(f.value) ? (f.value as string[]) : []}
          onChange={(_, v) => f.onChange(v.map((s) => s.trim()).filter(Boolean))}
          disabled={common.disabled}
          renderValue={(values, getItemProps) =>
            values.map((v, index) => {
              const { key, ...itemProps } = getItemProps({ index });
              return <Chip key={key} size="small" label={v} {...itemProps} />;
            })
          }
          renderInput={(params) => (
            <TextField
              {...params}
              name={field.name}
              label={field.label}
              error={Boolean(error)}
              helperText={error ?? field.help ?? (field.options ? undefined : "Press Enter after each value")}
              inputRef={f.ref}
              onBlur={f.onBlur}
            />
          )}
        />
      );
    default: {
      const numeric = NUMERIC[field.kind];
      const adornment = field.kind === "money" ? currency : field.kind === "percent" ? "%" : null;
      return (
        <TextField
          {...common}
          type={INPUT_TYPE[field.kind] ?? "text"}
          value={(f.value as string) ?? ""}
          onChange={(e) => f.onChange(e.target.value)}
          multiline={field.kind === "textarea"}
          minRows={field.kind === "textarea" ? 3 : undefined}
          slotProps={{
            htmlInput: { inputMode: numeric, maxLength: textLimit(field) },
            input: adornment
              ? {
                  [field.kind === "money" ? "startAdornment" : "endAdornment"]: (
                    <InputAdornment position={field.kind === "money" ? "start" : "end"}>{adornment}</InputAdornment>
                  ),
                }
              : undefined,
          }}
        />
      );
    }
  }
}
