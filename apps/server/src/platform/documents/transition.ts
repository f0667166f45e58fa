import {
  type DocumentType,
  decideTransition,
  type LineQuantities,
  type OfferedAction,
  offeredActions,
  ownsDocument,
  type TransitionDecision,
  type TransitionInput,
} from "@workmetrics/domain/documents/machine";
import { QTY_FIELDS } from "@workmetrics/domain/documents/quantities";
import type { DocSnapshot } from "@workmetrics/domain/documents/types/snapshot";
import { sql } from "drizzle-orm";
import type { Tx } from "../db/database.ts";
import { type Caller, memberOf } from "../rest/access.ts";
import { metaOf } from "../rest/resource-meta.ts";
import { RestError } from "../rest/rest-error.ts";
import { requireDocumentAccess, requireOwnDocument } from "./access.ts";
import { checkDraw, type LockedSources, recomputeDraw, refuseWhileDrawn } from "./draws.ts";
import { takeNumberLast } from "./late-number.ts";
import { conflict, invalid, notFound, title, transitionRefusal } from "./refusals.ts";
import { type DocumentSpec, drawnBy, parentColumn } from "./registry.ts";
import { documentSettings } from "./settings.ts";
import {
  collectingPending,
  loadLines,
  lockHeader,
  numberFor,
  PENDING_NUMBER,
  type Row,
  today,
  updateRow,
  writeEvent,
} from "./store.ts";

// document_transition (DESIGN §2.3): one transaction — lock the document, decide (from-state, permission, guard,
// reason) with the type's declarations, take the number when it leaves draft, set the status, write the audit row.
// A refusal throws before anything is written, and the request's transaction rolls back whatever came before.

type Allowed = Extract<TransitionDecision<string, DocSnapshot>, { allowed: true }>;

// A document as a command holds it; after a submit's draw, `sources`: the documents it draws from, locked, as they
// are once recomputed (a receipt's order lines give it their prices without another read).
export type Locked = { header: Row; lines: Row[]; snapshot: DocSnapshot; sources?: LockedSources };

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
  // The workspace's document settings come along for the rules that read them (a purchase order's approval).
  const settings = await documentSettings(tx, ws);
  return {
    header,
    lines,
    snapshot: { status: String(header.status), today: await today(tx), header, lines, settings },
  };
}

export async function applyTransition(
  tx: Tx,
  caller: Caller,
  spec: DocumentSpec,
  doc: Locked,
  action: string,
  reason: string | null,
  changes?: Row,
  given?: Row | null,
): Promise<{ from: string; to: string; number: string | null }> {
  // Numbers are given when a document leaves draft (DESIGN §2.3.1); a draft cancelled unsent takes none. A new number
  // is taken last (late-number.ts): until then the writes that carry it wait in `pending`.
  const d = decideTransition(spec.machine, doc.snapshot, action, memberOf(caller), { reason, values: given });
  if (!d.allowed) throw transitionRefusal(d);
  const from = String(doc.header.status);
  const submitting = from === spec.machine.initial && d.to !== "cancelled";
  const late = submitting && doc.header.number == null && doc.header.amended_from == null;
  const step = { action, reason, d, changes };
  if (!late) return transition(tx, caller, spec, doc, step, null);
  return collectingPending(tx, async (pending) => {
    const done = await transition(tx, caller, spec, doc, step, PENDING_NUMBER);
    return { ...done, number: await takeNumberLast(tx, caller, spec, doc.header, pending) };
  });
}

