import { z } from "zod";
import type { Requirement } from "../access.ts";
import type { calendarEvents, challengeView } from "../commands/challenge.ts";
import {
  CHALLENGE_METRICS,
  CHALLENGE_PERIODS,
  CHALLENGE_STATUSES,
  type ChallengeMetric,
  teamChallenge,
  teamChallengeParticipant,
} from "../db/challenge-schema.ts";
import { CATALOG } from "./catalog.ts";
import { defineResource } from "./define.ts";
import { auditFields, f, idField } from "./fields.ts";
import type { ResourceDef } from "./types.ts";

// Issue 12 "Team challenge": challenges, their participants and targets. Written by the challenge module's commands
// only (team_challenge_save / _cancel); /rest/v1 reads them. The leaderboard is computed, never stored.

const ro = { readOnly: true, form: false };

export const METRIC_LABELS: Record<ChallengeMetric, string> = {
  quotations_sent_count: "Quotations sent (count)",
  quotations_sent_sum: "Quotations sent (value)",
  orders_confirmed_sum: "Orders confirmed (value)",
  invoices_issued_sum: "Invoices issued (value)",
  receipts_collected_sum: "Receipts collected (value)",
  deliveries_completed_count: "Deliveries completed (count)",
};

// A count metric's values and targets are whole numbers; the others are money (excluding GST, in the base currency).
export const isCountMetric = (m: string): boolean => m.endsWith("_count");

// The realtime topic on which the server broadcasts "changed" when a leaderboard may have moved (issue 20 §4: the
// web joins it with supabase.channel(CHALLENGE_TOPIC)).
export const CHALLENGE_TOPIC = "team_challenge";

// The document types whose changes may move a metric (the realtime channel's "leaderboard may have changed").
export const METRIC_DOCUMENTS: Record<ChallengeMetric, string> = {
  quotations_sent_count: "quotation",
  quotations_sent_sum: "quotation",
  orders_confirmed_sum: "sales_order",
  invoices_issued_sum: "invoice",
  receipts_collected_sum: "receipt",
  deliveries_completed_count: "delivery_order",
};

// Who may do what (the server's commands and the web's offers read the same): everyone reading team challenges
// sees the leaderboards; sales managers (team_challenge.*) set them up; every member of a Pro workspace has the
// calendar, each of its sources under that document's own read permission.
const need = (permission: string | null, does: string): Requirement => ({
  audience: "member",
  permission,
  does,
  feature: "hr",
  subject: "Team challenges",
});
export const CHALLENGE_ACCESS = {
  read: need("team_challenge.read", "read team challenges"),
  create: need("team_challenge.create", "set up team challenges"),
  update: need("team_challenge.update", "change team challenges"),
  calendar: need(null, "use the calendar"),
} as const;

export type ChallengeState = "draft" | "upcoming" | "running" | "finished" | "cancelled";

// What the team sees: a stored draft or cancelled challenge is that; an active one is placed by its dates (days as
// YYYY-MM-DD compare as text).
export function challengeState(c: { status: string; start_date: string; end_date: string }, today: string) {
  if (c.status === "draft" || c.status === "cancelled") return c.status as ChallengeState;
  if (today < c.start_date) return "upcoming";
  return today > c.end_date ? "finished" : "running";
}

const iso = (d: Date) => d.toISOString().slice(0, 10);

// The period of kind `kind` holding `day` (weeks start on Monday, as in Singapore's calendar).
export function periodOf(kind: "week" | "month" | "quarter", day: string): { start: string; end: string } {
  const d = new Date(`${day}T00:00:00Z`);
  if (kind === "week") {
    const start = new Date(d);
    start.setUTCDate(d.getUTCDate() - ((d.getUTCDay() + 6) % 7));
    const end = new Date(start);
    end.setUTCDate(start.getUTCDate() + 6);
    return { start: iso(start), end: iso(end) };
  }
  const months = kind === "month" ? 1 : 3;
  const first = kind === "month" ? d.getUTCMonth() : d.getUTCMonth() - (d.getUTCMonth() % 3);
  const start = new Date(Date.UTC(d.getUTCFullYear(), first, 1));
  const end = new Date(Date.UTC(d.getUTCFullYear(), first + months, 0));
  return { start: iso(start), end: iso(end) };
}

