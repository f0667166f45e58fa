import { decide, type Member, type Refusal } from "../access.ts";
import { FEATURES, type Feature } from "../tiers.ts";
import { DocumentError, dec, plain } from "./decimal.ts";

// Transitions as data (DESIGN §2.3, STYLE "Transitions as data"): a document type declares its statuses and
// (action, from, to, permission, guard) once; one engine runs them, the web offers the same answers as buttons, and
// each type gets one matrix test. Declarations are checked when the module loads (Vendure's transition config), so
// a typo fails every test instead of one clerk.

// Spec §4: statuses use these colours; which status gets which is the type's choice.
export const STATUS_COLORS = ["cyan", "yellow", "blue", "green", "red", "purple", "gray"] as const;
export type StatusColor = (typeof STATUS_COLORS)[number];

// adjective: how refusals name a document in this status, when the lower-cased label reads badly
// ("To Deliver and Bill" → adjective "open": "An open sales order cannot be reopened").
export type StatusDef = { label: string; color: StatusColor; adjective?: string };

export type DocState = { status: string };

// What a transition asks of the clerk beyond a reason, written onto the header with the status (a delivery's
// received-by name and time, a driver): kind "user" is a user of the workspace (the server checks it).
// Kind "line_qty" is a quantity per line, added to the line column `field` (a transfer's quantities received at
// the other end, a loan's quantities coming back): sent as [{ line_id, qty }]; a line left out takes 0, and the
// input left out takes each line's `left` (everything). Each is at most `left` (default qty − field); `required`
// means at least one line more than 0. The status settles on the lines with the quantities added.
export type LineRow = Readonly<Record<string, unknown>>;
export type TransitionInput = {
  field: string; // a header column, or a line column for line_qty
  label: string; // "Received by"; for line_qty the past participle read in "at most 4 can be received"
  kind: "text" | "datetime" | "user" | "line_qty";
  required?: boolean;
  prompt?: string; // the refusal when a required one is missing; default "Give <label> to <action> it"
  role?: number; // kind user: only users of this role are offered (a delivery's driver: Driver)
  left?: (line: LineRow) => string; // line_qty: the most a line may take now
};

// Quantities given per line: input field → line id → quantity now.
export type LineQuantities = Record<string, Record<string, string>>;

export type TransitionDef<S extends string = string, Doc = DocState> = {
  action: string; // a verb in snake_case: submit, cancel, mark_lost (STYLE "Naming")
  from: readonly S[];
  to: S;
  permission: string; // `<resource>.<action>`, checked by the one access rule (access.ts `decide`)
  label?: string; // the button: "Send"; default from the action ("mark_lost" → "Mark lost")
  past?: string; // for "A won quotation cannot be sent"; default from the label's first verb
  does?: string; // after "You do not have permission to …"; default "send this quotation"
  reasonPrompt?: string; // default "Give a reason to mark it lost"
  guard?: (doc: Doc) => string | null; // pure: a clerk-readable refusal or null
  // Pure: whether the action means anything for this document at all. When not, no button is offered (the guard
  // still refuses a bare document_transition): a matched supplier invoice has nothing to release.
  applies?: (doc: Doc) => boolean;
  needsReason?: boolean;
  // Run only by document_convert, never as a button or a bare document_transition: the refusal says how instead
  // ("Confirm an order by creating its sales order"): a confirmed order always has its sales order.
  byConvert?: string;
  own?: boolean; // members lacking the permission may still act on documents they own (decide's scope "own")
  inputs?: readonly TransitionInput[];
};

// Whose a document is, for members who read or act on their own only (decide's scope "own"): a user-id column of
// the header (created_by; a delivery's driver_id) and how a refusal names them ("your own quotations").
export type OwnerDef = { column: string; yours: string };

export type DocumentTypeDef<S extends string = string, Doc = DocState> = {
  type: string; // the header table: quotation, sales_order …
  title: string; // "Quotation"
  plural: string; // "Quotations"
  feature?: Feature; // the tier feature a member's workspace needs (delivery instructions: warehouse_tracking)
  // The workspace's own goods moving (a goods transfer): lines are valued at the product's cost, out of scope for GST,
  // whatever price a client sends.
  valuedAtCost?: boolean;
  // A buying type (a purchase order, a supplier invoice): lines are priced at what the supplier charges, so a picked
  // product's price is left to the server (the supplier's last price) and the selling rule "no line below its cost"
  // does not apply.
  buying?: boolean;
  owner?: OwnerDef;
  statuses: Readonly<Record<S, StatusDef>>;
  initial?: S; // the status a new draft gets; default "draft"
  transitions: readonly TransitionDef<NoInfer<S>, Doc>[];
  // ERPNext's status_map: refines a target from the document's figures (a submitted sales order lands on
  // "to_deliver_and_bill", "to_bill" … by its quantities) and re-settles after a later document changes them.
  settle?: (doc: Doc, status: NoInfer<S>) => NoInfer<S>;
};