// The decided transition `d` written: its number (`pendingNumber` in its place while it is pending), status, line
// quantities, draws, the type's effect and the audit row.
async function transition(
  tx: Tx,
  caller: Caller,
  spec: DocumentSpec,
  doc: Locked,
  { action, reason, d, changes }: { action: string; reason: string | null; d: Allowed; changes?: Row },
  pendingNumber: string | null,
): Promise<{ from: string; to: string; number: string | null }> {
  // A member who reads only their own documents, or holds the action only on their own (a driver completing a
  // delivery), acts on theirs alone.
  requireOwnDocument(caller, spec, doc.header, action, d.scope === "own");
  const ws = caller.workspaceId as string;
  const docId = Number(doc.header.id);
  const from = String(doc.header.status);
  const values = await inputValues(tx, ws, d.transition.inputs ?? [], d.values);
  // Submitting draws from the source's lines and cancelling gives it back (draws.ts); a cancel waits for the
  // documents that draw from this one.
  const submitting = from === spec.machine.initial && d.to !== "cancelled";
  const withdrawing = withdraws(spec, from, d.to);
  if (withdrawing) await refuseWhileDrawn(tx, caller, spec, doc);
  const held = submitting ? await checkDraw(tx, caller, spec, doc) : undefined;
  // An amendment's number (the cancelled original's with the next suffix) is known before the effects.
  const numbering = submitting && doc.header.number == null;
  const number = pendingNumber ?? (numbering ? await numberFor(tx, ws, spec, doc.header) : null);
  const known = number && number !== PENDING_NUMBER ? { number } : {};
  // A cancelled document owes nothing: where a type keeps what is owed on it (an invoice, a debit note, a supplier
  // invoice, a claim), its outstanding goes to 0, so lists, their totals and its page agree with AR and AP.
  const owes = d.to === "cancelled" && metaOf(spec.header).columns.has("outstanding") ? { outstanding: "0" } : {};
  await updateRow(tx, spec.header, ws, docId, { ...values, status: d.to, ...known, ...owes });
  const lines = await addLineQuantities(tx, ws, spec, docId, doc.lines, d.lines);
  const after: Locked = {
    ...doc,
    header: { ...doc.header, ...values, ...owes, status: d.to, number: number ?? doc.header.number },
    lines,
    snapshot: { ...doc.snapshot, status: d.to, lines },
    sources: held,
  };
  if (submitting || withdrawing) await recomputeDraw(tx, caller, spec, after, held);
  const effect = spec.effects?.[action];
  if (effect) {
    const why = d.transition.needsReason ? (reason?.trim() ?? null) : null;
    await effect(tx, caller, spec, after, {
      action,
      from,
      to: d.to,
      number: number ?? null,
      quantities: d.lines,
      reason: why,
    });
  }
  const perLine = Object.keys(d.lines).length ? { lines: d.lines } : {};
  await writeEvent(tx, caller, {
    type: spec.machine.type,
    docId,
    action,
    from,
    to: d.to,
    reason: d.transition.needsReason ? reason : null,
    changes: changed(doc.header, values, number, { ...perLine, ...changes }),
  });
  return { from, to: d.to, number };
}

// A transition's line quantities (a transfer's received quantities) added to the line columns they name, in one
// statement per column; answers the lines as they now are.
async function addLineQuantities(
  tx: Tx,
  ws: string,
  spec: DocumentSpec,
  docId: number,
  lines: Row[],
  given: LineQuantities,
): Promise<Row[]> {
  const table = sql.identifier(spec.lines.name);
  for (const [field, byLine] of Object.entries(given)) {
    const ids = Object.keys(byLine);
    if (ids.length === 0) continue;
    const column = sql.identifier(field);
    await tx.execute(sql`update ${table} l set ${column} = l.${column} + v.qty
      from unnest(${`{${ids.join(",")}}`}::bigint[], ${`{${ids.map((i) => byLine[i]).join(",")}}`}::numeric[]) as v(id, qty)
      where l.workspace_id = ${ws}::uuid and l.id = v.id and l.${sql.identifier(parentColumn(spec))} = ${docId}`);
  }
  if (Object.keys(given).length === 0) return lines;
  return loadLines(tx, spec, ws, docId);
}

// The audit row's changes: the number given, the inputs written ({ field: [before, after] }), the caller's extra.
function changed(before: Row, values: Row, number: string | null, extra?: Row): Row | undefined {
  const out: Row = { ...(number ? { number: [null, number] } : {}), ...extra };
  for (const [k, v] of Object.entries(values)) out[k] = [before[k] ?? null, v];
  return Object.keys(out).length ? out : undefined;
}

// A transition's inputs as they are written: a date and time left empty is now; a user must be an active user of
// the workspace (the foreign key holds it too, but this says which field).
async function inputValues(
  tx: Tx,
  ws: string,
  inputs: readonly TransitionInput[],
  values: Record<string, string | null>,
): Promise<Row> {
  const out: Row = {};
  for (const i of inputs.filter((x) => x.kind !== "line_qty")) {
    let v = values[i.field] ?? null;
    if (i.kind === "datetime" && v == null) v = new Date().toISOString();
    if (i.kind === "user" && v != null) {
      const res = await tx.execute(
        sql`select 1 from "user" where workspace_id = ${ws}::uuid and id = ${v}::uuid and active`,
      );
      if (res.rows.length === 0) throw invalid(`${i.label}: choose an active user of this workspace`, i.field);
    }
    out[i.field] = v;
  }
  return out;
}

export async function runTransition(
  tx: Tx,
  caller: Caller,
  spec: DocumentSpec,
  input: { id: number; action: string; reason?: string | null; values?: Row | null },
): Promise<void> {
  const doc = await lockDocument(tx, caller, spec, input.id);
  const only = spec.machine.transitions.find((t) => t.action === input.action && t.byConvert);
  if (only?.byConvert && only.from.includes(doc.snapshot.status)) throw conflict(only.byConvert, { reason: "convert" });
  await applyTransition(tx, caller, spec, doc, input.action, input.reason ?? null, undefined, input.values);
}

