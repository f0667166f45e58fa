import EmojiEventsOutlined from "@mui/icons-material/EmojiEventsOutlined";
import Avatar from "@mui/material/Avatar";
import Box from "@mui/material/Box";
import LinearProgress from "@mui/material/LinearProgress";
import Stack from "@mui/material/Stack";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import Tooltip from "@mui/material/Tooltip";
import Typography from "@mui/material/Typography";
import { formatMoney } from "@workmetrics/domain";
import { type ChallengeView, isCountMetric, type LeaderboardRow } from "@workmetrics/domain/resources/challenge";
import { useEffect, useRef, useState } from "react";

// One challenge's leaderboard: rank (a medal for the top three), who, how much, their target and how far along.
// A row whose value changed since the last reading is lit for a moment, so a live update is seen.

export const MEDALS: Record<number, { label: string; color: string }> = {
  1: { label: "Gold", color: "#d4a017" },
  2: { label: "Silver", color: "#9ea7b0" },
  3: { label: "Bronze", color: "#b87333" },
};

export function formatValue(metric: string, value: string | null, currency: string): string {
  if (value == null) return "—";
  return isCountMetric(metric) ? String(Number(value)) : formatMoney(value, currency);
}

const initials = (name: string) =>
  name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((w) => w[0]?.toUpperCase())
    .join("");

function hue(text: string): number {
  let h = 0;
  for (const c of text) h = (h * 31 + c.charCodeAt(0)) % 360;
  return h;
}

export function PersonAvatar({ name, size = 32 }: { name: string; size?: number }) {
  return (
    <Avatar sx={{ width: size, height: size, fontSize: size * 0.42, bgcolor: `hsl(${hue(name)} 45% 45%)` }}>
      {initials(name)}
    </Avatar>
  );
}

export function Medal({ place, awarded }: { place: number; awarded: boolean }) {
  const m = MEDALS[place];
  if (!m) return null;
  return (
    <Tooltip title={awarded ? `${m.label} badge` : `${m.label} so far`}>
      <EmojiEventsOutlined sx={{ color: m.color, fontSize: 22 }} aria-label={awarded ? `${m.label} badge` : m.label} />
    </Tooltip>
  );
}

function useChangedRows(rows: LeaderboardRow[]): Set<string> {
  const previous = useRef<Map<string, string> | null>(null);
  const [lit, setLit] = useState<Set<string>>(new Set());
  useEffect(() => {
    const before = previous.current;
    const now = new Map(rows.map((r) => [r.user_id, r.value]));
    previous.current = now;
    if (!before) return;
    const changed = new Set([...now].filter(([id, v]) => before.has(id) && before.get(id) !== v).map(([id]) => id));
    if (changed.size === 0) return;
    setLit(changed);
    const t = setTimeout(() => setLit(new Set()), 2500);
    return () => clearTimeout(t);
  }, [rows]);
  return lit;
}

export function Leaderboard({ challenge, currency }: { challenge: ChallengeView; currency: string }) {
  const rows = challenge.leaderboard;
  const lit = useChangedRows(rows);
  const finished = challenge.state === "finished";
  if (rows.length === 0) {
    return (
      <Typography color="text.secondary" sx={{ py: 2 }}>
        Nobody takes part yet: the participants' roles have no active users.
      </Typography>
    );
  }
  return (
    <Table size="small" aria-label={`Leaderboard of ${challenge.name}`}>
      <TableHead>
        <TableRow>
          <TableCell sx={{ width: 64 }}>Rank</TableCell>
          <TableCell>Participant</TableCell>
          <TableCell align="right">{isCountMetric(challenge.metric) ? "Count" : "Value"}</TableCell>
          <TableCell align="right" sx={{ display: { xs: "none", sm: "table-cell" } }}>
            Target
          </TableCell>
          <TableCell sx={{ width: { xs: 90, md: 200 } }}>Progress</TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {rows.map((r) => {
          const pct = r.percent == null ? null : Number(r.percent);
          const medal = finished ? r.badge : Number(r.value) > 0 && r.rank <= 3 ? r.rank : null;
          return (
            <TableRow
              key={r.user_id}
              data-user={r.email}
              sx={{
                transition: "background-color 600ms",
                bgcolor: lit.has(r.user_id) ? "rgba(54, 161, 207, 0.18)" : undefined,
              }}
            >
              <TableCell>
                <Stack direction="row" spacing={0.5} sx={{ alignItems: "center" }}>
                  <Typography variant="body2" sx={{ fontWeight: 600, minWidth: 16 }}>
                    {r.rank}
                  </Typography>
                  {medal ? <Medal place={medal} awarded={finished} /> : null}
                </Stack>
              </TableCell>
              <TableCell>
                <Stack direction="row" spacing={1.5} sx={{ alignItems: "center" }}>
                  <PersonAvatar name={r.name} />
                  <Box sx={{ minWidth: 0 }}>
                    <Typography variant="body2" noWrap>
                      {r.name}
                    </Typography>
                    <Typography variant="caption" color="text.secondary" noWrap>
                      {r.documents} document{r.documents === 1 ? "" : "s"}
                    </Typography>
                  </Box>
                </Stack>
              </TableCell>
              <TableCell align="right" sx={{ fontVariantNumeric: "tabular-nums", fontWeight: 600 }}>
                {formatValue(challenge.metric, r.value, currency)}
              </TableCell>
              <TableCell
                align="right"
                sx={{ fontVariantNumeric: "tabular-nums", display: { xs: "none", sm: "table-cell" } }}
              >
                {formatValue(challenge.metric, r.target, currency)}
              </TableCell>
              <TableCell>
                {pct == null ? (
                  <Typography variant="caption" color="text.secondary">
                    No target
                  </Typography>
                ) : (
                  <Stack direction="row" spacing={1} sx={{ alignItems: "center" }}>
                    <LinearProgress
                      variant="determinate"
                      value={Math.min(100, pct)}
                      color={pct >= 100 ? "success" : "primary"}
                      sx={{ flex: 1, height: 8, borderRadius: 4 }}
                      aria-label={`${r.name}: ${pct}% of target`}
                    />
                    <Typography variant="caption" sx={{ minWidth: 44, textAlign: "right" }}>
                      {pct.toFixed(0)}%
                    </Typography>
                  </Stack>
                )}
              </TableCell>
            </TableRow>
          );
        })}
      </TableBody>
    </Table>
  );
}
