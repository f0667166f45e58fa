import Autocomplete, { type AutocompleteRenderInputParams } from "@mui/material/Autocomplete";
import Chip from "@mui/material/Chip";
import CircularProgress from "@mui/material/CircularProgress";
import TextField from "@mui/material/TextField";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import type { FieldDef } from "@workmetrics/domain/resources/types";
import { useEffect, useMemo, useState } from "react";
import { quickSearch } from "../data-access/filters.ts";
import { type Id, useDataProvider } from "../data-access/provider.ts";
import { resourceByName } from "../resource/definition.ts";
import { useChoiceFilters } from "./placeFilters.ts";

type Option = { id: Id; label: string };
type Target = { resource: string; display: string };

type Common = {
  field: FieldDef;
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

function targetOf(field: FieldDef): Target {
  if (!field.reference) throw new Error(`${field.name} has no reference target`);
  return field.reference;
}

// Choices from the target resource matching what was typed (its quick-search columns), 20 at a time.
function useChoices(ref: Target, open: boolean) {
  const data = useDataProvider();
  const target = resourceByName(ref.resource);
  const [input, setInput] = useState("");
  const term = useDebounced(input.trim(), 250);
  const narrowed = useChoiceFilters(ref.resource);
  const query = useQuery({
    queryKey: [ref.resource, "options", term, narrowed],
    queryFn: ({ signal }) => {
      const search = quickSearch(target.search.length ? target.search : [ref.display], term);
      return data.getList(ref.resource, {
        select: `id,${ref.display}`,
        filters: [...narrowed, ...(search ? [search] : [])],
        order: [{ column: ref.display, ascending: true }],
        range: [0, 19],
        signal,
      });
    },
    enabled: open,
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });
  const options: Option[] = (query.data?.data ?? []).map((r) => ({ id: r.id, label: labelOf(r, ref) }));
  const noOptionsText = query.isError ? "Could not load the choices" : `No ${target.plural.toLowerCase()} match`;
  return { options, loading: query.isFetching, setInput, noOptionsText };
}

const labelOf = (r: Record<string, unknown>, ref: Target) => String(r[ref.display] ?? `#${String(r.id)}`);

// Labels of the chosen ids: from the loaded record when it embedded them, else one request for the rest.
function useLabels(ref: Target, ids: readonly Id[], initial: Record<string, string>) {
  const data = useDataProvider();
  const [known, setKnown] = useState<Record<string, string>>(initial);
  const unknown = ids.filter((id) => !(String(id) in known));
  const query = useQuery({
    queryKey: [ref.resource, "labels", unknown.map(String).sort()],
    queryFn: () => data.getMany(ref.resource, unknown, `id,${ref.display}`),
    enabled: unknown.length > 0,
    staleTime: 60_000,
  });
  const fetched = Object.fromEntries((query.data ?? []).map((r) => [String(r.id), labelOf(r, ref)]));
  const label = (id: Id) => known[String(id)] ?? fetched[String(id)] ?? `#${String(id)}`;
  const remember = (o: Option) => setKnown((k) => ({ ...k, [String(o.id)]: o.label }));
  return { label, remember };
}

function renderField(field: FieldDef, props: Common, loading: boolean, open: boolean) {
  return (params: AutocompleteRenderInputParams) => (
    <TextField
      {...params}
      inputRef={props.inputRef}
      name={field.name}
      label={field.label}
      required={field.required}
      error={Boolean(props.error)}
      helperText={props.error ?? field.help}
      slotProps={{
        ...params.slotProps,
        input: {
          ...params.slotProps.input,
          endAdornment: (
            <>
              {loading && open ? <CircularProgress color="inherit" size={18} /> : null}
              {params.slotProps.input.endAdornment}
            </>
          ),
        },
      }}
    />
  );
}

// A reference field: an async autocomplete over the target resource (DESIGN §2.3).
export function ReferenceInput(
  props: Common & { value: Id | null; initialLabel?: string | null; onChange(value: Id | null): void },
) {
  const { field, value, initialLabel, onChange, onBlur, disabled } = props;
  const ref = targetOf(field);
  const [open, setOpen] = useState(false);
  const choices = useChoices(ref, open);
  const ids = value === null || value === undefined ? [] : [value];
  const labels = useLabels(ref, ids, initialLabel && value != null ? { [String(value)]: initialLabel } : {});
  const label = ids.length ? labels.label(ids[0]) : null;
  // One object per (id, label): Autocomplete resets what was typed whenever its value changes identity.
  const selected = useMemo(() => (value != null && label !== null ? { id: value, label } : null), [value, label]);
  return (
    <Autocomplete
      value={selected}
      options={choices.options}
      open={open}
      onOpen={() => setOpen(true)}
      onClose={() => setOpen(false)}
      disabled={disabled}
      filterOptions={(o) => o}
      isOptionEqualToValue={(a, b) => a.id === b.id}
      getOptionLabel={(o) => o.label}
      getOptionKey={(o) => String(o.id)}
      loading={choices.loading}
      onInputChange={(_, v, reason) => choices.setInput(reason === "input" ? v : "")}
      onChange={(_, o) => {
        if (o) labels.remember(o);
        onChange(o ? o.id : null);
      }}
      onBlur={onBlur}
      noOptionsText={choices.noOptionsText}
      renderInput={renderField(field, props, choices.loading, open)}
    />
  );
}

// A list of references (memo → workspace roles): the same search, several chosen.
export function MultiReferenceInput(props: Common & { value: Id[]; onChange(value: Id[]): void }) {
  const { field, value, onChange, onBlur, disabled } = props;
  const ref = targetOf(field);
  const [open, setOpen] = useState(false);
  const choices = useChoices(ref, open);
  const labels = useLabels(ref, value, {});
  const names = value.map((id) => labels.label(id)).join("\u0000");
  // biome-ignore lint/correctness/useExhaustiveDependencies: recomputed only when the ids or their labels change
  const selected = useMemo(() => value.map((id) => ({ id, label: labels.label(id) })), [value, names]);
  return (
    <Autocomplete
      multiple
      value={selected}
      options={choices.options}
      open={open}
      onOpen={() => setOpen(true)}
      onClose={() => setOpen(false)}
      disabled={disabled}
      filterOptions={(o) => o}
      isOptionEqualToValue={(a, b) => a.id === b.id}
      getOptionLabel={(o) => o.label}
      getOptionKey={(o) => String(o.id)}
      loading={choices.loading}
      onInputChange={(_, v, reason) => choices.setInput(reason === "input" ? v : "")}
      onChange={(_, os) => {
        for (const o of os) labels.remember(o);
        onChange(os.map((o) => o.id));
      }}
      onBlur={onBlur}
      noOptionsText={choices.noOptionsText}
      renderValue={(values, getItemProps) =>
        values.map((o, index) => {
          const { key, ...itemProps } = getItemProps({ index });
          return <Chip key={key} size="small" label={o.label} {...itemProps} />;
        })
      }
      renderInput={renderField(field, props, choices.loading, open)}
    />
  );
}

// Labels for a list of ids, for displays (memo audience roles).
export function useReferenceLabels(field: FieldDef, ids: readonly Id[]): (id: Id) => string {
  return useLabels(targetOf(field), ids, {}).label;
}
