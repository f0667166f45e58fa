import LockOutlined from "@mui/icons-material/LockOutlined";
import Button from "@mui/material/Button";
import Card from "@mui/material/Card";
import CardContent from "@mui/material/CardContent";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import { FEATURES, lowestTierWith } from "@workmetrics/domain";
import { createContext, type ReactNode, useContext } from "react";
import { Link as RouterLink } from "react-router";
import type { AppModule } from "../modules.ts";
import { useSession } from "../session/SessionProvider.tsx";
import { usePageTitle } from "../usePageTitle.ts";

const ModuleCtx = createContext<AppModule | null>(null);

// The module a page was routed through, so one generic page can serve every resource (STYLE: one list page).
export function useModule(): AppModule {
  const m = useContext(ModuleCtx);
  if (!m) throw new Error("useModule outside a module route");
  return m;
}

// Spec §9 tier gating: a module whose feature the workspace's tier lacks shows how to get it instead.
export function ModuleScope({ module, children }: { module: AppModule; children: ReactNode }) {
  const { dbUser } = useSession();
  const features = dbUser?.profile?.workspace.tier.features ?? [];
  const locked = module.feature !== undefined && !features.includes(module.feature);
  return <ModuleCtx.Provider value={module}>{locked ? <UpgradeCard module={module} /> : children}</ModuleCtx.Provider>;
}

function UpgradeCard({ module }: { module: AppModule }) {
  usePageTitle(module.title);
  const { dbUser } = useSession();
  const feature = module.feature as NonNullable<AppModule["feature"]>;
  const tier = lowestTierWith(feature);
  const current = dbUser?.profile?.workspace.tier.title;
  return (
    <Card variant="outlined" sx={{ maxWidth: 560, mx: "auto", mt: { xs: 2, md: 6 } }}>
      <CardContent sx={{ p: 4 }}>
        <Stack spacing={2} sx={{ alignItems: "flex-start" }}>
          <LockOutlined color="primary" sx={{ fontSize: 40 }} />
          <Typography variant="h5" component="h1">
            {module.title} needs the {tier.title} plan
          </Typography>
          <Typography color="text.secondary">
            {FEATURES[feature]} is included from the {tier.title} plan
            {current ? `; your workspace is on ${current}` : ""}. Upgrade to unlock {module.title.toLowerCase()} for
            everyone in your workspace.
          </Typography>
          <Button variant="contained" component={RouterLink} to="/pricing">
            Compare plans
          </Button>
        </Stack>
      </CardContent>
    </Card>
  );
}
