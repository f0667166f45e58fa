import { isPublicPath } from "@workmetrics/domain";
import { lazy, Suspense, useEffect, useState } from "react";
import { Link, RouterProvider, useSearchParams } from "react-router";
import { type Navigation, NavigationProvider } from "./links.tsx";
import { router } from "./router.tsx";
import { Shell } from "./Shell.tsx";

const Toaster = lazy(() => import("./Toaster.tsx"));

// The pages' links and query under React Router (links.tsx).
const routed: Navigation = {
  Link: (props) => <Link {...props} />,
  useSearchParams: () => useSearchParams()[0],
};

// The public pages toast only after the visitor acts (a sent form), so there the toaster's code waits for the
// first tap or key press; any other page may toast on arrival. A toast raised first still shows once it mounts.
function useToasterWanted(): boolean {
  const [wanted, setWanted] = useState(() => !isPublicPath(router.state.location.pathname));
  useEffect(() => {
    if (wanted) return;
    const want = () => setWanted(true);
    const events = ["pointerdown", "keydown"] as const;
    for (const e of events) window.addEventListener(e, want, { capture: true, once: true });
    const unsubscribe = router.subscribe((state) => {
      if (!isPublicPath(state.location.pathname)) want();
    });
    return () => {
      for (const e of events) window.removeEventListener(e, want, { capture: true });
      unsubscribe();
    };
  }, [wanted]);
  return wanted;
}

function Routed() {
  const toasterWanted = useToasterWanted();
  return (
    <NavigationProvider value={routed}>
      <RouterProvider router={router} />
      {toasterWanted && (
        <Suspense fallback={null}>
          <Toaster />
        </Suspense>
      )}
    </NavigationProvider>
  );
}

export function App() {
  return (
    <Shell>
      <Routed />
    </Shell>
  );
}
