// Spec §9 and DESIGN §2.4: the theme's fixed figures.
export const BRAND = { primary: "#36a1cf", secondary: "#134b63" } as const;
export const SURFACES = {
  light: { background: "#fafafa", paper: "#fff" },
  dark: { background: "#111", paper: "#1d1d1f" },
} as const;
export const LAYOUT = { headerHeight: 64, leftAside: 230, rightAside: 440, spacing: 8, radius: 4 } as const;
export const BREAKPOINTS = { xs: 0, sm: 600, md: 830, lg: 1200, xl: 1350, xxl: 1536 } as const;
export const TOAST_DURATION = { blank: 4000, error: 4000, success: 2000, loading: Number.POSITIVE_INFINITY } as const;
export const TOAST_LIMIT = 20;
export const DATE_RANGE = { min: "1900-01-01", max: "2099-12-31" } as const;

// Spec §3: the named workspace colours ("-" means none).
export const WORKSPACE_COLORS = {
  Red: "#d32f2f",
  Blue: "#1976d2",
  Orange: "#ed6c02",
  Green: "#2e7d32",
  Black: "#212121",
  White: "#ffffff",
  Pink: "#d81b60",
  Purple: "#7b1fa2",
} as const;
export type WorkspaceColor = keyof typeof WORKSPACE_COLORS;

export function workspaceColor(name: string | null | undefined): string | null {
  if (!name || name === "-") return null;
  return (WORKSPACE_COLORS as Record<string, string>)[name] ?? null;
}