export type DocumentType<S extends string = string, Doc = DocState> = Readonly<
  DocumentTypeDef<S, Doc> & { initial: S; statusNames: readonly S[]; actions: readonly string[] }
>;

export type TransitionRefusal =
  | { allowed: false; reason: "unknown_action" | "status" | "guard" | "needs_reason"; message: string }
  | { allowed: false; reason: "needs_input"; message: string; field: string }
  | ({ allowed: false } & Refusal);

export type TransitionDecision<S extends string = string, Doc = DocState> =
  | {
      allowed: true;
      transition: TransitionDef<S, Doc>;
      to: S;
      scope: "all" | "own";
      values: Record<string, string | null>;
      lines: LineQuantities;
    }
  | TransitionRefusal;

// ---- wording ---------------------------------------------------------------------------------------------------

// Past participles for the verbs transitions start with; anything else declares `past`.
const PAST: Record<string, string> = {
  accept: "accepted",
  amend: "amended",
  approve: "approved",
  bill: "billed",
  cancel: "cancelled",
  close: "closed",
  complete: "completed",
  confirm: "confirmed",
  decline: "declined",
  deliver: "delivered",
  dispatch: "dispatched",
  expire: "expired",
  hold: "held",
  issue: "issued",
  mark: "marked",
  pay: "paid",
  pick: "picked",
  post: "posted",
  put: "put",
  receive: "received",
  reject: "rejected",
  release: "released",
  reopen: "reopened",
  resume: "resumed",
  return: "returned",
  send: "sent",
  submit: "submitted",
  void: "voided",
};

// Lower-case words but keep acronyms: "GST Return" → "GST return".
const lower = (text: string) =>
  text
    .split(" ")
    .map((w) => (w.length > 1 && w === w.toUpperCase() && /[A-Z]/.test(w) ? w : w.toLowerCase()))
    .join(" ");
const capital = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
const article = (word: string) => (/^[aeiou]/i.test(word) ? "An" : "A");
// "Mark lost" + "it" → "mark it lost"; "Put on hold" → "put it on hold".
const withObject = (label: string, object: string) => {
  const [verb, ...rest] = lower(label).split(" ");
  return [verb, object, ...rest].join(" ");
};

export const transitionLabel = (t: TransitionDef<string, never>): string =>
  t.label ?? capital(t.action.replaceAll("_", " "));

function pastOf(t: TransitionDef<string, never>): string | null {
  if (t.past) return t.past;
  const [verb, ...rest] = lower(transitionLabel(t)).split(" ");
  return PAST[verb] ? [PAST[verb], ...rest].join(" ") : null;
}

// ---- definition ------------------------------------------------------------------------------------------------

