import { sql } from "drizzle-orm";
import { type Db, inRequest } from "../db/database.ts";
import type { DocumentChange } from "./changes.ts";

// Issue 20 §4: no change is lost while the LISTEN connection is reopened. document_event is the outbox: every
// committed document change has a row there, numbered by one sequence (its id) for every workspace. A NOTIFY only
// says "this workspace has new rows"; the feed then reads the rows after what it has delivered, in id order, so a
// notice missed while the connection was down is caught up by the next read (catchUp, after every reconnect).
// Ids are taken when a row is written, not when it commits, so a transaction that took a lower id can commit after
// a higher one was delivered: the feed keeps reading from below the ids it delivered in the last SETTLE_MS and
// skips those it has already sent. (A transaction that stays open longer than that after writing its event could be
// missed: commands run for well under the 15 s statement timeout.)

const SETTLE_MS = 60_000;
const PAGE = 500;

type Watched = {
  floor: number; // every id at or below it is delivered or settled
  sent: Map<number, number>; // ids delivered above the floor → when
};

export type Feed = {
  watch(workspaceId: string): Promise<void>;
  unwatch(workspaceId: string): void;
  poke(workspaceId: string): void;
  catchUp(): void;
  // Resolves when every read asked for so far has been delivered (tests, the benchmark).
  idle(): Promise<void>;
};

export function createFeed(
  db: Db,
  deliver: (change: DocumentChange) => Promise<void>,
  onError: (err: unknown) => void,
): Feed {
  const watched = new Map<string, Watched>();
  const due = new Set<string>();
  let running: Promise<void> | null = null;

  const read = (workspaceId: string, after: number) =>
    inRequest(db, { workspaceId, userId: null, role: "authenticated" }, async (tx) => {
      const res = await tx.execute(sql`select id, doc_type, doc_id, action, to_status, at from document_event
        where workspace_id = ${workspaceId}::uuid and id > ${after} order by id limit ${PAGE}`);
      return (res.rows as Array<Record<string, unknown>>).map(
        (r): DocumentChange => ({
          seq: Number(r.id),
          workspace_id: workspaceId,
          type: String(r.doc_type),
          id: Number(r.doc_id),
          action: String(r.action),
          status: r.to_status === null ? null : String(r.to_status),
          at: r.at instanceof Date ? r.at.toISOString() : new Date(String(r.at)).toISOString(),
        }),
      );
    });

  async function pull(workspaceId: string): Promise<void> {
    const w = watched.get(workspaceId);
    if (!w) return;
    const now = Date.now();
    for (const [id, at] of w.sent) {
      if (now - at > SETTLE_MS) {
        w.sent.delete(id);
        if (id > w.floor) w.floor = id;
      }
    }
    let after = w.floor;
    for (;;) {
      const rows = await read(workspaceId, after);
      for (const change of rows) {
        after = change.seq;
        if (w.sent.has(change.seq) || watched.get(workspaceId) !== w) continue;
        w.sent.set(change.seq, Date.now());
        await deliver(change);
      }
      if (rows.length < PAGE) break;
    }
  }

  function drain(): void {
    if (running) return;
    running = (async () => {
      while (due.size) {
        const [ws] = due;
        due.delete(ws);
        try {
          await pull(ws);
        } catch (err) {
          onError(err);
        }
      }
    })().finally(() => {
      running = null;
      if (due.size) drain();
    });
  }

  return {
    async watch(workspaceId) {
      if (watched.has(workspaceId)) return;
      const w: Watched = { floor: Number.MAX_SAFE_INTEGER, sent: new Map() };
      watched.set(workspaceId, w);
      const res = await inRequest(db, { workspaceId, userId: null, role: "authenticated" }, (tx) =>
        tx.execute(
          sql`select coalesce(max(id), 0) as id from document_event where workspace_id = ${workspaceId}::uuid`,
        ),
      );
      w.floor = Number((res.rows[0] as { id: unknown }).id);
    },
    unwatch(workspaceId) {
      watched.delete(workspaceId);
      due.delete(workspaceId);
    },
    poke(workspaceId) {
      if (!watched.has(workspaceId)) return;
      due.add(workspaceId);
      drain();
    },
    catchUp() {
      for (const ws of watched.keys()) due.add(ws);
      drain();
    },
    async idle() {
      while (running) await running;
    },
  };
}
