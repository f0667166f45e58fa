import CheckCircleOutline from "@mui/icons-material/CheckCircleOutlineOutlined";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Paper from "@mui/material/Paper";
import Skeleton from "@mui/material/Skeleton";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import { FEATURES, type Feature, formatPrice, userRangeLabel, yearlySavingPercent } from "@workmetrics/domain";
import { AppLink } from "../app/links.tsx";
import { type PublicTier, useTiers } from "./queries.ts";

export type Cycle = "monthly" | "yearly";

// Each tier lists only what it adds over the one below, as pricing pages usually do.
function addedFeatures(tiers: PublicTier[], index: number): string[] {
  const below = index > 0 ? new Set(tiers[index - 1].features) : new Set<string>();
  return tiers[index].features.filter((f) => !below.has(f));
}

export function TierCards({ cycle }: { cycle: Cycle }) {
  const { data, isPending, isError, refetch } = useTiers();
  if (isError)
    return (
      <Stack direction="row" role="alert" spacing={2} sx={{ alignItems: "center", color: "error.main" }}>
        <Typography>We could not load our plans. Please try again.</Typography>
        <Button onClick={() => refetch()}>Retry</Button>
      </Stack>
    );
  if (isPending)
    return (
      <Stack direction={{ xs: "column", md: "row" }} spacing={3}>
        {[0, 1, 2].map((i) => (
          <Skeleton key={i} variant="rounded" height={420} sx={{ flex: 1 }} />
        ))}
      </Stack>
    );
  return (
    <Box sx={{ display: "grid", gap: 3, gridTemplateColumns: { xs: "1fr", md: "repeat(3, 1fr)" } }}>
      {data.map((tier, i) => {
        const featured = tier.slug === "pro";
        const price = cycle === "monthly" ? tier.monthlyPrice : tier.yearlyPrice;
        const saving = yearlySavingPercent(tier.monthlyPrice, tier.yearlyPrice);
        return (
          <Paper
            key={tier.id}
            data-testid={`tier-${tier.slug}`}
            variant="outlined"
            sx={{
              display: "flex",
              flexDirection: "column",
              gap: 2,
              p: 3,
              borderWidth: featured ? 2 : 1,
              borderColor: featured ? "primary.main" : "divider",
            }}
          >
            <Stack direction="row" sx={{ alignItems: "center", justifyContent: "space-between" }}>
              <Typography variant="h5" component="h3" sx={{ fontWeight: 700 }}>
                {tier.title}
              </Typography>
              {featured && <Badge>Most popular</Badge>}
            </Stack>
            <Box>
              <Typography component="p" sx={{ fontSize: 40, fontWeight: 700, lineHeight: 1.1 }}>
                <Box component="span" sx={{ fontSize: 20, verticalAlign: "top", mr: 0.5 }}>
                  S$
                </Box>
                <span data-testid={`price-${tier.slug}`}>{formatPrice(price)}</span>
              </Typography>
              <Typography variant="body2" color="text.secondary">
                per workspace / {cycle === "monthly" ? "month" : "year"}
                {cycle === "yearly" && saving > 0 && ` · save ${saving}% on 12 months`}
                {cycle === "yearly" && saving === 0 && " · billed once a year"}
              </Typography>
            </Box>
            <Typography variant="body2" sx={{ fontWeight: 600 }}>
              {userRangeLabel(tier)}
            </Typography>
            <Box>
              {i > 0 && (
                <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
                  Everything in {data[i - 1].title}, plus:
                </Typography>
              )}
              <Stack
                component="ul"
                spacing={1}
                aria-label={`${tier.title} features`}
                sx={{ m: 0, p: 0, listStyle: "none" }}
              >
                {addedFeatures(data, i).map((f) => (
                  <Stack component="li" key={f} direction="row" spacing={1.5} sx={{ alignItems: "center" }}>
                    <CheckCircleOutline color="primary" fontSize="small" />
                    <Typography variant="body2">{FEATURES[f as Feature] ?? f}</Typography>
                  </Stack>
                ))}
              </Stack>
            </Box>
            <Box sx={{ flex: 1 }} />
            <Button
              variant={featured ? "contained" : "outlined"}
              component={AppLink}
              to={`/pricing/signup?plan=${tier.slug}&cycle=${cycle}`}
              size="large"
            >
              Start with {tier.title}
            </Button>
            <Button component={AppLink} to={`/book-a-demo?plan=${tier.slug}`} size="small">
              or book a demo first
            </Button>
          </Paper>
        );
      })}
    </Box>
  );
}

// The "Most popular" mark: a plain label, so the pricing cards need no Chip (its code is not landing-page code).
function Badge({ children }: { children: string }) {
  return (
    <Typography
      component="span"
      variant="caption"
      sx={{
        px: 1.25,
        py: 0.25,
        borderRadius: 4,
        bgcolor: "primary.main",
        color: "primary.contrastText",
        fontWeight: 600,
      }}
    >
      {children}
    </Typography>
  );
}
