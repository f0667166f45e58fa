import { createTheme, responsiveFontSizes, type Theme } from "@mui/material/styles";
import { BRAND, BREAKPOINTS, LAYOUT, SURFACES, workspaceColor } from "@workmetrics/domain";

declare module "@mui/material/styles" {
  interface BreakpointOverrides {
    xxl: true;
  }
}

export type ThemeOptions = {
  mode: "light" | "dark";
  direction: "ltr" | "rtl";
  responsive: boolean;
  primaryColor?: string | null;
  secondaryColor?: string | null;
};

// Spec §9 / DESIGN §2.4; a workspace's named colours override the brand colours.
export function buildTheme(o: ThemeOptions): Theme {
  const primary = workspaceColor(o.primaryColor) ?? BRAND.primary;
  const secondary = workspaceColor(o.secondaryColor) ?? BRAND.secondary;
  const theme = createTheme({
    direction: o.direction,
    breakpoints: { values: BREAKPOINTS },
    spacing: LAYOUT.spacing,
    shape: { borderRadius: LAYOUT.radius },
    palette: {
      mode: o.mode,
      primary: { main: primary, contrastText: "#fff" },
      secondary: { main: o.mode === "dark" && secondary === BRAND.secondary ? "#5fb4d6" : secondary },
      background: { default: SURFACES[o.mode].background, paper: SURFACES[o.mode].paper },
    },
    typography: {
      fontFamily: 'Roboto, "Helvetica Neue", Arial, sans-serif',
      h1: { fontWeight: 700 },
      h2: { fontWeight: 700 },
      h3: { fontWeight: 700 },
      button: { textTransform: "none", fontWeight: 600 },
    },
    components: {
      MuiButton: { defaultProps: { disableElevation: true } },
      MuiAppBar: { defaultProps: { elevation: 0 } },
      MuiPaper: { styleOverrides: { root: { backgroundImage: "none" } } },
    },
  });
  return o.responsive ? responsiveFontSizes(theme) : theme;
}
