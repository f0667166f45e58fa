import type { GridFilterItem, GridFilterModel, GridPaginationModel, GridSortModel } from "@mui/x-data-grid";

// The list's page, sort, search and filters live in the URL, so a link or the back button restores the view.

export type ListState = { pagination: GridPaginationModel; sort: GridSortModel; filter: GridFilterModel };

export const PAGE_SIZES = [25, 50, 100] as const;
const DEFAULT_SIZE = 50;
export const MAX_FILTER_ITEMS = 1;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

export function readListState(params: URLSearchParams): ListState {
  const size = Number(params.get("size"));
  const page = Math.max(1, Math.floor(Number(params.get("page")) || 1));
  const sort: GridSortModel = (params.get("sort") ?? "")
    .split(",")
    .filter(Boolean)
    .map((s) => {
      const [field, dir] = s.split(".");
      return { field, sort: dir === "desc" ? "desc" : "asc" };
    });
  const q = params.get("q")?.trim() ?? "";
  let items: GridFilterItem[] = [];
  let logicOperator: GridFilterModel["logicOperator"];
  try {
    const raw = JSON.parse(params.get("f") ?? "null") as { items?: unknown; op?: unknown } | null;
    if (raw && Array.isArray(raw.items)) {
      items = raw.items
        .filter(
          (i): i is GridFilterItem =>
            !!i && typeof i === "object" && typeof i.field === "string" && typeof i.operator === "string",
        )
        // The grid's date inputs hold Dates; the URL holds their ISO text.
        .map((i) => (typeof i.value === "string" && ISO.test(i.value) ? { ...i, value: new Date(i.value) } : i))
        // The MIT grid filters by one item at a time; more would fight its own model.
        .slice(0, MAX_FILTER_ITEMS);
      if (raw.op === "or") logicOperator = "or" as GridFilterModel["logicOperator"];
    }
  } catch {
    items = [];
  }
  return {
    pagination: { page: page - 1, pageSize: (PAGE_SIZES as readonly number[]).includes(size) ? size : DEFAULT_SIZE },
    sort,
    filter: { items, logicOperator, quickFilterValues: q ? q.split(/\s+/) : [] },
  };
}

export function writeListState(state: ListState): URLSearchParams {
  const p = new URLSearchParams();
  if (state.pagination.page > 0) p.set("page", String(state.pagination.page + 1));
  if (state.pagination.pageSize !== DEFAULT_SIZE) p.set("size", String(state.pagination.pageSize));
  const sort = state.sort
    .filter((s) => s.sort)
    .map((s) => `${s.field}.${s.sort}`)
    .join(",");
  if (sort) p.set("sort", sort);
  const q = (state.filter.quickFilterValues ?? []).join(" ").trim();
  if (q) p.set("q", q);
  const items = state.filter.items.map(({ id, field, operator, value }) => ({
    id,
    field,
    operator,
    value: value instanceof Date ? value.toISOString() : value,
  }));
  if (items.length) p.set("f", JSON.stringify({ items, op: state.filter.logicOperator === "or" ? "or" : undefined }));
  return p;
}

// The column a new filter starts on: the first one on screen that can be filtered and no filter uses yet. The grid's
// own choice is the first filterable column, which is the hidden ID (issue 9 §2).
export function newFilterField(
  columns: readonly { field: string; filterOperators?: readonly unknown[] }[],
  visible: readonly string[],
  used: readonly { field: string }[] = [],
): string | null {
  const filterable = columns.filter((c) => c.filterOperators?.length).map((c) => c.field);
  const shown = visible.filter((f) => filterable.includes(f));
  const taken = new Set(used.map((u) => u.field));
  return shown.find((f) => !taken.has(f)) ?? shown[0] ?? filterable[0] ?? null;
}
