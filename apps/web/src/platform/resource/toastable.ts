import { refusal } from "../data-access/errors.ts";

// What a failed query's toast says, or null when it gets none: a refusal (not signed in, not allowed, not on this
// plan, not offered) is said by the page in place of its content, and a toast would say it twice (issue 9 §2).
export function toastMessage(error: unknown): string | null {
  if (!(error instanceof Error) || refusal(error) !== null) return null;
  return error.message;
}
