import type { DocumentType, LineQuantities } from "@workmetrics/domain/documents/machine";
import type { QtyField } from "@workmetrics/domain/documents/quantities";
import type { DocSnapshot } from "@workmetrics/domain/documents/types/snapshot";
import type { ResourceDef } from "@workmetrics/domain/resources";
import type { Tx } from "../db/database.ts";
import type { Caller } from "../rest/access.ts";
import { RestError } from "../rest/rest-error.ts";
import type { Row } from "./store.ts";
import type { Locked } from "./transition.ts";

// The document types the commands know (issue 10 §1): each module registers its types' declarations (the pure
// machine from the domain, the header and line resources), the engine here runs them all alike.

// Which type a document can be made from: the source's action that records it (a quotation is marked won), or the
// statuses it may be in; `draws`: the quantity the made documents take from the source lines once submitted
// (ERPNext's status updater: qty_delivered), so a convert defaults each line to what is left and submit refuses more;
// `goodsOnly`: service lines are not taken.
export type MadeFrom = {
  from: string;
  sourceAction?: string;
  sourceStatuses?: readonly string[];
  draws?: QtyField;
  defaultsTo?: QtyField; // without drawing it: lines default to what is left of it (a delivery instruction)
  goodsOnly?: boolean;
  // Counted through the document made from the source in between, never made from it directly (a goods return
  // note returns the sales order's lines through the delivery order's).
  indirect?: boolean;
};

// What a transition does beyond the status, in the same transaction (stock moves, journal entries): the type's own
// code, registered by its module; the engine calls it after the status and the drawn quantities are written.
// `quantities`: what the transition's line_qty inputs added to the lines (a transfer's received quantities).
export type TransitionStep = {
  action: string;
  from: string;
  to: string;
  number: string | null;
  quantities?: LineQuantities;
  reason?: string | null; // the clerk's reason, when the transition asks for one (a release to pay)
};
export type Effect = (tx: Tx, caller: Caller, spec: DocumentSpec, doc: Locked, step: TransitionStep) => Promise<void>;

// A type's say in the draft document_convert makes of it (a credit note made from a goods return note takes the
// invoice's prices and names the invoice): the header and lines before totals are computed.
export type PrepareConvert = (
  tx: Tx,
  caller: Caller,
  source: { spec: DocumentSpec; doc: Locked },
  draft: { header: Row; lines: Row[] },
) => Promise<{ header: Row; lines: Row[] }>;

// A type's say in the draft document_save writes (a purchase order's lines priced at what the supplier charges, a
// supplier invoice refused for a number the supplier already used): the header and lines as parsed, before the
// lines are snapshotted and priced; `id` when a draft is replaced.
export type PrepareSave = (
  tx: Tx,
  caller: Caller,
  spec: DocumentSpec,
  draft: { id: number | null; header: Row; lines: Row[] },
) => Promise<{ header: Row; lines: Row[] }>;

// A type whose figures are not qty × price (a progressive claim's cumulative percentages and retention): its own
// pure totals over the header and lines as prepared (prepareSave / prepareConvert give it what it reads), in place
// of the one priceDraft; it answers the header and lines with every total written, refusing with a RestError.
export type PriceDraft = (header: Row, lines: readonly Row[]) => { header: Row; lines: Row[] };

export type DocumentSpec = {
  machine: DocumentType<string, DocSnapshot>;
  header: ResourceDef;
  lines: ResourceDef; // its parent column is `<type>_id`
  madeFrom?: readonly MadeFrom[];
  effects?: Readonly<Record<string, Effect>>; // by action
  prepareConvert?: PrepareConvert;
  prepareSave?: PrepareSave;
  price?: PriceDraft;
  // Header fields a duplicate leaves blank because they name one real-world document (a supplier's invoice number).
  notCopied?: readonly string[];
};

const TYPES = new Map<string, DocumentSpec>();

export function registerDocumentType(spec: DocumentSpec): void {
  const type = spec.machine.type;
  if (TYPES.has(type)) throw new Error(`The document type ${type} is registered twice`);
  if (spec.header.name !== type || spec.lines.name !== `${type}_line`) {
    throw new Error(`The document type ${type} needs the resources ${type} and ${type}_line`);
  }
  TYPES.set(type, spec);
}

// A module adds to what another module's type does on an action, before it (returns refuse an invoice's cancel
// while a credit note stands against it).
export function addEffect(type: string, action: string, effect: Effect): void {
  const spec = TYPES.get(type);
  if (!spec) throw new Error(`The document type ${type} is not registered yet`);
  const own = spec.effects?.[action];
  const both: Effect = own
    ? async (...args) => {
        await effect(...args);
        await own(...args);
      }
    : effect;
  TYPES.set(type, { ...spec, effects: { ...spec.effects, [action]: both } });
}

// A module declares that a type it does not own can be made from one of its own (a sales order from a loan form).
export function addMadeFrom(type: string, made: MadeFrom): void {
  const spec = TYPES.get(type);
  if (!spec) throw new Error(`The document type ${type} is not registered yet`);
  TYPES.set(type, { ...spec, madeFrom: [...(spec.madeFrom ?? []), made] });
}

export function documentSpec(type: string, field = "type"): DocumentSpec {
  const spec = TYPES.get(type);
  if (!spec) {
    const message = `Unknown document type "${type}"; use one of: ${[...TYPES.keys()].join(", ")}`;
    throw new RestError(422, "validation_failed", message, [{ field, message }]);
  }
  return spec;
}

export const parentColumn = (spec: DocumentSpec) => `${spec.machine.type}_id`;

// The types made from `type` that draw a quantity from its lines (an invoice bills a delivery order's lines).
export const drawnBy = (type: string): Array<{ spec: DocumentSpec; made: MadeFrom & { draws: QtyField } }> =>
  [...TYPES.values()].flatMap((spec) =>
    (spec.madeFrom ?? [])
      .filter((m): m is MadeFrom & { draws: QtyField } => m.from === type && m.draws != null)
      .map((made) => ({ spec, made })),
  );

// Every type that can be made from `type`, drawing or not (a delivery instruction made from a sales order, which a
// delivery order is made from in turn).
export const madeFromBy = (type: string): DocumentSpec[] =>
  [...TYPES.values()].filter((spec) => (spec.madeFrom ?? []).some((m) => m.from === type));
