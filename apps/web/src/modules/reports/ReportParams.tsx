import Box from "@mui/material/Box";
import FormControlLabel from "@mui/material/FormControlLabel";
import MenuItem from "@mui/material/MenuItem";
import Stack from "@mui/material/Stack";
import Switch from "@mui/material/Switch";
import TextField from "@mui/material/TextField";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useDataProvider } from "../../platform/data-access/provider.ts";
import { LazyDateInput } from "../../platform/fields/LazyDateInput.tsx";
import type { ParamsKind } from "./catalog.ts";
import {
  isDay,
  PRESETS,
  type PresetKey,
  preset,
  presetOf,
  quarterLabel,
  quarterOf,
  quarterPeriod,
  recentQuarters,
} from "./periods.ts";

// What a report asks for, kept in the page's address (issue 12): a period with presets (this month … last year) or
// an as-of date or a GST quarter, the customer, supplier or account some reports are about, and whether to compare
// with the previous period. A date typed is written back once it is a whole date; the report checks the rest (a
// period that runs backwards is refused with the server's words, shown above the table).

export type ParamValues = Record<string, string>;

function DateBox(props: { name: string; label: string; value: string; onPick(v: string): void }) {
  const [typed, setTyped] = useState(props.value);
  const [seen, setSeen] = useState(props.value);
  if (seen !== props.value) {
    setSeen(props.value);
    setTyped(props.value);
  }
  return (
    <Box sx={{ width: 200 }}>
      <LazyDateInput
        kind="date"
        name={props.name}
        label={props.label}
        value={typed}
        onChange={(v: string) => {
          setTyped(v);
          if (isDay(v)) props.onPick(v);
        }}
        onBlur={() => {}}
      />
    </Box>
  );
}

function useOptions(kind: "customer" | "supplier" | "account", enabled: boolean) {
  const data = useDataProvider();
  return useQuery({
    queryKey: ["reports", "options", kind],
    enabled,
    staleTime: 60_000,
    queryFn: async () => {
      if (kind === "account") {
        const res = await data.getList("account", {
          select: "code,name",
          order: [{ column: "code", ascending: true }],
          range: [0, 999],
        });
        return res.data.map((r) => ({ value: String(r.code), label: `${r.code} ${r.name}` }));
      }
      const res = await data.getList("company", {
        select: "id,name",
        filters: [{ column: kind === "customer" ? "is_customer" : "is_supplier", op: "is", value: "true" }],
        order: [{ column: "name", ascending: true }],
        range: [0, 999],
      });
      return res.data.map((r) => ({ value: String(r.id), label: String(r.name) }));
    },
  });
}

const RECORD: Partial<Record<ParamsKind, { key: string; label: string; kind: "customer" | "supplier" | "account" }>> = {
  customer_range: { key: "company_id", label: "Customer", kind: "customer" },
  supplier_range: { key: "company_id", label: "Supplier", kind: "supplier" },
  account_range: { key: "account", label: "Account", kind: "account" },
};

export function ReportParams(props: {
  kind: ParamsKind;
  values: ParamValues;
  today: string;
  onChange(next: ParamValues): void;
  compare: boolean;
  onCompare(on: boolean): void;
}) {
  const { kind, values, today } = props;
  const record = RECORD[kind];
  const options = useOptions(record?.kind ?? "customer", Boolean(record));
  const set = (patch: ParamValues) => props.onChange({ ...values, ...patch });
  const ranged = kind !== "as_of" && kind !== "quarter";
  const current = presetOf({ from: values.from ?? "", to: values.to ?? "" }, today);
  const quarters = recentQuarters(today, 8);
  const quarter = values.from ? quarterOf(values.from) : quarters[0];
  const quarterKey = `${quarter.year}-${quarter.q}`;
  return (
    <Stack direction="row" spacing={2} useFlexGap sx={{ flexWrap: "wrap", alignItems: "center" }}>
      {record && (
        <TextField
          select
          size="small"
          label={record.label}
          value={options.data?.some((o) => o.value === values[record.key]) ? values[record.key] : ""}
          onChange={(e) => set({ [record.key]: e.target.value })}
          sx={{ minWidth: 240 }}
          slotProps={{ inputLabel: { shrink: true } }}
        >
          {(options.data ?? []).map((o) => (
            <MenuItem key={o.value} value={o.value}>
              {o.label}
            </MenuItem>
          ))}
        </TextField>
      )}
      {ranged && (
        <TextField
          select
          size="small"
          label="Period"
          value={current ?? "custom"}
          onChange={(e) => e.target.value !== "custom" && set(preset(e.target.value as PresetKey, today))}
          sx={{ minWidth: 160 }}
        >
          {PRESETS.map((p) => (
            <MenuItem key={p.key} value={p.key}>
              {p.label}
            </MenuItem>
          ))}
          <MenuItem value="custom" disabled>
            Custom
          </MenuItem>
        </TextField>
      )}
      {ranged && <DateBox name="from" label="From" value={values.from ?? ""} onPick={(v) => set({ from: v })} />}
      {ranged && <DateBox name="to" label="To" value={values.to ?? ""} onPick={(v) => set({ to: v })} />}
      {kind === "as_of" && (
        <DateBox name="as_of" label="As of" value={values.as_of ?? today} onPick={(v) => set({ as_of: v })} />
      )}
      {kind === "quarter" && (
        <TextField
          select
          size="small"
          label="Quarter"
          value={quarters.some((q) => `${q.year}-${q.q}` === quarterKey) ? quarterKey : ""}
          onChange={(e) => {
            const [y, q] = e.target.value.split("-").map(Number);
            set(quarterPeriod({ year: y, q: q as 1 | 2 | 3 | 4 }));
          }}
          sx={{ minWidth: 140 }}
        >
          {quarters.map((q) => (
            <MenuItem key={`${q.year}-${q.q}`} value={`${q.year}-${q.q}`}>
              {quarterLabel(q)}
            </MenuItem>
          ))}
        </TextField>
      )}
      <FormControlLabel
        control={<Switch checked={props.compare} onChange={(e) => props.onCompare(e.target.checked)} />}
        label={kind === "as_of" ? "Compare with a year before" : "Compare with previous period"}
      />
    </Stack>
  );
}
