import { DataError } from "../data-access/errors.ts";

// Refusals (not signed in, not allowed, not on this plan, not offered): the page says so in place of its content,
// so a toast would say it twice (issue 9 §2).
const REFUSALS = new Set([401, 403, 405]);

// What a failed query's toast says, or null when it gets none.
export function toastMessage(error: unknown): string | null {
  if (!(error instanceof Error)) return null;
  if (error instanceof DataError && REFUSALS.has(error.status)) return null;
  return error.message;
}
