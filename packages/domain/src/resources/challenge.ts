import type { ResourceDef } from "./types.ts";

// Resources for team challenges, their participants and targets (issue 12).
export const CHALLENGE_RESOURCES: readonly ResourceDef[] = [];
