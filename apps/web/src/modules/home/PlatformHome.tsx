import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Card from "@mui/material/Card";
import CardContent from "@mui/material/CardContent";
import Skeleton from "@mui/material/Skeleton";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import { useQuery } from "@tanstack/react-query";
import { Link as RouterLink } from "react-router";
import { useSession } from "../../app/session/SessionProvider.tsx";
import { apiFetch } from "../../platform/api.ts";
import { formatDate, formatNumber } from "../../platform/fields/format.ts";
import { useErrorToast } from "../../platform/resource/hooks.ts";
import { useDashboardBase } from "../../platform/resource/paths.ts";

type PlatformSummary = {
  tiers: Array<{ id: number; title: string; workspaces: number }>;
  signups: { last7: number; last30: number; total: number };
  demo_requests: {
    open: number;
    oldest: Array<{ id: number; name: string; company_name: string; created_at: string }>;
  };
};

function Figure({ label, value, testId }: { label: string; value: number | undefined; testId: string }) {
  return (
    <Card variant="outlined">
      <CardContent>
        <Typography variant="body2" color="text.secondary">
          {label}
        </Typography>
        <Typography variant="h4" component="p" sx={{ fontWeight: 600 }} data-testid={testId}>
          {value === undefined ? <Skeleton width={60} /> : formatNumber(value)}
        </Typography>
      </CardContent>
    </Card>
  );
}

// The platform operator's home (issue 9): the platform's own figures, not a workspace's.
export function PlatformHome() {
  const { session } = useSession();
  const base = useDashboardBase();
  const summary = useQuery({
    queryKey: ["platform-summary"],
    queryFn: () =>
      apiFetch<PlatformSummary>("/api/platform/summary", {
        headers: { authorization: `Bearer ${session?.access_token}` },
      }),
    enabled: Boolean(session),
    staleTime: 30_000,
  });
  useErrorToast(summary.error);
  const data = summary.data;
  return (
    <Stack spacing={3}>
      <Box
        component="section"
        aria-label="Workspaces by plan"
        sx={{ display: "grid", gap: 2, gridTemplateColumns: { xs: "1fr 1fr", md: "repeat(4, 1fr)" } }}
      >
        {(
          data?.tiers ?? [
            { id: 10, title: "Lite" },
            { id: 11, title: "Pro" },
            { id: 12, title: "Premium" },
          ]
        ).map((t) => (
          <Figure
            key={t.id}
            label={`${t.title} workspaces`}
            value={"workspaces" in t ? t.workspaces : undefined}
            testId={`tier-${t.title.toLowerCase()}`}
          />
        ))}
        <Figure label="Sign-ups in the last 30 days" value={data?.signups.last30} testId="signups-30" />
      </Box>
      <Card variant="outlined">
        <CardContent>
          <Stack direction="row" sx={{ alignItems: "center", mb: 1 }}>
            <Typography variant="h6" component="h2" sx={{ flex: 1 }}>
              Demo requests to answer
              {data ? ` (${data.demo_requests.open})` : ""}
            </Typography>
            <Button component={RouterLink} to={`${base}/demo-requests`}>
              Open all
            </Button>
          </Stack>
          {data && data.demo_requests.open === 0 && (
            <Typography color="text.secondary">Every demo request has been answered.</Typography>
          )}
          <Stack component="ul" spacing={1} sx={{ listStyle: "none", p: 0, m: 0 }}>
            {data?.demo_requests.oldest.map((r) => (
              <li key={r.id}>
                <Button component={RouterLink} to={`${base}/demo-requests/${r.id}`} sx={{ textTransform: "none" }}>
                  {r.company_name} — {r.name}, asked {formatDate(r.created_at)}
                </Button>
              </li>
            ))}
          </Stack>
        </CardContent>
      </Card>
    </Stack>
  );
}
