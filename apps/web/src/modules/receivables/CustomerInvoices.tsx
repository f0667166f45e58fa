import PictureAsPdfOutlined from "@mui/icons-material/PictureAsPdfOutlined";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Link from "@mui/material/Link";
import Skeleton from "@mui/material/Skeleton";
import Stack from "@mui/material/Stack";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import Typography from "@mui/material/Typography";
import { Link as RouterLink } from "react-router";
import { useReadable } from "../../platform/resource/access.ts";
import { useErrorToast } from "../../platform/resource/hooks.ts";
import { useDashboardBase } from "../../platform/resource/paths.ts";
import { drillTarget } from "../reports/drill.ts";
import { receivableLists, statementPeriod } from "./ageing.ts";
import { alignOf, Cell } from "./ReportCell.tsx";
import { useAgeing } from "./useAgeing.ts";

// The drill-down: one customer's open receivables on the as-of date (ar_ageing with company_id: invoices, debit
// notes, progressive claims), each linking to its page (the report's drill), with the customer's statement PDF and the
// lists of each of those types, filtered to the customer, one click away.
export function CustomerInvoices(props: { companyId: number; company: string; asOf: string }) {
  const { companyId, company, asOf } = props;
  const base = useDashboardBase();
  const detail = useAgeing(asOf, companyId);
  useErrorToast(detail.error);
  const lists = receivableLists(base, companyId, useReadable());
  const period = statementPeriod(asOf);
  const statement = `/api/documents/statement/${companyId}/pdf?from=${period.from}&to=${period.to}`;
  return (
    <Box sx={{ px: 2, py: 1.5 }} data-testid={`invoices-of-${companyId}`}>
      <Stack direction="row" spacing={1} sx={{ alignItems: "center", mb: 1, flexWrap: "wrap" }}>
        <Typography variant="subtitle2" sx={{ mr: 1 }}>
          Open receivables of {company}
        </Typography>
        {lists.map((l) => (
          <Button key={l.to} size="small" component={RouterLink} to={l.to}>
            {l.label}
          </Button>
        ))}
        <Button
          size="small"
          startIcon={<PictureAsPdfOutlined />}
          href={statement}
          target="_blank"
          rel="noopener"
          title={`Statement of account from ${period.from} to ${period.to}`}
        >
          Statement
        </Button>
      </Stack>
      {detail.isPending ? (
        <Skeleton height={72} />
      ) : (
        <Table size="small" aria-label={`Open receivables of ${company}`}>
          <TableHead>
            <TableRow>
              {(detail.data?.columns ?? []).map((c) => (
                <TableCell key={c.key} align={alignOf(c)} sx={{ whiteSpace: "nowrap" }}>
                  {c.label}
                </TableCell>
              ))}
            </TableRow>
          </TableHead>
          <TableBody>
            {(detail.data?.rows ?? []).map((row, i) => {
              const target = drillTarget(detail.data?.drill?.[i], base);
              return (
                <TableRow key={`${String(row.type)}-${String(row.id)}`}>
                  {(detail.data?.columns ?? []).map((c) => (
                    <TableCell key={c.key} align={alignOf(c)} sx={{ whiteSpace: "nowrap" }}>
                      {c.key === "number" && target?.kind === "page" ? (
                        <Link component={RouterLink} to={target.to}>
                          {String(row.number ?? row.id)}
                        </Link>
                      ) : (
                        <Cell column={c} row={row} />
                      )}
                    </TableCell>
                  ))}
                </TableRow>
              );
            })}
          </TableBody>
        </Table>
      )}
    </Box>
  );
}
