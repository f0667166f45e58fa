import DownloadOutlined from "@mui/icons-material/DownloadOutlined";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Card from "@mui/material/Card";
import CardContent from "@mui/material/CardContent";
import LinearProgress from "@mui/material/LinearProgress";
import Link from "@mui/material/Link";
import Stack from "@mui/material/Stack";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import Typography from "@mui/material/Typography";
import { useQueryClient } from "@tanstack/react-query";
import { allowed, errorMessage } from "@workmetrics/domain";
import { COMMISSION_APPROVE_ACCESS, type CommissionPeriod, isWholePeriod } from "@workmetrics/domain/commission";
import type { ReportDrill } from "@workmetrics/domain/reports";
import { useState } from "react";
import toast from "react-hot-toast";
import { Link as RouterLink } from "react-router";
import { toCsv } from "../../platform/data-access/csv.ts";
import { useDataProvider } from "../../platform/data-access/provider.ts";
import { formatDate, formatSpelledDate } from "../../platform/fields/format.ts";
import { download } from "../../platform/resource/export.ts";
import { useErrorToast } from "../../platform/resource/hooks.ts";
import { useDashboardBase } from "../../platform/resource/paths.ts";
import { useViewer } from "../../platform/session/viewer.tsx";
import { ConfirmDialog } from "../../platform/ui/ConfirmDialog.tsx";
import { groupedAmount } from "../receivables/ageing.ts";
import { drillTarget } from "../reports/drill.ts";
import { useReport } from "../reports/useReport.ts";
import { StatusChip } from "./status.tsx";

// One salesperson's statement for the period: its figures, Approve (finance, a whole ended period still open), and
// the documents behind it, each opening its page; CSV of the lines.

function Figure({ label, value }: { label: string; value: string }) {
  return (
    <Box sx={{ minWidth: 140 }}>
      <Typography variant="caption" color="text.secondary">
        {label}
      </Typography>
      <Typography variant="h6" component="p">
        {value}
      </Typography>
    </Box>
  );
}

