import { parseError, RestError } from "./rest-error.ts";

// The PostgREST query dialect (DESIGN §2.1) parsed into a small tree; pure, no SQL here (sql-compile.ts).

export const OPERATORS = [
  "eq",
  "neq",
  "gt",
  "gte",
  "lt",
  "lte",
  "like",
  "ilike",
  "is",
  "in",
  "cs",
  "cd",
  "ov",
] as const;
export type Operator = (typeof OPERATORS)[number];

export type Filter = {
  kind: "filter";
  column: string;
  negate: boolean;
  op: Operator;
  quantifier: "any" | "all" | null;
  value: string; // raw text after the operator; lists are split at compile time
};
export type Logic = { kind: "and" | "or"; negate: boolean; children: Condition[] };
export type Condition = Filter | Logic;

export type SelectColumn = { kind: "column"; name: string; alias: string | null; cast: string | null };
export type SelectEmbed = {
  kind: "embed";
  name: string; // relation key, target resource or foreign-key column
  alias: string | null;
  hint: string | null;
  inner: boolean;
  select: SelectItem[];
};
export type SelectItem = { kind: "star" } | SelectColumn | SelectEmbed;

// `relation` names a to-one embed of the same level: order=category(name).desc orders by the embedded row's name.
export type OrderTerm = {
  column: string;
  relation: string | null;
  descending: boolean;
  nulls: "first" | "last" | null;
};

// Per embedding level (top level is path []): filters, order, limit and offset addressed to it.
export type Level = { conditions: Condition[]; order: OrderTerm[]; limit: number | null; offset: number | null };

export type ParsedQuery = {
  select: SelectItem[];
  levels: Map<string, Level>; // key: embed path joined with "."
  onConflict: string[] | null;
  columns: string[] | null;
};

const IDENT = /^[A-Za-z_][A-Za-z0-9_]*$/;
const CASTS = new Set(["text", "integer", "bigint", "numeric", "boolean", "date", "json", "jsonb"]);
// Issue 9 §3: one request's embeds are capped (hundreds of `c1:category(*),c2:category(*),…` ran for 92 s and
// answered 60 MB); the web asks for at most a handful.
export const MAX_DEPTH = 6;
export const MAX_EMBEDS = 20;

const tooDeep = (asked: number) =>
  parseError(
    `Embedded resources nest ${asked} levels deep; at most ${MAX_DEPTH} are allowed`,
    `Asked for ${asked} levels of embedding`,
  );

// How deep a select's parentheses nest (outside double quotes): its embedding depth, read before parsing it.
function nesting(text: string): number {
  let depth = 0;
  let deepest = 0;
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === "\\") i++;
      else if (ch === '"') quoted = false;
    } else if (ch === '"') quoted = true;
    else if (ch === "(") deepest = Math.max(deepest, ++depth);
    else if (ch === ")") depth--;
  }
  return deepest;
}

const embedCount = (items: SelectItem[]): number =>
  items.reduce((n, i) => (i.kind === "embed" ? n + 1 + embedCount(i.select) : n), 0);

// The select of a request, within the caps: at most MAX_DEPTH levels of embedding and MAX_EMBEDS embeds in all.
function parseCappedSelect(raw: string): SelectItem[] {
  const asked = nesting(raw);
  if (asked > MAX_DEPTH) throw tooDeep(asked);
  const select = parseSelect(raw);
  const embeds = embedCount(select);
  if (embeds > MAX_EMBEDS) {
    throw new RestError(
      400,
      "PGRST100",
      `Too many embedded resources: the select asks for ${embeds}, at most ${MAX_EMBEDS} are allowed in one request`,
      `Asked for ${embeds} embedded resources`,
      "Embed only the related records you need, or fetch the rest in separate requests",
    );
  }
  return select;
}

function ident(s: string, what: string): string {
  if (!IDENT.test(s)) throw parseError(`"${s}" is not a valid ${what}`);
  return s;
}

// Split at top-level commas, keeping parentheses, braces and double-quoted strings whole.
export function splitTopLevel(input: string, sep = ","): string[] {
  const out: string[] = [];
  let depth = 0;
  let quoted = false;
  let cur = "";
  for (let i = 0; i < input.length; i++) {
    const ch = input[i];
    if (quoted) {
      cur += ch;
      if (ch === "\\" && i + 1 < input.length) cur += input[++i];
      else if (ch === '"') quoted = false;
      continue;
    }
    if (ch === '"') quoted = true;
    else if (ch === "(" || ch === "{") depth++;
    else if (ch === ")" || ch === "}") {
      depth--;
      if (depth < 0) throw parseError(`Unbalanced parentheses in "${input}"`);
    } else if (ch === sep && depth === 0) {
      out.push(cur);
      cur = "";
      continue;
    }
    cur += ch;
  }
  if (quoted || depth !== 0) throw parseError(`Unbalanced quotes or parentheses in "${input}"`);
  out.push(cur);
  return out;
}

