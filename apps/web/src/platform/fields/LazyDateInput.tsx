import TextField from "@mui/material/TextField";
import { lazy, Suspense } from "react";
import type { DateInputProps } from "./DateInput.tsx";

// The pickers load with the first date field on screen, not with every form or public page that might show one
// (and so never with the landing page).
const DateInput = lazy(() => import("./DateInput.tsx").then((m) => ({ default: m.DateInput })));

export function LazyDateInput(props: DateInputProps) {
  const { label, name, required, helperText, error, size, fullWidth = true } = props;
  // Same label and height while loading, so the form does not shift.
  const placeholder = (
    <TextField {...{ label, name, required, helperText, error, size, fullWidth }} disabled value="" />
  );
  return (
    <Suspense fallback={placeholder}>
      <DateInput {...props} />
    </Suspense>
  );
}
