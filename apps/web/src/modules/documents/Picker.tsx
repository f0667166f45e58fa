import Autocomplete from "@mui/material/Autocomplete";
import CircularProgress from "@mui/material/CircularProgress";
import TextField from "@mui/material/TextField";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { type ReactNode, type Ref, useEffect, useMemo, useState } from "react";
import { type PgFilter, quickSearch } from "../../platform/data-access/filters.ts";
import { type Row, useDataProvider } from "../../platform/data-access/provider.ts";
import { matchingOptions } from "./pickerMatch.ts";

// An async autocomplete over one resource for the document page (customer, contact, product): what was typed is
// searched in `search` columns, `filters` narrow the choices (a customer's contacts), `render` shows an option its
// way (a product with its price and stock).

export type PickerProps = {
  resource: string;
  label: string;
  select: string; // must include id and `display`
  display: string;
  search: readonly string[];
  filters?: readonly PgFilter[];
  value: Row | null;
  onChange(row: Row | null): void;
  render?: (row: Row) => ReactNode;
  onOptions?: (rows: Row[]) => void; // the choices shown now (a product picker fetches their stock)
  size?: "small" | "medium";
  required?: boolean;
  disabled?: boolean;
  error?: string;
  placeholder?: string;
  inputRef?: Ref<HTMLInputElement>;
  autoFocus?: boolean;
  openOnFocus?: boolean;
  testId?: string;
  variant?: "outlined" | "standard";
  hideLabel?: boolean;
};

// The value once it has stayed the same for `ms` (what was typed, searched once typing pauses).
export function useDebounced<T>(value: T, ms: number): T {
  const [v, setV] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setV(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return v;
}

export function Picker(props: PickerProps) {
  const data = useDataProvider();
  const [open, setOpen] = useState(false);
  const [input, setInput] = useState("");
  const term = useDebounced(input.trim(), 200);
  const filterKey = JSON.stringify(props.filters ?? []);
  const query = useQuery({
    queryKey: [props.resource, "options", "picker", props.select, filterKey, term],
    queryFn: ({ signal }) => {
      const search = quickSearch(props.search, term);
      return data.getList(props.resource, {
        select: props.select,
        filters: [...(props.filters ?? []), ...(search ? [search] : [])],
        order: [{ column: props.display, ascending: true }],
        range: [0, 19],
        signal,
      });
    },
    enabled: open,
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });
  const label = (r: Row) => String(r[props.display] ?? `#${String(r.id)}`);
  // The answer is for the text typed now only once the debounce has passed it on and it is not the previous one's.
  const fresh = term === input.trim() && !query.isPlaceholderData;
  const options = matchingOptions(query.data?.data ?? [], input, fresh, props.search, label);
  const { onOptions } = props;
  useEffect(() => {
    if (query.data) onOptions?.(query.data.data);
  }, [query.data, onOptions]);
  const value = useMemo(() => props.value, [props.value]);
  return (
    <Autocomplete<Row, false, false, false>
      value={value}
      options={options}
      open={open}
      onOpen={() => setOpen(true)}
      onClose={() => setOpen(false)}
      openOnFocus={props.openOnFocus}
      disabled={props.disabled}
      size={props.size}
      filterOptions={(o) => o}
      autoHighlight
      isOptionEqualToValue={(a, b) => String(a.id) === String(b.id)}
      getOptionLabel={label}
      getOptionKey={(o) => String(o.id)}
      loading={query.isFetching}
      onInputChange={(_, v, reason) => setInput(reason === "input" ? v : "")}
      onChange={(_, o) => props.onChange(o)}
      noOptionsText={query.isError ? "Could not load the choices" : fresh ? "Nothing matches" : "Searching…"}
      data-testid={props.testId}
      renderOption={
        props.render
          ? (liProps, option) => {
              const { key, ...rest } = liProps as typeof liProps & { key: string };
              return (
                <li key={key} {...rest}>
                  {props.render?.(option)}
                </li>
              );
            }
          : undefined
      }
      renderInput={(params) => (
        <TextField
          {...params}
          inputRef={props.inputRef}
          label={props.hideLabel ? undefined : props.label}
          placeholder={props.placeholder}
          required={props.required}
          autoFocus={props.autoFocus}
          variant={props.variant}
          error={Boolean(props.error)}
          helperText={props.error}
          slotProps={{
            ...params.slotProps,
            htmlInput: { ...params.slotProps.htmlInput, "aria-label": props.label },
            input: {
              ...params.slotProps.input,
              endAdornment: (
                <>
                  {query.isFetching && open ? <CircularProgress color="inherit" size={16} /> : null}
                  {params.slotProps.input.endAdornment}
                </>
              ),
            },
          }}
        />
      )}
    />
  );
}
