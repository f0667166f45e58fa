import type { ResourceDef } from "./types.ts";

// Resources for commission rules and statements (issue 12).
export const COMMISSION_RESOURCES: readonly ResourceDef[] = [];
