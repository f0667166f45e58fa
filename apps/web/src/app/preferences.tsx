import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from "react";

// Spec §3: user preferences live in localStorage under `userPreferences`.
export const PREFERENCES_KEY = "userPreferences";
export type ModeSetting = "light" | "dark" | "system";
export type Preferences = {
  mode: ModeSetting;
  isDarkSidebar: boolean;
  direction: "ltr" | "rtl";
  responsiveFontSizes: boolean;
};

export const DEFAULT_PREFERENCES: Preferences = {
  mode: "light",
  isDarkSidebar: false,
  direction: "ltr",
  responsiveFontSizes: true,
};

function readPreferences(): Preferences {
  try {
    const raw = localStorage.getItem(PREFERENCES_KEY);
    if (!raw) return DEFAULT_PREFERENCES;
    const stored = JSON.parse(raw) as Partial<Preferences>;
    return {
      mode: stored.mode === "dark" || stored.mode === "system" ? stored.mode : "light",
      isDarkSidebar: stored.isDarkSidebar === true,
      direction: stored.direction === "rtl" ? "rtl" : "ltr",
      responsiveFontSizes: stored.responsiveFontSizes !== false,
    };
  } catch {
    return DEFAULT_PREFERENCES;
  }
}

function useSystemDark(): boolean {
  const query = "(prefers-color-scheme: dark)";
  const [dark, setDark] = useState(() => window.matchMedia?.(query).matches ?? false);
  useEffect(() => {
    const mq = window.matchMedia?.(query);
    if (!mq) return;
    const onChange = (e: MediaQueryListEvent) => setDark(e.matches);
    mq.addEventListener("change", onChange);
    return () => mq.removeEventListener("change", onChange);
  }, []);
  return dark;
}

type PreferencesContext = {
  preferences: Preferences;
  resolvedMode: "light" | "dark";
  update(patch: Partial<Preferences>): void;
  toggleMode(): void;
};

const Ctx = createContext<PreferencesContext | null>(null);

export function PreferencesProvider({ children }: { children: ReactNode }) {
  const [preferences, setPreferences] = useState(readPreferences);
  const systemDark = useSystemDark();
  const resolvedMode = preferences.mode === "system" ? (systemDark ? "dark" : "light") : preferences.mode;

  const update = useCallback((patch: Partial<Preferences>) => {
    setPreferences((prev) => {
      const next = { ...prev, ...patch };
      localStorage.setItem(PREFERENCES_KEY, JSON.stringify(next));
      return next;
    });
  }, []);
  const toggleMode = useCallback(
    () => update({ mode: resolvedMode === "dark" ? "light" : "dark" }),
    [resolvedMode, update],
  );

  const value = useMemo(
    () => ({ preferences, resolvedMode, update, toggleMode }),
    [preferences, resolvedMode, update, toggleMode],
  );
  return <Ctx.Provider value={value}>{children}</Ctx.Provider>;
}

export function usePreferences(): PreferencesContext {
  const ctx = useContext(Ctx);
  if (!ctx) throw new Error("usePreferences outside PreferencesProvider");
  return ctx;
}
