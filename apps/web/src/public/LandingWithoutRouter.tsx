import { lazy, Suspense } from "react";
import { FullScreenSpinner } from "../app/FullScreenSpinner.tsx";
import { Shell } from "../app/Shell.tsx";
import { PublicLayout } from "./PublicLayout.tsx";

const Landing = lazy(() => import("./Landing.tsx"));

// The landing page as the router would draw it (router.tsx: PublicLayout, then Landing), without the router.
export function LandingWithoutRouter() {
  return (
    <Shell>
      <PublicLayout>
        <Suspense fallback={<FullScreenSpinner />}>
          <Landing />
        </Suspense>
      </PublicLayout>
    </Shell>
  );
}
