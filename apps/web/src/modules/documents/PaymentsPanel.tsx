import Alert from "@mui/material/Alert";
import Card from "@mui/material/Card";
import CardContent from "@mui/material/CardContent";
import Link from "@mui/material/Link";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import Typography from "@mui/material/Typography";
import { useQuery } from "@tanstack/react-query";
import { errorMessage } from "@workmetrics/domain";
import { formatMoney } from "@workmetrics/domain/money";
import { Link as RouterLink } from "react-router";
import { useDataProvider } from "../../platform/data-access/provider.ts";
import { formatDate } from "../../platform/fields/format.ts";
import { useReadable } from "../../platform/resource/access.ts";
import { resourcePaths, useDashboardBase } from "../../platform/resource/paths.ts";
import type { DocRow } from "./api.ts";
import { METHOD_LABEL } from "./DocumentDialogs.tsx";
import { type Allocation, PAYER_TYPES, type Payer, paidBy, showsPayments } from "./payments.ts";
import { findDocType, type WebDocType } from "./types.ts";

// The payments that paid a document a customer owes on (every PAYABLE type: invoice, debit note, progressive claim):
// each receipt with its date, method and reference, each credit note's credit with a link to it. Shown to members who
// read receipts, once something is allocated.
export function PaymentsPanel({ type, doc, currency }: { type: WebDocType; doc: DocRow; currency: string }) {
  const data = useDataProvider();
  const readable = useReadable();
  const base = useDashboardBase();
  const shown = showsPayments(type.type, String(doc.status), type.machine.initial) && readable("receipt");
  const paid = useQuery({
    queryKey: [type.type, "one", String(doc.id), "payments", doc.updated_at],
    enabled: shown,
    queryFn: async ({ signal }) => {
      const rows = await data.getList("payment_allocation", {
        select: "id,payment_type,payment_id,amount",
        filters: [
          { column: "document_type", op: "eq", value: type.type },
          { column: "document_id", op: "eq", value: String(doc.id) },
        ],
        order: [{ column: "id", ascending: true }],
        signal,
      });
      const allocations = rows.data as unknown as Allocation[];
      const payers = { receipt: [] as Payer[], credit_note: [] as Payer[] };
      for (const kind of PAYER_TYPES) {
        const ids = allocations.filter((a) => a.payment_type === kind).map((a) => a.payment_id);
        if (!ids.length || !readable(kind)) continue;
        const res = await data.getList(kind, {
          select: kind === "receipt" ? "id,number,doc_date,method,reference" : "id,number,doc_date",
          filters: [{ column: "id", op: "in", value: `(${[...new Set(ids)].join(",")})` }],
          signal,
        });
        payers[kind] = res.data as unknown as Payer[];
      }
      return paidBy(allocations, payers);
    },
    staleTime: 5_000,
  });
  if (!shown || (paid.isSuccess && paid.data.length === 0) || paid.isPending) return null;
  const creditNotes = findDocType("credit_note");
  return (
    <Card variant="outlined" data-testid="payments-panel">
      <CardContent>
        <Typography variant="subtitle1" component="h2" sx={{ mb: 1 }}>
          Payments
        </Typography>
        {paid.isError ? (
          <Alert severity="warning">{errorMessage(paid.error, "The payments could not be loaded")}</Alert>
        ) : (
          <Table size="small" aria-label="Payments">
            <TableHead>
              <TableRow>
                <TableCell>Paid by</TableCell>
                <TableCell>Date</TableCell>
                <TableCell>Method</TableCell>
                <TableCell>Reference</TableCell>
                <TableCell align="right">Amount</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {paid.data.map((p) => (
                <TableRow key={p.id}>
                  <TableCell>
                    {p.kind === "receipt" ? (
                      `Receipt ${p.payer?.number ?? ""}`.trim()
                    ) : (
                      <>
                        Credit note{" "}
                        {p.payer && creditNotes?.header.route ? (
                          <Link
                            component={RouterLink}
                            to={resourcePaths(base, creditNotes.header.route).show(String(p.payer.id))}
                          >
                            {p.payer.number}
                          </Link>
                        ) : (
                          p.payer?.number
                        )}
                      </>
                    )}
                  </TableCell>
                  <TableCell>{p.payer ? formatDate(p.payer.doc_date) : ""}</TableCell>
                  <TableCell>
                    {p.kind === "receipt" && p.payer?.method ? (METHOD_LABEL[p.payer.method] ?? p.payer.method) : ""}
                  </TableCell>
                  <TableCell>{p.payer?.reference ?? ""}</TableCell>
                  <TableCell align="right">{formatMoney(p.amount, currency)}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </CardContent>
    </Card>
  );
}
