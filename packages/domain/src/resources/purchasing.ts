import type { ResourceDef } from "./types.ts";

// Resources for purchase orders, supplier delivery orders, supplier invoices, the three-way check, supplier payments (issue 11).
export const PURCHASING_RESOURCES: readonly ResourceDef[] = [];
