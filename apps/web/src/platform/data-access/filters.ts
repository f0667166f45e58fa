import type { GridFilterItem, GridFilterModel, GridSortModel } from "@mui/x-data-grid";
import type { FieldDef, FieldKind } from "@workmetrics/domain/resources/types";

// The generic list speaks the PostgREST dialect (DESIGN §2.1): a DataGrid filter/sort model becomes query
// parameters here, as pure functions, so the mapping is unit-tested apart from the grid and the network.

// One query parameter: `column=op.value`, or a boolean expression for `or=(…)`.
export type PgFilter = { column: string; op: string; value: string } | { or: string };
export type PgOrder = { column: string; ascending: boolean; nullsFirst?: boolean };

type Cond = { column: string; op: string; value: string; raw?: boolean };
type Expr = Cond | { all: Cond[] } | { any: Cond[] };

export type FilterKindGroup = "text" | "number" | "boolean" | "date" | "datetime" | "choice" | "none";

export function filterGroup(kind: FieldKind): FilterKindGroup {
  switch (kind) {
    case "text":
    case "textarea":
    case "email":
    case "phone":
    case "url":
      return "text";
    case "integer":
    case "number":
    case "money":
    case "percent":
      return "number";
    case "boolean":
      return "boolean";
    case "date":
      return "date";
    case "datetime":
      return "datetime";
    case "enum":
    case "status":
      return "choice";
    default:
      return "none";
  }
}

