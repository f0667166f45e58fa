import { dec } from "@workmetrics/domain/documents/decimal";
import { decideTransition } from "@workmetrics/domain/documents/machine";
import { checkOverflow, QTY_FIELDS, remaining } from "@workmetrics/domain/documents/quantities";
import type { Tx } from "../db/database.ts";
import { type Caller, memberOf } from "../rest/access.ts";
import { requireDocumentAccess, requireOwnDocument } from "./access.ts";
import { refuseUnusableLocations, withDefaultLocation } from "./default-location.ts";
import { asSourceLine } from "./draws.ts";
import { priceDraft } from "./pricing.ts";
import { conflict, invalid, title, transitionRefusal } from "./refusals.ts";
import type { DocumentSpec } from "./registry.ts";
import { decidedColumns, insertLines, parse, refuseOutsiders, type Shape } from "./save.ts";
import { allowanceFor, documentSettings } from "./settings.ts";
import { insertRows, type Row, writeEvent } from "./store.ts";
import { applyTransition, lockDocument } from "./transition.ts";

// document_convert (DESIGN §2.3.1, ERPNext's get_mapped_doc): a draft of `to` made from the source, each line linked
// to its source line, with the quantities asked for (default: the whole line, or what is left of it when the target
// draws a quantity); the source runs the action the target declares (a quotation is marked won), in the same
// transaction, or must be in one of the statuses it declares (an open sales order).

// `header`: fields of the new draft's header to set rather than copy (a delivery order's location).
export type ConvertInput = {
  id: number;
  lines?: { line_id: number; qty: string }[];
  header?: Record<string, unknown>;
};

// The header fields a clerk gives both types (customer, contact, currency, notes …), copied; the date is today's.
const shared = (a: DocumentSpec, b: DocumentSpec) => {
  const keys = (s: DocumentSpec) => Object.keys((s.header.insert as unknown as { shape: object }).shape);
  const other = new Set(keys(b));
  return keys(a).filter((k) => other.has(k) && k !== "doc_date");
};

