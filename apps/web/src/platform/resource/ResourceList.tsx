import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Paper from "@mui/material/Paper";
import {
  DataGrid,
  type GridColDef,
  type GridColumnVisibilityModel,
  type GridRowId,
  type GridRowSelectionModel,
} from "@mui/x-data-grid";
import { useQueryClient } from "@tanstack/react-query";
import { announcesChanges } from "@workmetrics/domain/resources";
import { type ReactNode, useCallback, useMemo, useRef, useState } from "react";
import toast from "react-hot-toast";
import { useNavigate, useSearchParams } from "react-router";
import { refusal } from "../data-access/errors.ts";
import type { PgFilter } from "../data-access/filters.ts";
import { type Id, type ListParams, type Row, useDataProvider } from "../data-access/provider.ts";
import { useTableChanges } from "../realtime/useRealtime.ts";
import { ConfirmDialog } from "../ui/ConfirmDialog.tsx";
import { usePageTitle } from "../ui/usePageTitle.ts";
import { useCan, useReadable } from "./access.ts";
import { CsvImportDialog } from "./CsvImportDialog.tsx";
import { buildColumns, defaultVisibility } from "./columns.tsx";
import { fieldReadable, formFields } from "./definition.ts";
import { download, fetchAll, rowsToCsv } from "./export.ts";
import { countLabel, listParams, useDeleteMany, useErrorToast, useList, useResourceDef } from "./hooks.ts";
import { type ExportKind, ListHeader } from "./ListHeader.tsx";
import { EmptyOverlay } from "./ListOverlays.tsx";
import { ListFilterPanel, ListToolbar } from "./ListToolbar.tsx";
import { type ListState, PAGE_SIZES, readListState, writeListState } from "./listState.ts";
import { resourcePaths, useDashboardBase } from "./paths.ts";