// Inside `or=(…)`/`in.(…)` a value holding PostgREST's reserved characters (, . : ( ) ") must be double-quoted.
export function quoteValue(value: string): string {
  if (value === "" || /[,.()"\\:]|^\s|\s$/.test(value) || ["null", "true", "false"].includes(value)) {
    return `"${value.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`;
  }
  return value;
}

// A user's text matched literally inside an ILIKE pattern: % _ and \ lose their special meaning.
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

const likeCond = (column: string, pattern: string, negate = false): Cond => ({
  column,
  op: negate ? "not.ilike" : "ilike",
  value: pattern,
});

// Quick search: the phrase matches when any of the resource's search columns contains it (case-insensitive).
export function quickSearch(columns: readonly string[], phrase: string): PgFilter | null {
  const term = phrase.trim();
  if (!term || columns.length === 0) return null;
  const pattern = `%${escapeLike(term)}%`;
  return { or: columns.map((c) => render(likeCond(c, pattern))).join(",") };
}

const isBlank = (v: unknown) => v === undefined || v === null || v === "" || (Array.isArray(v) && v.length === 0);

function pad(n: number): string {
  return String(n).padStart(2, "0");
}

// A date filter value (Date from the grid's date input, or "YYYY-MM-DD") as a local calendar day.
export function toDay(value: unknown): string | null {
  if (value instanceof Date && !Number.isNaN(value.getTime())) {
    return `${value.getFullYear()}-${pad(value.getMonth() + 1)}-${pad(value.getDate())}`;
  }
  if (typeof value === "string" && /^\d{4}-\d{2}-\d{2}/.test(value)) return value.slice(0, 10);
  return null;
}

// The instants a local day starts and the next day starts, for timestamp columns.
function dayBounds(day: string): [string, string] {
  const [y, m, d] = day.split("-").map(Number);
  return [new Date(y, m - 1, d).toISOString(), new Date(y, m - 1, d + 1).toISOString()];
}

function listValue(values: unknown[]): string {
  return `(${values.map((v) => quoteValue(String(v))).join(",")})`;
}

function textExpr(col: string, op: string, v: unknown): Expr | null {
  const s = String(v ?? "");
  switch (op) {
    case "contains":
      return likeCond(col, `%${escapeLike(s)}%`);
    case "doesNotContain":
      return likeCond(col, `%${escapeLike(s)}%`, true);
    case "equals":
      return likeCond(col, escapeLike(s));
    case "doesNotEqual":
      return likeCond(col, escapeLike(s), true);
    case "startsWith":
      return likeCond(col, `${escapeLike(s)}%`);
    case "endsWith":
      return likeCond(col, `%${escapeLike(s)}`);
    default:
      return null;
  }
}

const NUMBER_OPS: Record<string, string> = { "=": "eq", "!=": "neq", ">": "gt", ">=": "gte", "<": "lt", "<=": "lte" };
const DATE_OPS: Record<string, string> = {
  is: "eq",
  not: "neq",
  after: "gt",
  onOrAfter: "gte",
  before: "lt",
  onOrBefore: "lte",
};

function datetimeExpr(col: string, op: string, day: string): Expr | null {
  const [start, next] = dayBounds(day);
  switch (op) {
    case "is":
      return {
        all: [
          { column: col, op: "gte", value: start },
          { column: col, op: "lt", value: next },
        ],
      };
    case "not":
      return {
        any: [
          { column: col, op: "lt", value: start },
          { column: col, op: "gte", value: next },
        ],
      };
    case "after":
      return { column: col, op: "gte", value: next };
    case "onOrAfter":
      return { column: col, op: "gte", value: start };
    case "before":
      return { column: col, op: "lt", value: start };
    case "onOrBefore":
      return { column: col, op: "lt", value: next };
    default:
      return null;
  }
}

// One grid filter item as an expression over its column; null when it is incomplete or not filterable.
export function itemExpr(item: GridFilterItem, field: FieldDef | undefined): Expr | null {
  if (!field) return null;
  const col = field.name;
  const group = filterGroup(field.kind);
  const { operator: op, value } = item;
  if (group === "none") return null;
  if (op === "isEmpty") return { column: col, op: "is", value: "null" };
  if (op === "isNotEmpty") return { column: col, op: "not.is", value: "null" };
  if (isBlank(value)) return null;
  if (op === "isAnyOf") {
    const values = (Array.isArray(value) ? value : [value]).filter((v) => !isBlank(v));
    return values.length ? { column: col, op: "in", value: listValue(values), raw: true } : null;
  }
  switch (group) {
    case "text":
      return textExpr(col, op, value);
    case "number": {
      const n = Number(value);
      return NUMBER_OPS[op] && Number.isFinite(n) ? { column: col, op: NUMBER_OPS[op], value: String(value) } : null;
    }
    case "boolean":
      return op === "is" && (value === true || value === "true" || value === false || value === "false")
        ? { column: col, op: "is", value: String(value) }
        : null;
    case "choice":
      return op === "is" || op === "not" ? { column: col, op: op === "is" ? "eq" : "neq", value: String(value) } : null;
    case "date": {
      const day = toDay(value);
      return day && DATE_OPS[op] ? { column: col, op: DATE_OPS[op], value: day } : null;
    }
    case "datetime": {
      const day = toDay(value);
      return day ? datetimeExpr(col, op, day) : null;
    }
  }
}

function render(c: Cond): string {
  return `${c.column}.${c.op}.${c.raw ? c.value : quoteValue(c.value)}`;
}

function renderExpr(e: Expr): string {
  if ("all" in e) return `and(${e.all.map(render).join(",")})`;
  if ("any" in e) return `or(${e.any.map(render).join(",")})`;
  return render(e);
}

// The grid's filter model (items joined by its logic operator) plus the quick search, as PostgREST filters.
export function toPgFilters(
  model: GridFilterModel | undefined,
  fields: readonly FieldDef[],
  searchColumns: readonly string[],
): PgFilter[] {
  const byName = new Map(fields.map((f) => [f.name, f]));
  const exprs = (model?.items ?? []).map((i) => itemExpr(i, byName.get(i.field))).filter((e) => e !== null);
  const out: PgFilter[] = [];
  const ors: string[] = [];
  if (model?.logicOperator === "or" && exprs.length > 1) {
    ors.push(exprs.map(renderExpr).join(","));
  } else {
    for (const e of exprs) {
      if ("all" in e) out.push(...e.all.map(({ column, op, value }) => ({ column, op, value })));
      else if ("any" in e) ors.push(e.any.map(render).join(","));
      else out.push({ column: e.column, op: e.op, value: e.value });
    }
  }
  const search = quickSearch(searchColumns, (model?.quickFilterValues ?? []).join(" "));
  if (search && "or" in search) ors.push(search.or);
  // Several disjunctions must all hold: nest them under one `or=(and(or(…),or(…)))`.
  if (ors.length === 1) out.push({ or: ors[0] });
  else if (ors.length > 1) out.push({ or: `and(${ors.map((o) => `or(${o})`).join(",")})` });
  return out;
}

// "name.asc,created_at.desc.nullslast" → orders; the grid's sort replaces the resource's default order.
export function parseOrder(order: string): PgOrder[] {
  return order
    .split(",")
    .map((part) => part.trim())
    .filter(Boolean)
    .map((part) => {
      const [column, dir, nulls] = part.split(".");
      const o: PgOrder = { column, ascending: dir !== "desc" };
      if (nulls === "nullsfirst") o.nullsFirst = true;
      if (nulls === "nullslast") o.nullsFirst = false;
      return o;
    });
}

// Sort by the grid's columns (or the default order), always ending on id so pages never overlap. `sortable` maps a
// grid field to what the server orders it by: itself, or a related order such as `category(name)`.
export function toPgOrder(
  sort: GridSortModel | undefined,
  defaultOrder: string,
  sortable: ReadonlyMap<string, string>,
): PgOrder[] {
  const chosen = (sort ?? []).flatMap((s) => {
    const column = s.sort ? sortable.get(s.field) : undefined;
    return column ? [{ column, ascending: s.sort === "asc" }] : [];
  });
  const orders = chosen.length ? chosen : parseOrder(defaultOrder);
  return orders.some((o) => o.column === "id") ? orders : [...orders, { column: "id", ascending: true }];
}
