import DownloadOutlined from "@mui/icons-material/DownloadOutlined";
import PictureAsPdfOutlined from "@mui/icons-material/PictureAsPdfOutlined";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Breadcrumbs from "@mui/material/Breadcrumbs";
import Button from "@mui/material/Button";
import Card from "@mui/material/Card";
import LinearProgress from "@mui/material/LinearProgress";
import Link from "@mui/material/Link";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import { decide } from "@workmetrics/domain";
import { REPORT_ACCESS } from "@workmetrics/domain/reports";
import { useMemo } from "react";
import { Link as RouterLink, useLocation, useParams, useSearchParams } from "react-router";
import { formatSpelledDate } from "../../platform/fields/format.ts";
import { download } from "../../platform/resource/export.ts";
import { useDashboardBase } from "../../platform/resource/paths.ts";
import { useViewer } from "../../platform/session/viewer.tsx";
import { RefusalPage, RefusedPage } from "../../platform/ui/GatePage.tsx";
import { usePageTitle } from "../../platform/ui/usePageTitle.ts";
import { todayIso } from "../receivables/ageing.ts";
import { findReportEntry, type ReportEntry } from "./catalog.ts";
import { reportCsv, shown as shownOf } from "./compare.ts";
import { reportSearch } from "./drill.ts";
import { GstFiling } from "./GstFiling.tsx";
import { ReportChart } from "./ReportChart.tsx";
import { type ParamValues, ReportParams } from "./ReportParams.tsx";
import { ReportTable } from "./ReportTable.tsx";
import { comparedArgs, reportArgs, useReport } from "./useReport.ts";

// Issue 12: one report at /dashboard/reports/{name}?{params} — its parameters, the comparison with the previous
// period, a chart where it helps, the table with its totals, CSV (exactly the table) and PDF (the server prints the
// same report), and drill-down: a row opens the report or document behind it, the way back in the breadcrumb.

type Crumb = { title: string; to: string };

export default function ReportPage() {
  const { name = "" } = useParams();
  const entry = findReportEntry(name);
  const { member } = useViewer();
  const home = useDashboardBase();
  if (!entry) {
    return (
      <RefusedPage
        subject="Reports"
        refusal={{ reason: "permission", message: `There is no report "${name}"` }}
        home={home}
      />
    );
  }
  const decision = decide(member, REPORT_ACCESS[entry.name]);
  if (!decision.allowed) return <RefusalPage subject={entry.title} refusal={decision} home={home} />;
  return <OpenReport key={entry.name} entry={entry} />;
}

function describe(entry: ReportEntry, args: ParamValues): string {
  if (entry.params === "as_of") return `As of ${formatSpelledDate(args.as_of ?? todayIso())}`;
  if (args.from && args.to) return `${formatSpelledDate(args.from)} to ${formatSpelledDate(args.to)}`;
  return "";
}

