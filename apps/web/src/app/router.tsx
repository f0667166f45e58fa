import { lazy, type ReactNode, Suspense } from "react";
import { createBrowserRouter, type RouteObject } from "react-router";
import { PublicLayout } from "../public/PublicLayout.tsx";
import { FullScreenSpinner } from "./FullScreenSpinner.tsx";

const Landing = lazy(() => import("../public/Landing.tsx"));
const Pricing = lazy(() => import("../public/Pricing.tsx"));
const BookDemo = lazy(() => import("../public/BookDemo.tsx"));
const Privacy = lazy(() => import("../public/Privacy.tsx"));
const NotFound = lazy(() => import("./NotFound.tsx"));

const page = (node: ReactNode) => <Suspense fallback={<FullScreenSpinner />}>{node}</Suspense>;

// Spec §2: public pages under one layout; every route split with React.lazy.
const publicRoutes: RouteObject[] = [
  { index: true, element: page(<Landing />) },
  { path: "pricing", element: page(<Pricing />) },
  { path: "book-a-demo", element: page(<BookDemo />) },
  { path: "privacy", element: page(<Privacy />) },
];

export const routes: RouteObject[] = [
  { path: "/", element: <PublicLayout />, children: publicRoutes },
  // DESIGN §3.3: /_workspaces/{slug}/… reaches the same pages on any host.
  { path: "/_workspaces/:workspace", element: <PublicLayout />, children: publicRoutes },
  { path: "*", element: page(<NotFound />) },
];

export const router = createBrowserRouter(routes);
