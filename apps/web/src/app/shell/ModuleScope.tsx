import LockOutlined from "@mui/icons-material/LockOutlined";
import Button from "@mui/material/Button";
import Typography from "@mui/material/Typography";
import { FEATURES, type Refusal } from "@workmetrics/domain";
import { createContext, type ReactNode, useContext } from "react";
import { Link as RouterLink } from "react-router";
import { useDashboardBase } from "../../platform/resource/paths.ts";
import { ResourceRouteProvider } from "../../platform/resource/route-context.ts";
import { useViewer } from "../../platform/session/viewer.tsx";
import { GateCard, RefusedPage } from "../../platform/ui/GatePage.tsx";
import { usePageTitle } from "../../platform/ui/usePageTitle.ts";
import type { AppModule } from "../modules.ts";
import { useSession } from "../session/SessionProvider.tsx";

const ModuleCtx = createContext<AppModule | null>(null);

// The module a page was routed through.
export function useModule(): AppModule {
  const m = useContext(ModuleCtx);
  if (!m) throw new Error("useModule outside a module route");
  return m;
}

// A module's pages open only for who the access rule allows (issue 9): a tier it lacks shows how to get it; any
// other refusal says so plainly, with nothing to act on — never an empty page that looks like missing data.
export function ModuleScope({ module, children }: { module: AppModule; children: ReactNode }) {
  const { member } = useViewer();
  const home = useDashboardBase();
  const decision = module.access(member);
  let page = children;
  if (!decision.allowed) {
    page =
      decision.reason === "tier" ? (
        <UpgradeCard module={module} decision={decision} />
      ) : (
        <RefusedPage subject={module.title} refusal={decision} home={home} />
      );
  }
  return (
    <ModuleCtx.Provider value={module}>
      <ResourceRouteProvider value={module.resource ? module.path : null}>{page}</ResourceRouteProvider>
    </ModuleCtx.Provider>
  );
}

function UpgradeCard({ module, decision }: { module: AppModule; decision: Extract<Refusal, { reason: "tier" }> }) {
  usePageTitle(module.title);
  const { dbUser } = useSession();
  const current = dbUser?.profile?.workspace.tier.title;
  return (
    <GateCard
      icon={<LockOutlined color="primary" sx={{ fontSize: 40 }} />}
      title={`${module.title} needs the ${decision.tierTitle} plan`}
    >
      <Typography color="text.secondary">
        {FEATURES[decision.feature]} is included from the {decision.tierTitle} plan
        {current ? `; your workspace is on ${current}` : ""}. Upgrade to unlock {module.title.toLowerCase()} for
        everyone in your workspace.
      </Typography>
      <Button variant="contained" component={RouterLink} to="/pricing">
        Compare plans
      </Button>
    </GateCard>
  );
}
