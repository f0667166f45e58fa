import { stripWorkspacePrefix } from "@workmetrics/domain";
import { lazy, type ReactNode, Suspense } from "react";
import { createBrowserRouter, type RouteObject } from "react-router";
import { PublicLayout } from "../public/PublicLayout.tsx";
import { FullScreenSpinner } from "./FullScreenSpinner.tsx";
import { type AppModule, MODULES, preloadResourcePages } from "./modules.ts";

const Landing = lazy(() => import("../public/Landing.tsx"));
const Pricing = lazy(() => import("../public/Pricing.tsx"));
const BookDemo = lazy(() => import("../public/BookDemo.tsx"));
const Privacy = lazy(() => import("../public/Privacy.tsx"));
const Signup = lazy(() => import("../public/Signup.tsx"));
const Login = lazy(() => import("../auth/Login.tsx"));
const Recover = lazy(() => import("../auth/Recover.tsx"));
const Reset = lazy(() => import("../auth/Reset.tsx"));
const Success = lazy(() => import("../auth/Success.tsx"));
const Unauthorized = lazy(() => import("../auth/Unauthorized.tsx"));
const SessionRoot = lazy(() => import("./session/SessionRoot.tsx"));
const DashboardRoot = lazy(() => import("./shell/DashboardRoot.tsx"));
const NotFound = lazy(() => import("./NotFound.tsx"));

// Lazy so the public pages' bundle does not carry the session (supabase-js) that ModuleScope reads.
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

// Spec §2: public pages load no user; /auth and /dashboard share one session.
const children: RouteObject[] = [
  {
    element: <PublicLayout />,
    children: [
      { index: true, element: page(<Landing />) },
      { path: "pricing", element: page(<Pricing />) },
      { path: "pricing/signup", element: page(<Signup />) },
      { path: "book-a-demo", element: page(<BookDemo />) },
      { path: "privacy", element: page(<Privacy />) },
    ],
  },
  {
    element: page(<SessionRoot />),
    children: [
      {
        path: "auth",
        children: [
          { path: "login", element: page(<Login />) },
          { path: "recover", element: page(<Recover />) },
          { path: "reset", element: page(<Reset />) },
          { path: "success", element: page(<Success />) },
          { path: "unauthorized", element: page(<Unauthorized />) },
        ],
      },
      {
        path: "dashboard",
        element: page(<DashboardRoot />),
        children: [...MODULES.map(moduleRoute), { path: "*", element: <NotFound /> }],
      },
    ],
  },
];

export const routes: RouteObject[] = [
  { path: "/", children },
  // DESIGN §3.3: /_workspaces/{slug}/… reaches the same pages on any host.
  { path: "/_workspaces/:workspace", children },
  { path: "*", element: page(<NotFound />) },
];

// A resource page opened directly starts loading its code now, alongside the session, not after it.
const opened = stripWorkspacePrefix(window.location.pathname);
if (
  MODULES.some((m) => m.resource && (opened === `/dashboard/${m.path}` || opened.startsWith(`/dashboard/${m.path}/`)))
) {
  preloadResourcePages();
}

export const router = createBrowserRouter(routes);
