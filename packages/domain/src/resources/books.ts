import type { ResourceDef } from "./types.ts";

// Resources for the books: bank accounts, the lock date, year-end closes, opening balances (issue 12).
export const BOOKS_RESOURCES: readonly ResourceDef[] = [];
