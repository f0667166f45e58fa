import type { SupabaseClient } from "@supabase/supabase-js";
import type { CommandArgs, CommandName, CommandResult } from "@workmetrics/domain/commands";
import { useMemo } from "react";
import { callCommand } from "../commands.ts";
import { useViewer } from "../session/viewer.tsx";
import { DataError, toDataError } from "./errors.ts";
import type { PgFilter, PgOrder } from "./filters.ts";

// The single client data access of the generic screens (react-admin's DataProvider shape), on supabase-js's
// `from(resource)` against our /rest/v1 (DESIGN §2.1).

export type Id = number | string;
export type Row = { id: Id } & Record<string, unknown>;
export type ListParams = {
  select?: string;
  filters?: readonly PgFilter[];
  order?: readonly PgOrder[];
  range?: [from: number, to: number];
  count?: boolean; // exact total (Prefer: count=exact → Content-Range)
  signal?: AbortSignal;
};
export type ListResult = { data: Row[]; total: number | null };

export type DataProvider = {
  getList(resource: string, params: ListParams): Promise<ListResult>;
  getOne(resource: string, id: Id, select?: string, signal?: AbortSignal): Promise<Row>;
  getMany(resource: string, ids: readonly Id[], select?: string): Promise<Row[]>;
  create(resource: string, values: Record<string, unknown>, select?: string): Promise<Row>;
  update(resource: string, id: Id, values: Record<string, unknown>, select?: string): Promise<Row>;
  deleteMany(resource: string, ids: readonly Id[]): Promise<Id[]>;
  // A /rest/v1/rpc command, typed by its domain declaration (platform/commands.ts).
  command<N extends CommandName>(name: N, args: CommandArgs<N>, signal?: AbortSignal): Promise<CommandResult<N>>;
};

type Result<T> = { data: T | null; error: { code?: string; message?: string } | null; status: number };

function unwrap<T>(res: Result<T>): T {
  if (res.error) throw toDataError(res.error, res.status);
  return res.data as T;
}

type Filterable<Q> = { filter(c: string, op: string, v: string): Q; or(expr: string): Q };

function applyFilters<Q extends Filterable<Q>>(q: Q, filters: readonly PgFilter[] = []): Q {
  let out = q;
  for (const f of filters) out = "or" in f ? out.or(f.or) : out.filter(f.column, f.op, f.value);
  return out;
}

export function createDataProvider(client: SupabaseClient): DataProvider {
  return {
    async getList(resource, { select = "*", filters, order, range, count, signal }) {
      let q = applyFilters(client.from(resource).select(select, count ? { count: "exact" } : undefined), filters);
      for (const o of order ?? []) q = q.order(o.column, { ascending: o.ascending, nullsFirst: o.nullsFirst });
      if (range) q = q.range(range[0], range[1]);
      if (signal) q = q.abortSignal(signal);
      const res = await q;
      const data = unwrap(res) as unknown as Row[];
      return { data, total: res.count ?? null };
    },
    async getOne(resource, id, select = "*", signal) {
      let q = client.from(resource).select(select).eq("id", id);
      if (signal) q = q.abortSignal(signal);
      const row = unwrap(await q.maybeSingle()) as Row | null;
      if (!row) throw new DataError(404, "PGRST116", "This record does not exist or was deleted.", null, null);
      return row;
    },
    async getMany(resource, ids, select = "*") {
      if (ids.length === 0) return [];
      const res = await client
        .from(resource)
        .select(select)
        .in("id", [...ids]);
      return unwrap(res) as unknown as Row[];
    },
    async create(resource, values, select = "*") {
      return unwrap(await client.from(resource).insert(values).select(select).single()) as Row;
    },
    async update(resource, id, values, select = "*") {
      return unwrap(await client.from(resource).update(values).eq("id", id).select(select).single()) as Row;
    },
    async deleteMany(resource, ids) {
      if (ids.length === 0) return [];
      const rows = unwrap(
        await client
          .from(resource)
          .delete()
          .in("id", [...ids])
          .select("id"),
      ) as { id: Id }[];
      return rows.map((r) => r.id);
    },
    command(name, args, signal) {
      return callCommand(client, name, args, { signal });
    },
  };
}

// The data provider once the session's client exists, null before (the navigation renders while it loads).
export function useDataProviderIfReady(): DataProvider | null {
  const { client } = useViewer();
  return useMemo(() => (client ? createDataProvider(client) : null), [client]);
}

export function useDataProvider(): DataProvider {
  const data = useDataProviderIfReady();
  if (!data) throw new Error("useDataProvider before the session client is ready");
  return data;
}
