import type { ResourceDef } from "./types.ts";

// Resources for supplier discount forms and project registrations, each with its public page (issue 11).
export const PARTNERS_RESOURCES: readonly ResourceDef[] = [];
