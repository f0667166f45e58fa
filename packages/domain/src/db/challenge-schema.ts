import { sql } from "drizzle-orm";
import { bigint, check, date, index, numeric, pgTable, text, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { sameWorkspace, tenantColumns, tenantKeys, timestamps } from "./columns.ts";
import { authUser, user, workspace, workspaceRole } from "./platform-schema.ts";

// Issue 12 "Team challenge" (DOCUMENTS.md: Odoo gamification's challenge, goal definition and lines). A challenge
// counts or sums one kind of document over its period for each participant; the values are never stored: the
// leaderboard is computed from the documents themselves whenever it is read (challenge module), so a cancelled
// invoice leaves it at once, and the badges of a finished challenge are its top three as computed then.

export const CHALLENGE_METRICS = [
  "quotations_sent_count",
  "quotations_sent_sum",
  "orders_confirmed_sum",
  "invoices_issued_sum",
  "receipts_collected_sum",
  "deliveries_completed_count",
] as const;
export type ChallengeMetric = (typeof CHALLENGE_METRICS)[number];

export const CHALLENGE_PERIODS = ["week", "month", "quarter", "custom"] as const;

// Stored: draft (being set up, not shown to the team), active, cancelled. Shown: an active challenge is Upcoming,
// Running or Finished by its dates (challengeState in resources/challenge.ts).
export const CHALLENGE_STATUSES = ["draft", "active", "cancelled"] as const;

export const teamChallenge = pgTable(
  "team_challenge",
  {
    ...tenantColumns,
    name: text("name").notNull(),
    description: text("description"),
    metric: text("metric", { enum: CHALLENGE_METRICS }).notNull(),
    periodKind: text("period_kind", { enum: CHALLENGE_PERIODS }).notNull().default("month"),
    startDate: date("start_date").notNull(),
    endDate: date("end_date").notNull(),
    defaultTarget: numeric("default_target", { precision: 14, scale: 2 }), // each participant's, unless theirs is set
    status: text("status", { enum: CHALLENGE_STATUSES }).notNull().default("active"),
    createdBy: uuid("created_by").references(() => authUser.id),
    ...timestamps,
  },
  (t) => [
    ...tenantKeys("team_challenge", t, workspace),
    index("team_challenge_period_idx").on(t.workspaceId, t.endDate, t.startDate),
    check("team_challenge_dates_in_order", sql`${t.endDate} >= ${t.startDate}`),
    check("team_challenge_target_positive", sql`${t.defaultTarget} is null or ${t.defaultTarget} > 0`),
  ],
).enableRLS();

// Who takes part: a user, or everyone holding a workspace role (a role's target applies to each of its users; a
// user's own row wins over their role's).
export const teamChallengeParticipant = pgTable(
  "team_challenge_participant",
  {
    ...tenantColumns,
    challengeId: bigint("challenge_id", { mode: "number" }).notNull(),
    userId: uuid("user_id"),
    workspaceRoleId: bigint("workspace_role_id", { mode: "number" }),
    target: numeric("target", { precision: 14, scale: 2 }),
    ...timestamps,
  },
  (t) => [
    ...tenantKeys("team_challenge_participant", t, workspace),
    uniqueIndex("team_challenge_participant_user_key").on(t.workspaceId, t.challengeId, t.userId),
    uniqueIndex("team_challenge_participant_role_key").on(t.workspaceId, t.challengeId, t.workspaceRoleId),
    sameWorkspace("team_challenge_participant_challenge_fk", [t.workspaceId, t.challengeId], teamChallenge, "cascade"),
    sameWorkspace("team_challenge_participant_user_fk", [t.workspaceId, t.userId], user),
    sameWorkspace("team_challenge_participant_role_fk", [t.workspaceId, t.workspaceRoleId], workspaceRole),
    check("team_challenge_participant_one_kind", sql`(${t.userId} is null) <> (${t.workspaceRoleId} is null)`),
    check("team_challenge_participant_target_positive", sql`${t.target} is null or ${t.target} > 0`),
  ],
).enableRLS();

// A member's calendar feed (/api/calendar/<token>.ics): only the token's SHA-256 is kept; regenerating replaces it,
// so the old address stops answering.
export const calendarFeed = pgTable(
  "calendar_feed",
  {
    ...tenantColumns,
    userId: uuid("user_id").notNull(),
    tokenHash: text("token_hash").notNull(),
    ...timestamps,
  },
  (t) => [
    ...tenantKeys("calendar_feed", t, workspace),
    uniqueIndex("calendar_feed_user_key").on(t.workspaceId, t.userId),
    uniqueIndex("calendar_feed_token_hash_key").on(t.tokenHash),
    sameWorkspace("calendar_feed_user_fk", [t.workspaceId, t.userId], user, "cascade"),
  ],
).enableRLS();
