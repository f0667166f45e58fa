import { decideTransition, type OfferedAction, offeredActions } from "@workmetrics/domain/documents/machine";
import type { DocSnapshot } from "@workmetrics/domain/documents/types/snapshot";
import type { Tx } from "../db/database.ts";
import { type Caller, memberOf } from "../rest/access.ts";
import { requireDocumentAccess } from "./access.ts";
import { checkDraw, recomputeDraw, refuseWhileDrawn } from "./draws.ts";
import { conflict, notFound, transitionRefusal } from "./refusals.ts";
import type { DocumentSpec } from "./registry.ts";
import { loadLines, lockHeader, numberFor, type Row, today, updateRow, writeEvent } from "./store.ts";

// document_transition (DESIGN §2.3): one transaction — lock the document, decide (from-state, permission, guard,
// reason) with the type's declarations, take the number when it leaves draft, set the status, write the audit row.
// A refusal throws before anything is written, and the request's transaction rolls back whatever came before.

export type Locked = { header: Row; lines: Row[]; snapshot: DocSnapshot };

export async function lockDocument(
  tx: Tx,
  caller: Caller,
  spec: DocumentSpec,
  docId: number,
  lock = true,
): Promise<Locked> {
  const ws = caller.workspaceId as string;
  const header = await lockHeader(tx, spec, ws, docId, lock);
  if (!header) throw notFound(spec, docId);
  const lines = await loadLines(tx, spec, ws, docId);
  return { header, lines, snapshot: { status: String(header.status), today: await today(tx), header, lines } };
}

export async function applyTransition(
  tx: Tx,
  caller: Caller,
  spec: DocumentSpec,
  doc: Locked,
  action: string,
  reason: string | null,
  changes?: Row,
): Promise<{ from: string; to: string; number: string | null }> {
  const d = decideTransition(spec.machine, doc.snapshot, action, memberOf(caller), { reason });
  if (!d.allowed) throw transitionRefusal(d);
  const ws = caller.workspaceId as string;
  const docId = Number(doc.header.id);
  const from = String(doc.header.status);
  // Submitting draws from the source's lines and cancelling gives it back (draws.ts); a cancel waits for the
  // documents that draw from this one.
  const submitting = from === spec.machine.initial && d.to !== "cancelled";
  const withdrawing = from !== spec.machine.initial && d.to === "cancelled";
  if (withdrawing) await refuseWhileDrawn(tx, caller, spec, doc);
  if (submitting) await checkDraw(tx, caller, spec, doc);
  // Numbers are given when a document leaves draft (DESIGN §2.3.1); a draft cancelled unsent takes none.
  const numbering = submitting && doc.header.number == null;
  const number = numbering ? await numberFor(tx, ws, spec, doc.header) : null;
  await updateRow(tx, spec.header, ws, docId, number ? { status: d.to, number } : { status: d.to });
  const after: Locked = {
    ...doc,
    header: { ...doc.header, status: d.to, number: number ?? doc.header.number },
    snapshot: { ...doc.snapshot, status: d.to },
  };
  if (submitting || withdrawing) await recomputeDraw(tx, caller, spec, after);
  const effect = spec.effects?.[action];
  if (effect) await effect(tx, caller, spec, after, { action, from, to: d.to, number: number ?? null });
  await writeEvent(tx, caller, {
    type: spec.machine.type,
    docId,
    action,
    from,
    to: d.to,
    reason: d.transition.needsReason ? reason : null,
    changes: number || changes ? { ...(number ? { number: [null, number] } : {}), ...changes } : undefined,
  });
  return { from, to: d.to, number };
}

export async function runTransition(
  tx: Tx,
  caller: Caller,
  spec: DocumentSpec,
  input: { id: number; action: string; reason?: string | null },
): Promise<void> {
  const doc = await lockDocument(tx, caller, spec, input.id);
  const only = spec.machine.transitions.find((t) => t.action === input.action && t.byConvert);
  if (only?.byConvert && only.from.includes(doc.snapshot.status)) throw conflict(only.byConvert, { reason: "convert" });
  await applyTransition(tx, caller, spec, doc, input.action, input.reason ?? null);
}

// What the document page offers (issue 10 §3: buttons only for these): the actions from its status the member may
// run, each with the guard's refusal when it is blocked. Read without a lock.
export async function documentActions(
  tx: Tx,
  caller: Caller,
  spec: DocumentSpec,
  docId: number,
): Promise<{ status: string; actions: OfferedAction[] }> {
  requireDocumentAccess(caller, spec, "read", `read ${spec.machine.plural.toLowerCase()}`);
  const doc = await lockDocument(tx, caller, spec, docId, false);
  return { status: doc.snapshot.status, actions: offeredActions(spec.machine, doc.snapshot, memberOf(caller)) };
}
