import type { ResourceDef } from "./types.ts";

// Resources for supplier payments and accounts payable (issue 11).
export const PAYABLES_RESOURCES: readonly ResourceDef[] = [];
