import { createContext, type ReactNode, useContext } from "react";
import { useDashboardBase } from "../../platform/resource/paths.ts";
import { ResourceRouteProvider } from "../../platform/resource/route-context.ts";
import { useViewer } from "../../platform/session/viewer.tsx";
import { RefusalPage } from "../../platform/ui/GatePage.tsx";
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
  const current = useSession().dbUser?.profile?.workspace.tier.title;
  let page = children;
  if (!decision.allowed) {
    page = <RefusalPage subject={module.title} refusal={decision} home={home} current={current} />;
  }
  return (
    <ModuleCtx.Provider value={module}>
      <ResourceRouteProvider value={module.resource ? module.path : null}>{page}</ResourceRouteProvider>
    </ModuleCtx.Provider>
  );
}
