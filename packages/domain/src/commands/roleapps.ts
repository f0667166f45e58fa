import { z } from "zod";
import { dbId, defineCommand, id, instant } from "./define.ts";

// Issue 22 "Offline": an action a role app kept offline and the server refused on replay (stock gone, document
// cancelled meanwhile) is reported here by the app, so a manager sees it as a conflict to resolve — never dropped.

export const ROLE_APP_NAMES = ["driver", "warehouse", "pos"] as const;

export const offlineConflictView = z.object({
  id: dbId,
  app: z.string(),
  command: z.string(),
  label: z.string(),
  args_summary: z.string(),
  code: z.string(),
  message: z.string(),
  key: z.string(),
  user_id: z.string(),
  user_name: z.string().nullable(),
  acted_at: instant.nullable(),
  created_at: instant,
  resolved_at: instant.nullable(),
  resolved_by_name: z.string().nullable(),
  resolution_note: z.string().nullable(),
});
export type OfflineConflictView = z.output<typeof offlineConflictView>;

export const offlineConflictReport = defineCommand({
  name: "offline_conflict_report",
  args: z.object({
    app: z.enum(ROLE_APP_NAMES, { message: "The app is driver, warehouse or pos" }),
    command: z.string().trim().min(1).max(100),
    label: z.string().trim().min(1).max(300),
    args_summary: z.string().max(2000).default(""),
    code: z.string().trim().min(1).max(100),
    message: z.string().trim().min(1).max(2000),
    key: z.string().trim().min(1).max(200), // the refused action's Idempotency-Key: one report per action
    acted_at: z.string().datetime({ offset: true, message: "Give the time the person acted as an ISO timestamp" }),
  }),
  result: offlineConflictView,
  permission: null, // any member reports their own refused actions
  does: "report an offline conflict",
});

export const offlineConflictResolve = defineCommand({
  name: "offline_conflict_resolve",
  args: z.object({ id, note: z.string().trim().max(1000).nullish() }),
  result: offlineConflictView,
  permission: "offline_conflict.resolve",
  does: "resolve offline conflicts",
});

// The managers' list (owners and admins: offline_conflict.resolve), open ones first.
export const offlineConflictList = defineCommand({
  name: "offline_conflict_list",
  args: z.object({
    status: z.enum(["open", "resolved", "all"]).default("open"),
    limit: z.number().int().min(1).max(500).default(100),
  }),
  result: z.object({ rows: z.array(offlineConflictView), open: z.number() }),
  permission: "offline_conflict.resolve",
  does: "see offline conflicts",
});

export const ROLEAPPS_COMMANDS = [offlineConflictReport, offlineConflictResolve, offlineConflictList] as const;

// Who sees the back office's conflict page (the list's own permission).
export const OFFLINE_CONFLICT_ACCESS = {
  audience: "member",
  permission: "offline_conflict.resolve",
  does: "resolve offline conflicts",
  subject: "Offline conflicts",
} as const;
