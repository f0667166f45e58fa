import Card from "@mui/material/Card";
import CardContent from "@mui/material/CardContent";
import List from "@mui/material/List";
import ListItemButton from "@mui/material/ListItemButton";
import ListItemText from "@mui/material/ListItemText";
import Typography from "@mui/material/Typography";
import { RESOURCES } from "@workmetrics/domain/resources";
import { Link as RouterLink } from "react-router";
import type { RecentChange } from "./useDashboardSummary.ts";

const RELATIVE = new Intl.RelativeTimeFormat(undefined, { numeric: "auto" });
const STEPS: [Intl.RelativeTimeFormatUnit, number][] = [
  ["second", 60],
  ["minute", 60],
  ["hour", 24],
  ["day", 7],
  ["week", 4.35],
  ["month", 12],
  ["year", Number.POSITIVE_INFINITY],
];

export function timeAgo(iso: string, now = Date.now()): string {
  let value = (new Date(iso).getTime() - now) / 1000;
  for (const [unit, size] of STEPS) {
    if (Math.abs(value) < size) return RELATIVE.format(Math.round(value), unit);
    value /= size;
  }
  return "";
}

// The latest records created or changed in the workspace, newest first.
export function RecentActivity({ recent, base }: { recent: RecentChange[]; base: string }) {
  return (
    <Card variant="outlined" component="section" aria-label="Recent activity">
      <CardContent>
        <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>
          Recent activity
        </Typography>
        {recent.length === 0 ? (
          <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
            Nothing has changed yet. New and edited records show up here.
          </Typography>
        ) : (
          <List
            dense
            disablePadding
            sx={{ display: "grid", gridTemplateColumns: { xs: "1fr", md: "repeat(2, 1fr)" }, columnGap: 2 }}
          >
            {recent.map((r) => {
              const title = RESOURCES.find((d) => d.name === r.resource)?.title ?? r.resource;
              return (
                <ListItemButton
                  key={`${r.resource}-${r.id}`}
                  component={RouterLink}
                  to={`${base}/${r.route}/${encodeURIComponent(r.id)}`}
                  sx={{ borderRadius: 1, px: 1 }}
                >
                  <ListItemText
                    primary={r.label || `${title} #${r.id}`}
                    secondary={`${title} ${r.created ? "created" : "updated"} ${timeAgo(r.updated_at)}`}
                    slotProps={{ primary: { noWrap: true } }}
                  />
                </ListItemButton>
              );
            })}
          </List>
        )}
      </CardContent>
    </Card>
  );
}