// A list value "(a,b,\"c,d\")" or "{a,b}" → ["a", "b", "c,d"].
export function parseList(raw: string): string[] {
  const open = raw[0];
  const close = open === "(" ? ")" : open === "{" ? "}" : null;
  if (!close || raw[raw.length - 1] !== close) throw parseError(`Expected a list such as (a,b) but got "${raw}"`);
  const body = raw.slice(1, -1);
  if (body.trim() === "") return [];
  return splitTopLevel(body).map(unquote);
}

export function unquote(s: string): string {
  const t = s.trim();
  if (t.length >= 2 && t.startsWith('"') && t.endsWith('"')) return t.slice(1, -1).replace(/\\(.)/g, "$1");
  return t;
}

// "not.like(any).{a*,b*}" → operator parts of a filter (the column is already known).
export function parseOperation(column: string, text: string, inLogic: boolean): Filter {
  let rest = text;
  let negate = false;
  if (rest.startsWith("not.")) {
    negate = true;
    rest = rest.slice(4);
  }
  const dot = rest.indexOf(".");
  if (dot < 0) throw parseError(`"${text}" needs an operator and a value, e.g. eq.42`);
  const opText = rest.slice(0, dot);
  const m = /^([a-z]+)(?:\((any|all)\))?$/.exec(opText);
  if (!m || !(OPERATORS as readonly string[]).includes(m[1])) {
    throw parseError(`Unknown operator "${opText}"`, `Use one of ${OPERATORS.join(", ")}`);
  }
  const op = m[1] as Operator;
  const quantifier = (m[2] as "any" | "all" | undefined) ?? null;
  if (quantifier && !["eq", "neq", "gt", "gte", "lt", "lte", "like", "ilike"].includes(op)) {
    throw parseError(`The (${quantifier}) modifier does not apply to ${op}`);
  }
  let value = rest.slice(dot + 1);
  if (inLogic && !["in", "cs", "cd", "ov"].includes(op) && !quantifier) value = unquote(value);
  return { kind: "filter", column, negate, op, quantifier, value };
}

// "(a.eq.1,or(b.gt.2,not.and(c.is.null,d.lt.4)))" → a condition tree.
export function parseLogic(kind: "and" | "or", negate: boolean, raw: string, depth = 0): Logic {
  if (depth > 10) throw parseError("Logic trees nest too deeply");
  if (!raw.startsWith("(") || !raw.endsWith(")")) throw parseError(`${kind} needs a parenthesised list: ${kind}=(…)`);
  const children: Condition[] = splitTopLevel(raw.slice(1, -1)).map((item) => {
    const t = item.trim();
    const m = /^(not\.)?(and|or)(\(.*\))$/s.exec(t);
    if (m) return parseLogic(m[2] as "and" | "or", Boolean(m[1]), m[3], depth + 1);
    const dot = t.indexOf(".");
    if (dot < 0) throw parseError(`"${t}" is not a filter such as column.eq.value`);
    return parseOperation(ident(t.slice(0, dot), "column name"), t.slice(dot + 1), true);
  });
  if (children.length === 0) throw parseError(`${kind}=() needs at least one condition`);
  return { kind, negate, children };
}

export function parseSelect(raw: string, depth = 0): SelectItem[] {
  if (depth > MAX_DEPTH) throw tooDeep(depth);
  const text = raw.replace(/\s+/g, "");
  if (text === "") return [{ kind: "star" }];
  return splitTopLevel(text).map((item): SelectItem => {
    if (item === "*") return { kind: "star" };
    if (item === "") throw parseError(`Empty item in select "${raw}"`);
    let rest = item;
    let alias: string | null = null;
    const colon = /^([A-Za-z_][A-Za-z0-9_]*):(?!:)/.exec(rest);
    if (colon) {
      alias = colon[1];
      rest = rest.slice(colon[0].length);
    }
    const paren = rest.indexOf("(");
    if (paren >= 0) {
      if (!rest.endsWith(")")) throw parseError(`"${item}" is not a valid embedded resource`);
      const head = rest.slice(0, paren).split("!");
      const name = ident(head[0], "resource name");
      let hint: string | null = null;
      let inner = false;
      for (const h of head.slice(1)) {
        if (h === "inner") inner = true;
        else if (h === "left") inner = false;
        else hint = ident(h, "embedding hint");
      }
      const select = parseSelect(rest.slice(paren + 1, -1), depth + 1);
      return { kind: "embed", name, alias, hint, inner, select };
    }
    const [name, cast, extra] = rest.split("::");
    if (extra !== undefined || (cast !== undefined && !CASTS.has(cast))) {
      throw parseError(`Unsupported cast in "${item}"`, `Casts: ${[...CASTS].join(", ")}`);
    }
    return { kind: "column", name: ident(name, "column name"), alias, cast: cast ?? null };
  });
}

