import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Card from "@mui/material/Card";
import CardContent from "@mui/material/CardContent";
import Skeleton from "@mui/material/Skeleton";
import Stack from "@mui/material/Stack";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import Typography from "@mui/material/Typography";
import { errorMessage } from "@workmetrics/domain";
import { STOCK_ACCESS } from "@workmetrics/domain/reports";
import { Link as RouterLink, useParams } from "react-router";
import { formatNumber } from "../../platform/fields/format.ts";
import { useDecision } from "../../platform/resource/access.ts";
import { useDashboardBase } from "../../platform/resource/paths.ts";
import ResourceShow from "../../platform/resource/ResourceShow.tsx";
import { useStockLevels } from "./api.ts";

// Issue 10 §2 "stock on hand per location shown on the product page": the product's record as every resource shows
// it, then its stock (stock_levels for this one product: on hand per location, reserved by undelivered orders, on
// order, on loan, in transit, available), for whoever may read stock levels (STOCK_ACCESS, as the stock pages).

export default function ProductShow() {
  const { id = "" } = useParams();
  const productId = /^\d+$/.test(id) ? Number(id) : null;
  const may = useDecision(STOCK_ACCESS).allowed;
  return (
    <Stack spacing={2}>
      <ResourceShow />
      {may && productId !== null && <ProductStock productId={productId} />}
    </Stack>
  );
}

function ProductStock({ productId }: { productId: number }) {
  const base = useDashboardBase();
  const levels = useStockLevels({ product_ids: [productId], limit: 1, offset: 0 });
  const row = levels.data?.rows[0];
  const figures: Array<[string, string | undefined]> = [
    ["On hand", row?.on_hand],
    ["Reserved", row?.reserved],
    ["Available", row?.available],
    ["On order", row?.on_order],
    ["On loan", row?.on_loan],
    ["In transit", row?.in_transit],
  ];
  return (
    <Card variant="outlined" data-testid="product-stock">
      <CardContent>
        <Stack direction="row" sx={{ justifyContent: "space-between", alignItems: "center", mb: 1 }}>
          <Typography variant="subtitle1" component="h2">
            Stock
          </Typography>
          <Button size="small" component={RouterLink} to={`${base}/stock-levels/${productId}`}>
            Stock card
          </Button>
        </Stack>
        {levels.isError ? (
          <Alert severity="warning">{errorMessage(levels.error, "The stock could not be loaded")}</Alert>
        ) : levels.isPending ? (
          <Skeleton height={96} aria-label="Loading the stock" />
        ) : !row ? (
          <Typography color="text.secondary">This product is not kept in stock.</Typography>
        ) : (
          <>
            <Box sx={{ display: "flex", flexWrap: "wrap", gap: 3, mb: 2 }}>
              {figures.map(([label, value]) => (
                <Box key={label} data-testid={`stock-${label.toLowerCase().replace(" ", "-")}`}>
                  <Typography variant="caption" color="text.secondary">
                    {label}
                  </Typography>
                  <Typography
                    variant="h6"
                    color={label === "Available" && Number(value) < 0 ? "error" : undefined}
                    sx={{ fontVariantNumeric: "tabular-nums" }}
                  >
                    {formatNumber(value ?? 0)} {label === "On hand" ? row.unit : ""}
                  </Typography>
                </Box>
              ))}
            </Box>
            {(row.by_location ?? []).length === 0 ? (
              <Typography color="text.secondary">None on hand at any location.</Typography>
            ) : (
              <Table size="small" aria-label="Stock by location">
                <TableHead>
                  <TableRow>
                    <TableCell>Location</TableCell>
                    <TableCell align="right">On hand</TableCell>
                  </TableRow>
                </TableHead>
                <TableBody>
                  {(row.by_location ?? []).map((l) => (
                    <TableRow key={l.location_id}>
                      <TableCell>{l.location}</TableCell>
                      <TableCell align="right" sx={{ fontVariantNumeric: "tabular-nums" }}>
                        {formatNumber(l.qty)}
                      </TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            )}
          </>
        )}
      </CardContent>
    </Card>
  );
}
