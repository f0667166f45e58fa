import { lazy, type ReactNode, Suspense } from "react";
import type { RouteObject } from "react-router";
import { FullScreenSpinner } from "./FullScreenSpinner.tsx";
import { type AppModule, MODULES, preloadResourcePages } from "./modules.ts";

// The dashboard's routes, built from the module registry (with its icons). The router adds them when a /dashboard
// address is first opened, so the public pages' first bundle carries none of this.
const DashboardRoot = lazy(() => import("./shell/DashboardRoot.tsx"));
const NotFound = lazy(() => import("./NotFound.tsx"));
// Lazy so the dashboard's routes do not carry the session (supabase-js) that ModuleScope reads.
const ModuleScope = lazy(() => import("./shell/ModuleScope.tsx").then((m) => ({ default: m.ModuleScope })));

const page = (node: ReactNode) => <Suspense fallback={<FullScreenSpinner />}>{node}</Suspense>;

// A module's pages share its scope (tier gate, which module this is); child pages sit under its path.
function moduleRoute(m: AppModule): RouteObject {
  const Component = m.component;
  // Keyed by module: the same generic page on another resource must start afresh, not keep the last one's state.
  const scoped = (node: ReactNode) => (
    <ModuleScope key={m.path} module={m}>
      {node}
    </ModuleScope>
  );
  if (m.path === "") return { index: true, element: scoped(<Component />) };
  return {
    path: m.path,
    children: [
      { index: true, element: scoped(<Component />) },
      ...(m.children ?? []).map(({ path, component: Child }) => ({ path, element: scoped(<Child />) })),
    ],
  };
}

export function dashboardRoute(): RouteObject {
  return {
    path: "dashboard",
    element: page(<DashboardRoot />),
    children: [...MODULES.map(moduleRoute), { path: "*", element: <NotFound /> }],
  };
}

// A resource page opened directly starts loading its code now, alongside the session, not after it.
export function preloadPagesFor(path: string): void {
  if (
    MODULES.some((m) => m.resource && (path === `/dashboard/${m.path}` || path.startsWith(`/dashboard/${m.path}/`)))
  ) {
    preloadResourcePages();
  }
}
