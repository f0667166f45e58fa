import CssBaseline from "@mui/material/CssBaseline";
import { ThemeProvider } from "@mui/material/styles";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { isPublicPath } from "@workmetrics/domain";
import { lazy, Suspense, useEffect, useMemo, useState } from "react";
import { RouterProvider } from "react-router";
import { PreferencesProvider, usePreferences } from "./preferences.tsx";
import { router } from "./router.tsx";
import { buildTheme } from "./theme.ts";

const Toaster = lazy(() => import("./Toaster.tsx"));

// DESIGN §2.4: cache 5 min, 3 retries with backoff capped at 30 s, no refetch on focus.
const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      gcTime: 5 * 60_000,
      retry: 3,
      retryDelay: (attempt) => Math.min(1000 * 2 ** attempt, 30_000),
      refetchOnWindowFocus: false,
    },
  },
});

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

function Themed() {
  const { preferences, resolvedMode } = usePreferences();
  const theme = useMemo(
    () =>
      buildTheme({ mode: resolvedMode, direction: preferences.direction, responsive: preferences.responsiveFontSizes }),
    [resolvedMode, preferences.direction, preferences.responsiveFontSizes],
  );
  const toasterWanted = useToasterWanted();
  return (
    <ThemeProvider theme={theme}>
      <CssBaseline enableColorScheme />
      <RouterProvider router={router} />
      {toasterWanted && (
        <Suspense fallback={null}>
          <Toaster />
        </Suspense>
      )}
    </ThemeProvider>
  );
}

export function App() {
  return (
    <QueryClientProvider client={queryClient}>
      <PreferencesProvider>
        <Themed />
      </PreferencesProvider>
    </QueryClientProvider>
  );
}
