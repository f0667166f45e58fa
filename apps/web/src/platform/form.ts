import type { FieldPath, FieldValues, UseFormReturn } from "react-hook-form";
import toast from "react-hot-toast";
import { ApiError } from "./api.ts";

type Form<T extends FieldValues> = Pick<UseFormReturn<T>, "register" | "formState" | "setError">;

// A MUI TextField bound to react-hook-form. inputRef, not ref: MUI's select keeps its value in a hidden input
// that react-hook-form can read.
export function textField<T extends FieldValues>(form: Form<T>, name: FieldPath<T>) {
  const { ref, ...rest } = form.register(name);
  const error = form.formState.errors[name];
  return {
    ...rest,
    inputRef: ref,
    error: Boolean(error),
    helperText: error?.message as string | undefined,
    fullWidth: true,
  };
}

// A failed submit: the server's field errors go on their fields, its message into a toast.
export function reportSubmitError<T extends FieldValues>(form: Form<T>, err: unknown, fallback: string): void {
  if (err instanceof ApiError) {
    for (const [field, message] of Object.entries(err.fieldErrors())) form.setError(field as FieldPath<T>, { message });
  }
  toast.error(err instanceof Error ? err.message : fallback);
}
