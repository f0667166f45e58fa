import { DATE_RANGE } from "@workmetrics/domain";
import { type ReactNode, useState } from "react";
import { INVALID_DATE } from "./dates.ts";
import { LazyDateInput } from "./LazyDateInput.tsx";

export type DateFieldProps = {
  label: ReactNode;
  value: string; // "" or "YYYY-MM-DD"
  onChange(value: string): void; // "" or a whole, real day in range
  name?: string;
  required?: boolean;
  error?: boolean;
  helperText?: ReactNode;
  disabled?: boolean;
  size?: "small" | "medium";
  fullWidth?: boolean;
  min?: string;
  testId?: string;
};

// The one date field of the screens that keep their own state (dialogs, filters): the MUI date picker in the
// workspace's locale (DD/MM/YYYY in an SGD workspace), typed section by section or picked, bounded to DESIGN §2.4's
// 1900–2099. It hands up only a whole date or blank; a date being typed stays in the field until it is one.
export function DateField({ value, onChange, name, ...rest }: DateFieldProps) {
  // What the picker holds until the screen's value says otherwise: INVALID_DATE while sections are blank, a whole
  // date out of range (a year typed digit by digit passes through 0002, 0020 and 0202 — handed up, a list filter's
  // address would come back as the value and reset the sections mid-year), or the date just handed up, until the
  // screen's value arrives (a filter's address changes a render later; meanwhile the field would blank for a moment).
  const [draft, setDraft] = useState<string | null>(null);
  const [seen, setSeen] = useState(value);
  if (seen !== value) {
    setSeen(value);
    setDraft(null);
  }
  return (
    <LazyDateInput
      kind="date"
      name={name ?? (typeof rest.label === "string" ? rest.label : "date")}
      value={draft ?? value}
      onChange={(next) => {
        setDraft(next);
        const unfinished = next === INVALID_DATE || (next !== "" && (next < DATE_RANGE.min || next > DATE_RANGE.max));
        if (!unfinished) onChange(next);
      }}
      onBlur={() => {}}
      {...rest}
    />
  );
}
