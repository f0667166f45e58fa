import PictureAsPdfOutlined from "@mui/icons-material/PictureAsPdfOutlined";
import Alert from "@mui/material/Alert";
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
import { useQuery } from "@tanstack/react-query";
import { useParams } from "react-router";
import { useSession } from "../../app/session/SessionProvider.tsx";
import { toDataError } from "../../platform/data-access/errors.ts";
import ResourceShow from "../../platform/resource/ResourceShow.tsx";

// Issue 22: a POS order in the back office — its record as every resource shows it, then what was sold or refunded
// (quantities, GST-inclusive prices, discounts) and how it was paid, with its receipt as a PDF.

type Detail = {
  lines: Array<{
    id: number;
    description: string;
    sku: string | null;
    qty: string;
    unit_price: string;
    discount_percent: string;
    line_total: string;
    qty_refunded: string;
  }>;
  payments: Array<{ id: number; method: string; amount: string; tendered: string; change_given: string }>;
};

const METHOD: Record<string, string> = { cash: "Cash", card: "Card", paynow: "PayNow", voucher: "Voucher" };
const n = (v: string) => String(Number(v));

export default function PosOrderShow() {
  const { id = "" } = useParams();
  const orderId = /^\d+$/.test(id) ? Number(id) : null;
  return (
    <Stack spacing={2}>
      <ResourceShow />
      {orderId !== null && <PosOrderDetail id={orderId} />}
    </Stack>
  );
}

function PosOrderDetail({ id }: { id: number }) {
  const { client } = useSession();
  const detail = useQuery({
    queryKey: ["pos-order-detail", id],
    queryFn: async () => {
      if (!client) throw new Error("Not signed in");
      const res = await client
        .from("pos_order")
        .select(
          "lines:pos_order_line(id,description,sku,qty,unit_price,discount_percent,line_total,qty_refunded),payments:pos_payment(id,method,amount,tendered,change_given)",
        )
        .eq("id", id)
        .maybeSingle();
      if (res.error) throw toDataError(res.error, res.status);
      return res.data as Detail | null;
    },
  });
  return (
    <Card variant="outlined" data-testid="pos-order-lines">
      <CardContent>
        <Stack direction="row" sx={{ justifyContent: "space-between", alignItems: "center", mb: 1 }}>
          <Typography variant="subtitle1" component="h2">
            Lines and payments
          </Typography>
          <Button
            size="small"
            component="a"
            href={`/api/documents/pos_order/${id}/pdf`}
            target="_blank"
            rel="noopener"
            startIcon={<PictureAsPdfOutlined />}
          >
            Receipt
          </Button>
        </Stack>
        {detail.isLoading ? (
          <Skeleton variant="rounded" height={96} />
        ) : detail.error ? (
          <Alert severity="error">{(detail.error as Error).message}</Alert>
        ) : !detail.data ? null : (
          <Stack spacing={2}>
            <Table size="small" aria-label="Lines">
              <TableHead>
                <TableRow>
                  <TableCell>Product</TableCell>
                  <TableCell align="right">Qty</TableCell>
                  <TableCell align="right">Price (incl. GST)</TableCell>
                  <TableCell align="right">Discount</TableCell>
                  <TableCell align="right">Amount</TableCell>
                  <TableCell align="right">Refunded</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {detail.data.lines.map((l) => (
                  <TableRow key={l.id}>
                    <TableCell>
                      {l.description}
                      {l.sku ? ` (${l.sku})` : ""}
                    </TableCell>
                    <TableCell align="right">{n(l.qty)}</TableCell>
                    <TableCell align="right">{Number(l.unit_price).toFixed(2)}</TableCell>
                    <TableCell align="right">
                      {Number(l.discount_percent) ? `${n(l.discount_percent)}%` : "—"}
                    </TableCell>
                    <TableCell align="right">{l.line_total}</TableCell>
                    <TableCell align="right">{Number(l.qty_refunded) ? n(l.qty_refunded) : "—"}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
            <Table size="small" aria-label="Payments">
              <TableHead>
                <TableRow>
                  <TableCell>Paid by</TableCell>
                  <TableCell align="right">Amount</TableCell>
                  <TableCell align="right">Tendered</TableCell>
                  <TableCell align="right">Change</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {detail.data.payments.map((p) => (
                  <TableRow key={p.id}>
                    <TableCell>{METHOD[p.method] ?? p.method}</TableCell>
                    <TableCell align="right">{p.amount}</TableCell>
                    <TableCell align="right">{Number(p.tendered) ? p.tendered : "—"}</TableCell>
                    <TableCell align="right">{Number(p.change_given) ? p.change_given : "—"}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </Stack>
        )}
      </CardContent>
    </Card>
  );
}
