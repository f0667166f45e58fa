import EmojiEventsOutlined from "@mui/icons-material/EmojiEventsOutlined";
import Box from "@mui/material/Box";
import Card from "@mui/material/Card";
import CardActionArea from "@mui/material/CardActionArea";
import LinearProgress from "@mui/material/LinearProgress";
import Typography from "@mui/material/Typography";
import { formatMoney } from "@workmetrics/domain/money";
import { Link as RouterLink } from "react-router";
import { useDecision } from "../../platform/resource/access.ts";
import { useViewer } from "../../platform/session/viewer.tsx";
import { useChallenges } from "../challenge/api.ts";

// Issue 21 §1 "Homes by role": a salesperson's month against target — each running team challenge they take part in,
// with where they stand. Shown only to a member who may read team challenges (HR feature), and only when they are in one.
export function MyChallenges({ base, userId }: { base: string; userId: string }) {
  const may = useDecision({
    audience: "member",
    permission: "team_challenge.read",
    feature: "hr",
    does: "read team challenges",
    subject: "Team challenges",
  }).allowed;
  const { currency } = useViewer();
  const challenges = useChallenges(may);
  const mine = (challenges.data ?? [])
    .filter((c) => c.state === "running")
    .map((c) => ({ c, me: c.leaderboard.find((r) => r.user_id === userId) }))
    .filter((x): x is { c: (typeof x)["c"]; me: NonNullable<(typeof x)["me"]> } => Boolean(x.me));
  if (!mine.length) return null;
  return (
    <Box component="section" aria-label="Your targets">
      <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
        Your targets
      </Typography>
      <Box sx={{ display: "grid", gap: 2, gridTemplateColumns: { xs: "1fr", md: "repeat(2, 1fr)" } }}>
        {mine.map(({ c, me }) => {
          const money = c.metric.endsWith("_sum");
          const show = (v: string) => (money ? formatMoney(v, currency) : Number(v).toLocaleString());
          const percent = me.percent === null ? null : Number(me.percent);
          return (
            <Card key={c.id} variant="outlined">
              <CardActionArea component={RouterLink} to={`${base}/team-challenge`} sx={{ p: 2 }}>
                <Box sx={{ display: "flex", gap: 1, alignItems: "center" }}>
                  <EmojiEventsOutlined color={me.badge ? "warning" : "primary"} fontSize="small" />
                  <Typography sx={{ fontWeight: 600 }}>{c.name}</Typography>
                  <Typography variant="body2" color="text.secondary" sx={{ ml: "auto" }}>
                    #{me.rank} of {c.leaderboard.length} · ends {c.end_date.split("-").reverse().join("/")}
                  </Typography>
                </Box>
                <Typography variant="h6" component="p" data-testid={`target-${c.id}`}>
                  {show(me.value)}
                  {me.target !== null && (
                    <Typography component="span" color="text.secondary">
                      {" "}
                      of {show(me.target)}
                      {percent !== null && ` (${Math.round(percent)}%)`}
                    </Typography>
                  )}
                </Typography>
                {percent !== null && (
                  <LinearProgress
                    variant="determinate"
                    value={Math.min(100, percent)}
                    color={percent >= 100 ? "success" : "primary"}
                    aria-label={`${c.name}: ${Math.round(percent)}% of target`}
                    sx={{ mt: 1, height: 8, borderRadius: 4 }}
                  />
                )}
              </CardActionArea>
            </Card>
          );
        })}
      </Box>
    </Box>
  );
}