function OpenReport({ entry }: { entry: ReportEntry }) {
  usePageTitle(entry.title);
  const base = useDashboardBase();
  const { currency } = useViewer();
  const location = useLocation();
  const [search, setSearch] = useSearchParams();
  const today = todayIso();
  const compare = search.get("compare") === "1";
  const args = useMemo(() => reportArgs(entry, search, today), [entry, search, today]);
  const previousArgs = useMemo(() => comparedArgs(entry, args, today), [entry, args, today]);
  const needsRecord = (entry.params === "customer_range" || entry.params === "supplier_range") && !args.company_id;
  const needsAccount = entry.params === "account_range" && !args.account;
  const ready = !needsRecord && !needsAccount;
  const current = useReport(entry.name, args, ready);
  const previous = useReport(entry.name, previousArgs, ready && compare);
  const previousLabel = entry.params === "as_of" ? "a year before" : "previous";
  const shown = useMemo(
    () =>
      current.data
        ? shownOf(current.data, compare ? previous.data : undefined, previousLabel, entry.compare)
        : undefined,
    [current.data, previous.data, compare, previousLabel, entry.compare],
  );
  const trail = ((location.state as { trail?: Crumb[] } | null)?.trail ?? []).slice(-6);
  const here: Crumb = {
    title: `${entry.title}${describe(entry, args) ? ` · ${describe(entry, args)}` : ""}`,
    to: `${location.pathname}${location.search}`,
  };
  const linkState = { trail: [...trail, here] };
  const write = (next: ParamValues, on = compare) =>
    setSearch(reportSearch({ ...next, ...(on ? { compare: "1" } : {}) }), { replace: true, state: location.state });
  const error = current.error ?? (compare ? previous.error : null);
  const csvName = `${entry.name}-${args.from ?? args.as_of ?? today}${args.to ? `-${args.to}` : ""}.csv`;
  const pdf = `/api/reports/${entry.name}/pdf?${reportSearch(args)}`;
  const narrowed = Object.keys(args).some((k) => !["from", "to", "as_of"].includes(k)) && entry.params === "range";
  return (
    <Stack spacing={2}>
      <Breadcrumbs aria-label="Where this report was opened from">
        <Link component={RouterLink} to={`${base}/reports`} underline="hover" color="inherit">
          Reports
        </Link>
        {trail.map((c, i) => (
          <Link
            key={c.to}
            component={RouterLink}
            to={c.to}
            state={{ trail: trail.slice(0, i) }}
            underline="hover"
            color="inherit"
          >
            {c.title}
          </Link>
        ))}
        <Typography color="text.primary">{entry.title}</Typography>
      </Breadcrumbs>
      <Stack direction={{ xs: "column", md: "row" }} spacing={2} sx={{ alignItems: { md: "center" } }}>
        <Box sx={{ flexGrow: 1 }}>
          <Typography variant="h4" component="h1">
            {entry.title}
          </Typography>
          <Typography color="text.secondary">
            {[describe(entry, args), `in ${currency}`, narrowed ? "filtered from the report before" : ""]
              .filter(Boolean)
              .join(" · ")}
          </Typography>
        </Box>
        <Stack direction="row" spacing={1}>
          <Button
            variant="outlined"
            startIcon={<DownloadOutlined />}
            disabled={!shown?.rows.length}
            onClick={() => shown && download(csvName, reportCsv(shown))}
          >
            Export CSV
          </Button>
          <Button
            variant="outlined"
            startIcon={<PictureAsPdfOutlined />}
            disabled={!ready || !current.data || Boolean(current.error)}
            href={pdf}
            target="_blank"
            rel="noopener"
          >
            PDF
          </Button>
        </Stack>
      </Stack>
      <Card variant="outlined" sx={{ p: 2 }}>
        <ReportParams
          kind={entry.params}
          values={args}
          today={today}
          onChange={(next) => write(next)}
          compare={compare}
          onCompare={(on) => write(args, on)}
        />
      </Card>
      {!ready && (
        <Alert severity="info">
          {needsAccount ? "Pick the account to see its ledger." : "Pick the company to see its statement."}
        </Alert>
      )}
      {error ? (
        <Alert severity="error" data-testid="report-error">
          {error instanceof Error ? error.message : "The report could not be read"}
        </Alert>
      ) : null}
      {ready && !error && (
        <>
          {entry.name === "gst_f5" && current.data && <GstFiling from={args.from} to={args.to} report={current.data} />}
          {entry.chart && current.data && (
            <ReportChart
              spec={entry.chart}
              report={current.data}
              previous={compare ? previous.data : undefined}
              valueLabel={describe(entry, args) || entry.title}
              previousLabel={describe(entry, previousArgs) || "Previous period"}
            />
          )}
          <Card variant="outlined">
            {(current.isFetching || previous.isFetching) && current.data ? <LinearProgress /> : null}
            <ReportTable
              shown={shown}
              loading={current.isPending || (compare && previous.isPending)}
              title={entry.title}
              base={base}
              empty={
                entry.area === "Accounting" ? "No postings in this period." : "Nothing was recorded in this period."
              }
              linkState={linkState}
            />
          </Card>
        </>
      )}
    </Stack>
  );
}
