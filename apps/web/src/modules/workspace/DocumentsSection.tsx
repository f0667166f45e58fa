import Button from "@mui/material/Button";
import FormControlLabel from "@mui/material/FormControlLabel";
import Grid from "@mui/material/Grid";
import MenuItem from "@mui/material/MenuItem";
import Stack from "@mui/material/Stack";
import Switch from "@mui/material/Switch";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { CommandResult } from "@workmetrics/domain/commands";
import {
  DEFAULT_PREFIXES,
  NUMBERED_TYPES,
  normalizePrefix,
  prefixError,
} from "@workmetrics/domain/documents/numbering";
import { useEffect, useState } from "react";
import toast from "react-hot-toast";
import { DataError } from "../../platform/data-access/errors.ts";
import { useDataProvider } from "../../platform/data-access/provider.ts";
import { Section } from "../account/Section.tsx";

// Issue 10 §1–2: the workspace's document settings — the number prefix of each document type, the over-delivery and
// over-billing allowances and whether stock may go below zero — through document_settings / document_settings_save.
// Issue 11: the purchase order approval threshold and the three-way check's tolerances (empty: no threshold, no cap).

type Settings = CommandResult<"document_settings">;

// The purchasing settings, each a field of the form and of the command.
const BUYING = [
  {
    field: "po_approval_threshold",
    label: "PO approval above",
    help: "Purchase orders above this total wait for approval; empty: none do",
  },
  {
    field: "match_qty_tolerance",
    label: "Three-way quantity tolerance %",
    help: "Invoiced beyond received by this much passes",
  },
  {
    field: "match_price_tolerance",
    label: "Three-way price tolerance %",
    help: "Priced above the order by this much passes",
  },
  {
    field: "match_amount_tolerance",
    label: "Three-way cap",
    help: "Neither difference may be worth more than this; empty: no cap",
  },
] as const;

const label = (type: string) => {
  const words = type.replaceAll("_", " ");
  return words.charAt(0).toUpperCase() + words.slice(1);
};

