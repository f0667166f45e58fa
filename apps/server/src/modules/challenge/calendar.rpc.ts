import { workspaceHost } from "@workmetrics/domain";
import { COMMANDS } from "@workmetrics/domain/commands";
import { sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { type Db, inRequest } from "../../platform/db/database.ts";
import type { Caller } from "../../platform/rest/access.ts";
import { loadMember } from "../../platform/rest/access.ts";
import { RestError } from "../../platform/rest/rest-error.ts";
import { implement } from "../../platform/rest/rpc/command.ts";
import { limit, type Window } from "../orders/rate-limit.ts";
import { calendarEvents, feedOwner, hasFeed, icsCalendar, newFeedToken } from "./calendar.ts";

// Issue 12: the calendar's commands and the .ics feed. The calendar belongs to the team challenge area (HR, Pro);
// each of its sources is read with the member's own read permission (calendar.ts).

export const calendarEventsRpc = implement(COMMANDS.calendar_events, {
  run: (tx, args, caller) => calendarEvents(tx, caller, args.from, args.to),
});

// The caller's feed: whether one exists, or (regenerate) a new token — shown once, the old one revoked.
export const calendarFeedRpc = implement(COMMANDS.calendar_feed, {
  run: async (tx, args, caller) => {
    if (args?.regenerate) {
      const token = await newFeedToken(tx, caller);
      return { exists: true, path: `/api/calendar/${token}.ics` };
    }
    return { exists: await hasFeed(tx, caller), path: null };
  },
});

const FEED_DAYS_BACK = 90;
const FEED_DAYS_AHEAD = 365;

// A calendar app polls a feed every few minutes; a hundred and twenty fetches in ten minutes is many feeds behind
// one address, not a guesser's pace (issue 21 §2).
const CALENDAR_FEED_LIMIT: Window = { max: 120, windowSeconds: 600 };

// GET /api/calendar/<token>.ics: the token's owner's calendar, as they may read it now (their permissions are read
// afresh; a deactivated member's or a workspace without the HR feature's feed answers 404 like an unknown token).
export async function calendarFeedRoutes(app: FastifyInstance, opts: { db: Db }): Promise<void> {
  const { db } = opts;
  const notFound = { code: "PGRST116", message: "There is no calendar at this address", details: null, hint: null };
  app.get<{ Params: { file: string } }>("/api/calendar/:file", async (req, reply) => {
    // Every fetch counts, unknown tokens too: guessing is bounded by the window, not only by the token's length.
    await limit(
      db,
      reply,
      `calendar_feed:${req.ip}`,
      CALENDAR_FEED_LIMIT,
      "Too many calendar requests from your network.",
    );
    const m = /^([0-9a-f]{48})\.ics$/.exec(req.params.file);
    const owner = m ? await feedOwner(db, m[1]) : null;
    if (!owner) return reply.code(404).send(notFound);
    const body = await inRequest(
      db,
      { workspaceId: owner.workspace_id, userId: owner.user_id, role: "authenticated" },
      async (tx) => {
        let caller: Caller;
        try {
          const member = await loadMember(tx, owner.user_id, owner.workspace_id);
          caller = {
            kind: "member",
            userId: owner.user_id,
            workspaceId: owner.workspace_id,
            isOperator: false,
            ...member,
          };
        } catch (err) {
          if (err instanceof RestError) return null;
          throw err;
        }
        if (!caller.features.includes("hr")) return null;
        const res = await tx.execute(sql`select w.slug, w.name, (current_date - ${FEED_DAYS_BACK}::int)::text as first,
            (current_date + ${FEED_DAYS_AHEAD}::int)::text as last
          from workspace w where w.id = ${owner.workspace_id}::uuid`);
        const w = res.rows[0] as { slug: string; name: string; first: string; last: string };
        const events = await calendarEvents(tx, caller, w.first, w.last);
        const config = app.authDeps.config;
        const base = new URL(config.publicUrl);
        const host = workspaceHost(w.slug, config.baseDomain, "main", base.port || undefined);
        return icsCalendar(events, { name: `${w.name} — Workmetrics`, origin: `${base.protocol}//${host}`, host });
      },
    );
    if (body === null) return reply.code(404).send(notFound);
    return reply
      .header("cache-control", "private, no-store")
      .header("content-disposition", 'inline; filename="workmetrics.ics"')
      .type("text/calendar; charset=utf-8")
      .send(body);
  });
}
