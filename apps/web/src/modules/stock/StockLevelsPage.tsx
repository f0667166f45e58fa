import ShoppingCartOutlined from "@mui/icons-material/ShoppingCartOutlined";
import TuneOutlined from "@mui/icons-material/TuneOutlined";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Card from "@mui/material/Card";
import FormControlLabel from "@mui/material/FormControlLabel";
import Link from "@mui/material/Link";
import MenuItem from "@mui/material/MenuItem";
import Skeleton from "@mui/material/Skeleton";
import Stack from "@mui/material/Stack";
import Switch from "@mui/material/Switch";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableContainer from "@mui/material/TableContainer";
import TableHead from "@mui/material/TableHead";
import TablePagination from "@mui/material/TablePagination";
import TableRow from "@mui/material/TableRow";
import TextField from "@mui/material/TextField";
import Tooltip from "@mui/material/Tooltip";
import Typography from "@mui/material/Typography";
import { CATALOG } from "@workmetrics/domain/resources/catalog";
import { useEffect, useState } from "react";
import toast from "react-hot-toast";
import { Link as RouterLink, useSearchParams } from "react-router";
import { formatNumber } from "../../platform/fields/format.ts";
import { useCan, useDecision } from "../../platform/resource/access.ts";
import { useErrorToast } from "../../platform/resource/hooks.ts";
import { usePageTitle } from "../../platform/ui/usePageTitle.ts";
import {
  DRAFT_PURCHASE_ORDERS,
  type DraftResult,
  type StockLevel,
  useDraftPurchaseOrders,
  useLocations,
  useStockLevels,
} from "./api.ts";
import { DraftedList } from "./DraftedList.tsx";

// Issue 11 "Stock" (/dashboard/stock-levels): per product, what is on hand (and where), reserved by undelivered
// sales orders, on order from open purchase orders, on loan and available; a location narrows the figures that have
// one; "To reorder" lists what fell below its reorder level and, for a buyer, drafts the purchase orders. A product
// opens its stock card.

const PAGE_SIZES = [25, 50, 100];

const COLUMNS: Array<{ key: keyof StockLevel; label: string; help?: string }> = [
  { key: "on_hand", label: "On hand", help: "Σ of the stock moves (not counting goods in transit or on loan)" },
  {
    key: "reserved",
    label: "Reserved",
    help: "What submitted sales orders have still to deliver. A sales order names no location, so it reserves against every location",
  },
  { key: "on_order", label: "On order", help: "What open purchase orders have still to receive (delivered here)" },
  { key: "on_loan", label: "On loan", help: "Lent to customers on loan forms" },
  { key: "available", label: "Available", help: "On hand − reserved" },
  { key: "min_qty", label: "Reorder at", help: "The reorder level's minimum (summed over locations)" },
];

const qty = (v: unknown) => formatNumber(v, 3);

// A phone keeps the figures and leaves out where the stock is (the stock card says).
const WIDE = { xs: "none", md: "table-cell" };