// "name.desc.nullslast", or a related order "category(name).asc" (PostgREST ≥ 10: a column of a to-one embed).
export function parseOrder(raw: string): OrderTerm[] {
  return splitTopLevel(raw).map((term) => {
    const text = term.trim();
    const related = /^([^.()]*)\(([^()]*)\)(\..*)?$/.exec(text);
    const parts = related ? [related[2], ...(related[3] ?? "").split(".").slice(1)] : text.split(".");
    const relation = related ? ident(related[1], "embedded resource") : null;
    const column = ident(parts[0], "column name");
    let descending = false;
    let nulls: OrderTerm["nulls"] = null;
    for (const p of parts.slice(1)) {
      if (p === "asc") descending = false;
      else if (p === "desc") descending = true;
      else if (p === "nullsfirst") nulls = "first";
      else if (p === "nullslast") nulls = "last";
      else throw parseError(`Unknown order modifier "${p}" in "${term}"`);
    }
    return { column, relation, descending, nulls };
  });
}

function nonNegative(raw: string, what: string): number {
  if (!/^\d{1,9}$/.test(raw)) throw parseError(`${what} must be a non-negative integer`);
  return Number(raw);
}

const RESERVED = new Set(["select", "order", "limit", "offset", "on_conflict", "columns"]);

export function emptyLevel(): Level {
  return { conditions: [], order: [], limit: null, offset: null };
}

// The query string as ordered key/value pairs (repeated keys allowed: price=gt.1&price=lt.9).
export function parseQuery(params: Iterable<[string, string]>): ParsedQuery {
  const levels = new Map<string, Level>();
  const level = (path: string) => {
    let l = levels.get(path);
    if (!l) {
      l = emptyLevel();
      levels.set(path, l);
    }
    return l;
  };
  level("");
  let select: SelectItem[] = [{ kind: "star" }];
  let onConflict: string[] | null = null;
  let columns: string[] | null = null;
  for (const [key, value] of params) {
    if (value.includes("\u0000") || key.includes("\u0000")) throw parseError("Query contains a NUL character");
    if (key === "select") {
      select = parseCappedSelect(value);
      continue;
    }
    if (key === "on_conflict") {
      onConflict = splitTopLevel(value).map((c) => ident(c.trim(), "column name"));
      continue;
    }
    if (key === "columns") {
      columns = splitTopLevel(value).map((c) => ident(unquote(c), "column name"));
      continue;
    }
    const parts = key.split(".");
    let last = parts[parts.length - 1];
    let negate = false;
    // not.or=(…) / embed.not.and=(…)
    if (parts.length >= 2 && parts[parts.length - 2] === "not" && (last === "or" || last === "and")) {
      negate = true;
      parts.splice(parts.length - 2, 1);
      last = parts[parts.length - 1];
    }
    const path = parts.slice(0, -1).map((p) => ident(p, "embedded resource"));
    if (path.length > MAX_DEPTH) throw tooDeep(path.length);
    const target = level(path.join("."));
    if (last === "or" || last === "and") {
      target.conditions.push(parseLogic(last, negate, value));
    } else if (last === "order") {
      target.order = parseOrder(value);
    } else if (last === "limit") {
      target.limit = nonNegative(value, "limit");
    } else if (last === "offset") {
      target.offset = nonNegative(value, "offset");
    } else if (RESERVED.has(last) && path.length > 0) {
      throw parseError(`"${key}" is not supported`);
    } else {
      target.conditions.push(parseOperation(ident(last, "column name"), value, false));
    }
  }
  return { select, levels, onConflict, columns };
}

// Prefer: return=representation, count=exact, resolution=merge-duplicates, missing=default, tx=rollback …
export type Preferences = {
  return: "representation" | "minimal" | "headers-only" | null;
  count: "exact" | "planned" | "estimated" | null;
  resolution: "merge-duplicates" | "ignore-duplicates" | null;
  rollback: boolean;
};

export function parsePrefer(header: string | string[] | undefined): Preferences {
  const prefs: Preferences = { return: null, count: null, resolution: null, rollback: false };
  const raw = Array.isArray(header) ? header.join(",") : (header ?? "");
  for (const part of raw.split(",")) {
    const [k, v] = part.trim().split("=");
    if (k === "return" && (v === "representation" || v === "minimal" || v === "headers-only")) prefs.return = v;
    else if (k === "count" && (v === "exact" || v === "planned" || v === "estimated")) prefs.count = v;
    else if (k === "resolution" && (v === "merge-duplicates" || v === "ignore-duplicates")) prefs.resolution = v;
    else if (k === "tx" && v === "rollback") prefs.rollback = true;
  }
  return prefs;
}

// Range: 0-49 (items) → offset and limit.
export function parseRange(header: string | undefined): { offset: number; limit: number | null } | null {
  if (!header) return null;
  const m = /^(?:items=)?\s*(\d{1,9})-(\d{1,9})?\s*$/.exec(header);
  if (!m) return null;
  const from = Number(m[1]);
  if (m[2] === undefined) return { offset: from, limit: null };
  const to = Number(m[2]);
  if (to < from) throw new RestError(416, "PGRST103", "Requested range not satisfiable");
  return { offset: from, limit: to - from + 1 };
}
