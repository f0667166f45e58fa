import FilterListOutlined from "@mui/icons-material/FilterListOutlined";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import FormControl from "@mui/material/FormControl";
import InputLabel from "@mui/material/InputLabel";
import ListItemText from "@mui/material/ListItemText";
import MenuItem from "@mui/material/MenuItem";
import Paper from "@mui/material/Paper";
import Select from "@mui/material/Select";
import Stack from "@mui/material/Stack";
import type { Theme } from "@mui/material/styles";
import Typography from "@mui/material/Typography";
import useMediaQuery from "@mui/material/useMediaQuery";
import type { GridColDef } from "@mui/x-data-grid";
import { useQuery } from "@tanstack/react-query";
import { formatMoney } from "@workmetrics/domain/money";
import { Suspense, useCallback, useMemo, useState } from "react";
import { useSearchParams } from "react-router";
import { escapeLike } from "../../platform/data-access/filters.ts";
import { type Row, useDataProvider } from "../../platform/data-access/provider.ts";
import { DateField } from "../../platform/fields/DateField.tsx";
import { useDecision, useReadable } from "../../platform/resource/access.ts";
import { useResourceDef } from "../../platform/resource/hooks.ts";
import ResourceList, { type ListExtras } from "../../platform/resource/ResourceList.tsx";
import { useViewer } from "../../platform/session/viewer.tsx";
import {
  docFilters,
  hasDocFilters,
  numberOrCustomer,
  readDocFilters,
  toQueryPairs,
  writeDocFilters,
} from "./listFilters.ts";
import { Picker } from "./Picker.tsx";
import { StatusChip } from "./StatusChip.tsx";
import { hasCustomer, useDocType, type WebDocType } from "./types.ts";

// A document type's list (issue 10 §3): the generic list with status chips in the machine's colours, filters by
// status, customer and date range, quick search by number or customer, and the filtered set's totals under it.

type Filters = ReturnType<typeof readDocFilters>;

// The chosen customer by id (from the URL), its name fetched once.
// The company field's own label: Customer, or Supplier on the buying documents.
const partyLabel = (t: WebDocType) => t.header.fields.find((f) => f.name === "company_id")?.label ?? "Customer";

function CustomerFilter(props: { label: string; value: number | null; onChange(id: number | null): void }) {
  const { value, onChange } = props;
  const data = useDataProvider();
  const chosen = useQuery({
    queryKey: ["company", "one", String(value), "name"],
    queryFn: () => data.getOne("company", value as number, "id,name"),
    enabled: value !== null,
    staleTime: 60_000,
  });
  return (
    <Picker
      resource="company"
      label={props.label}
      select="id,name"
      display="name"
      search={["name"]}
      size="small"
      value={value === null ? null : (chosen.data ?? { id: value, name: "…" })}
      onChange={(r) => onChange(r ? Number(r.id) : null)}
    />
  );
}

function FilterBar({ type, filters, onChange }: { type: WebDocType; filters: Filters; onChange(f: Filters): void }) {
  const readsCustomers = useReadable()("company") && hasCustomer(type);
  // Issue 21 §1 looks: on a phone the four filters filled the first screen; they fold behind one button there,
  // which says how many apply, and open by themselves when one is set.
  const phone = useMediaQuery((t: Theme) => t.breakpoints.down("sm"));
  const active =
    (filters.status.length ? 1 : 0) + (filters.customer ? 1 : 0) + (filters.from ? 1 : 0) + (filters.to ? 1 : 0);
  const [open, setOpen] = useState(() => active > 0);
  if (phone && !open) {
    return (
      <Button
        variant="outlined"
        startIcon={<FilterListOutlined />}
        onClick={() => setOpen(true)}
        sx={{ alignSelf: "flex-start" }}
        aria-expanded={false}
      >
        {active ? `Filters (${active})` : "Filters"}
      </Button>
    );
  }
  return (
    <Stack direction={{ xs: "column", sm: "row" }} spacing={1.5} useFlexGap sx={{ flexWrap: "wrap" }}>
      <FormControl size="small" sx={{ minWidth: 200 }}>
        <InputLabel id="doc-status-filter">Status</InputLabel>
        <Select
          labelId="doc-status-filter"
          label="Status"
          multiple
          value={filters.status}
          onChange={(e) => {
            const v = e.target.value;
            onChange({ ...filters, status: typeof v === "string" ? v.split(",") : v });
          }}
          renderValue={(selected) => (
            <Box sx={{ display: "flex", flexWrap: "wrap", gap: 0.5 }}>
              {selected.map((s) => (
                <StatusChip key={s} type={type} status={s} dense />
              ))}
            </Box>
          )}
        >
          {type.machine.statusNames.map((s) => (
            <MenuItem key={s} value={s}>
              <ListItemText primary={type.machine.statuses[s].label} />
            </MenuItem>
          ))}
        </Select>
      </FormControl>
      {readsCustomers && (
        <Box sx={{ minWidth: 240 }}>
          <CustomerFilter
            label={partyLabel(type)}
            value={filters.customer}
            onChange={(customer) => onChange({ ...filters, customer })}
          />
        </Box>
      )}
      <DateField
        size="small"
        fullWidth={false}
        label="From"
        value={filters.from ?? ""}
        onChange={(v) => onChange({ ...filters, from: v || null })}
      />
      <DateField
        size="small"
        fullWidth={false}
        label="To"
        value={filters.to ?? ""}
        onChange={(v) => onChange({ ...filters, to: v || null })}
      />
      {hasDocFilters(filters) && (
        <Button onClick={() => onChange({ status: [], customer: null, from: null, to: null })}>Clear filters</Button>
      )}
      {phone && (
        <Button onClick={() => setOpen(false)} aria-expanded>
          Hide filters
        </Button>
      )}
    </Stack>
  );
}

