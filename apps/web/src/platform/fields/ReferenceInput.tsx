import Autocomplete from "@mui/material/Autocomplete";
import CircularProgress from "@mui/material/CircularProgress";
import TextField from "@mui/material/TextField";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import type { FieldDef } from "@workmetrics/domain/resources/types";
import { useEffect, useState } from "react";
import { quickSearch } from "../data-access/filters.ts";
import { type Id, useDataProvider } from "../data-access/provider.ts";
import { resourceByName } from "../resource/definition.ts";

type Option = { id: Id; label: string };

type Props = {
  field: FieldDef;
  value: Id | null;
  initialLabel?: string | null; // the label embedded in the loaded record, so the input needs no extra request
  onChange(value: Id | null): void;
  onBlur(): void;
  error?: string;
  disabled?: boolean;
  inputRef?: React.Ref<HTMLInputElement>;
};

function useDebounced<T>(value: T, ms: number): T {
  const [v, setV] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setV(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return v;
}

// A reference field: an async autocomplete over the target resource's quick-search columns (DESIGN §2.3).
export function ReferenceInput({ field, value, initialLabel, onChange, onBlur, error, disabled, inputRef }: Props) {
  const ref = field.reference;
  if (!ref) throw new Error(`${field.name} has no reference target`);
  const target = resourceByName(ref.resource);
  const data = useDataProvider();
  const [input, setInput] = useState("");
  const [open, setOpen] = useState(false);
  const term = useDebounced(input, 250);
  const [selected, setSelected] = useState<Option | null>(
    value === null || value === undefined ? null : { id: value, label: initialLabel ?? `#${String(value)}` },
  );

  // The current value's label when the record did not embed it (e.g. a value set by a link).
  const current = useQuery({
    queryKey: [ref.resource, "label", value],
    queryFn: ({ signal }) => data.getOne(ref.resource, value as Id, `id,${ref.display}`, signal),
    enabled: value !== null && value !== undefined && !initialLabel && selected?.id === value,
    staleTime: 60_000,
  });
  useEffect(() => {
    if (value === null || value === undefined) setSelected(null);
    else if (current.data && current.data.id === value) {
      setSelected({ id: value, label: String(current.data[ref.display] ?? `#${String(value)}`) });
    }
  }, [value, current.data, ref.display]);

  const searching = term && term !== selected?.label ? term : "";
  const options = useQuery({
    queryKey: [ref.resource, "options", searching],
    queryFn: ({ signal }) => {
      const search = quickSearch(target.search.length ? target.search : [ref.display], searching);
      return data.getList(ref.resource, {
        select: `id,${ref.display}`,
        filters: search ? [search] : [],
        order: [{ column: ref.display, ascending: true }],
        range: [0, 19],
        signal,
      });
    },
    enabled: open,
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });
  const list: Option[] = (options.data?.data ?? []).map((r) => ({
    id: r.id,
    label: String(r[ref.display] ?? `#${String(r.id)}`),
  }));

  return (
    <Autocomplete
      value={selected}
      options={list}
      open={open}
      onOpen={() => setOpen(true)}
      onClose={() => setOpen(false)}
      disabled={disabled}
      filterOptions={(o) => o}
      isOptionEqualToValue={(a, b) => a.id === b.id}
      getOptionLabel={(o) => o.label}
      getOptionKey={(o) => String(o.id)}
      loading={options.isFetching}
      onInputChange={(_, v) => setInput(v)}
      onChange={(_, o) => {
        setSelected(o);
        onChange(o ? o.id : null);
      }}
      onBlur={onBlur}
      noOptionsText={options.isError ? "Could not load the choices" : `No ${target.plural.toLowerCase()} match`}
      renderInput={(params) => (
        <TextField
          {...params}
          inputRef={inputRef}
          name={field.name}
          label={field.label}
          required={field.required}
          error={Boolean(error)}
          helperText={error ?? field.help}
          slotProps={{
            ...params.slotProps,
            input: {
              ...params.slotProps.input,
              endAdornment: (
                <>
                  {options.isFetching && open ? <CircularProgress color="inherit" size={18} /> : null}
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
