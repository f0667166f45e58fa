import { can, matches, STORAGE_GRANTS } from "@workmetrics/domain";
import { transitionLabel } from "@workmetrics/domain/documents/machine";
import { REPORT_GRANTS } from "@workmetrics/domain/reports";
import { FIELD_GRANTS, type ResourceAction, type ResourceDef } from "@workmetrics/domain/resources";
import { DOCUMENT_TYPES, type WebDocType } from "../documents/types.ts";

export const ACTIONS: readonly ResourceAction[] = ["read", "create", "update", "delete"];

// An action beyond create, read, update and delete: a document's transition permission (quotation.submit "Send",
// invoice.cancel "Cancel") or approving lines priced below cost (`<type>.approve`, checked when a draft is saved).
// `alone`: granted without read and kept when read is taken away (a salesperson's own commission statements).
export type OtherAction = { action: string; label: string; help?: string; alone?: boolean };

// One row of the matrix: a resource, or files and buckets (issue 9 §3), which are granted the same way; documents
// carry their other actions (issue 10 §3: document permissions live in the matrix, editable as today).
export type MatrixRow = Pick<ResourceDef, "name" | "plural" | "actions"> & { other?: readonly OtherAction[] };

const APPROVE: OtherAction = {
  action: "approve",
  label: "Approve",
  help: "Save lines priced below their cost",
};

// Whether saving a draft of the type asks `<type>.approve` for lines priced below cost: the selling types (the server's
// document_save checks it unless the machine is `buying`, platform/documents/save.ts) — the same declaration.
export const approvesBelowCost = (t: Pick<WebDocType, "machine">): boolean => !t.machine.buying;

// The other actions of each resource, read from the document types' declarations: every transition permission
// that is not create, read, update or delete, labelled by its button ("Send"), and approve where a save asks it.
// A row shows only what its type declares: a purchase order's Approve is its approval transition, a supplier
// invoice has none.
export function documentActions(types: readonly Pick<WebDocType, "type" | "machine">[]): Map<string, OtherAction[]> {
  const out = new Map<string, OtherAction[]>();
  const add = (resource: string, a: OtherAction) => {
    const list = out.get(resource) ?? [];
    const same = list.find((x) => x.action === a.action);
    if (!same) list.push({ ...a });
    else if (!same.label.split(" / ").includes(a.label)) same.label = `${same.label} / ${a.label}`;
    out.set(resource, list);
  };
  for (const t of types) {
    for (const tr of t.machine.transitions) {
      const [resource, action] = tr.permission.split(".");
      if (resource && action && !(ACTIONS as readonly string[]).includes(action)) {
        add(resource, { action, label: transitionLabel(tr) });
      }
    }
    if (approvesBelowCost(t)) add(t.type, APPROVE);
  }
  return out;
}

// The rows of the matrix: what a workspace's roles can be granted (tenant resources, the workspace itself, reading
// receivables, files and buckets), documents with their other actions.
export function grantable(
  resources: readonly ResourceDef[],
  types: readonly Pick<WebDocType, "type" | "machine">[] = DOCUMENT_TYPES,
): MatrixRow[] {
  const other = documentActions(types);
  // A document's lines follow the document's permission (permissionOf): they have no row of their own.
  const own = resources.filter((r) => (r.scope === "tenant" || r.name === "workspace") && !r.permissionOf);
  const documents = new Set(types.map((t) => t.type));
  return [...own, ...REPORT_GRANTS, ...FIELD_GRANTS, ...STORAGE_GRANTS].map((r) => {
    const o = other.get(r.name);
    const commands = documents.has(r.name) ? DOCUMENT_COMMANDS : COMMAND_ACTIONS[r.name];
    return o || commands ? { ...r, ...(commands && { actions: commands }), ...(o && { other: o }) } : r;
  });
}

// What the commands check beyond a resource's REST actions: documents are read over REST but created (document_save,
// document_convert, amending) and changed (document_save of a draft) through the document commands; none deletes
// one. Receipts are created by record_payment.
const DOCUMENT_COMMANDS: readonly ResourceAction[] = ["read", "create", "update"];
const COMMAND_ACTIONS: Record<string, readonly ResourceAction[]> = { receipt: ["read", "create"] };

export function actionsOf(def: MatrixRow): readonly ResourceAction[] {
  return def.actions ?? ACTIONS;
}

