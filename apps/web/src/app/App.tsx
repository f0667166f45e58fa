import CssBaseline from "@mui/material/CssBaseline";
import { ThemeProvider } from "@mui/material/styles";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { TOAST_DURATION } from "@workmetrics/domain";
import { useMemo } from "react";
import { Toaster } from "react-hot-toast";
import { RouterProvider } from "react-router";
import { PreferencesProvider, usePreferences } from "./preferences.tsx";
import { router } from "./router.tsx";
import { buildTheme } from "./theme.ts";

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

function Themed() {
  const { preferences, resolvedMode } = usePreferences();
  const theme = useMemo(
    () =>
      buildTheme({ mode: resolvedMode, direction: preferences.direction, responsive: preferences.responsiveFontSizes }),
    [resolvedMode, preferences.direction, preferences.responsiveFontSizes],
  );
  return (
    <ThemeProvider theme={theme}>
      <CssBaseline enableColorScheme />
      <RouterProvider router={router} />
      <Toaster
        position="top-right"
        toastOptions={{
          duration: TOAST_DURATION.blank,
          success: { duration: TOAST_DURATION.success },
          error: { duration: TOAST_DURATION.error },
          loading: { duration: TOAST_DURATION.loading },
          style: { background: theme.palette.background.paper, color: theme.palette.text.primary },
        }}
      />
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