export const teamChallengeResource = defineResource({
  ...CATALOG.team_challenge,
  table: teamChallenge,
  display: "name",
  search: ["name", "description"],
  defaultOrder: "start_date.desc,id.desc",
  fields: [
    idField(),
    f.name("name", "Name", { required: true, list: true, width: 220 }),
    f.textarea("description", "Description", { maxLength: 2000 }),
    f.enum("metric", "Goal", CHALLENGE_METRICS, { required: true, list: true, width: 200 }),
    f.enum("period_kind", "Period", CHALLENGE_PERIODS, { required: true, list: true, width: 110 }),
    f.date("start_date", "Starts", { required: true, list: true }),
    f.date("end_date", "Ends", { required: true, list: true }),
    f.money("default_target", "Target per participant", { min: 0, list: true }),
    f.status("status", "Status", CHALLENGE_STATUSES, { list: true, width: 110 }),
    f.ref("created_by", "Set by", "user", "name", ro),
    ...auditFields,
  ],
  relations: {
    participants: { resource: "team_challenge_participant", kind: "many", column: "challenge_id", references: "id" },
  },
  rules: [
    {
      fields: ["start_date", "end_date"],
      check: (v) => String(v.end_date) >= String(v.start_date),
      field: "end_date",
      message: "The challenge must end on or after the day it starts",
      constraint: "team_challenge_dates_in_order",
    },
  ],
  checks: {
    team_challenge_target_positive: { field: "default_target", message: "The target must be more than 0" },
  },
});

export const teamChallengeParticipantResource = defineResource({
  ...CATALOG.team_challenge_participant,
  table: teamChallengeParticipant,
  display: "id",
  search: [],
  defaultOrder: "challenge_id.asc,id.asc",
  keptCount: false,
  fields: [
    idField(),
    f.ref("challenge_id", "Challenge", "team_challenge", "name", { required: true }),
    f.ref("user_id", "User", "user", "name", { list: true }),
    f.ref("workspace_role_id", "Role", "workspace_role", "title", { list: true }),
    f.money("target", "Target", { min: 0, list: true }),
    ...auditFields,
  ],
  relations: {
    challenge: { resource: "team_challenge", kind: "one", column: "challenge_id", references: "id" },
    user: { resource: "user", kind: "one", column: "user_id", references: "id" },
    workspace_role: { resource: "workspace_role", kind: "one", column: "workspace_role_id", references: "id" },
  },
  rules: [
    {
      fields: ["user_id", "workspace_role_id"],
      check: (v) => (v.user_id == null) !== (v.workspace_role_id == null),
      field: "user_id",
      message: "Name a user or a role",
      constraint: "team_challenge_participant_one_kind",
    },
  ],
  checks: {
    team_challenge_participant_target_positive: { field: "target", message: "The target must be more than 0" },
    team_challenge_participant_user_key: { field: "user_id", message: "This user already takes part" },
    team_challenge_participant_role_key: { field: "workspace_role_id", message: "This role already takes part" },
  },
});

export const CHALLENGE_RESOURCES: readonly ResourceDef[] = [teamChallengeResource, teamChallengeParticipantResource];

// ---- the commands' shapes, shared by the page and the server ---------------------------------------------------

const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "Give a date as YYYY-MM-DD");
const target = z
  .union([z.string(), z.number()])
  .transform((v) => String(v).trim())
  .refine((v) => v === "" || (/^\d{1,12}(\.\d{1,2})?$/.test(v) && Number(v) > 0), "The target must be more than 0")
  .transform((v) => (v === "" ? null : v))
  .nullish();

export const ChallengeSave = z
  .object({
    id: z.number().int().positive().optional(),
    name: z.string({ error: "Give the challenge a name" }).trim().min(1, "Give the challenge a name").max(200),
    description: z.string().trim().max(2000).nullish(),
    metric: z.enum(CHALLENGE_METRICS, { error: "Choose what the challenge counts" }),
    period_kind: z.enum(CHALLENGE_PERIODS, { error: "Choose the period" }),
    start_date: day,
    end_date: day,
    default_target: target,
    status: z.enum(["draft", "active"]).default("active"),
    participants: z
      .array(
        z.object({
          user_id: z.string().uuid().nullish(),
          workspace_role_id: z.number().int().positive().nullish(),
          target,
        }),
      )
      .min(1, "Add at least one participant (a user or a role)")
      .max(500),
  })
  .refine((v) => v.end_date >= v.start_date, {
    message: "The challenge must end on or after the day it starts",
    path: ["end_date"],
  });
export type ChallengeSaveInput = z.input<typeof ChallengeSave>;

// What the commands answer, declared once with them (commands/challenge.ts).
export type ChallengeView = z.output<typeof challengeView>;
export type LeaderboardRow = ChallengeView["leaderboard"][number];

// One event of the calendar (and of the .ics feed): all-day, from start to end inclusive, opening its document.
export type CalendarEvent = z.output<typeof calendarEvents.result>[number];