export function defineDocumentType<const S extends string, Doc extends DocState = DocState>(
  def: DocumentTypeDef<S, Doc>,
): DocumentType<S, Doc> {
  const fail = (problem: string): never => {
    throw new Error(`Document type "${def.type}": ${problem}`);
  };
  if (!/^[a-z][a-z0-9_]*$/.test(def.type)) fail("the type is a table name in snake_case");
  if (!def.title.trim() || !def.plural.trim()) fail("give a title and a plural");
  if (def.feature && !Object.hasOwn(FEATURES, def.feature)) fail(`unknown tier feature "${def.feature}"`);
  const statusNames = Object.keys(def.statuses) as S[];
  if (statusNames.length === 0) fail("declare at least one status");
  for (const name of statusNames) {
    const s = def.statuses[name];
    if (!/^[a-z][a-z0-9_]*$/.test(name)) fail(`status "${name}" is not snake_case`);
    if (!s.label?.trim()) fail(`status "${name}" has no label`);
    if (!STATUS_COLORS.includes(s.color)) {
      fail(`status "${name}" has colour "${s.color}"; use one of ${STATUS_COLORS.join(", ")} (spec §4)`);
    }
  }
  const declared = (s: string) => Object.hasOwn(def.statuses, s);
  const initial = def.initial ?? ("draft" as S);
  if (!declared(initial)) fail(`the initial status "${initial}" is not declared`);

  const seen = new Set<string>();
  for (const t of def.transitions) {
    const name = `action "${t.action}"`;
    if (!/^[a-z][a-z0-9_]*$/.test(t.action)) fail(`${name} is not a snake_case verb`);
    if (t.from.length === 0) fail(`${name} has no from-status`);
    for (const from of t.from) {
      if (!declared(from)) fail(`${name} starts from "${from}", which is not a declared status`);
      if (seen.has(`${from}:${t.action}`)) fail(`${name} is declared twice from "${from}"`);
      seen.add(`${from}:${t.action}`);
    }
    if (!declared(t.to)) fail(`${name} goes to "${t.to}", which is not a declared status`);
    if (!/^[a-z][a-z0-9_]*\.[a-z][a-z0-9_]*$/.test(t.permission)) {
      fail(`${name} needs a permission like "${def.type}.${t.action}", not "${t.permission}"`);
    }
    if (!pastOf(t)) fail(`${name} needs \`past\` for its refusal ("… cannot be ___")`);
    for (const i of t.inputs ?? []) {
      if (!/^[a-z][a-z0-9_]*$/.test(i.field) || !i.label.trim()) fail(`${name} has an input without a column or label`);
    }
  }
  if (def.owner && (!/^[a-z][a-z0-9_]*$/.test(def.owner.column) || !def.owner.yours.trim())) {
    fail("the owner needs a user-id column and the words for a member's own documents");
  }
  const actions = [...new Set(def.transitions.map((t) => t.action))];
  return Object.freeze({ ...def, initial, statusNames, actions });
}

// ---- deciding --------------------------------------------------------------------------------------------------

function statusWords(type: DocumentType<string, never>, status: string): string {
  const s = type.statuses[status];
  return s.adjective ?? lower(s.label);
}

// Where a refused clerk starts: "A won quotation cannot be sent".
function stateMessage(type: DocumentType<string, never>, status: string, t: TransitionDef<string, never>): string {
  const adjective = statusWords(type, status);
  return `${article(adjective)} ${adjective} ${lower(type.title)} cannot be ${pastOf(t)}`;
}

export function settleStatus<S extends string, Doc extends DocState>(type: DocumentType<S, Doc>, doc: Doc, to: S): S {
  const settled = type.settle ? type.settle(doc, to) : to;
  if (!Object.hasOwn(type.statuses, settled)) {
    throw new Error(`Document type "${type.type}": settle gave "${settled}", which is not a declared status`);
  }
  return settled;
}

// The order DESIGN §2.3 gives: from-state, permission (through access.ts), guard; then the reason the clerk owes.
export function decideTransition<S extends string, Doc extends DocState>(
  type: DocumentType<S, Doc>,
  doc: Doc,
  action: string,
  member: Member,
  input: { reason?: string | null; values?: Readonly<Record<string, unknown>> | null } = {},
): TransitionDecision<S, Doc> {
  const anyType = type as unknown as DocumentType<string, never>;
  const candidates = type.transitions.filter((t) => t.action === action);
  if (candidates.length === 0) {
    return { allowed: false, reason: "unknown_action", message: `${type.plural} have no action "${action}"` };
  }
  const status = doc.status as S;
  if (!Object.hasOwn(type.statuses, status)) {
    return {
      allowed: false,
      reason: "status",
      message: `This ${lower(type.title)} has an unknown status "${status}"`,
    };
  }
  const t = candidates.find((c) => c.from.includes(status));
  if (!t) return { allowed: false, reason: "status", message: stateMessage(anyType, status, candidates[0]) };

  const label = transitionLabel(t);
  const access = decide(member, {
    audience: "member",
    permission: t.permission,
    feature: type.feature,
    subject: type.plural,
    does: t.does ?? withObject(label, `this ${lower(type.title)}`),
    own: t.own,
  });
  if (!access.allowed) return access;

  const blocked = t.guard?.(doc);
  if (blocked) return { allowed: false, reason: "guard", message: blocked };
  if (t.needsReason && !input.reason?.trim()) {
    return {
      allowed: false,
      reason: "needs_reason",
      message: t.reasonPrompt ?? `Give a reason to ${withObject(label, "it")}`,
    };
  }
  const given = inputValues(t, input.values ?? {});
  if (!given.ok) return { allowed: false, reason: "needs_input", field: given.field, message: given.message };
  const perLine = lineInputs(t, doc, input.values ?? {});
  if (!perLine.ok) return { allowed: false, reason: "needs_input", field: perLine.field, message: perLine.message };
  const settled = settleStatus(type, withLineQuantities(doc, perLine.lines), t.to);
  return { allowed: true, transition: t, to: settled, scope: access.scope, values: given.values, lines: perLine.lines };
}

