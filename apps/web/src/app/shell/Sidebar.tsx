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
import type { Member } from "@workmetrics/domain";
import { useCallback, useMemo } from "react";
import { NavLink } from "react-router";
import { useDataProviderIfReady } from "../../platform/data-access/provider.ts";
import { useMember } from "../../platform/resource/access.ts";
import { Logo } from "../Logo.tsx";
import { type AppModule, MODULES, SECTION_ORDER } from "../modules.ts";
import { usePreferences } from "../preferences.tsx";
import { buildTheme } from "../theme.ts";

// A module another module's address sits under (team-challenge, team-challenge/calendar) is lit on its own address
// only, so the navigation lights one entry at a time.
const UNDER_ANOTHER = new Set(
  MODULES.filter((m) => m.path && MODULES.some((o) => o.path.startsWith(`${m.path}/`))).map((m) => m.path),
);

// Pointing at (or tabbing to) a link fetches its page's code and first rows, so the click shows them at once.
function usePrefetch(): (m: AppModule) => void {
  const qc = useQueryClient();
  const data = useDataProviderIfReady();
  const who = useMember();
  return useCallback((m: AppModule) => data && m.prefetch?.(qc, data, who), [qc, data, who]);
}

// What the navigation offers (issue 9): the modules the access rule allows, and those only a higher tier would
// allow, locked with the plan that has them. Anything refused for another reason is not shown.
type Offered = { m: AppModule; lock: string | null };

function offered(who: Member): Offered[] {
  return MODULES.filter((m) => !m.hidden).flatMap((m): Offered[] => {
    const d = m.access(who);
    if (d.allowed) return [{ m, lock: null }];
    return d.reason === "tier" ? [{ m, lock: `Needs the ${d.tierTitle} plan` }] : [];
  });
}

export function Sidebar({ base, onNavigate }: { base: string; onNavigate?: () => void }) {
  const who = useMember();
  const items = useMemo(() => offered(who), [who]);
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
          const inSection = items.filter(({ m }) => m.section === section);
          if (inSection.length === 0) return null;
          return (
            <List
              key={section}
              dense
              subheader={<ListSubheader sx={{ bgcolor: "transparent", lineHeight: "32px" }}>{section}</ListSubheader>}
            >
              {inSection.map(({ m, lock }) => {
                const locked = lock !== null;
                const Icon = m.icon;
                const to = m.path ? `${base}/${m.path}` : base;
                return (
                  <Tooltip key={m.path} title={lock ?? ""} placement="right" describeChild>
                    <ListItemButton
                      component={NavLink}
                      to={to}
                      end={m.path === "" || UNDER_ANOTHER.has(m.path)}
                      onClick={onNavigate}
                      aria-label={lock ? `${m.title} — ${lock.toLowerCase()}` : undefined}
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
                      {locked && <LockOutlined fontSize="inherit" aria-hidden />}
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
