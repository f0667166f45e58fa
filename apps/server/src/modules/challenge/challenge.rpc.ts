import { decide, type Requirement } from "@workmetrics/domain";
import { COMMANDS } from "@workmetrics/domain/commands";
import {
  CHALLENGE_ACCESS,
  type ChallengeSave,
  type ChallengeView,
  challengeState,
  isCountMetric,
} from "@workmetrics/domain/resources/challenge";
import { sql } from "drizzle-orm";
import type { z } from "zod";
import type { Tx } from "../../platform/db/database.ts";
import { today } from "../../platform/documents/store.ts";
import { type Caller, memberOf, refusalError } from "../../platform/rest/access.ts";
import { RestError } from "../../platform/rest/rest-error.ts";
import { implement } from "../../platform/rest/rpc/command.ts";
import { type ChallengeRow, leaderboard } from "./leaderboard.ts";

// Issue 12 "Team challenge": the commands (DESIGN §2.1 /rest/v1/rpc), each in the request's one transaction.
// Sales managers (team_challenge.*) set challenges up; everyone who reads them sees the leaderboards. HR feature (Pro).

const fail = (status: number, message: string, field?: string) =>
  new RestError(
    status,
    status === 422 ? "validation_failed" : "PGRST116",
    message,
    field ? [{ field, message }] : null,
  );

function need(caller: Caller, requirement: Requirement): void {
  const d = decide(memberOf(caller), requirement);
  if (!d.allowed) throw refusalError(d);
}

// Drafts are shown to those who may change challenges.
const seesDrafts = (caller: Caller) => decide(memberOf(caller), CHALLENGE_ACCESS.update).allowed;

type Stored = ChallengeRow & { name: string; description: string | null; period_kind: string; status: string };

const COLUMNS = sql`id, name, description, metric, period_kind, start_date::text, end_date::text,
  default_target::text, status`;

async function loadChallenge(tx: Tx, ws: string, challengeId: number, lock = false): Promise<Stored> {
  const res = await tx.execute(sql`select ${COLUMNS} from team_challenge
    where workspace_id = ${ws}::uuid and id = ${challengeId} ${lock ? sql`for update` : sql``}`);
  const row = res.rows[0] as Stored | undefined;
  if (!row) throw fail(404, `There is no team challenge ${challengeId} in this workspace`);
  return { ...row, id: Number(row.id) };
}

async function view(tx: Tx, caller: Caller, c: Stored, day: string): Promise<ChallengeView> {
  const ws = caller.workspaceId as string;
  const state = challengeState(c, day);
  const parts = await tx.execute(sql`select user_id, workspace_role_id, target::text from team_challenge_participant
    where workspace_id = ${ws}::uuid and challenge_id = ${c.id} order by id`);
  const board = await leaderboard(tx, ws, c, state === "finished");
  const total = board.reduce((sum, r) => sum + Number(r.value), 0);
  return {
    ...c,
    state,
    participants: (parts.rows as ChallengeView["participants"]).map((p) => ({
      ...p,
      workspace_role_id: p.workspace_role_id == null ? null : Number(p.workspace_role_id),
    })),
    leaderboard: board,
    // Sums of decimal strings: the values have at most 2 decimals, so one rounding to cents is exact.
    total: isCountMetric(c.metric) ? String(total) : total.toFixed(2),
  } as ChallengeView;
}

export async function challengeView(tx: Tx, caller: Caller, challengeId: number): Promise<ChallengeView> {
  const c = await loadChallenge(tx, caller.workspaceId as string, challengeId);
  if (c.status === "draft" && !seesDrafts(caller)) {
    throw fail(404, `There is no team challenge ${challengeId} in this workspace`);
  }
  return view(tx, caller, c, await today(tx));
}

// Every challenge the caller may see (drafts only to those who set challenges up), newest period first.
export async function challengeViews(tx: Tx, caller: Caller): Promise<ChallengeView[]> {
  const ws = caller.workspaceId as string;
  const drafts = seesDrafts(caller);
  const res = await tx.execute(sql`select ${COLUMNS} from team_challenge where workspace_id = ${ws}::uuid
    ${drafts ? sql`` : sql`and status <> 'draft'`} order by end_date desc, id desc limit 100`);
  const day = await today(tx);
  const out: ChallengeView[] = [];
  for (const row of res.rows as Stored[]) out.push(await view(tx, caller, { ...row, id: Number(row.id) }, day));
  return out;
}