// The grid resets to page 1 whenever its sort or filter model changes identity, so each keeps its identity until
// its own part of the URL changes (a page change must not look like a new filter).
function useStableListState(params: URLSearchParams): ListState {
  const read = readListState(params);
  const sortKey = params.get("sort") ?? "";
  const filterKey = `${params.get("q") ?? ""}\u0000${params.get("f") ?? ""}`;
  // biome-ignore lint/correctness/useExhaustiveDependencies: keyed on the URL text of the sort
  const sort = useMemo(() => read.sort, [sortKey]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: keyed on the URL text of the search and filters
  const filter = useMemo(() => read.filter, [filterKey]);
  const { page, pageSize } = read.pagination;
  const pagination = useMemo(() => ({ page, pageSize }), [page, pageSize]);
  return { pagination, sort, filter };
}

// "Search SKU, name or description"
function searchLabel(def: ReturnType<typeof useResourceDef>): string {
  const labels = def.search.map((c) => def.fields.find((f) => f.name === c)?.label ?? c);
  const lower = labels.map((l) => (l === l.toUpperCase() ? l : l.toLowerCase()));
  return lower.length > 1 ? `${lower.slice(0, -1).join(", ")} or ${lower[lower.length - 1]}` : (lower[0] ?? "");
}

const EMPTY_SELECTION: GridRowSelectionModel = { type: "include", ids: new Set() };

function useColumnVisibility(key: string, fallback: GridColumnVisibilityModel) {
  const storageKey = `workmetrics.columns.${key}`;
  const [model, setModel] = useState<GridColumnVisibilityModel>(() => {
    try {
      return { ...fallback, ...JSON.parse(localStorage.getItem(storageKey) ?? "{}") };
    } catch {
      return fallback;
    }
  });
  const update = useCallback(
    (m: GridColumnVisibilityModel) => {
      setModel(m);
      localStorage.setItem(storageKey, JSON.stringify(m));
    },
    [storageKey],
  );
  return [model, update] as const;
}

// What a module adds to the generic list without a list of its own (the document lists, issue 10 §3): filters
// beside the grid's one filter item, its own quick search, a bar above and a footer under the grid, columns
// rendered its way, and who may create (a document is created through its command, not a bare insert).
export type ListExtras = {
  filters?: readonly PgFilter[]; // ANDed with the grid's filter and search
  search?: PgFilter | null; // replaces the quick search over the resource's search columns
  searchLabel?: string; // what the search box says it searches, with `search`
  bar?: ReactNode;
  footer?: (query: Required<Omit<ListParams, "signal">>) => ReactNode;
  columns?: (columns: GridColDef<Row>[]) => GridColDef<Row>[];
  canCreate?: boolean;
  canImport?: boolean;
  canDelete?: boolean;
  filtered?: boolean; // the extras' filters narrow the list (for the empty state)
  // An action on the selected rows (delivery orders: assign a driver and a date); with it, rows can be selected.
  selectionAction?: (ids: Id[], clear: () => void) => ReactNode;
};

// Issue 20 §4: the list follows its resource's changes (postgres_changes, each row as /rest/v1 would read it); a
// burst of them (an import, another member's bulk delete) refreshes it once.
function useLiveList(def: ReturnType<typeof useResourceDef>, reads: boolean): void {
  const qc = useQueryClient();
  const due = useRef<ReturnType<typeof setTimeout> | null>(null);
  useTableChanges(reads && announcesChanges(def) ? [def.name] : null, () => {
    if (due.current) return;
    due.current = setTimeout(() => {
      due.current = null;
      void qc.invalidateQueries({ predicate: (q) => q.queryKey[0] === def.name && q.queryKey[1] === "list" });
    }, 300);
  });
}

// The one list page of every resource (issue 5 item 4): server-side paging, sorting, filtering and search.
export default function ResourceList({ extras = {} }: { extras?: ListExtras }) {
  const def = useResourceDef();
  usePageTitle(def.plural);
  const navigate = useNavigate();
  const can = useCan(def);
  const readable = useReadable();
  const data = useDataProvider();
  const base = useDashboardBase();
  const paths = useMemo(() => resourcePaths(base, def.route ?? ""), [base, def.route]);
  const [params, setParams] = useSearchParams();
  const state = useStableListState(params);
  const setState = (patch: Partial<ListState>) => setParams(writeListState({ ...state, ...patch }), { replace: true });

  const customColumns = extras.columns;
  const columns = useMemo(() => {
    const built = buildColumns(def, paths, readable);
    return customColumns ? customColumns(built) : built;
  }, [def, paths, customColumns, readable]);
  const [visibility, setVisibility] = useColumnVisibility(
    def.name,
    useMemo(() => defaultVisibility(def), [def]),
  );
  const { pagination, sort, filter } = state;
  const { filters: extraFilters, search: extraSearch } = extras;
  const query = useMemo(() => {
    const base = listParams(def, { pagination, sort, filter }, extraSearch !== undefined ? [] : def.search, readable);
    const more = [...(extraFilters ?? []), ...(extraSearch ? [extraSearch] : [])];
    return more.length ? { ...base, filters: [...base.filters, ...more] } : base;
  }, [def, pagination, sort, filter, extraFilters, extraSearch, readable]);
  const { pageSize } = state.pagination;
  const firstPage = { page: 0, pageSize };
  const list = useList(def, query);
  useErrorToast(list.error);
  useLiveList(def, can("read"));
  const total = list.data?.total ?? 0;

  const [selection, setSelection] = useState<GridRowSelectionModel>(EMPTY_SELECTION);
  const rows = list.data?.data ?? [];
  // "Select all" on a server-paged grid means this page: an exclude-model is the page's rows minus the exclusions.
  const selected: Id[] =
    selection.type === "include"
      ? ([...selection.ids] as Id[])
      : rows.map((r) => r.id).filter((id) => !selection.ids.has(id));
  const [confirming, setConfirming] = useState(false);
  const [importing, setImporting] = useState(false);
  const [exporting, setExporting] = useState(false);
  const remove = useDeleteMany(def);
  const filtered = query.filters.length > 0 || Boolean(extras.filtered);
  const canCreate = extras.canCreate ?? can("create");
  const canDelete = extras.canDelete ?? can("delete");

  async function exportCsv(kind: ExportKind) {
    setExporting(true);
    const id = toast.loading("Preparing the export…");
    try {
      const rows = await fetchAll(data, def, query, (done, all) =>
        toast.loading(`Exporting ${done.toLocaleString()} of ${(all ?? done).toLocaleString()} rows…`, { id }),
      );
      const fields =
        kind === "all"
          ? formFields(def, "create").filter((f) => fieldReadable(f, readable))
          : def.fields.filter(
              (f) => visibility[f.name] !== false && f.name !== "workspace_id" && fieldReadable(f, readable),
            );
      const suffix = kind === "all" ? "-all-fields" : "";
      download(`${def.route}${suffix}-${new Date().toISOString().slice(0, 10)}.csv`, rowsToCsv(def, fields, rows));
      toast.success(`Exported ${countLabel(def, rows.length)}`, { id });
    } catch (err) {
      toast.error((err as Error).message, { id });
    } finally {
      setExporting(false);
    }
  }

  async function deleteSelected() {
    try {
      const ids = await remove.mutateAsync(selected);
      toast.success(`Deleted ${countLabel(def, ids.length)}`);
      setSelection(EMPTY_SELECTION);
    } catch (err) {
      toast.error((err as Error).message);
    } finally {
      setConfirming(false);
    }
  }

  // A refused read says so; it is never shown as an empty list (issue 9).
  const refused = refusal(list.error);
  if (refused) return <Alert severity="warning">{refused}</Alert>;

  return (
    <Box sx={{ display: "flex", flexDirection: "column", gap: 2, height: { md: "calc(100vh - 64px - 48px)" } }}>
      <ListHeader
        def={def}
        total={list.data?.total ?? null}
        selectedCount={canDelete ? selected.length : 0} // rows selected for another action are not deleted
        exporting={exporting}
        canCreate={canCreate}
        canImport={extras.canImport ?? canCreate}
        onCreate={() => navigate(paths.create)}
        onImport={() => setImporting(true)}
        onExport={exportCsv}
        onDelete={() => setConfirming(true)}
      />
      {extras.bar}
      {extras.selectionAction &&
        selected.length > 0 &&
        extras.selectionAction(selected, () => setSelection(EMPTY_SELECTION))}
      <Paper variant="outlined" sx={{ flex: 1, minHeight: 420, display: "flex" }}>
        <DataGrid
          aria-label={def.plural}
          rows={rows}
          columns={columns}
          rowCount={total}
          loading={list.isFetching}
          paginationMode="server"
          sortingMode="server"
          filterMode="server"
          paginationModel={state.pagination}
          // A new page size starts again at the first page (page 2 of 25 is not page 2 of 100).
          onPaginationModelChange={(m) =>
            setState({ pagination: m.pageSize === pageSize ? m : { page: 0, pageSize: m.pageSize } })
          }
          pageSizeOptions={[...PAGE_SIZES]}
          sortModel={state.sort}
          onSortModelChange={(m) => {
            // The grid re-announces an unchanged model at times; only a real change goes back to page 1.
            if (JSON.stringify(m) !== JSON.stringify(state.sort)) setState({ sort: m, pagination: firstPage });
          }}
          filterModel={state.filter}
          onFilterModelChange={(m) => {
            if (writeListState({ ...state, filter: m }).toString() !== params.toString()) {
              setState({ filter: m, pagination: firstPage });
            }
          }}
          columnVisibilityModel={visibility}
          onColumnVisibilityModelChange={setVisibility}
          checkboxSelection={canDelete || Boolean(extras.selectionAction)}
          keepNonExistentRowsSelected
          disableRowSelectionOnClick
          rowSelectionModel={selection}
          onRowSelectionModelChange={setSelection}
          onRowClick={({ id }: { id: GridRowId }) => navigate(paths.show(id))}
          onCellKeyDown={({ id, field }, e) => {
            if (e.key === "Enter" && field !== "__check__") navigate(paths.show(id));
          }}
          showToolbar
          slots={{ noRowsOverlay: EmptyOverlay, toolbar: ListToolbar, filterPanel: ListFilterPanel }}
          slotProps={{
            toolbar: { searchLabel: extras.searchLabel ?? `Search ${searchLabel(def)}` },
            noRowsOverlay: {
              title: filtered ? `No ${def.plural.toLowerCase()} match` : `No ${def.plural.toLowerCase()} yet`,
              hint: filtered
                ? "Try other search words or clear the filters."
                : canCreate
                  ? `Create the first ${def.title.toLowerCase()} or import a CSV file.`
                  : undefined,
            },
            loadingOverlay: { variant: "linear-progress", noRowsVariant: "skeleton" },
          }}
          sx={{ border: 0, "& .MuiDataGrid-row": { cursor: "pointer" } }}
        />
      </Paper>
      {extras.footer?.(query)}
      <ConfirmDialog
        open={confirming}
        title={`Delete ${countLabel(def, selected.length)}?`}
        body={`The selected ${selected.length === 1 ? def.title.toLowerCase() : def.plural.toLowerCase()} will be removed for everyone in the workspace. This cannot be undone.`}
        confirmLabel="Delete"
        destructive
        onCancel={() => setConfirming(false)}
        onConfirm={deleteSelected}
      />
      {importing && <CsvImportDialog def={def} onClose={() => setImporting(false)} />}
    </Box>
  );
}
