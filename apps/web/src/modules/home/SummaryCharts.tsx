import Box from "@mui/material/Box";
import Card from "@mui/material/Card";
import CardContent from "@mui/material/CardContent";
import { useTheme } from "@mui/material/styles";
import Typography from "@mui/material/Typography";
import { BarChart } from "@mui/x-charts/BarChart";
import { PieChart } from "@mui/x-charts/PieChart";
import { humanize, statusColor } from "../../platform/fields/format.ts";
import type { Breakdown, DashboardSummary } from "./useDashboardSummary.ts";

function ChartCard({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <Card variant="outlined" component="section" aria-label={title}>
      <CardContent>
        <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600, mb: 1 }}>
          {title}
        </Typography>
        {children}
      </CardContent>
    </Card>
  );
}

const empty = (b: Breakdown | undefined): b is undefined => !b || b.every((x) => x.count === 0);

// Where the shape matters more than the figures: what the catalogue is made of, who the companies are,
// where projects stand.
export function SummaryCharts({ charts }: { charts: DashboardSummary["charts"] }) {
  const { products_by_category: byCategory, companies_by_kind: byKind, projects_by_status: byStatus } = charts;
  const primary = useTheme().palette.primary.main;
  const cards: React.ReactNode[] = [];
  if (!empty(byCategory)) {
    cards.push(
      <ChartCard key="cat" title="Products by category">
        <BarChart
          height={260}
          layout="horizontal"
          dataset={byCategory}
          yAxis={[{ scaleType: "band", dataKey: "label", width: 120 }]}
          xAxis={[{ tickMinStep: 1 }]}
          series={[{ dataKey: "count", label: "Products", color: primary }]}
          hideLegend
          margin={{ left: 8, right: 16 }}
        />
      </ChartCard>,
    );
  }
  if (!empty(byKind)) {
    cards.push(
      <ChartCard key="kind" title="Companies by kind">
        <PieChart
          height={260}
          series={[
            {
              innerRadius: 50,
              paddingAngle: 2,
              cornerRadius: 4,
              data: byKind.map((b, i) => ({ id: i, value: b.count, label: b.label })),
            },
          ]}
        />
      </ChartCard>,
    );
  }
  if (!empty(byStatus)) {
    cards.push(
      <ChartCard key="status" title="Projects by status">
        <BarChart
          height={260}
          dataset={byStatus.map((b) => ({ ...b, label: humanize(b.label) }))}
          xAxis={[
            {
              scaleType: "band",
              dataKey: "label",
              colorMap: {
                type: "ordinal",
                values: byStatus.map((b) => humanize(b.label)),
                colors: byStatus.map((b) => statusColor(b.label)),
              },
            },
          ]}
          yAxis={[{ tickMinStep: 1, width: 32 }]}
          series={[{ dataKey: "count", label: "Projects" }]}
          hideLegend
        />
      </ChartCard>,
    );
  }
  if (cards.length === 0) return null;
  return (
    <Box
      sx={{
        display: "grid",
        gap: 2,
        gridTemplateColumns: { xs: "1fr", md: "repeat(2, 1fr)", xl: `repeat(${Math.min(cards.length, 3)}, 1fr)` },
      }}
    >
      {cards}
    </Box>
  );
}
