import { decide, type Member, type Requirement } from "@workmetrics/domain";
import type { Db } from "../db/database.ts";
import type { DocumentChange } from "./changes.ts";

// Messages the server itself broadcasts, derived from committed document changes by the modules that care
// (registerRealtimeEvents: the challenge module's "leaderboard may have changed"). Each goes as a `broadcast` frame
// on its topic (supabase.channel(topic).on("broadcast", {event}, …)) to the sockets of the change's workspace that
// joined that topic, and only to members who meet its Requirement (the domain's one access rule, `decide`).

export type RealtimeMessage = { topic: string; event: string; payload: unknown; need: Requirement };

export type Deriver = (change: DocumentChange, db: Db) => Promise<RealtimeMessage[]>;

const DERIVERS: Deriver[] = [];

export function registerRealtimeEvents(derive: Deriver): void {
  DERIVERS.push(derive);
}

export async function derivedMessages(change: DocumentChange, db: Db, topics: ReadonlySet<string>) {
  const out: RealtimeMessage[] = [];
  for (const derive of DERIVERS) {
    for (const m of await derive(change, db)) if (topics.has(m.topic)) out.push(m);
  }
  return out;
}

export const mayReceive = (member: Member, m: RealtimeMessage): boolean => decide(member, m.need).allowed;