async function saveChallenge(tx: Tx, caller: Caller, args: z.output<typeof ChallengeSave>): Promise<ChallengeView> {
  need(caller, args.id ? CHALLENGE_ACCESS.update : CHALLENGE_ACCESS.create);
  const ws = caller.workspaceId as string;
  // Each participant is a user or a role of this workspace, named once.
  const users = new Set<string>();
  const roles = new Set<number>();
  for (const [i, p] of args.participants.entries()) {
    if ((p.user_id == null) === (p.workspace_role_id == null)) {
      throw fail(422, "Name a user or a role", `participants.${i}.user_id`);
    }
    if (p.user_id != null) {
      if (users.has(p.user_id)) throw fail(422, "This user already takes part", `participants.${i}.user_id`);
      users.add(p.user_id);
    } else {
      const role = p.workspace_role_id as number;
      if (roles.has(role)) throw fail(422, "This role already takes part", `participants.${i}.workspace_role_id`);
      roles.add(role);
    }
  }
  const known = await tx.execute(sql`
    select (select count(*) from "user" where workspace_id = ${ws}::uuid
              and id = any(${`{${[...users].join(",")}}`}::uuid[]))::int as users,
           (select count(*) from workspace_role where workspace_id = ${ws}::uuid
              and id = any(${`{${[...roles].join(",")}}`}::bigint[]))::int as roles`);
  const counted = known.rows[0] as { users: number; roles: number };
  if (Number(counted.users) !== users.size) throw fail(422, "A participant is not a user of this workspace");
  if (Number(counted.roles) !== roles.size) throw fail(422, "A participant role is not a role of this workspace");

  let challengeId = args.id;
  if (challengeId) {
    const before = await loadChallenge(tx, ws, challengeId, true);
    if (before.status === "cancelled") throw fail(409, "A cancelled challenge cannot be changed");
    await tx.execute(sql`update team_challenge set name = ${args.name}, description = ${args.description ?? null},
      metric = ${args.metric}, period_kind = ${args.period_kind}, start_date = ${args.start_date}::date,
      end_date = ${args.end_date}::date, default_target = ${args.default_target ?? null}::numeric,
      status = ${args.status}, updated_at = now()
      where workspace_id = ${ws}::uuid and id = ${challengeId}`);
    await tx.execute(sql`delete from team_challenge_participant
      where workspace_id = ${ws}::uuid and challenge_id = ${challengeId}`);
  } else {
    const res = await tx.execute(sql`insert into team_challenge
      (workspace_id, name, description, metric, period_kind, start_date, end_date, default_target, status, created_by)
      values (${ws}::uuid, ${args.name}, ${args.description ?? null}, ${args.metric}, ${args.period_kind},
        ${args.start_date}::date, ${args.end_date}::date, ${args.default_target ?? null}::numeric, ${args.status},
        ${caller.userId}::uuid)
      returning id`);
    challengeId = Number((res.rows[0] as { id: number }).id);
  }
  const rows = args.participants.map(
    (p) =>
      sql`(${ws}::uuid, ${challengeId}::bigint, ${p.user_id ?? null}::uuid, ${p.workspace_role_id ?? null}::bigint,
        ${p.target ?? null}::numeric)`,
  );
  await tx.execute(sql`insert into team_challenge_participant (workspace_id, challenge_id, user_id, workspace_role_id, target)
    values ${sql.join(rows, sql`, `)}`);
  return challengeView(tx, caller, challengeId);
}

export const challengeSave = implement(COMMANDS.team_challenge_save, {
  run: (tx, args, caller) => saveChallenge(tx, caller, args),
});

export const challengeCancel = implement(COMMANDS.team_challenge_cancel, {
  run: async (tx, args, caller) => {
    const ws = caller.workspaceId as string;
    const c = await loadChallenge(tx, ws, args.id, true);
    if (c.status === "cancelled") throw fail(409, "This challenge is already cancelled");
    await tx.execute(sql`update team_challenge set status = 'cancelled', updated_at = now()
      where workspace_id = ${ws}::uuid and id = ${args.id}`);
    return challengeView(tx, caller, args.id);
  },
});

export const challengeList = implement(COMMANDS.team_challenges, {
  run: (tx, _args, caller) => challengeViews(tx, caller),
});

export const challengeLeaderboard = implement(COMMANDS.challenge_leaderboard, {
  run: (tx, args, caller) => challengeView(tx, caller, args.id),
});