export async function runConvert(
  tx: Tx,
  caller: Caller,
  source: DocumentSpec,
  target: DocumentSpec,
  input: ConvertInput,
): Promise<number> {
  const made = target.madeFrom?.find((m) => m.from === source.machine.type && !m.indirect);
  if (!made) {
    throw invalid(`A ${title(target)} cannot be made from a ${title(source)}`, "to");
  }
  requireDocumentAccess(caller, target, "create", `create ${target.machine.plural.toLowerCase()}`);
  const doc = await lockDocument(tx, caller, source, input.id);
  requireOwnDocument(caller, source, doc.header, `make ${target.machine.plural.toLowerCase()} from`);
  if (made.sourceAction) {
    const check = decideTransition(source.machine, doc.snapshot, made.sourceAction, memberOf(caller), {});
    if (!check.allowed && check.reason === "status") {
      const t = source.machine.transitions.find((x) => x.action === made.sourceAction);
      const from = (t?.from ?? []).map((s) => source.machine.statuses[s].label.toLowerCase()).join(" or ");
      const now = source.machine.statuses[doc.snapshot.status]?.label.toLowerCase() ?? doc.snapshot.status;
      throw conflict(`Only a ${from} ${title(source)} can be made into a ${title(target)}; this one is ${now}`);
    }
    if (!check.allowed) throw transitionRefusal(check);
  } else if (made.sourceStatuses && !made.sourceStatuses.includes(doc.snapshot.status)) {
    const s = source.machine.statuses[doc.snapshot.status];
    const words = s ? (s.adjective ?? s.label.toLowerCase()) : doc.snapshot.status;
    const a = /^[aeiou]/i.test(words) ? "An" : "A";
    throw conflict(`${a} ${words} ${title(source)} cannot be made into a ${title(target)}`);
  }

  const byId = new Map(doc.lines.map((l) => [Number(l.id), l]));
  const takes = (l: Row) => !(made.goodsOnly && l.service_id != null);
  // With a draw, each line defaults to what is left of it (lines with nothing left are not taken).
  const basis = made.draws ?? made.defaultsTo;
  const left = (l: Row) => (basis ? remaining(asSourceLine(l), basis) : String(l.qty));
  const wanted =
    input.lines ??
    doc.lines
      .filter((l) => takes(l) && dec(left(l)).greaterThan(0))
      .map((l) => ({ line_id: Number(l.id), qty: left(l) }));
  if (wanted.length === 0 && basis && !input.lines) {
    const { verb } = QTY_FIELDS[basis];
    throw conflict(`Nothing is left to ${verb} on ${doc.header.number ?? `this ${title(source)}`}`);
  }
  if (wanted.length === 0) throw invalid(`Choose at least one line of the ${title(source)}`, "lines");
  const lines: Row[] = wanted.map((w, i) => {
    const line = byId.get(w.line_id);
    if (!line) throw invalid(`Line ${w.line_id} is not on ${doc.header.number ?? "this document"}`, `lines.${i}`);
    if (!takes(line)) throw invalid(`Line ${i + 1} is a service, which a ${title(target)} does not take`, `lines.${i}`);
    if (!dec(w.qty, `The quantity of line ${i + 1}`).greaterThan(0)) {
      throw invalid(`The quantity of line ${i + 1} must be more than 0`, `lines.${i}.qty`);
    }
    return { ...line, qty: w.qty, source_line_id: line.id };
  });
  if (made.draws) {
    const requested = lines.map((l) => ({ source_line_id: String(l.source_line_id), qty: String(l.qty) }));
    const allowance = allowanceFor(await documentSettings(tx, caller.workspaceId as string), made.draws);
    const over = checkOverflow(doc.lines.map(asSourceLine), requested, made.draws, allowance);
    if (over) throw conflict(over, { reason: "overflow" });
  }
  const given = input.header
    ? parse((target.header.insert as unknown as Shape).partial() as Shape, input.header, "header")
    : {};
  await refuseUnusableLocations(tx, caller.workspaceId as string, target, given, []);
  // The source's location when it has one (a delivery instruction's, a purchase order's), else each product's usual
  // location, else the workspace's default warehouse (issue 21 §1).
  const placed = await withDefaultLocation(
    tx,
    caller.workspaceId as string,
    target,
    { ...Object.fromEntries(shared(source, target).map((k) => [k, doc.header[k] ?? null])), ...given },
    lines,
  );
  const header = placed.header;
  await refuseOutsiders(tx, caller.workspaceId as string, target, given);
  // A percent discount was stored with its amount; the copy recomputes the amount for the lines taken.
  if (header.discount_percent != null) header.discount_amount = null;
  const draft = target.prepareConvert
    ? await target.prepareConvert(tx, caller, { spec: source, doc }, { header, lines: placed.lines })
    : { header, lines: placed.lines };
  const priced = (target.price ?? priceDraft)(draft.header, draft.lines);
  const ws = caller.workspaceId as string;
  const [row] = await insertRows(
    tx,
    target.header,
    [
      {
        ...priced.header,
        workspace_id: ws,
        status: target.machine.initial,
        source_type: source.machine.type,
        source_id: input.id,
        created_by: caller.userId,
      },
    ],
    true,
  );
  const targetId = Number(row.id);
  // A type with its own figures (`price`) writes the read-only line columns its prepareConvert decided (a claim
  // line's previous percentage); other types never carry the source's read-only columns.
  const decided = target.price ? decidedColumns(target, draft.lines) : [];
  await insertLines(tx, target, ws, targetId, priced.lines, decided);
  await writeEvent(tx, caller, {
    type: target.machine.type,
    docId: targetId,
    action: "create",
    from: null,
    to: target.machine.initial,
    changes: { source: { type: source.machine.type, id: input.id, number: doc.header.number ?? null } },
  });
  if (made.sourceAction) {
    await applyTransition(tx, caller, source, doc, made.sourceAction, null, { [target.machine.type]: targetId });
  }
  return targetId;
}