const linesOf = (doc: DocState): readonly LineRow[] => (doc as { lines?: readonly LineRow[] }).lines ?? [];

export const lineLeft = (input: TransitionInput, line: LineRow): string =>
  input.left ? input.left(line) : plain(dec(String(line.qty ?? "0")).minus(dec(String(line[input.field] ?? "0"))));

// The document as it is once the quantities are added to its lines (what its status settles on).
export function withLineQuantities<Doc extends DocState>(doc: Doc, given: LineQuantities): Doc {
  const fields = Object.keys(given);
  if (fields.length === 0) return doc;
  const lines = linesOf(doc).map((l) => {
    const out: Record<string, unknown> = { ...l };
    for (const f of fields) {
      const now = given[f][String(l.id)];
      if (now) out[f] = plain(dec(String(l[f] ?? "0")).plus(dec(now)));
    }
    return out;
  });
  return { ...doc, lines };
}

// The line_qty inputs from what the clerk gave ([{ line_id, qty }]), each checked against the line's `left`.
function lineInputs(
  t: TransitionDef<string, never>,
  doc: DocState,
  given: Readonly<Record<string, unknown>>,
): { ok: true; lines: LineQuantities } | { ok: false; field: string; message: string } {
  const out: LineQuantities = {};
  const lines = linesOf(doc);
  for (const i of (t.inputs ?? []).filter((x) => x.kind === "line_qty")) {
    const raw = given[i.field];
    const byLine: Record<string, string> = {};
    const fail = (message: string) => ({ ok: false as const, field: i.field, message });
    if (raw === undefined || raw === null) {
      for (const l of lines) byLine[String(l.id)] = lineLeft(i, l);
    } else {
      if (!Array.isArray(raw)) return fail(`${capital(i.label)}: give a list of { line_id, qty }`);
      for (const entry of raw as unknown[]) {
        const e = (entry ?? {}) as { line_id?: unknown; qty?: unknown };
        const line = lines.find((l) => String(l.id) === String(e.line_id));
        if (!line) return fail(`Line ${String(e.line_id)} is not on this document`);
        const n = lines.indexOf(line) + 1;
        let qty: ReturnType<typeof dec>;
        try {
          qty = dec(String(e.qty ?? ""), `The quantity ${lower(i.label)} on line ${n}`);
        } catch (err) {
          if (err instanceof DocumentError) return fail(err.message);
          throw err;
        }
        if (qty.isNegative()) return fail(`The quantity ${lower(i.label)} on line ${n} cannot be less than 0`);
        byLine[String(line.id)] = plain(qty.plus(byLine[String(line.id)] ?? "0"));
      }
    }
    for (const [n, l] of lines.entries()) {
      const now = dec(byLine[String(l.id)] ?? "0");
      const left = lineLeft(i, l);
      if (now.greaterThan(dec(left))) {
        return fail(
          dec(left).isZero()
            ? `Line ${n + 1}: nothing is left to be ${lower(i.label)}`
            : `Line ${n + 1}: at most ${left} can be ${lower(i.label)}, not ${plain(now)}`,
        );
      }
    }
    if (i.required && Object.values(byLine).every((q) => dec(q).isZero())) {
      return fail(i.prompt ?? `Give the quantity ${lower(i.label)} on at least one line`);
    }
    out[i.field] = Object.fromEntries(Object.entries(byLine).filter(([, q]) => !dec(q).isZero()));
  }
  return { ok: true, lines: out };
}

const MAX_TEXT = 200;

