import { stripWorkspacePrefix, workspaceFromPath } from "@workmetrics/domain";
import { lazy, type ReactNode, Suspense } from "react";
import { createBrowserRouter, Outlet, type PatchRoutesOnNavigationFunction, type RouteObject } from "react-router";
import { PublicLayout } from "../public/PublicLayout.tsx";
import { FullScreenSpinner } from "./FullScreenSpinner.tsx";

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
const Handoff = lazy(() => import("../auth/Handoff.tsx"));
const OrderFormPage = lazy(() => import("../public/OrderFormPage.tsx"));
const SupplierDiscountPage = lazy(() => import("../public/SupplierDiscountPage.tsx"));
const ProjectRegistrationPage = lazy(() => import("../public/ProjectRegistrationPage.tsx"));
const SessionRoot = lazy(() => import("./session/SessionRoot.tsx"));
const NotFound = lazy(() => import("./NotFound.tsx"));
const IncompleteLink = lazy(() => import("../public/IncompleteLink.tsx"));

const page = (node: ReactNode) => <Suspense fallback={<FullScreenSpinner />}>{node}</Suspense>;
const publicPages = (
  <PublicLayout>
    <Outlet />
  </PublicLayout>
);

// Spec §2: public pages load no user; /auth and /dashboard share one session. The dashboard's routes are added
// under the session route the first time a /dashboard address is opened (see patchRoutesOnNavigation below).
function appRoutes(scope: string): RouteObject[] {
  return [
    {
      element: publicPages,
      children: [
        { index: true, element: page(<Landing />) },
        { path: "pricing", element: page(<Pricing />) },
        { path: "pricing/signup", element: page(<Signup />) },
        { path: "book-a-demo", element: page(<BookDemo />) },
        { path: "privacy", element: page(<Privacy />) },
      ],
    },
    // Issue 10 §2: a workspace's public order form, a guest path under /auth (no session, no marketing shell).
    { path: "auth/order-forms/:token", element: page(<OrderFormPage />) },
    // Issue 11: a supplier answers a discount request from its link; anyone registers a project with the workspace.
    { path: "auth/supplier-discount-forms/:token", element: page(<SupplierDiscountPage />) },
    // The spec's route without its token: a link cut short in an e-mail client. Say so, and what to do (issue 21 §1).
    { path: "auth/supplier-discount-forms", element: page(<IncompleteLink what="discount request" />) },
    { path: "auth/project-registrations", element: page(<ProjectRegistrationPage />) },
    {
      id: `${scope}:session`,
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
            { path: "handoff", element: page(<Handoff />) }, // issue 22: signed in from another host
          ],
        },
      ],
    },
  ];
}

// While the dashboard's routes load on a first visit, the address matches only part of the tree: the spinner shows,
// and the Outlet spares React Router's warning about a matched route without an element.
const top = { element: <Outlet />, hydrateFallbackElement: <FullScreenSpinner /> };

export const routes: RouteObject[] = [
  { ...top, path: "/", children: appRoutes("root") },
  // DESIGN §3.3: /_workspaces/{slug}/… reaches the same pages on any host.
  { ...top, path: "/_workspaces/:workspace", children: appRoutes("workspace") },
  { path: "*", element: page(<NotFound />), hydrateFallbackElement: <FullScreenSpinner /> },
];

const isDashboardPath = (path: string) => /^\/dashboard(\/|$)/.test(stripWorkspacePrefix(path));
const loadDashboardRoutes = () => import("./dashboard-routes.tsx");

// Until they are added, a /dashboard address matches only the catch-all, and React Router asks here first.
const patched = new Set<string>();
const patchRoutesOnNavigation: PatchRoutesOnNavigationFunction = async ({ path, patch, signal }) => {
  if (!isDashboardPath(path)) return;
  const parent = workspaceFromPath(path) === null ? "root:session" : "workspace:session";
  if (patched.has(parent)) return;
  const { dashboardRoute } = await loadDashboardRoutes();
  if (signal.aborted || patched.has(parent)) return;
  patch(parent, [dashboardRoute()]);
  patched.add(parent);
};

const opened = window.location.pathname;
if (isDashboardPath(opened)) {
  void loadDashboardRoutes()
    .then((m) => m.preloadPagesFor(stripWorkspacePrefix(opened)))
    .catch(() => undefined);
}

export const router = createBrowserRouter(routes, { patchRoutesOnNavigation });
