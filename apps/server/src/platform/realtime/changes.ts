import { decideResource } from "@workmetrics/domain";
import { type Db, inRequest } from "../db/database.ts";
import { type Caller, memberOf, readsColumn, refusalError } from "../rest/access.ts";
import { runRead } from "../rest/engine.ts";
import { parseOperation, parsePrefer, parseQuery, splitTopLevel } from "../rest/query-parse.ts";
import { type ResourceMeta, resourceMeta } from "../rest/resource-meta.ts";
import { RestError } from "../rest/rest-error.ts";
import { announcedByCommands, triggeredTables } from "./announce.ts";

// postgres_changes (DESIGN §2.3.2): a channel's bindings name a registered document table (or every one, with no
// table), an event and a PostgREST filter (`id=eq.5`, commas for AND). A change reaches a binding only if the
// member reads the changed row through /rest/v1 with that filter: the row is read by the REST engine itself, as the
// member, inside a request transaction (the same decision, own-rows rule, hidden columns and row-level security),
// so realtime can never show a row the REST API would not.

export type ChangeEvent = "INSERT" | "UPDATE" | "DELETE";

export type Binding = {
  id: number;
  event: ChangeEvent | "*";
  schema: string;
  table: string | null;
  filter: string | null;
  conditions: Array<[string, string]>;
};

// A committed document change, as document_event recorded it (seq is its id: one sequence for every workspace).
export type DocumentChange = {
  seq: number;
  workspace_id: string;
  type: string;
  id: number;
  action: string;
  status: string | null;
  at: string;
};

const EVENTS = new Set(["*", "INSERT", "UPDATE", "DELETE"]);
const RESERVED = new Set(["select", "order", "limit", "offset", "or", "and", "on_conflict", "columns"]);

export const changeEvent = (action: string): ChangeEvent =>
  action === "create" ? "INSERT" : action === "delete" ? "DELETE" : "UPDATE";

// The table of a registered resource whose changes document_event announces (a document type's header, the inbox's
// and the marketplace's tables, written by their commands; every other tenant resource through the triggers of
// announce.ts); null when `table` is none of them.
function announced(table: string): ResourceMeta | null {
  if (!announcedByCommands(table) && !triggeredTables().has(table)) return null;
  return resourceMeta(table);
}

const joinRefusal = (message: string) => new RestError(400, "realtime", message);

// The bindings of a phx_join's config.postgres_changes, checked against what the member may read; a RestError
// (refusal or a bad filter) refuses the join with its message.
export function parseBindings(raw: unknown, caller: Caller, nextId: () => number): Binding[] {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) throw joinRefusal("config.postgres_changes must be a list");
  return raw.map((item) => {
    const b = (item ?? {}) as Record<string, unknown>;
    const event = String(b.event ?? "");
    if (!EVENTS.has(event))
      throw joinRefusal(`Unknown postgres_changes event "${event}": use INSERT, UPDATE, DELETE or *`);
    const schema = String(b.schema ?? "");
    if (schema !== "public") throw joinRefusal(`Unknown schema "${schema}": the tables are in "public"`);
    const table = typeof b.table === "string" && b.table !== "*" && b.table !== "" ? b.table : null;
    const filter = typeof b.filter === "string" ? b.filter : null;
    let conditions: Array<[string, string]> = [];
    if (table) {
      const meta = announced(table);
      if (!meta) {
        throw joinRefusal(
          `Changes of "${table}" are not announced: realtime announces the registered workspace resources`,
        );
      }
      const d = decideResource(memberOf(caller), meta.def, "read");
      if (!d.allowed) throw refusalError(d);
      conditions = filter ? parseFilter(filter, meta, caller) : [];
    } else if (filter) {
      throw joinRefusal("A postgres_changes filter needs a table");
    }
    return {
      id: nextId(),
      event: event as Binding["event"],
      schema,
      table: typeof b.table === "string" ? b.table : null,
      filter,
      conditions,
    };
  });
}

// `status=eq.draft,id=gt.10` → the query pairs the REST engine reads; every column must exist and be readable.
function parseFilter(filter: string, meta: ResourceMeta, caller: Caller): Array<[string, string]> {
  return splitTopLevel(filter, ",").map((part) => {
    const at = part.indexOf("=");
    const column = at > 0 ? part.slice(0, at).trim() : "";
    const value = at > 0 ? part.slice(at + 1).trim() : "";
    if (!column || !value || RESERVED.has(column) || !meta.columns.has(column)) {
      throw joinRefusal(`Cannot filter ${meta.table} by "${part}": write column=operator.value, e.g. id=eq.5`);
    }
    parseOperation(column, value, false);
    readsColumn(meta.def, caller, column, true);
    return [column, value];
  });
}

export const bindingMatches = (b: Binding, table: string, event: ChangeEvent): boolean =>
  (b.table === null || b.table === table) && (b.event === "*" || b.event === event);

// The row `id` of `table` as `caller` reads it through /rest/v1 with the binding's conditions, or null when the
// caller may not read it (or it does not pass the filter, or is gone).
export async function readableRow(
  db: Db,
  caller: Caller,
  table: string,
  id: number,
  conditions: Array<[string, string]>,
): Promise<Record<string, unknown> | null> {
  const meta = resourceMeta(table);
  try {
    const res = await inRequest(
      db,
      { workspaceId: caller.workspaceId, userId: caller.userId, role: "authenticated" },
      (tx) =>
        runRead(tx, {
          meta,
          caller,
          query: parseQuery([...conditions, ["id", `eq.${id}`]]),
          prefer: parsePrefer(undefined),
          single: false,
          range: null,
          head: false,
          maxRows: 1,
        }),
    );
    const rows = JSON.parse(res.body ?? "[]") as Array<Record<string, unknown>>;
    return rows[0] ?? null;
  } catch (err) {
    if (err instanceof RestError) return null; // refused now (permissions changed since the join)
    throw err;
  }
}

// The column list realtime-js converts the record by: the wire types as /rest/v1 sends them (money stays a
// decimal string, so numeric columns are named text here).
export function columnsOf(table: string): Array<{ name: string; type: string }> {
  const meta = resourceMeta(table);
  return [...meta.columns.values()].map((c) => ({
    name: c.name,
    type: c.numeric ? "text" : c.boolean ? "bool" : c.json ? "jsonb" : c.sqlType.replace(/\(.*$/, ""),
  }));
}
