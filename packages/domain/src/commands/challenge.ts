import { z } from "zod";
import { CHALLENGE_METRICS } from "../db/challenge-schema.ts";
import { ChallengeSave } from "../resources/challenge.ts";
import { decimal, defineCommand, id } from "./define.ts";

// Issue 12 "Team challenge" and the calendar (modules/challenge on the server; HR feature, Pro).

const leaderboardRow = z.object({
  user_id: z.string(),
  name: z.string(),
  email: z.string(),
  value: decimal, // a count or an amount
  documents: z.number(),
  target: decimal.nullable(),
  percent: decimal.nullable(),
  rank: z.number(),
  badge: z.union([z.literal(1), z.literal(2), z.literal(3), z.null()]),
});

export const challengeView = z.object({
  id: z.number(),
  name: z.string(),
  description: z.string().nullable(),
  metric: z.enum(CHALLENGE_METRICS),
  period_kind: z.string(),
  start_date: z.string(),
  end_date: z.string(),
  default_target: decimal.nullable(),
  status: z.string(),
  state: z.enum(["draft", "upcoming", "running", "finished", "cancelled"]),
  participants: z.array(
    z.object({ user_id: z.string().nullable(), workspace_role_id: z.number().nullable(), target: decimal.nullable() }),
  ),
  leaderboard: z.array(leaderboardRow),
  total: decimal,
});

export const teamChallengeSave = defineCommand({
  name: "team_challenge_save",
  args: ChallengeSave,
  result: challengeView,
  permission: null, // create or update, decided inside by whether an id is given
  feature: "hr",
});

export const teamChallengeCancel = defineCommand({
  name: "team_challenge_cancel",
  args: z.object({ id }),
  result: challengeView,
  permission: "team_challenge.update",
  does: "cancel team challenges",
  feature: "hr",
});

export const teamChallenges = defineCommand({
  name: "team_challenges",
  args: z.object({}).optional(),
  result: z.array(challengeView),
  permission: "team_challenge.read",
  does: "read team challenges",
  feature: "hr",
});

export const challengeLeaderboard = defineCommand({
  name: "challenge_leaderboard",
  args: z.object({ id }),
  result: challengeView,
  permission: "team_challenge.read",
  does: "read team challenges",
  feature: "hr",
});

const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "Give a date as YYYY-MM-DD");

export const calendarEvents = defineCommand({
  name: "calendar_events",
  args: z
    .object({ from: day, to: day })
    .refine((v) => v.to >= v.from, { message: "The end must be on or after the start", path: ["to"] })
    .refine((v) => Date.parse(v.to) - Date.parse(v.from) <= 400 * 86_400_000, {
      message: "Ask for at most 400 days at a time",
      path: ["to"],
    }),
  result: z.array(
    z.object({
      id: z.string(), // "<type>-<id>", unique in the calendar (the feed's UID)
      kind: z.enum([
        "challenge",
        "delivery",
        "quotation_expiry",
        "invoice_due",
        "bill_due",
        "loan_due",
        "po_expected",
        "leave", // issue 21 §4: approved leave
        "holiday", // a public holiday
      ]),
      type: z.string(), // the document type (or team_challenge)
      doc_id: z.number(),
      title: z.string(),
      start: z.string(), // YYYY-MM-DD
      end: z.string(), // YYYY-MM-DD, the last day
      url: z.string(), // the page that opens it
    }),
  ),
  permission: null, // every member: each source needs its own read permission
  does: "read the calendar",
  feature: "hr",
});

// The caller's feed: whether one exists, or (regenerate) a new address — shown once, the old one revoked.
export const calendarFeed = defineCommand({
  name: "calendar_feed",
  args: z.object({ regenerate: z.boolean().default(false) }).optional(),
  result: z.object({ exists: z.boolean(), path: z.string().nullable() }),
  permission: null,
  does: "subscribe to the calendar",
  feature: "hr",
});

export const CHALLENGE_COMMANDS = [
  teamChallengeSave,
  teamChallengeCancel,
  teamChallenges,
  challengeLeaderboard,
  calendarEvents,
  calendarFeed,
] as const;