// Every `<resource>.<action>` a row shows: its own actions, then its other actions.
export const keysOf = (row: MatrixRow): string[] => [
  ...actionsOf(row).map((a) => `${row.name}.${a}`),
  ...(row.other ?? []).map((o) => `${row.name}.${o.action}`),
];

// Rows without a read of their own (buckets: listing them is part of reading files).
const UNREAD = new Set<string>(STORAGE_GRANTS.filter((g) => !actionsOf(g).includes("read")).map((g) => g.name));
const ALONE = new Set<string>(
  REPORT_GRANTS.flatMap((g): string[] =>
    "other" in g ? g.other.filter((o: OtherAction) => o.alone).map((o) => `${g.name}.${o.action}`) : [],
  ),
);

// A role's patterns ("*", "*.read", "product.*", "!journal_entry.*") become the explicit set of
// `<resource>.<action>` they grant among the rows shown.
export function expand(patterns: readonly string[], rows: readonly MatrixRow[]): Set<string> {
  const out = new Set<string>();
  for (const r of rows) for (const key of keysOf(r)) if (can(patterns, key)) out.add(key);
  return out;
}

// Granting anything without read makes no sense in the UI: every other action implies reading; taking read away
// takes the row's other actions with it.
export function toggle(granted: Set<string>, resource: string, action: string): Set<string> {
  const next = new Set(granted);
  const key = `${resource}.${action}`;
  if (next.has(key)) {
    next.delete(key);
    if (action === "read") for (const k of granted) if (k.startsWith(`${resource}.`) && !ALONE.has(k)) next.delete(k);
  } else {
    next.add(key);
    if (action !== "read" && !UNREAD.has(resource) && !ALONE.has(key)) next.add(`${resource}.read`);
  }
  return next;
}

const resourceOf = (pattern: string) => (pattern.startsWith("!") ? pattern.slice(1) : pattern).split(".")[0];

// The patterns to save: the role's own patterns, changed only where the ticked boxes differ from what they grant.
// Whatever the matrix does not show or did not change is kept as written (wildcards, "*", "!" denies, actions no
// row lists). Unticking what a wildcard grants adds a deny ("quotation.*" + "!quotation.approve"), so the
// wildcard's other actions stay granted; ticking what a deny takes away narrows the deny to the boxes still unticked.
export function reconcile(
  patterns: readonly string[],
  granted: ReadonlySet<string>,
  rows: readonly MatrixRow[],
): string[] {
  let out = [...patterns];
  const universe = rows.flatMap(keysOf);
  const changedRows = new Set<MatrixRow>();
  const push = (p: string) => {
    if (!out.includes(p)) out.push(p);
  };
  for (const row of rows) {
    for (const key of keysOf(row)) {
      const want = granted.has(key);
      if (want === can(out, key)) continue;
      changedRows.add(row);
      if (want) {
        for (const deny of out.filter((p) => p.startsWith("!") && matches(p.slice(1), key))) {
          const rest = out.filter((p) => p !== deny);
          // What the deny still takes away among the boxes shown stays taken away, one deny each.
          const still = universe.filter(
            (k) => k !== key && matches(deny.slice(1), k) && !granted.has(k) && can(rest, k),
          );
          out = rest;
          for (const k of still) push(`!${k}`);
        }
        if (!can(out, key)) push(key);
      } else {
        out = out.filter((p) => p !== key);
        if (can(out, key)) push(`!${key}`);
      }
    }
  }
  // A row the admin emptied reads as one deny at most: its own patterns go, and "!<resource>.*" only when a wider
  // pattern ("*", "*.read") would still grant part of it.
  for (const row of changedRows) {
    const keys = keysOf(row);
    if (keys.some((k) => granted.has(k))) continue;
    out = out.filter((p) => resourceOf(p) !== row.name || !keys.some((k) => matches(p.replace(/^!/, ""), k)));
    if (keys.some((k) => can(out, k))) out.push(`!${row.name}.*`);
  }
  return out;
}

// The role's patterns no box shows ("report.export", a typo): named under the matrix, and saved as they are.
export const unshown = (patterns: readonly string[], rows: readonly MatrixRow[]): string[] => {
  const universe = rows.flatMap(keysOf);
  return patterns.filter((p) => !universe.some((k) => matches(p.replace(/^!/, ""), k)));
};
