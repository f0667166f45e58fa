import Autocomplete from "@mui/material/Autocomplete";
import CircularProgress from "@mui/material/CircularProgress";
import TextField from "@mui/material/TextField";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { type ReactNode, type Ref, useEffect, useState } from "react";
import { quickSearch } from "../../platform/data-access/filters.ts";
import { type Row, useDataProvider } from "../../platform/data-access/provider.ts";
import { useReadable } from "../../platform/resource/access.ts";
import { type ItemKind, itemKey, itemOptions } from "./items.ts";
import { useDebounced } from "./Picker.tsx";
import { matchingOptions } from "./pickerMatch.ts";

// A line's one picker over what a document sells or buys: active products and, where the type takes them, active
// services, grouped under their headings (arrow keys walk both groups, Enter picks, like the product picker). What
// is typed is searched in each one's name and code; a kind the member may not read is not asked for.

type Source = { kind: ItemKind; resource: string; select: string; search: readonly string[] };

export function ItemPicker(props: {
  label: string;
  productSelect: string;
  services: boolean;
  value: Row | null; // {id, name, kind}
  onChange(row: Row | null): void;
  render(row: Row): ReactNode;
  onOptions?: (rows: Row[]) => void;
  inputRef?: Ref<HTMLInputElement>;
  error?: string;
  testId?: string;
}) {
  const data = useDataProvider();
  const readable = useReadable();
  const [open, setOpen] = useState(false);
  const [input, setInput] = useState("");
  const term = useDebounced(input.trim(), 200);
  const sources: Source[] = [
    { kind: "product", resource: "product", select: props.productSelect, search: ["name", "sku"] },
    ...(props.services && readable("service")
      ? [
          {
            kind: "service" as const,
            resource: "service",
            select: "id,name,code,price,unit,tax_code",
            search: ["name", "code"],
          },
        ]
      : []),
  ];
  const query = useQuery({
    queryKey: ["product", "options", "items", props.productSelect, sources.length, term],
    queryFn: async ({ signal }) => {
      const lists = await Promise.all(
        sources.map((s) => {
          const search = quickSearch(s.search, term);
          return data
            .getList(s.resource, {
              select: s.select,
              filters: [{ column: "active", op: "is", value: "true" }, ...(search ? [search] : [])],
              order: [{ column: "name", ascending: true }],
              range: [0, s.kind === "product" ? 14 : 7],
              signal,
            })
            .then((r) => r.data.map((row) => ({ ...row, kind: s.kind })));
        }),
      );
      return lists.flat();
    },
    enabled: open,
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });
  const label = (r: Row) => String(r.name ?? `#${String(r.id)}`);
  const fresh = term === input.trim() && !query.isPlaceholderData;
  const options = itemOptions(matchingOptions(query.data ?? [], input, fresh, ["name", "sku", "code"], label));
  const { onOptions } = props;
  useEffect(() => {
    if (query.data) onOptions?.(query.data.filter((r) => r.kind === "product"));
  }, [query.data, onOptions]);
  return (
    <Autocomplete<Row, false, false, false>
      value={props.value}
      options={options}
      open={open}
      onOpen={() => setOpen(true)}
      onClose={() => setOpen(false)}
      size="small"
      filterOptions={(o) => o}
      autoHighlight
      groupBy={sources.length > 1 ? (o) => (o.kind === "service" ? "Services" : "Products") : undefined}
      isOptionEqualToValue={(a, b) => itemKey(a) === itemKey(b)}
      getOptionLabel={label}
      getOptionKey={itemKey}
      loading={query.isFetching}
      onInputChange={(_, v, reason) => setInput(reason === "input" ? v : "")}
      onChange={(_, o) => props.onChange(o)}
      noOptionsText={query.isError ? "Could not load the choices" : fresh ? "Nothing matches" : "Searching…"}
      data-testid={props.testId}
      // Room for a name, its code, price and stock beside a narrow cell.
      slotProps={{ popper: { placement: "bottom-start", sx: { minWidth: 380 } } }}
      renderOption={(liProps, option) => {
        const { key, ...rest } = liProps as typeof liProps & { key: string };
        return (
          <li key={key} {...rest}>
            {props.render(option)}
          </li>
        );
      }}
      renderInput={(params) => (
        <TextField
          {...params}
          inputRef={props.inputRef}
          placeholder={sources.length > 1 ? "Find a product or service" : "Type to find a product"}
          variant="standard"
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
