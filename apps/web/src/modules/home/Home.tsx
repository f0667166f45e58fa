import CheckCircleOutlined from "@mui/icons-material/CheckCircleOutlined";
import ExpandMoreOutlined from "@mui/icons-material/ExpandMoreOutlined";
import LockOutlined from "@mui/icons-material/LockOutlined";
import Accordion from "@mui/material/Accordion";
import AccordionDetails from "@mui/material/AccordionDetails";
import AccordionSummary from "@mui/material/AccordionSummary";
import Box from "@mui/material/Box";
import Card from "@mui/material/Card";
import CardContent from "@mui/material/CardContent";
import Chip from "@mui/material/Chip";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import { FEATURES, type Feature, lowestTierWith } from "@workmetrics/domain";
import { useEffect, useState } from "react";
import { preloadResourcePages } from "../../app/modules.ts";
import { useSession } from "../../app/session/SessionProvider.tsx";
import { useErrorToast } from "../../platform/resource/hooks.ts";
import { useDashboardBase } from "../../platform/resource/paths.ts";
import { usePageTitle } from "../../platform/ui/usePageTitle.ts";
import { MyChallenges } from "./MyChallenges.tsx";
import { PlatformHome } from "./PlatformHome.tsx";
import { RecentActivity } from "./RecentActivity.tsx";
import { SellingFigures } from "./SellingFigures.tsx";
import { SummaryCards } from "./SummaryCards.tsx";
import { SummaryCharts } from "./SummaryCharts.tsx";
import { useDashboardSummary } from "./useDashboardSummary.ts";

export default function Home() {
  usePageTitle("Dashboard");
  const { dbUser } = useSession();
  const profile = dbUser?.profile;
  const ws = profile?.workspace;
  const firstName = (profile?.name ?? "").split(" ")[0];
  const included = new Set(ws?.tier.features ?? []);
  const base = useDashboardBase();
  // Figures exist for a workspace's members; the platform operator's home has none.
  const summary = useDashboardSummary(Boolean(ws));
  useErrorToast(summary.error);
  // The lists are the likely next stop: fetch their code once the home page has what it needs.
  const ready = summary.isSuccess;
  useEffect(() => {
    if (!ready) return;
    const id = window.setTimeout(preloadResourcePages, 300);
    return () => window.clearTimeout(id);
  }, [ready]);
  return (
    <Stack spacing={3}>
      <Box>
        <Typography variant="h4" component="h1">
          {firstName ? `Welcome back, ${firstName}` : "Welcome back"}
        </Typography>
        <Typography color="text.secondary">
          {ws ? `${ws.name} · signed in as ${profile?.role.title ?? "member"}` : "Platform operator"}
        </Typography>
      </Box>
      {dbUser?.is_platform_operator && <PlatformHome />}
      {ws && <SellingFigures figures={summary.data?.figures} base={base} />}
      {ws && profile && <MyChallenges base={base} userId={profile.id} />}
      {ws && (
        <AllRecords
          hasFigures={Object.keys(summary.data?.figures ?? {}).length > 0}
          counts={summary.data?.counts}
          base={base}
        />
      )}
      {summary.data && <SummaryCharts charts={summary.data.charts} />}
      {summary.data && <RecentActivity recent={summary.data.recent} base={base} />}
      {ws && (
        <Card variant="outlined">
          <CardContent>
            <Stack direction="row" spacing={1} sx={{ alignItems: "center", mb: 2 }}>
              <Typography variant="h6" component="h2">
                Your plan
              </Typography>
              <Chip label={ws.tier.title} color="primary" size="small" data-testid="plan-chip" />
            </Stack>
            <Box
              sx={{ display: "grid", gap: 1, gridTemplateColumns: { xs: "1fr", sm: "1fr 1fr", lg: "repeat(4, 1fr)" } }}
            >
              {(Object.keys(FEATURES) as Feature[]).map((f) => {
                const has = included.has(f);
                return (
                  <Stack
                    key={f}
                    direction="row"
                    spacing={1}
                    sx={{ alignItems: "center", color: has ? "text.primary" : "text.disabled" }}
                  >
                    {has ? <CheckCircleOutlined color="success" fontSize="small" /> : <LockOutlined fontSize="small" />}
                    <Typography variant="body2">
                      {FEATURES[f]}
                      {!has && ` — ${lowestTierWith(f).title}`}
                    </Typography>
                  </Stack>
                );
              })}
            </Box>
          </CardContent>
        </Card>
      )}
    </Stack>
  );
}

const RECORDS_OPEN = "workmetrics.homeRecordsOpen";

// Issue 21 §1: a home shows the member's work first; the count of every table they read is one click away (open
// at once for a member whose work has no figures), and stays as they left it.
function AllRecords({
  hasFigures,
  counts,
  base,
}: {
  hasFigures: boolean;
  counts: Record<string, number> | undefined;
  base: string;
}) {
  const [open, setOpen] = useState<boolean | null>(() => {
    const kept = localStorage.getItem(RECORDS_OPEN);
    return kept === null ? null : kept === "true";
  });
  const expanded = open ?? !hasFigures;
  return (
    <Accordion
      disableGutters
      variant="outlined"
      expanded={expanded}
      onChange={(_e, next) => {
        localStorage.setItem(RECORDS_OPEN, String(next));
        setOpen(next);
      }}
      sx={{ bgcolor: "transparent", "&::before": { display: "none" } }}
    >
      <AccordionSummary expandIcon={<ExpandMoreOutlined />}>
        <Typography variant="h6" component="h2">
          All records
        </Typography>
      </AccordionSummary>
      <AccordionDetails>
        <SummaryCards counts={counts} base={base} />
      </AccordionDetails>
    </Accordion>
  );
}