// Σ total (and Σ outstanding where the type has it) of every row the list's filters match, per currency, added up
// on the server (document_list_totals) with the list's own filters.
function ListTotals({ type, filters }: { type: WebDocType; filters: ListParamsFilters }) {
  const data = useDataProvider();
  const { currency: base } = useViewer();
  const query = useQuery({
    queryKey: [type.type, "list", "totals", filters],
    queryFn: ({ signal }) =>
      data.command("document_list_totals", { type: type.type, filters: toQueryPairs(filters) }, signal),
    staleTime: 5_000,
  });
  const sums = query.data;
  return (
    <Paper variant="outlined" sx={{ px: 2, py: 1.25 }} data-testid="list-totals" aria-live="polite">
      {!sums ? (
        <Typography variant="body2" color="text.secondary">
          {query.isError ? "The totals could not be loaded" : "Adding up…"}
        </Typography>
      ) : (
        <Stack direction={{ xs: "column", sm: "row" }} spacing={{ xs: 0.5, sm: 3 }} sx={{ flexWrap: "wrap" }}>
          <Typography variant="body2" color="text.secondary">
            Totals of the filtered list
          </Typography>
          {sums.length === 0 && <Typography variant="body2">Nothing to add up</Typography>}
          {sums.map((s) => (
            <Stack key={s.currency} direction="row" spacing={3}>
              <Typography variant="body2">
                Total{" "}
                <strong style={{ fontVariantNumeric: "tabular-nums" }}>
                  {formatMoney(s.total, s.currency || base)}
                </strong>
              </Typography>
              {s.outstanding !== null && (
                <Typography variant="body2">
                  Outstanding{" "}
                  <strong style={{ fontVariantNumeric: "tabular-nums" }}>
                    {formatMoney(s.outstanding, s.currency || base)}
                  </strong>
                </Typography>
              )}
            </Stack>
          ))}
        </Stack>
      )}
    </Paper>
  );
}

type ListParamsFilters = NonNullable<Parameters<NonNullable<ListExtras["footer"]>>[0]["filters"]>;

// Customers whose name contains the search words, for "search by number or customer".
function useMatchingCustomers(term: string): number[] | undefined {
  const data = useDataProvider();
  const readsCustomers = useReadable()("company");
  const t = readsCustomers ? term.trim() : "";
  const q = useQuery({
    queryKey: ["company", "options", "doc-search", t],
    queryFn: ({ signal }) =>
      data.getList("company", {
        select: "id",
        filters: [{ column: "name", op: "ilike", value: `%${escapeLike(t)}%` }],
        range: [0, 49],
        signal,
      }),
    enabled: t.length > 0,
    staleTime: 30_000,
  });
  if (!t) return [];
  return q.data?.data.map((r) => Number(r.id));
}

export default function DocumentList() {
  const def = useResourceDef();
  const type = useDocType(def.name);
  const ListAction = type.listAction;
  const ListButton = type.listButton;
  const [params, setParams] = useSearchParams();
  const filters = readDocFilters(params);
  const filterKey = JSON.stringify(filters);
  // biome-ignore lint/correctness/useExhaustiveDependencies: keyed on the filters' text
  const pgFilters = useMemo(() => docFilters(filters), [filterKey]);
  const term = params.get("q") ?? "";
  const readsCustomers = useReadable()("company") && hasCustomer(type);
  const customers = useMatchingCustomers(readsCustomers ? term : "");
  const customersKey = customers?.join(",") ?? "…";
  // Until the matching customers are known, the number alone is searched.
  // biome-ignore lint/correctness/useExhaustiveDependencies: keyed on the term and the customers' ids
  const search = useMemo(() => numberOrCustomer(term, customers ?? []), [term, customersKey]);
  const create = useDecision({
    audience: "member",
    permission: `${type.type}.create`,
    feature: type.machine.feature,
    subject: type.machine.plural,
    does: `create ${type.machine.plural.toLowerCase()}`,
  });
  const columns = useCallback(
    (cols: GridColDef<Row>[]) =>
      cols.map((c): GridColDef<Row> => {
        if (c.field === "status") {
          return {
            ...c,
            valueOptions: type.machine.statusNames.map((s) => ({ value: s, label: type.machine.statuses[s].label })),
            renderCell: ({ row }: { row: Row }) => <StatusChip type={type} status={String(row.status)} dense />,
          } as GridColDef<Row>;
        }
        // A draft owes nothing yet: its outstanding (0.00 until submit) means something only once it is issued.
        if (c.field === "outstanding") {
          return { ...c, renderCell: (p) => (p.row.status === type.machine.initial ? null : c.renderCell?.(p)) };
        }
        return c;
      }),
    [type],
  );
  const extras: ListExtras = {
    filters: pgFilters,
    search: search ?? null,
    searchLabel: readsCustomers ? `Search number or ${partyLabel(type).toLowerCase()}` : "Search number",
    canCreate: create.allowed && !type.convertOnly,
    canImport: false,
    canDelete: false,
    filtered: hasDocFilters(filters),
    columns,
    bar: (
      <>
        <FilterBar
          type={type}
          filters={filters}
          onChange={(f) => setParams(writeDocFilters(params, f), { replace: true })}
        />
        {ListButton && (
          <Suspense fallback={null}>
            <ListButton />
          </Suspense>
        )}
      </>
    ),
    footer: (query) => <ListTotals type={type} filters={query.filters} />,
    selectionAction: ListAction
      ? (ids, clear) => (
          <Suspense fallback={null}>
            <ListAction ids={ids.map(Number)} onDone={clear} />
          </Suspense>
        )
      : undefined,
  };
  return <ResourceList extras={extras} />;
}
