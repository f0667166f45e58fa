import type { ResourceDef } from "./types.ts";

// Resources for goods transfer forms, loan forms, stock levels and reorder levels (issue 11).
export const INVENTORY_RESOURCES: readonly ResourceDef[] = [];
