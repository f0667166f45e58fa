import {
  keepPreviousData,
  type QueryClient,
  useMutation,
  usePrefetchQuery,
  useQuery,
  useQueryClient,
} from "@tanstack/react-query";
import type { Member } from "@workmetrics/domain";
import type { ResourceDef } from "@workmetrics/domain/resources/types";
import { useEffect } from "react";
import toast from "react-hot-toast";
import { DataError } from "../data-access/errors.ts";
import { toPgFilters, toPgOrder } from "../data-access/filters.ts";
import { type DataProvider, type Id, type ListParams, type Row, useDataProvider } from "../data-access/provider.ts";
import { useReadable } from "./access.ts";
import {
  fieldReadable,
  orderColumns,
  type Readable,
  readableBy,
  readsAll,
  resourceByRoute,
  selectWithLabels,
} from "./definition.ts";
import { type ListState, readListState } from "./listState.ts";
import { useResourceRoute } from "./route-context.ts";
import { toastMessage } from "./toastable.ts";

// The resource the current module route serves.
export function useResourceDef(): ResourceDef {
  const route = useResourceRoute();
  const def = resourceByRoute(route);
  if (!def) throw new Error(`No resource has the route ${route}`);
  return def;
}

// A failed query shows once as a toast (spec §2: toasts top-right), unless it is a refusal the page shows itself
// (toastable.ts); 4xx are not retried.
export function useErrorToast(error: unknown): void {
  useEffect(() => {
    const message = toastMessage(error);
    if (message) toast.error(message, { id: message });
  }, [error]);
}

export const retryUnlessClientError = (count: number, err: unknown) =>
  count < 3 && !(err instanceof DataError && err.status >= 400 && err.status < 500);

// A page of a list fetched this recently is shown without asking again when the list mounts (the prefetch below
// and the grid's own query are one request, not two); any write through these screens refreshes every list.
const LIST_FRESH_MS = 5_000;

const listOptions = (data: DataProvider, def: ResourceDef, params: Omit<ListParams, "signal">) => ({
  queryKey: [def.name, "list", params],
  queryFn: ({ signal }: { signal: AbortSignal }) => data.getList(def.name, { ...params, signal }),
  retry: retryUnlessClientError,
  staleTime: LIST_FRESH_MS,
});

// What the list page asks for in a given state of its URL (page, sort, search, filters). A filter or sort on a column
// the member may not read (a product's cost, from a shared address) is dropped, not sent to be refused: the list
// filters and sorts by the columns it shows.
export function listParams(
  def: ResourceDef,
  state: ListState,
  searchColumns: readonly string[] = def.search,
  readable: Readable = readsAll,
): Required<Omit<ListParams, "signal">> {
  const { page, pageSize } = state.pagination;
  return {
    select: selectWithLabels(def, readable),
    filters: toPgFilters(
      state.filter,
      def.fields.filter((f) => fieldReadable(f, readable)),
      searchColumns,
    ),
    order: toPgOrder(state.sort, def.defaultOrder, orderColumns(def, readable)),
    range: [page * pageSize, page * pageSize + pageSize - 1],
    count: true,
  };
}

// The first page a list opens on, fetched ahead (the navigation calls it when a pointer or the keyboard reaches a
// resource's link): the click then shows rows already in the cache.
export function prefetchFirstPage(qc: QueryClient, data: DataProvider, route: string, who: Member): Promise<void> {
  const def = resourceByRoute(route);
  if (!def) return Promise.resolve();
  const params = listParams(def, readListState(new URLSearchParams()), def.search, readableBy(who));
  return qc.prefetchQuery(listOptions(data, def, params));
}

export function useList(def: ResourceDef, params: Omit<ListParams, "signal">) {
  const data = useDataProvider();
  const options = listOptions(data, def, params);
  // useQuery starts fetching only once the page has rendered and subscribed (after the grid's first paint); a
  // query not in the cache yet is asked for now, while the grid renders, so the rows arrive that much sooner.
  usePrefetchQuery(options);
  return useQuery({ ...options, placeholderData: keepPreviousData });
}

export function useRecord(def: ResourceDef, id: Id | undefined) {
  const data = useDataProvider();
  const select = selectWithLabels(def, useReadable());
  return useQuery({
    queryKey: [def.name, "one", String(id)],
    queryFn: ({ signal }) => data.getOne(def.name, id as Id, select, signal),
    enabled: id !== undefined,
    retry: retryUnlessClientError,
  });
}

// After a write: the resource's cached queries (records too, unless `keepRecords`) and every list, since lists show
// the labels of the records they reference (a renamed category changes the product list).
export function refreshAfterWrite(qc: QueryClient, def: ResourceDef, keepRecords = false): Promise<void> {
  return qc.invalidateQueries({
    predicate: (q) =>
      q.queryKey[1] === "list" || (q.queryKey[0] === def.name && !(keepRecords && q.queryKey[1] === "one")),
  });
}

// Create or update one record; the resource's queries and every list are refreshed afterwards.
export function useSave(def: ResourceDef) {
  const data = useDataProvider();
  const qc = useQueryClient();
  const select = selectWithLabels(def, useReadable());
  return useMutation({
    mutationFn: ({ id, values }: { id?: Id; values: Record<string, unknown> }): Promise<Row> =>
      id === undefined ? data.create(def.name, values, select) : data.update(def.name, id, values, select),
    onSuccess: (row) => {
      qc.setQueryData([def.name, "one", String(row.id)], row);
      return refreshAfterWrite(qc, def, true);
    },
  });
}

export function useDeleteMany(def: ResourceDef) {
  const data = useDataProvider();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (ids: readonly Id[]) => data.deleteMany(def.name, ids),
    onSuccess: (ids) => {
      for (const id of ids) qc.removeQueries({ queryKey: [def.name, "one", String(id)] });
      return refreshAfterWrite(qc, def);
    },
  });
}

export { countLabel } from "./counts.ts";
