import { decide, decideResource, type Member, memberRequirement } from "@workmetrics/domain";
import { RESOURCES, wireColumns } from "@workmetrics/domain/resources";
import type { FieldDef, ResourceDef } from "@workmetrics/domain/resources/types";

// What the generic pages read from a resource definition (DESIGN §2.3): one registry, no per-resource code.

const byName = new Map<string, ResourceDef>(RESOURCES.map((r) => [r.name, r]));
const byRoute = new Map<string, ResourceDef>(RESOURCES.filter((r) => r.route).map((r) => [r.route as string, r]));

export function resourceByName(name: string): ResourceDef {
  const def = byName.get(name);
  if (!def) throw new Error(`Unknown resource ${name}`);
  return def;
}

export function resourceByRoute(route: string): ResourceDef | undefined {
  return byRoute.get(route);
}

// The relation a reference field is embedded through (product.category_id → relation "category").
export function embedName(def: ResourceDef, field: FieldDef): string | null {
  for (const [key, rel] of Object.entries(def.relations)) {
    if (rel.kind === "one" && rel.column === field.name && rel.resource === field.reference?.resource) return key;
  }
  return null;
}

// Whether the member may read a resource — by the one access rule, tier included, as the server decides an embed.
// A list or page leaves out the embeds (and reference columns) of what it refuses: a Lite workspace reads no
// projects, a driver no companies, and asking for them would refuse the whole request.
export type Readable = (resource: string) => boolean;
export const readsAll: Readable = () => true;
export function readableBy(who: Member): Readable {
  const cache = new Map<string, boolean>();
  return (resource) => {
    let ok = cache.get(resource);
    if (ok === undefined) {
      const target = byName.get(resource);
      // A field's own permission (FieldDef.permission, "product_cost.read") is asked the same way.
      if (resource.includes(".")) ok = decide(who, memberRequirement(resource, "read it")).allowed;
      else ok = target ? decideResource(who, target, "read").allowed : false;
      cache.set(resource, ok);
    }
    return ok;
  };
}

// A reference field whose target the member reads, a field with a permission of its own (a product's cost) whose
// permission they hold (the server leaves it out of `*` otherwise); any other field is shown as it is.
export const fieldReadable = (f: FieldDef, readable: Readable): boolean =>
  (f.kind !== "reference" || !f.reference || readable(f.reference.resource)) &&
  (!f.permission || readable(f.permission));

// `*` plus the display column of every referenced row the member reads, so a list or detail shows labels without
// more requests.
export function selectWithLabels(def: ResourceDef, readable: Readable = readsAll): string {
  const embeds = def.fields
    .filter((f) => f.kind === "reference" && f.reference && readable(f.reference.resource))
    .map((f) => {
      const key = embedName(def, f);
      return key && f.reference ? `${key}:${key}(id,${f.reference.display})` : null;
    })
    .filter((e) => e !== null);
  return ["*", ...new Set(embeds)].join(",");
}

// What a list column sorts by on the server: the column itself, or for a reference the referenced row's display
// column through its embed (PostgREST's related order, `category(name)`); null where the engine cannot order.
export function orderColumn(def: ResourceDef, field: FieldDef): string | null {
  if (field.kind === "tags" || field.kind === "image" || field.kind === "textarea") return null;
  if (field.kind !== "reference") return field.name;
  const key = embedName(def, field);
  return key && field.reference ? `${key}(${field.reference.display})` : null;
}

// Every sortable list column → its server order (the embeds it names are the ones selectWithLabels asks for).
export function orderColumns(def: ResourceDef, readable: Readable = readsAll): Map<string, string> {
  const out = new Map<string, string>();
  for (const f of def.fields) {
    const column = fieldReadable(f, readable) ? orderColumn(def, f) : null;
    if (column) out.set(f.name, column);
  }
  return out;
}

// The label of the row a reference field points at, read from its embed; null when it points nowhere.
export function referenceLabel(def: ResourceDef, field: FieldDef, row: Record<string, unknown>): string | null {
  const value = row[field.name];
  if (value === null || value === undefined || value === "") return null;
  const key = embedName(def, field);
  const embedded = key ? row[key] : undefined;
  if (embedded && typeof embedded === "object" && field.reference) {
    const label = (embedded as Record<string, unknown>)[field.reference.display];
    if (label !== null && label !== undefined && label !== "") return String(label);
  }
  return `#${String(value)}`;
}

export const listFields = (def: ResourceDef): FieldDef[] => {
  const listed = def.fields.filter((f) => f.list);
  return listed.length ? listed : def.fields.filter((f) => f.kind !== "textarea").slice(0, 6);
};

export const formFields = (def: ResourceDef, mode: "create" | "edit"): FieldDef[] =>
  def.fields.filter(
    (f) =>
      !f.readOnly && f.form !== false && !(mode === "edit" && f.name === "id") && !(mode === "create" && f.afterCreate),
  );

// Every tenant row is the caller's workspace, so the field says nothing — except where the operator names it
// (a credit is for one workspace).
export const showsWorkspace = (f: FieldDef): boolean => f.name !== "workspace_id" || Boolean(f.operatorOnly);

export const detailFields = (def: ResourceDef): FieldDef[] => def.fields.filter(showsWorkspace);

// A record's name for titles and links: its display column, shortened; the id when there is nothing better.
export function recordTitle(def: ResourceDef, row: Record<string, unknown> | undefined): string {
  const label = def.display === "id" ? null : row?.[def.display];
  if (label !== null && label !== undefined && label !== "") {
    const text = String(label).replace(/\s+/g, " ").trim();
    return text.length > 80 ? `${text.slice(0, 79)}…` : text;
  }
  return row ? `${def.title} #${String(row.id)}` : def.title;
}

// A new record starts from the table's literal column defaults (active: true, unit: "pcs"), as the database would.
export function columnDefaults(def: ResourceDef): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, column] of wireColumns(def)) {
    const v: unknown = column.default;
    if (typeof v === "string" || typeof v === "number" || typeof v === "boolean") out[name] = v;
  }
  return out;
}
