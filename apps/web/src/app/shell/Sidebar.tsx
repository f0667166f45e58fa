import LockOutlined from "@mui/icons-material/LockOutlined";
import Box from "@mui/material/Box";
import List from "@mui/material/List";
import ListItemButton from "@mui/material/ListItemButton";
import ListItemIcon from "@mui/material/ListItemIcon";
import ListItemText from "@mui/material/ListItemText";
import ListSubheader from "@mui/material/ListSubheader";
import { ThemeProvider, useTheme } from "@mui/material/styles";
import Tooltip from "@mui/material/Tooltip";
import { useQueryClient } from "@tanstack/react-query";
import { lowestTierWith } from "@workmetrics/domain";
import { useCallback, useMemo } from "react";
import { NavLink } from "react-router";
import { useDataProviderIfReady } from "../../platform/data-access/provider.ts";
import { Logo } from "../Logo.tsx";
import { type AppModule, MODULES, SECTION_ORDER } from "../modules.ts";
import { usePreferences } from "../preferences.tsx";
import { buildTheme } from "../theme.ts";

// Pointing at (or tabbing to) a link fetches its page's code and first rows, so the click shows them at once.
function usePrefetch(): (m: AppModule) => void {
  const qc = useQueryClient();
  const data = useDataProviderIfReady();
  return useCallback((m: AppModule) => data && m.prefetch?.(qc, data), [qc, data]);
}

export function Sidebar({
  features,
  base,
  operator,
  onNavigate,
}: {
  features: readonly string[];
  base: string;
  operator: boolean; // platform operators see the platform pages; workspace members the workspace's
  onNavigate?: () => void;
}) {
  const { preferences } = usePreferences();
  const outer = useTheme();
  const prefetch = usePrefetch();
  // The dark sidebar preference (spec §3) renders the navigation in the dark palette whatever the page mode.
  const dark = useMemo(
    () =>
      buildTheme({
        mode: "dark",
        direction: outer.direction,
        responsive: false,
        primaryColor: null,
        secondaryColor: null,
      }),
    [outer.direction],
  );
  const nav = (
    <Box
      sx={{
        height: "100%",
        display: "flex",
        flexDirection: "column",
        bgcolor: "background.paper",
        color: "text.primary",
      }}
    >
      <Box sx={{ height: 64, px: 2, display: "flex", alignItems: "center", borderBottom: 1, borderColor: "divider" }}>
        <Logo to={base} />
      </Box>
      <Box component="nav" aria-label="Dashboard" sx={{ flex: 1, overflowY: "auto" }}>
        {SECTION_ORDER.map((section) => {
          const items = MODULES.filter((m) => m.section === section && !m.hidden && visibleTo(m, operator));
          if (items.length === 0) return null;
          return (
            <List
              key={section}
              dense
              subheader={<ListSubheader sx={{ bgcolor: "transparent", lineHeight: "32px" }}>{section}</ListSubheader>}
            >
              {items.map((m) => {
                const locked = m.feature !== undefined && !features.includes(m.feature);
                const Icon = m.icon;
                const to = m.path ? `${base}/${m.path}` : base;
                return (
                  <Tooltip
                    key={m.path}
                    title={locked ? `Needs the ${lowestTierWith(m.feature!).title} plan` : ""}
                    placement="right"
                  >
                    <ListItemButton
                      component={NavLink}
                      to={to}
                      end={m.path === ""}
                      onClick={onNavigate}
                      onPointerEnter={locked ? undefined : () => prefetch(m)}
                      onFocus={locked ? undefined : () => prefetch(m)}
                      sx={{
                        mx: 1,
                        borderRadius: 1,
                        "&.active": {
                          bgcolor: "action.selected",
                          color: "primary.main",
                          "& .MuiListItemIcon-root": { color: "primary.main" },
                        },
                      }}
                    >
                      <ListItemIcon sx={{ minWidth: 36 }}>
                        <Icon fontSize="small" />
                      </ListItemIcon>
                      <ListItemText primary={m.title} />
                      {locked && <LockOutlined fontSize="inherit" aria-label="Locked" />}
                    </ListItemButton>
                  </Tooltip>
                );
              })}
            </List>
          );
        })}
      </Box>
    </Box>
  );
  return preferences.isDarkSidebar ? <ThemeProvider theme={dark}>{nav}</ThemeProvider> : nav;
}

// Operators have no workspace: they get the platform pages, the home page and their own account.
function visibleTo(m: AppModule, operator: boolean): boolean {
  if (m.platform) return operator;
  return !operator || m.path === "" || m.path === "settings/account";
}
