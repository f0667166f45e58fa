import Card from "@mui/material/Card";
import CardContent from "@mui/material/CardContent";
import { useTheme } from "@mui/material/styles";
import { BarChart } from "@mui/x-charts/BarChart";
import type { ReportResult } from "@workmetrics/domain/reports";
import type { ChartSpec } from "./catalog.ts";

// The picture beside a report's table (issue 12: MUI X Charts where it says more): bars per row (sales by month,
// customer, salesperson), income against expenses (P&L), what is owed by age (ageing). Figures are decimal strings;
// a chart's bar heights are the one place they become numbers. With the previous period, its bars stand beside.

const num = (v: unknown) => {
  const n = Number(v ?? 0);
  return Number.isFinite(n) ? n : 0;
};

const TOP = 12;

// An axis figure in few characters (1.2M, 540k): the table beside has the exact amounts.
const COMPACT = new Intl.NumberFormat("en", { notation: "compact", maximumFractionDigits: 1 });
const compact = (v: number | null) => (v === null ? "" : COMPACT.format(v)); // a bar chart of more rows than this shows the largest

type Bar = { label: string; value: number; previous?: number };

const PL_BARS = [
  ["income", "Income"],
  ["cogs", "Cost of sales"],
  ["expenses", "Expenses"],
  ["net_profit", "Net profit"],
] as const;

export function chartBars(spec: ChartSpec, r: ReportResult, previous?: ReportResult): Bar[] {
  if (spec.kind === "ageing") {
    const labels = Object.fromEntries(r.columns.map((c) => [c.key, c.label]));
    return spec.buckets.map((b) => ({
      label: labels[b] ?? b,
      value: num(r.totals[b]),
      ...(previous ? { previous: num(previous.totals[b]) } : {}),
    }));
  }
  if (spec.kind === "pl") {
    // The bars are the table's sections (issue 21 §1: "Expenses" included the cost of sales, the table's "Total
    // expenses" did not). The report's totals.expenses includes it (DESIGN §2.3.1: net_profit = income − expenses).
    const figures = (x: ReportResult | undefined): Record<string, number> => ({
      income: num(x?.totals.income),
      cogs: num(x?.totals.cogs),
      expenses: num(x?.totals.expenses) - num(x?.totals.cogs),
      net_profit: num(x?.totals.net_profit),
    });
    const now = figures(r);
    const before = previous ? figures(previous) : undefined;
    return PL_BARS.map(([k, label]) => ({ label, value: now[k], ...(before ? { previous: before[k] } : {}) }));
  }
  const key = r.key;
  const before = new Map((previous?.rows ?? []).map((row, i) => [key ? String(row[key]) : String(i), row]));
  const bars = r.rows
    .filter((row) => row.row_kind === undefined || row.row_kind === "account")
    .map((row, i) => ({
      label: String(row[spec.label] ?? "—"),
      value: num(row[spec.values[0]]),
      ...(previous ? { previous: num(before.get(key ? String(row[key]) : String(i))?.[spec.values[0]]) } : {}),
    }));
  return spec.kind === "bars" && spec.label === "month" ? bars : bars.slice(0, TOP);
}

export function ReportChart(props: {
  spec: ChartSpec;
  report: ReportResult;
  previous?: ReportResult;
  valueLabel: string;
  previousLabel: string;
}) {
  const theme = useTheme();
  const bars = chartBars(props.spec, props.report, props.previous);
  if (!bars.length || bars.every((b) => b.value === 0 && !b.previous)) return null;
  const horizontal = props.spec.kind === "bars" && props.spec.label !== "month";
  const series = [
    { dataKey: "value", label: props.valueLabel, color: theme.palette.primary.main },
    ...(props.previous ? [{ dataKey: "previous", label: props.previousLabel, color: theme.palette.grey[500] }] : []),
  ];
  const band = { scaleType: "band" as const, dataKey: "label" };
  const value = { valueFormatter: compact, width: 56 };
  return (
    <Card variant="outlined" data-testid="report-chart">
      <CardContent>
        <BarChart
          height={horizontal ? Math.max(200, bars.length * (props.previous ? 40 : 28) + 60) : 280}
          dataset={bars}
          layout={horizontal ? "horizontal" : "vertical"}
          {...(horizontal
            ? { yAxis: [{ ...band, width: 160 }], xAxis: [{ valueFormatter: compact }] }
            : { xAxis: [band], yAxis: [value] })}
          series={series}
          hideLegend={!props.previous}
          margin={{ left: 8, right: 16 }}
        />
      </CardContent>
    </Card>
  );
}
