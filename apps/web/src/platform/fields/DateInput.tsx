import { DatePicker } from "@mui/x-date-pickers/DatePicker";
import { DateTimePicker } from "@mui/x-date-pickers/DateTimePicker";
import type { Dayjs } from "dayjs";
import { type ReactNode, useCallback, useState } from "react";
import { type DateKind, fromPickerValue, pickerRange, toPickerValue } from "./dates.ts";

type Focusable = { focus(): void };

export type DateInputProps = {
  kind: DateKind;
  name: string;
  label: ReactNode;
  value: unknown; // the form's string: "", "YYYY-MM-DD", "YYYY-MM-DDTHH:mm" or INVALID_DATE
  onChange(value: string): void;
  onBlur(): void;
  // react-hook-form's ref, so a field the server refuses (setError with shouldFocus) gets the focus.
  inputRef?: (instance: Focusable | null) => void;
  required?: boolean;
  error?: boolean;
  helperText?: ReactNode;
  disabled?: boolean;
  autoFocus?: boolean;
  size?: "small" | "medium";
  fullWidth?: boolean; // true unless said
  min?: string; // a later first day than 1900-01-01 ("YYYY-MM-DD"), as a leave's end after its start
  testId?: string;
};

const RANGE = { date: pickerRange("date"), datetime: pickerRange("datetime") };

// A date (or date and time) picker over a form string: typed section by section or picked from the calendar,
// cleared with its button, bounded to DESIGN §2.4's range. Needs DatePickersProvider above it.
export function DateInput({
  kind,
  value,
  onChange,
  onBlur,
  inputRef,
  error,
  helperText,
  required,
  size,
  fullWidth = true,
  min: from,
  testId,
  ...rest
}: DateInputProps) {
  // The picker keeps what is being typed (year 1 on the way to 1899, a half-filled date); a value set from
  // outside (reset, prefill, the server's answer) replaces it.
  const [draft, setDraft] = useState<Dayjs | null>(null);
  const shown = draft !== null && fromPickerValue(kind, draft) === value ? draft : toPickerValue(value);
  const change = (next: Dayjs | null) => {
    setDraft(next);
    onChange(fromPickerValue(kind, next));
  };
  // The field is a row of spinbuttons (day, month, year…), not one input: focusing it means focusing the first.
  const rootRef = useCallback(
    (el: HTMLDivElement | null) =>
      inputRef?.(el && { focus: () => el.querySelector<HTMLElement>('[role="spinbutton"]')?.focus() }),
    [inputRef],
  );
  const slotProps = {
    field: { clearable: true },
    textField: { required, error, helperText, fullWidth, onBlur, size, "data-testid": testId },
  };
  const { max } = RANGE[kind];
  const later = from ? toPickerValue(from) : null;
  const min = later?.isValid() && later.isAfter(RANGE[kind].min) ? later : RANGE[kind].min;
  return kind === "date" ? (
    <DatePicker
      {...rest}
      ref={rootRef}
      value={shown}
      onChange={change}
      onClose={onBlur}
      minDate={min}
      maxDate={max}
      slotProps={slotProps}
    />
  ) : (
    <DateTimePicker
      {...rest}
      ref={rootRef}
      value={shown}
      onChange={change}
      onClose={onBlur}
      minDateTime={min}
      maxDateTime={max}
      slotProps={slotProps}
    />
  );
}
