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
  const [typing, setTyping] = useState(false);
  return (
    <LazyDateInput
      kind="date"
      name={name ?? (typeof rest.label === "string" ? rest.label : "date")}
      value={typing ? INVALID_DATE : value}
      onChange={(next) => {
        setTyping(next === INVALID_DATE);
        if (next !== INVALID_DATE) onChange(next);
      }}
      onBlur={() => {}}
      {...rest}
    />
  );
}
