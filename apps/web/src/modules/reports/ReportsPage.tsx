import ChevronRight from "@mui/icons-material/ChevronRight";
import LockOutlined from "@mui/icons-material/LockOutlined";
import Box from "@mui/material/Box";
import Card from "@mui/material/Card";
import Chip from "@mui/material/Chip";
import List from "@mui/material/List";
import ListItemButton from "@mui/material/ListItemButton";
import ListItemText from "@mui/material/ListItemText";
import ListSubheader from "@mui/material/ListSubheader";
import Stack from "@mui/material/Stack";
import Tooltip from "@mui/material/Tooltip";
import Typography from "@mui/material/Typography";
import type { Decision } from "@workmetrics/domain";
import { Link as RouterLink } from "react-router";
import { useDashboardBase } from "../../platform/resource/paths.ts";
import { useViewer } from "../../platform/session/viewer.tsx";
import { usePageTitle } from "../../platform/ui/usePageTitle.ts";
import { AREAS, listedReports, type ReportEntry } from "./catalog.ts";

// Issue 12 (/dashboard/reports): every report the member may read, by area. A report the workspace's tier does not
// include is shown locked with the plan that has it; one the member's role may not read is not shown at all (the one
// access rule, decide(member, REPORT_ACCESS[name]) — the server refuses the same).

export default function ReportsPage() {
  usePageTitle("Reports");
  const { member } = useViewer();
  const base = useDashboardBase();
  const listed = listedReports(member);
  return (
    <Stack spacing={2}>
      <Box>
        <Typography variant="h4" component="h1">
          Reports
        </Typography>
        <Typography color="text.secondary">
          Pick a report; its period, comparison and filters stay in the address, so it can be bookmarked or shared.
        </Typography>
      </Box>
      <Box
        sx={{
          display: "grid",
          gap: 2,
          gridTemplateColumns: { xs: "1fr", md: "1fr 1fr", xl: "1fr 1fr 1fr" },
          alignItems: "start",
        }}
      >
        {AREAS.map((area) => {
          const inArea = listed.filter((l) => l.entry.area === area);
          if (!inArea.length) return null;
          return (
            <Card variant="outlined" key={area}>
              <List
                dense
                aria-label={`${area} reports`}
                subheader={
                  <ListSubheader component="h2" sx={{ fontSize: "1rem", fontWeight: 600, bgcolor: "transparent" }}>
                    {area}
                  </ListSubheader>
                }
              >
                {inArea.map(({ entry, decision }) => (
                  <ReportLink key={entry.name} entry={entry} decision={decision} base={base} />
                ))}
              </List>
            </Card>
          );
        })}
      </Box>
    </Stack>
  );
}

function ReportLink({ entry, decision, base }: { entry: ReportEntry; decision: Decision; base: string }) {
  const to = entry.page ? `${base}/${entry.page}` : `${base}/reports/${entry.name}`;
  const text = (
    <ListItemText
      primary={entry.title}
      secondary={decision.allowed ? entry.description : decision.message}
      slotProps={{ primary: { sx: { fontWeight: 500 } } }}
    />
  );
  if (!decision.allowed) {
    const plan = decision.reason === "tier" ? decision.tierTitle : "";
    return (
      <ListItemButton
        disabled
        aria-disabled="true"
        data-testid={`report-locked-${entry.name}`}
        sx={{ "&.Mui-disabled": { opacity: 1 } }}
      >
        {text}
        <Tooltip title={decision.message}>
          <Chip icon={<LockOutlined />} label={plan ? `${plan} plan` : "Locked"} size="small" variant="outlined" />
        </Tooltip>
      </ListItemButton>
    );
  }
  return (
    <ListItemButton
      component={RouterLink}
      to={to}
      data-testid={`report-${entry.name}`}
      data-own-page={entry.page ? "" : undefined}
    >
      {text}
      <ChevronRight color="action" />
    </ListItemButton>
  );
}