export function StatementDetail({ from, to, salesperson }: { from: string; to: string; salesperson?: string }) {
  const { member } = useViewer();
  const data = useDataProvider();
  const base = useDashboardBase();
  const qc = useQueryClient();
  const report = useReport("commission_statement", { from, to, ...(salesperson ? { salesperson } : {}) }, true);
  useErrorToast(report.error);
  const [confirming, setConfirming] = useState(false);
  const t = report.data?.totals;
  if (!report.data || !t) return report.isFetching ? <LinearProgress aria-label="Loading the statement" /> : null;
  const rows = report.data.rows;
  const drills = (report.data.drill ?? []) as (ReportDrill | null)[];
  const today = new Date().toISOString().slice(0, 10);
  const period = String(t.period) as CommissionPeriod;
  const approvable =
    t.status === "open" && allowed(member, COMMISSION_APPROVE_ACCESS) && Boolean(t.period) && to < today;
  const whole = Boolean(t.period) && isWholePeriod(period, from, to);
  const approve = async () => {
    try {
      await data.command("commission_approve", { salesperson: String(t.salesperson_id), from, to });
      toast.success(`Commission of ${t.salesperson} approved`);
      setConfirming(false);
      await qc.invalidateQueries({ queryKey: ["report", "commission_statement"] });
      await qc.invalidateQueries({ queryKey: ["commission-statements"] });
    } catch (err) {
      toast.error(errorMessage(err, "The statement could not be approved"));
    }
  };
  const csv = () =>
    download(
      `commission-${String(t.salesperson).replaceAll(/\W+/g, "-").toLowerCase()}-${from}-${to}.csv`,
      toCsv([
        report.data?.columns.map((c) => c.label) ?? [],
        ...rows.map((r) => (report.data?.columns ?? []).map((c) => r[c.key] ?? "")),
        ["Total", "", "", "", "", "", "", t.base],
        ["Commission", "", "", "", "", "", `${t.rate_percent}%`, t.commission],
      ]),
    );
  const linkOf = (i: number) => {
    const target = drillTarget(drills[i], base);
    return target?.kind === "page" ? target.to : null;
  };
  return (
    <Card variant="outlined">
      {report.isFetching && <LinearProgress aria-label="Loading the statement" />}
      <CardContent>
        <Stack direction={{ xs: "column", md: "row" }} spacing={2} sx={{ alignItems: { md: "center" }, mb: 2 }}>
          <Box sx={{ flex: 1 }}>
            <Typography variant="h6" component="h2">
              {String(t.salesperson)} · {formatDate(from)} to {formatDate(to)}
            </Typography>
            <Typography variant="body2" color="text.secondary">
              {t.rule ? `${t.rule}, ${t.basis} basis, ${t.period}` : "No commission rule applies"}
            </Typography>
          </Box>
          <StatusChip status={String(t.status === "no_rule" ? "open" : t.status)} />
          <Button startIcon={<DownloadOutlined />} onClick={csv} disabled={rows.length === 0}>
            CSV
          </Button>
          {approvable && (
            <Button variant="contained" onClick={() => setConfirming(true)} disabled={!whole}>
              Approve
            </Button>
          )}
        </Stack>
        {t.status === "no_rule" && (
          <Alert severity="info" sx={{ mb: 2 }}>
            {String(t.salesperson)} has no commission rule. Finance adds one in Workspace settings → Commission rules.
          </Alert>
        )}
        {approvable && !whole && (
          <Alert severity="info" sx={{ mb: 2 }}>
            This rule pays {t.period}: choose a whole {t.period === "monthly" ? "month" : "quarter"} to approve it.
          </Alert>
        )}
        <Stack direction="row" spacing={3} useFlexGap sx={{ flexWrap: "wrap", mb: 2 }}>
          <Figure label="Commissionable" value={groupedAmount(t.base)} />
          {t.target !== "" && <Figure label="Target" value={groupedAmount(t.target)} />}
          {t.achievement_percent !== "" && <Figure label="Of target" value={`${t.achievement_percent}%`} />}
          {t.rate_percent !== "" && <Figure label="Rate" value={`${t.rate_percent}%`} />}
          <Figure label="Commission" value={groupedAmount(t.commission)} />
        </Stack>
        <Table size="small" aria-label="Documents behind the commission">
          <TableHead>
            <TableRow>
              {report.data.columns.map((c) => (
                <TableCell key={c.key} align={c.kind === "money" ? "right" : "left"}>
                  {c.label}
                </TableCell>
              ))}
            </TableRow>
          </TableHead>
          <TableBody>
            {rows.map((r, i) => {
              const to = linkOf(i);
              return (
                <TableRow key={`${r.doc_type}-${r.doc_id}-${r.reference ?? ""}`}>
                  {report.data?.columns.map((c) => (
                    <TableCell key={c.key} align={c.kind === "money" ? "right" : "left"}>
                      {c.key === "number" && to ? (
                        <Link component={RouterLink} to={to}>
                          {String(r.number ?? "")}
                        </Link>
                      ) : c.kind === "money" ? (
                        groupedAmount(r[c.key])
                      ) : c.kind === "date" ? (
                        formatDate(r[c.key])
                      ) : (
                        String(r[c.key] ?? "")
                      )}
                    </TableCell>
                  ))}
                </TableRow>
              );
            })}
          </TableBody>
        </Table>
        {rows.length === 0 && t.status !== "no_rule" && (
          <Typography color="text.secondary" sx={{ mt: 2 }}>
            Nothing sold, credited or collected in this period.
          </Typography>
        )}
      </CardContent>
      <ConfirmDialog
        open={confirming}
        title="Approve this commission?"
        body={`${t.salesperson}'s commission of ${groupedAmount(t.commission)} for ${formatSpelledDate(from)} to ${formatSpelledDate(to)} is frozen as it stands and booked as owed (Dr 6000 Commission / Cr 2400 Commission payable). Later credit notes count in the next period.`}
        confirmLabel="Approve"
        onCancel={() => setConfirming(false)}
        onConfirm={approve}
      />
    </Card>
  );
}