// What the document page offers (issue 10 §3: buttons only for these): the actions from its status the member may
// run, each with the guard's refusal when it is blocked. Read without a lock, and decided by pure guards over the rows
// read (issue 20 §3: no trial of a cancel's effects on every page read); what only the effects know (a debit note
// against an invoice) is asked when the clerk opens the action (checkDocumentAction).
export async function documentActions(
  tx: Tx,
  caller: Caller,
  spec: DocumentSpec,
  docId: number,
): Promise<{ status: string; actions: OfferedAction[] }> {
  const doc = await readForActions(tx, caller, spec, docId);
  const actions = offered(caller, spec, doc);
  const status = doc.snapshot.status;
  const cancel = actions.find((a) => !a.blocked && withdrawal(spec, status, a.action));
  // A later document drawn on this one's lines refuses its cancel: the lines read say so.
  if (cancel) cancel.blocked = drawnOn(spec, doc);
  return { status, actions };
}

// document_action_check: what the server would answer to `action` now, asked when the clerk opens it (the cancel
// dialog) — the guards, then, for a cancel, its effects tried in a savepoint that is always rolled back.
export async function checkDocumentAction(
  tx: Tx,
  caller: Caller,
  spec: DocumentSpec,
  docId: number,
  action: string,
): Promise<{ action: string; blocked: string | null }> {
  const doc = await readForActions(tx, caller, spec, docId);
  const status = doc.snapshot.status;
  const a = offered(caller, spec, doc).find((x) => x.action === action);
  if (!a) {
    const label = (spec.machine.statuses as Record<string, { label: string }>)[status]?.label ?? status;
    return { action, blocked: `This ${title(spec)} is ${label.toLowerCase()}: it cannot be given "${action}" now` };
  }
  if (a.blocked || !withdrawal(spec, status, action)) return { action, blocked: a.blocked };
  return { action, blocked: drawnOn(spec, doc) ?? (await refusalOf(tx, caller, spec, doc, action)) };
}

async function readForActions(tx: Tx, caller: Caller, spec: DocumentSpec, docId: number): Promise<Locked> {
  requireDocumentAccess(caller, spec, "read", `read ${spec.machine.plural.toLowerCase()}`);
  const doc = await lockDocument(tx, caller, spec, docId, false);
  requireOwnDocument(caller, spec, doc.header, "read");
  return doc;
}

// A submitted document going to cancelled: its effects are reversed, and what stands on it refuses that.
const withdraws = (spec: DocumentSpec, from: string, to: string) => from !== spec.machine.initial && to === "cancelled";
const withdrawal = (spec: DocumentSpec, status: string, action: string) =>
  spec.machine.transitions.some((t) => t.action === action && t.from.includes(status) && withdraws(spec, status, t.to));

// The pure half of refuseWhileDrawn (draws.ts): a line that another type has drawn on (delivered, billed, received …),
// in the words of the server's refusal, without the drawing document's number, which only a read would give.
function drawnOn(spec: DocumentSpec, doc: Locked): string | null {
  for (const { spec: t, made } of drawnBy(spec.machine.type)) {
    if (made.indirect) continue;
    const line = doc.lines.find((l) => l[made.draws] != null && Number(l[made.draws]) !== 0);
    if (line) {
      const by = title(t);
      const a = /^[aeiou]/.test(by) ? "an" : "a";
      return `This ${title(spec)} is ${QTY_FIELDS[made.draws].past} on ${a} ${by} (line ${line.line_no}): cancel the ${by} first`;
    }
  }
  return null;
}

const TRIED = new Error("tried");

// What the server would answer to `action` now, found by running it in a savepoint that is always rolled back: a
// cancel is refused by what stands on the document (a debit note against an invoice, a later claim), which its
// effects know and the type's pure guard does not. The refusal's message, or null.
async function refusalOf(
  tx: Tx,
  caller: Caller,
  spec: DocumentSpec,
  doc: Locked,
  action: string,
): Promise<string | null> {
  try {
    // The document as the question read it: the trial is rolled back, so it takes no lock of its own.
    await tx.transaction(async (sp) => {
      await applyTransition(sp, caller, spec, doc, action, "offered");
      throw TRIED;
    });
  } catch (err) {
    if (err instanceof RestError && err.status === 409) return err.message;
    // Anything else (a lock timeout, a deadlock with a clerk's command): the action stays offered and the server
    // decides when it is run, as before.
  }
  return null;
}

// A member acting on their own documents only is offered no action on another's (a driver on an unassigned
// delivery order): the own-scoped actions need the document to be theirs.
function offered(caller: Caller, spec: DocumentSpec, doc: Locked): OfferedAction[] {
  const mine = ownsDocument(spec.machine as unknown as DocumentType<string, never>, doc.header, caller.userId);
  const member = memberOf(caller);
  return offeredActions(spec.machine, doc.snapshot, member).filter((a) => {
    if (mine) return true;
    const d = decideTransition(spec.machine, doc.snapshot, a.action, member, { reason: "offered" });
    return !(d.allowed && d.scope === "own");
  });
}
