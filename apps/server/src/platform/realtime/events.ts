import { decide, type Member, type Requirement, resourceRequirement } from "@workmetrics/domain";
import { CATALOG } from "@workmetrics/domain/resources/catalog";
import type { Db } from "../db/database.ts";

// The realtime channel's events (DESIGN §2.1). The database announces each committed document change
// (document_event's trigger, migration 0028) as a Change; the engine forwards it as `document.changed` to the
// sockets that read that type, and modules add their own events derived from it (registerRealtimeEvents: the
// challenge module's "leaderboard may have changed"), each with the Requirement a socket's member must meet.

export type Change = {
  workspace_id: string;
  event: "document.changed";
  type: string;
  id: number;
  action: string;
  status: string | null;
};

export type RealtimeMessage = { event: string; payload: unknown; need: Requirement };

export type Deriver = (change: Change, db: Db) => Promise<RealtimeMessage[]>;

const DERIVERS: Deriver[] = [];

export function registerRealtimeEvents(derive: Deriver): void {
  DERIVERS.push(derive);
}

const catalog = CATALOG as Record<string, (typeof CATALOG)[keyof typeof CATALOG] | undefined>;

// What one change becomes: the generic document.changed (for members reading every document of the type, so no
// one learns of a document they may not read) and whatever the modules derive from it.
export async function messagesFor(change: Change, db: Db): Promise<RealtimeMessage[]> {
  const out: RealtimeMessage[] = [];
  const def = catalog[change.type];
  if (def) {
    out.push({
      event: "document.changed",
      payload: { type: change.type, id: change.id, action: change.action, status: change.status },
      need: { ...resourceRequirement(def, "read"), own: false },
    });
  }
  for (const derive of DERIVERS) out.push(...(await derive(change, db)));
  return out;
}

export const mayReceive = (member: Member, m: RealtimeMessage): boolean => decide(member, m.need).allowed;
