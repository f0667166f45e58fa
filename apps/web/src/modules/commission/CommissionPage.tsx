import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Card from "@mui/material/Card";
import LinearProgress from "@mui/material/LinearProgress";
import MenuItem from "@mui/material/MenuItem";
import Stack from "@mui/material/Stack";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { decide } from "@workmetrics/domain";
import { COMMISSION_STATEMENT_ACCESS } from "@workmetrics/domain/commission";
import { useMemo } from "react";
import { useSearchParams } from "react-router";
import { useErrorToast } from "../../platform/resource/hooks.ts";
import { useDashboardBase } from "../../platform/resource/paths.ts";
import { useViewer } from "../../platform/session/viewer.tsx";
import { RefusalPage } from "../../platform/ui/GatePage.tsx";
import { usePageTitle } from "../../platform/ui/usePageTitle.ts";
import { groupedAmount } from "../receivables/ageing.ts";
import { DAY } from "../reports/periods.ts";
import { useReport } from "../reports/useReport.ts";
import { recentPeriods } from "./api.ts";
import { CommissionSection } from "./CommissionSection.tsx";
import { StatementDetail } from "./StatementDetail.tsx";
import { StatementsList } from "./StatementsList.tsx";
import { StatusChip } from "./status.tsx";

// Issue 12 "/dashboard/reports/commission": pick a period and a salesperson; everyone's commission for the period
// (finance and managers) or one statement with its documents, approved and paid by finance; the approved and paid
// statements below. A salesperson sees only their own (COMMISSION_STATEMENT_ACCESS, scope "own").

export default function CommissionPage() {
  usePageTitle("Commission");
  const { member } = useViewer();
  const base = useDashboardBase();
  const access = decide(member, COMMISSION_STATEMENT_ACCESS);
  const today = new Date().toISOString().slice(0, 10);
  const periods = useMemo(() => recentPeriods(today), [today]);
  const [params, setParams] = useSearchParams();
  const from = DAY.test(params.get("from") ?? "") ? String(params.get("from")) : periods[1].from;
  const to = DAY.test(params.get("to") ?? "") ? String(params.get("to")) : periods[1].to;
  const own = access.allowed && access.scope === "own";
  const salesperson = own ? undefined : params.get("salesperson") || undefined;
  const set = (changes: Record<string, string | null>) => {
    const next = new URLSearchParams(params);
    for (const [k, v] of Object.entries(changes)) {
      if (v) next.set(k, v);
      else next.delete(k);
    }
    setParams(next, { replace: true });
  };
  const summary = useReport("commission_statement", { from, to }, access.allowed && !own);
  useErrorToast(summary.error);
  if (!access.allowed) return <RefusalPage subject="Commission statements" refusal={access} home={base} />;
  const known = periods.some((p) => p.from === from && p.to === to);
  const sellers = summary.data?.rows ?? [];
  return (
    <Stack spacing={2}>
      <Box>
        <Typography variant="h4" component="h1">
          Commission
        </Typography>
        <Typography color="text.secondary">
          {own
            ? "Your commission: what you sold, net of GST and credit notes, at your rule's rate"
            : "Each salesperson's commission for the period, from their invoices, credit notes and receipts"}
        </Typography>
      </Box>
      <Stack direction={{ xs: "column", md: "row" }} spacing={2}>
        <TextField
          select
          size="small"
          label="Period"
          value={`${from}|${to}`}
          onChange={(e) => {
            const [f, t] = e.target.value.split("|");
            set({ from: f, to: t });
          }}
          sx={{ minWidth: 220 }}
        >
          {!known && <MenuItem value={`${from}|${to}`}>{`${from} to ${to}`}</MenuItem>}
          {periods.map((p) => (
            <MenuItem key={`${p.from}|${p.to}`} value={`${p.from}|${p.to}`}>
              {p.label}
            </MenuItem>
          ))}
        </TextField>
        {!own && (
          <TextField
            select
            size="small"
            label="Salesperson"
            slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
            value={salesperson ?? ""}
            onChange={(e) => set({ salesperson: e.target.value || null })}
            sx={{ minWidth: 240 }}
          >
            <MenuItem value="">Every salesperson</MenuItem>
            {salesperson && !sellers.some((s) => s.salesperson_id === salesperson) && (
              <MenuItem value={salesperson}>The chosen salesperson</MenuItem>
            )}
            {sellers.map((s) => (
              <MenuItem key={String(s.salesperson_id)} value={String(s.salesperson_id)}>
                {String(s.salesperson)}
              </MenuItem>
            ))}
          </TextField>
        )}
      </Stack>
      {own || salesperson ? (
        <StatementDetail from={from} to={to} salesperson={salesperson} />
      ) : (
        <Card variant="outlined">
          {summary.isFetching && <LinearProgress aria-label="Loading commission" />}
          <Table size="small" aria-label="Commission by salesperson">
            <TableHead>
              <TableRow>
                <TableCell>Salesperson</TableCell>
                <TableCell>Rule</TableCell>
                <TableCell>Basis</TableCell>
                <TableCell align="right">Commissionable</TableCell>
                <TableCell align="right">Of target</TableCell>
                <TableCell align="right">Rate</TableCell>
                <TableCell align="right">Commission</TableCell>
                <TableCell>Status</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {sellers.map((r) => (
                <TableRow
                  key={String(r.salesperson_id)}
                  hover
                  sx={{ cursor: "pointer" }}
                  onClick={() => set({ salesperson: String(r.salesperson_id) })}
                >
                  <TableCell>{String(r.salesperson)}</TableCell>
                  <TableCell>{String(r.rule)}</TableCell>
                  <TableCell sx={{ textTransform: "capitalize" }}>{String(r.basis ?? "")}</TableCell>
                  <TableCell align="right">{groupedAmount(r.base)}</TableCell>
                  <TableCell align="right">
                    {r.achievement_percent == null ? "—" : `${r.achievement_percent}%`}
                  </TableCell>
                  <TableCell align="right">{r.rate_percent == null ? "—" : `${r.rate_percent}%`}</TableCell>
                  <TableCell align="right">{groupedAmount(r.commission)}</TableCell>
                  <TableCell>
                    <StatusChip status={String(r.status)} />
                  </TableCell>
                </TableRow>
              ))}
              {summary.data && sellers.length > 0 && (
                <TableRow>
                  <TableCell colSpan={3} sx={{ fontWeight: 600 }}>
                    Total
                  </TableCell>
                  <TableCell align="right" sx={{ fontWeight: 600 }}>
                    {groupedAmount(summary.data.totals.base)}
                  </TableCell>
                  <TableCell colSpan={2} />
                  <TableCell align="right" sx={{ fontWeight: 600 }}>
                    {groupedAmount(summary.data.totals.commission)}
                  </TableCell>
                  <TableCell />
                </TableRow>
              )}
            </TableBody>
          </Table>
          {summary.data && sellers.length === 0 && (
            <Alert severity="info" sx={{ m: 2 }}>
              No salesperson has a commission rule yet. Finance adds rules in Workspace settings → Commission rules.
            </Alert>
          )}
        </Card>
      )}
      <StatementsList salesperson={salesperson} />
      {/* The rules are in workspace settings too; finance, who may change them, does not open those settings. */}
      {!own && <CommissionSection />}
    </Stack>
  );
}
