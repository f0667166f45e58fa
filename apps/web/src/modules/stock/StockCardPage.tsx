import ArrowBackOutlined from "@mui/icons-material/ArrowBackOutlined";
import DownloadOutlined from "@mui/icons-material/DownloadOutlined";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Card from "@mui/material/Card";
import Link from "@mui/material/Link";
import MenuItem from "@mui/material/MenuItem";
import Skeleton from "@mui/material/Skeleton";
import Stack from "@mui/material/Stack";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableContainer from "@mui/material/TableContainer";
import TableHead from "@mui/material/TableHead";
import TablePagination from "@mui/material/TablePagination";
import TableRow from "@mui/material/TableRow";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { CATALOG } from "@workmetrics/domain/resources/catalog";
import { useState } from "react";
import toast from "react-hot-toast";
import { Link as RouterLink, useParams } from "react-router";
import { toCsv } from "../../platform/data-access/csv.ts";
import { formatCents, formatDate, formatNumber, humanize } from "../../platform/fields/format.ts";
import { download } from "../../platform/resource/export.ts";
import { useErrorToast } from "../../platform/resource/hooks.ts";
import { usePageTitle } from "../../platform/ui/usePageTitle.ts";
import { type StockCardRow, useFetchWholeCard, useLocations, useStockCard } from "./api.ts";

// Issue 11 "Stock" (/dashboard/stock-levels/:productId): the stock card — every move of one product, oldest first,
// with the document that made it (linked), the location, in, out, the running balance and the unit cost; paged, a
// location narrows it, CSV of all of it.

const qty = (v: unknown) => formatNumber(v, 3);

// The page of a move's document, when its type has one (a document type's route is its catalog entry's).
function documentPath(r: StockCardRow): string | null {
  const entry = (CATALOG as Record<string, { route: string | null } | undefined>)[r.doc_type];
  return entry?.route ? `/dashboard/${entry.route}/${r.doc_id}` : null;
}

export default function StockCardPage() {
  const productId = Number(useParams().id);
  const [locationId, setLocationId] = useState<number | null>(null);
  const [page, setPage] = useState(0);
  const [size, setSize] = useState(50);
  const card = useStockCard({ product_id: productId, location_id: locationId, limit: size, offset: page * size });
  useErrorToast(card.error);
  const locations = useLocations();
  const fetchAll = useFetchWholeCard();
  const [exporting, setExporting] = useState(false);
  const product = card.data?.product;
  usePageTitle(product ? `Stock card · ${product.name}` : "Stock card");

  async function exportCsv() {
    setExporting(true);
    try {
      const all = await fetchAll(productId, locationId);
      const rows = all.rows.map((r) => [
        r.date,
        humanize(r.doc_type),
        r.number ?? "",
        r.location,
        r.qty_in ?? "",
        r.qty_out ?? "",
        r.balance,
        r.unit_cost,
      ]);
      download(
        `stock-card-${all.product.sku}.csv`,
        toCsv([["Date", "Document type", "Number", "Location", "In", "Out", "Balance", "Unit cost"], ...rows]),
      );
    } catch (err) {
      toast.error(err instanceof Error ? err.message : "The stock card could not be exported");
    } finally {
      setExporting(false);
    }
  }

  return (
    <Stack spacing={2}>
      <Box>
        <Button component={RouterLink} to="/dashboard/stock-levels" startIcon={<ArrowBackOutlined />} size="small">
          Stock levels
        </Button>
      </Box>
      <Stack direction={{ xs: "column", sm: "row" }} spacing={2} sx={{ alignItems: { sm: "center" } }}>
        <Box sx={{ flexGrow: 1 }}>
          <Typography variant="h4" component="h1">
            {product ? product.name : <Skeleton width={240} />}
          </Typography>
          <Typography color="text.secondary">
            Stock card{product ? ` · ${product.sku} · every move, in ${product.unit}` : ""}
          </Typography>
        </Box>
        <TextField
          select
          size="small"
          label="Location"
          value={locationId ?? ""}
          onChange={(e) => {
            setLocationId(e.target.value ? Number(e.target.value) : null);
            setPage(0);
          }}
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
        <Button
          variant="outlined"
          startIcon={<DownloadOutlined />}
          disabled={!card.data?.rows.length}
          loading={exporting}
          onClick={exportCsv}
        >
          Export CSV
        </Button>
      </Stack>
      <Card variant="outlined">
        {!card.data ? (
          <Box sx={{ p: 2 }} aria-busy="true" aria-label="Loading the stock card">
            {[0, 1, 2, 3].map((i) => (
              <Skeleton key={i} height={36} />
            ))}
          </Box>
        ) : !card.data.rows.length ? (
          <Box sx={{ p: 4, textAlign: "center" }}>
            <Typography variant="h6" component="p">
              No stock moves
            </Typography>
            <Typography color="text.secondary">Nothing of this product has come in or gone out here yet.</Typography>
          </Box>
        ) : (
          <TableContainer>
            <Table size="small" aria-label="Stock card" data-testid="stock-card-table">
              <TableHead>
                <TableRow>
                  {["Date", "Document", "Location"].map((h) => (
                    <TableCell key={h} sx={{ fontWeight: 600 }}>
                      {h}
                    </TableCell>
                  ))}
                  {["In", "Out", "Balance", "Unit cost"].map((h) => (
                    <TableCell key={h} align="right" sx={{ fontWeight: 600 }}>
                      {h}
                    </TableCell>
                  ))}
                </TableRow>
              </TableHead>
              <TableBody>
                {card.data.rows.map((r) => {
                  const path = documentPath(r);
                  const label = `${humanize(r.doc_type)}${r.number ? ` ${r.number}` : ""}`;
                  return (
                    <TableRow key={r.id} hover>
                      <TableCell sx={{ whiteSpace: "nowrap" }}>{formatDate(r.date)}</TableCell>
                      <TableCell>
                        {path ? (
                          <Link component={RouterLink} to={path} underline="hover">
                            {label}
                          </Link>
                        ) : (
                          label
                        )}
                      </TableCell>
                      <TableCell>{r.location}</TableCell>
                      <TableCell align="right" sx={{ color: "success.main" }}>
                        {qty(r.qty_in)}
                      </TableCell>
                      <TableCell align="right" sx={{ color: "error.main" }}>
                        {qty(r.qty_out)}
                      </TableCell>
                      <TableCell align="right" sx={{ fontWeight: 600 }}>
                        {qty(r.balance)}
                      </TableCell>
                      <TableCell align="right">{formatCents(r.unit_cost, 4)}</TableCell>
                    </TableRow>
                  );
                })}
              </TableBody>
            </Table>
          </TableContainer>
        )}
        {card.data && card.data.total > 0 && (
          <TablePagination
            component="div"
            count={card.data.total}
            page={page}
            rowsPerPage={size}
            rowsPerPageOptions={[25, 50, 100]}
            onPageChange={(_, p) => setPage(p)}
            onRowsPerPageChange={(e) => {
              setSize(Number(e.target.value));
              setPage(0);
            }}
          />
        )}
      </Card>
    </Stack>
  );
}