// The transition's inputs from what the clerk gave: text trimmed, a date and time as ISO, a user id as given (the
// server checks it is a user of the workspace); a required one missing is a refusal naming its field.
function inputValues(
  t: TransitionDef<string, never>,
  given: Readonly<Record<string, unknown>>,
): { ok: true; values: Record<string, string | null> } | { ok: false; field: string; message: string } {
  const out: Record<string, string | null> = {};
  for (const i of (t.inputs ?? []).filter((x) => x.kind !== "line_qty")) {
    const raw = given[i.field];
    const text = raw === null || raw === undefined ? "" : String(raw).trim();
    if (!text) {
      if (i.required) {
        return {
          ok: false,
          field: i.field,
          message: i.prompt ?? `Give ${lower(i.label)} to ${withObject(transitionLabel(t), "it")}`,
        };
      }
      out[i.field] = null;
      continue;
    }
    if (i.kind === "text" && text.length > MAX_TEXT) {
      return { ok: false, field: i.field, message: `${i.label} is longer than ${MAX_TEXT} characters` };
    }
    if (i.kind === "datetime") {
      const at = Date.parse(text);
      if (Number.isNaN(at)) return { ok: false, field: i.field, message: `${i.label} must be a date and time` };
      out[i.field] = new Date(at).toISOString();
    } else if (i.kind === "user") {
      if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(text)) {
        return { ok: false, field: i.field, message: `${i.label} must be a user of this workspace` };
      }
      out[i.field] = text.toLowerCase();
    } else out[i.field] = text;
  }
  return { ok: true, values: out };
}

// "You can only send your own quotations", "You can only complete delivery orders assigned to you": the refusal of a
// member whose scope is their own documents, naming a transition by its label, or else the words given ("change").
export function ownOnlyMessage(type: DocumentType<string, never>, action: string): string {
  const yours = type.owner?.yours ?? `your own ${lower(type.plural)}`;
  const t = type.transitions.find((x) => x.action === action);
  return `You can only ${t ? withObject(transitionLabel(t), yours) : `${action} ${yours}`}`;
}

// Whether `userId` owns the document (its owner column), for the members whose scope is their own.
export function ownsDocument(
  type: DocumentType<string, never>,
  header: Readonly<Record<string, unknown>>,
  userId: string | null,
): boolean {
  const column = type.owner?.column ?? "created_by";
  return userId != null && String(header[column] ?? "").toLowerCase() === userId.toLowerCase();
}

// What the document page offers (buttons only for these, issue 10 §3): the actions from the current status the
// member may run; a guard's refusal comes along so the button can say why it is disabled.
export type OfferedAction = {
  action: string;
  label: string;
  needsReason: boolean;
  blocked: string | null;
  inputs?: readonly TransitionInput[]; // what to ask for before running it (a dialog)
};

export function offeredActions<S extends string, Doc extends DocState>(
  type: DocumentType<S, Doc>,
  doc: Doc,
  member: Member,
): OfferedAction[] {
  return type.transitions.flatMap((t) => {
    if (!t.from.includes(doc.status as S) || t.byConvert || (t.applies && !t.applies(doc))) return [];
    const d = decideTransition(type, doc, t.action, member, { reason: "offered" });
    // Inputs are asked for when the clerk runs it; a missing one does not hide the button.
    if (!d.allowed && d.reason !== "guard" && d.reason !== "needs_input") return [];
    const blocked = d.allowed || d.reason === "needs_input" ? null : d.message;
    const offered: OfferedAction = {
      action: t.action,
      label: transitionLabel(t),
      needsReason: Boolean(t.needsReason),
      blocked,
    };
    return [t.inputs?.length ? { ...offered, inputs: t.inputs } : offered];
  });
}

// ---- the matrix (STYLE: "every (status, action) pair is either declared or refused") ------------------------------

const EVERYONE: Member = { kind: "member", permissions: ["*"], features: Object.keys(FEATURES) };

export type MatrixOptions<Doc> = {
  doc?: (status: string) => Doc; // a document in each status for the guards; default { status }
  member?: Member; // default: every permission and feature
  reason?: string | null; // default "A reason"; null shows the reason prompts
};

// status → action → "→ to" or the refusal's message, for one table-driven test per type.
export function transitionMatrix<S extends string, Doc extends DocState>(
  type: DocumentType<S, Doc>,
  options: MatrixOptions<Doc> = {},
): Record<S, Record<string, string>> {
  const matrix = {} as Record<S, Record<string, string>>;
  const reason = options.reason === undefined ? "A reason" : options.reason;
  for (const status of type.statusNames) {
    const doc = options.doc ? options.doc(status) : ({ status } as unknown as Doc);
    const row: Record<string, string> = {};
    for (const action of type.actions) {
      const d = decideTransition(type, doc, action, options.member ?? EVERYONE, { reason });
      row[action] = d.allowed ? `→ ${d.to}` : d.message;
    }
    matrix[status] = row;
  }
  return matrix;
}
