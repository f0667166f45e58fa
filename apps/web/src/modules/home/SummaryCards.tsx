import Box from "@mui/material/Box";
import Card from "@mui/material/Card";
import CardActionArea from "@mui/material/CardActionArea";
import Skeleton from "@mui/material/Skeleton";
import Typography from "@mui/material/Typography";
import { Link as RouterLink } from "react-router";
import { MODULES } from "../../app/modules.ts";
import { formatNumber } from "../../platform/fields/format.ts";
import { useMember } from "../../platform/resource/access.ts";

// One card per resource the user may read, with its count, linking to its list.
export function SummaryCards({ counts, base }: { counts: Record<string, number> | undefined; base: string }) {
  const who = useMember();
  // The modules this member opens (the same rule as the navigation), with a count the summary gave.
  const shown = MODULES.filter((m) => m.resource && !m.hidden && m.access(who).allowed)
    .map((m) => ({ m, def: m.resource }))
    .filter(({ def }) => def && (counts === undefined || def.name in counts));
  return (
    <Box
      component="ul"
      aria-label="Records in your workspace"
      sx={{
        listStyle: "none",
        p: 0,
        m: 0,
        display: "grid",
        gap: 2,
        gridTemplateColumns: { xs: "repeat(2, 1fr)", sm: "repeat(3, 1fr)", lg: "repeat(5, 1fr)" },
      }}
    >
      {shown.map(({ m, def }) => {
        const Icon = m.icon;
        const n = def ? counts?.[def.name] : undefined;
        return (
          <li key={m.path}>
            <Card variant="outlined" sx={{ height: "100%" }}>
              <CardActionArea component={RouterLink} to={`${base}/${m.path}`} sx={{ p: 2, height: "100%" }}>
                <Icon color="primary" fontSize="small" />
                <Typography
                  variant="h5"
                  component="p"
                  sx={{ fontWeight: 600, mt: 0.5 }}
                  data-testid={`count-${m.path}`}
                >
                  {n === undefined ? <Skeleton width={48} /> : formatNumber(n)}
                </Typography>
                <Typography variant="body2" color="text.secondary">
                  {m.title}
                </Typography>
              </CardActionArea>
            </Card>
          </li>
        );
      })}
    </Box>
  );
}
