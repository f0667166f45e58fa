import type { ResourceDef } from "./types.ts";

// Resources for progressive claims and retention (issue 12).
export const CLAIMS_RESOURCES: readonly ResourceDef[] = [];
