import CssBaseline from "@mui/material/CssBaseline";
import { ThemeProvider } from "@mui/material/styles";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { type ReactNode, useMemo } from "react";
import { PreferencesProvider, usePreferences } from "./preferences.tsx";
import { buildTheme } from "./theme.ts";

// DESIGN §2.4: cache 5 min, 3 retries with backoff capped at 30 s, no refetch on focus. One client for the page's
// life: the landing page opened without the router (main.tsx) hands its answers on to the app that replaces it.
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      gcTime: 5 * 60_000,
      retry: 3,
      retryDelay: (attempt) => Math.min(1000 * 2 ** attempt, 30_000),
      refetchOnWindowFocus: false,
    },
  },
});

function Themed({ children }: { children: ReactNode }) {
  const { preferences, resolvedMode } = usePreferences();
  const theme = useMemo(
    () =>
      buildTheme({ mode: resolvedMode, direction: preferences.direction, responsive: preferences.responsiveFontSizes }),
    [resolvedMode, preferences.direction, preferences.responsiveFontSizes],
  );
  return (
    <ThemeProvider theme={theme}>
      <CssBaseline enableColorScheme />
      {children}
    </ThemeProvider>
  );
}

// What every page stands in: the query cache, the user's preferences and the theme they make.
export function Shell({ children }: { children: ReactNode }) {
  return (
    <QueryClientProvider client={queryClient}>
      <PreferencesProvider>
        <Themed>{children}</Themed>
      </PreferencesProvider>
    </QueryClientProvider>
  );
}