export function DocumentsSection() {
  const data = useDataProvider();
  const queryClient = useQueryClient();
  const query = useQuery({
    queryKey: ["document-settings"],
    queryFn: ({ signal }) => data.command("document_settings", {}, signal),
  });
  const [prefixes, setPrefixes] = useState<Record<string, string>>({});
  const [delivery, setDelivery] = useState("0");
  const [billing, setBilling] = useState("0");
  const [negative, setNegative] = useState(false);
  const [buying, setBuying] = useState<Record<string, string>>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [warehouse, setWarehouse] = useState("");
  // Where goods can be sent from and received into: the active locations, not In transit or On loan (issue 21 §1).
  const locations = useQuery({
    queryKey: ["document-settings", "locations"],
    queryFn: async ({ signal }) => {
      const [all, system] = await Promise.all([
        data.getList("location", {
          select: "id,code,name",
          filters: [{ column: "active", op: "eq", value: "true" }],
          order: [{ column: "code", ascending: true }],
          signal,
        }),
        data.getList("system_location", { select: "id,location_id", signal }).catch(() => ({ data: [], total: 0 })),
      ]);
      const skip = new Set(system.data.map((s) => Number(s.location_id)));
      return all.data.filter((l) => !skip.has(Number(l.id)));
    },
  });

  useEffect(() => {
    if (!query.data) return;
    setPrefixes(Object.fromEntries(NUMBERED_TYPES.map((t) => [t, query.data.prefixes[t] ?? DEFAULT_PREFIXES[t]])));
    setDelivery(query.data.over_delivery_allowance);
    setBilling(query.data.over_billing_allowance);
    setNegative(query.data.allow_negative_stock);
    setBuying(Object.fromEntries(BUYING.map((b) => [b.field, query.data[b.field] ?? ""])));
    setWarehouse(query.data.default_location_id == null ? "" : String(query.data.default_location_id));
  }, [query.data]);

  const save = useMutation({
    mutationFn: () =>
      data.command("document_settings_save", {
        prefixes: Object.fromEntries(NUMBERED_TYPES.map((t) => [t, normalizePrefix(prefixes[t] ?? "")])),
        over_delivery_allowance: delivery,
        over_billing_allowance: billing,
        allow_negative_stock: negative,
        ...Object.fromEntries(BUYING.map((b) => [b.field, buying[b.field]?.trim() || null])),
        default_location_id: warehouse === "" ? null : Number(warehouse),
      }),
    onSuccess: (saved: Settings) => {
      queryClient.setQueryData(["document-settings"], saved);
      setErrors({});
      toast.success("Document settings saved");
    },
    onError: (err) => {
      if (err instanceof DataError) {
        const fields = err.fields;
        setErrors(Object.fromEntries(Object.entries(fields).map(([k, v]) => [k.replace(/^prefixes\./, ""), v])));
      }
      toast.error(err instanceof Error ? err.message : "Could not save the document settings");
    },
  });

  function submit() {
    const local: Record<string, string> = {};
    for (const t of NUMBERED_TYPES) {
      const problem = prefixError(normalizePrefix(prefixes[t] ?? ""));
      if (problem) local[t] = problem;
    }
    setErrors(local);
    if (Object.keys(local).length === 0) save.mutate();
  }

  return (
    <Section
      title="Documents"
      description="Number prefixes (numbers read PREFIX-YEAR-00001), how far deliveries and invoices may pass the order, purchase order approval and the three-way check, and negative stock."
    >
      {query.isError ? (
        <Typography color="error">Could not load the document settings.</Typography>
      ) : (
        <Stack spacing={2}>
          <Grid container spacing={2}>
            {NUMBERED_TYPES.map((t) => (
              <Grid key={t} size={{ xs: 6, sm: 4, md: 3 }}>
                <TextField
                  label={label(t)}
                  size="small"
                  fullWidth
                  value={prefixes[t] ?? ""}
                  onChange={(e) => setPrefixes((p) => ({ ...p, [t]: e.target.value.toUpperCase() }))}
                  error={Boolean(errors[t])}
                  helperText={errors[t] ?? " "}
                  slotProps={{ htmlInput: { maxLength: 8, "aria-label": `${label(t)} prefix` } }}
                />
              </Grid>
            ))}
          </Grid>
          <Stack direction={{ xs: "column", sm: "row" }} spacing={2}>
            <TextField
              label="Over-delivery allowance %"
              size="small"
              value={delivery}
              onChange={(e) => setDelivery(e.target.value)}
              error={Boolean(errors.over_delivery_allowance)}
              helperText={errors.over_delivery_allowance ?? "Deliveries may pass the ordered quantity by this much"}
            />
            <TextField
              label="Over-billing allowance %"
              size="small"
              value={billing}
              onChange={(e) => setBilling(e.target.value)}
              error={Boolean(errors.over_billing_allowance)}
              helperText={errors.over_billing_allowance ?? "Invoices may pass the ordered quantity by this much"}
            />
          </Stack>
          <Grid container spacing={2}>
            {BUYING.map((b) => (
              <Grid key={b.field} size={{ xs: 12, sm: 6, md: 3 }}>
                <TextField
                  label={b.label}
                  size="small"
                  fullWidth
                  value={buying[b.field] ?? ""}
                  onChange={(e) => setBuying((v) => ({ ...v, [b.field]: e.target.value }))}
                  error={Boolean(errors[b.field])}
                  helperText={errors[b.field] ?? b.help}
                  slotProps={{ htmlInput: { inputMode: "decimal" } }}
                />
              </Grid>
            ))}
          </Grid>
          <TextField
            select
            label="Default warehouse"
            size="small"
            sx={{ maxWidth: 420 }}
            value={locations.data ? warehouse : ""}
            onChange={(e) => setWarehouse(e.target.value)}
            error={Boolean(errors.default_location_id)}
            helperText={
              errors.default_location_id ??
              "Deliveries and receipts whose order names no location go from or into it (with one location, that one)"
            }
          >
            <MenuItem value="">
              <em>None</em>
            </MenuItem>
            {(locations.data ?? []).map((l) => (
              <MenuItem key={String(l.id)} value={String(l.id)}>
                {String(l.code)} — {String(l.name)}
              </MenuItem>
            ))}
          </TextField>
          <FormControlLabel
            control={<Switch checked={negative} onChange={(e) => setNegative(e.target.checked)} />}
            label="Allow negative stock (a delivery may take more than is on hand)"
          />
          <div>
            <Button variant="contained" onClick={submit} disabled={save.isPending || query.isLoading}>
              Save document settings
            </Button>
          </div>
        </Stack>
      )}
    </Section>
  );
}