export default function StockLevelsPage() {
  usePageTitle("Stock levels");
  const [params, setParams] = useSearchParams();
  const locationId = Number(params.get("location")) || null;
  const toReorder = params.get("reorder") === "1";
  const [typed, setTyped] = useState(params.get("q") ?? "");
  const search = params.get("q") ?? "";
  const [page, setPage] = useState(0);
  const [size, setSize] = useState(50);
  const [drafted, setDrafted] = useState<DraftResult | null>(null);
  const locations = useLocations();
  const levels = useStockLevels({
    search: search || undefined,
    location_id: locationId,
    to_reorder: toReorder,
    limit: size,
    offset: page * size,
  });
  useErrorToast(levels.error);
  const mayDraft = useDecision(DRAFT_PURCHASE_ORDERS).allowed;
  const mayKeepLevels = useCan(CATALOG.reorder_level)("create");
  const draft = useDraftPurchaseOrders();

  // From the address as it is now, not as this render saw it: the search's timer may fire from a render that an
  // update of the address (the switch, just before) has not reached yet, and would drop it.
  // Setting what is already set changes nothing (a drafted result stays).
  const set = (key: string, value: string | null) => {
    const next = new URLSearchParams(window.location.search);
    if (next.get(key) === (value || null)) return;
    if (value) next.set(key, value);
    else next.delete(key);
    setParams(next, { replace: true });
    setPage(0);
    setDrafted(null);
  };

  // The search follows what is typed, a moment after the last key.
  useEffect(() => {
    const t = setTimeout(() => {
      if (typed.trim() !== search) set("q", typed.trim() || null);
    }, 300);
    return () => clearTimeout(t);
  });

  // What is typed counts even if the search has not caught up with it yet: the drafts are for the list the search
  // shows, and its catching up afterwards would otherwise clear what was drafted.
  async function draftOrders() {
    const q = typed.trim();
    set("q", q || null);
    try {
      const res = await draft.mutateAsync({ location_id: locationId, search: q || undefined });
      setDrafted(res);
      toast.success(`${res.created.length} draft purchase order${res.created.length === 1 ? "" : "s"} made`);
    } catch (err) {
      toast.error(err instanceof Error ? err.message : "The purchase orders could not be drafted");
    }
  }

  const data = levels.data;
  return (
    <Stack spacing={2}>
      <Stack direction={{ xs: "column", sm: "row" }} spacing={2} sx={{ alignItems: { sm: "center" } }}>
        <Box sx={{ flexGrow: 1 }}>
          <Typography variant="h4" component="h1">
            Stock levels
          </Typography>
          <Typography color="text.secondary">
            What is on hand, reserved by sales orders, on order and available, per product
          </Typography>
        </Box>
        {mayKeepLevels && (
          <Button component={RouterLink} to="/dashboard/reorder-levels" variant="outlined" startIcon={<TuneOutlined />}>
            Reorder levels
          </Button>
        )}
      </Stack>
      <Stack direction={{ xs: "column", sm: "row" }} spacing={2} sx={{ alignItems: { sm: "center" } }}>
        <TextField
          size="small"
          label="Search products"
          value={typed}
          onChange={(e) => setTyped(e.target.value)}
          sx={{ minWidth: 240 }}
        />
        <TextField
          select
          size="small"
          label="Location"
          value={locationId ?? ""}
          onChange={(e) => set("location", e.target.value ? String(e.target.value) : null)}
          slotProps={{ inputLabel: { shrink: true }, select: { displayEmpty: true } }}
          sx={{ minWidth: 200 }}
        >
          <MenuItem value="">All locations</MenuItem>
          {(locations.data ?? []).map((l) => (
            <MenuItem key={l.id} value={l.id}>
              {l.name}
            </MenuItem>
          ))}
        </TextField>
        <FormControlLabel
          control={<Switch checked={toReorder} onChange={(e) => set("reorder", e.target.checked ? "1" : null)} />}
          label="To reorder"
        />
        <Box sx={{ flexGrow: 1 }} />
        {toReorder && mayDraft && (
          <Button
            variant="contained"
            startIcon={<ShoppingCartOutlined />}
            disabled={!data?.rows.length}
            loading={draft.isPending}
            onClick={draftOrders}
          >
            Draft purchase orders
          </Button>
        )}
      </Stack>
      {drafted && <DraftedList result={drafted} onClose={() => setDrafted(null)} />}
      <Card variant="outlined">
        {!data ? (
          <Box sx={{ p: 2 }} aria-busy="true" aria-label="Loading stock levels">
            {[0, 1, 2, 3, 4].map((i) => (
              <Skeleton key={i} height={36} />
            ))}
          </Box>
        ) : !data.rows.length ? (
          <Box sx={{ p: 4, textAlign: "center" }} data-testid="stock-empty">
            <Typography variant="h6" component="p">
              {toReorder ? "Nothing to reorder" : "No stocked products match"}
            </Typography>
            <Typography color="text.secondary">
              {toReorder
                ? "Every product with a reorder level has enough available and on order."
                : "Try another search."}
            </Typography>
          </Box>
        ) : (
          <LevelsTable rows={data.rows} />
        )}
        {data && data.total > 0 && (
          <TablePagination
            component="div"
            count={data.total}
            page={page}
            rowsPerPage={size}
            rowsPerPageOptions={PAGE_SIZES}
            onPageChange={(_, p) => setPage(p)}
            onRowsPerPageChange={(e) => {
              setSize(Number(e.target.value));
              setPage(0);
            }}
          />
        )}
      </Card>
      {toReorder && !mayDraft && data?.rows.length ? (
        <Alert severity="info">A buyer (someone who may create purchase orders) drafts the orders for these.</Alert>
      ) : null}
    </Stack>
  );
}

function LevelsTable({ rows }: { rows: StockLevel[] }) {
  return (
    <TableContainer>
      <Table size="small" aria-label="Stock levels" data-testid="stock-levels-table">
        <TableHead>
          <TableRow>
            <TableCell sx={{ fontWeight: 600 }}>Product</TableCell>
            <TableCell sx={{ fontWeight: 600, display: WIDE }}>Where</TableCell>
            {COLUMNS.map((c) => (
              <TableCell key={c.key} align="right" sx={{ fontWeight: 600, whiteSpace: "nowrap" }}>
                <Tooltip title={c.help ?? ""}>
                  <span>{c.label}</span>
                </Tooltip>
              </TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map((r) => (
            <TableRow key={r.product_id} hover data-testid="stock-level-row">
              <TableCell sx={{ minWidth: 220 }}>
                <Link component={RouterLink} to={`/dashboard/stock-levels/${r.product_id}`} underline="hover">
                  {r.name}
                </Link>
                <Typography variant="caption" color="text.secondary" component="div">
                  {r.sku} · {r.unit}
                </Typography>
              </TableCell>
              <TableCell sx={{ color: "text.secondary", minWidth: 160, display: WIDE }}>
                {r.by_location.map((l) => `${l.location}: ${qty(l.qty)}`).join(" · ") || "—"}
              </TableCell>
              {COLUMNS.map((c) => (
                <TableCell
                  key={c.key}
                  align="right"
                  sx={{
                    whiteSpace: "nowrap",
                    fontWeight: c.key === "available" ? 600 : undefined,
                    color:
                      c.key === "available" && Number(r.available) < 0
                        ? "error.main"
                        : c.key === "min_qty" && r.to_reorder
                          ? "warning.main"
                          : undefined,
                  }}
                >
                  {r[c.key] == null ? "—" : qty(r[c.key])}
                </TableCell>
              ))}
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
