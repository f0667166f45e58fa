import { CHALLENGE_ACCESS, CHALLENGE_TOPIC, METRIC_DOCUMENTS } from "@workmetrics/domain/resources/challenge";
import { sql } from "drizzle-orm";
import { inRequest } from "../../platform/db/database.ts";
import { registerRealtimeEvents } from "../../platform/realtime/events.ts";
import { registerRpc } from "../../platform/rest/rpc/registry.ts";
import { calendarEventsRpc, calendarFeedRpc } from "./calendar.rpc.ts";
import { challengeCancel, challengeLeaderboard, challengeList, challengeSave } from "./challenge.rpc.ts";

// Issue 12: team challenges, their live leaderboard and the calendar. The leaderboard is computed from the
// documents (leaderboard.ts); when a document of a kind a running challenge counts changes, the realtime channel
// broadcasts "changed" on the topic "team_challenge" to the workspace's open pages with the challenges concerned,
// and they read again.

const DRAFTING = new Set(["create", "save"]);

// The metrics each document type moves, worked out once (the deriver runs on every document change).
const METRICS_BY_TYPE = new Map<string, string[]>();
for (const [metric, type] of Object.entries(METRIC_DOCUMENTS)) {
  METRICS_BY_TYPE.set(type, [...(METRICS_BY_TYPE.get(type) ?? []), metric]);
}

export function registerChallenge(): void {
  registerRpc(challengeSave, challengeCancel, challengeList, challengeLeaderboard, calendarEventsRpc, calendarFeedRpc);
  registerRealtimeEvents(async (change, db) => {
    const metrics = METRICS_BY_TYPE.get(change.type);
    // A draft written (created or saved) counts in no metric.
    if (!metrics || DRAFTING.has(change.action)) return [];
    // The running challenges (and those that ended yesterday, whose last day may still be moving) that count it.
    const ids = await inRequest(db, { workspaceId: change.workspace_id, userId: null, role: "authenticated" }, (tx) =>
      tx.execute(sql`select id from team_challenge where workspace_id = ${change.workspace_id}::uuid
        and status = 'active' and metric = any(${`{${metrics.join(",")}}`}::text[])
        and start_date <= current_date and end_date >= current_date - 1`),
    );
    const challengeIds = (ids.rows as Array<{ id: number }>).map((r) => Number(r.id));
    if (challengeIds.length === 0) return [];
    return [
      {
        topic: CHALLENGE_TOPIC,
        event: "changed",
        payload: { challenge_ids: challengeIds, type: change.type, action: change.action },
        need: CHALLENGE_ACCESS.read,
      },
    ];
  });
}
