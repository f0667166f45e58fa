import ExpandLess from "@mui/icons-material/ExpandLess";
import ExpandMore from "@mui/icons-material/ExpandMore";
import LockOutlined from "@mui/icons-material/LockOutlined";
import Box from "@mui/material/Box";
import ButtonBase from "@mui/material/ButtonBase";
import Collapse from "@mui/material/Collapse";
import List from "@mui/material/List";
import ListItemButton from "@mui/material/ListItemButton";
import ListItemIcon from "@mui/material/ListItemIcon";
import ListItemText from "@mui/material/ListItemText";
import ListSubheader from "@mui/material/ListSubheader";
import { ThemeProvider, useTheme } from "@mui/material/styles";
import Tooltip from "@mui/material/Tooltip";
import { useQueryClient } from "@tanstack/react-query";
import { Suspense, useCallback, useEffect, useMemo, useState } from "react";
import { NavLink, useLocation } from "react-router";
import { useDataProviderIfReady } from "../../platform/data-access/provider.ts";
import { useMember } from "../../platform/resource/access.ts";
import { Logo } from "../Logo.tsx";
import { type AppModule, MODULES, type NavSection, SECTION_ORDER } from "../modules.ts";
import { usePreferences } from "../preferences.tsx";
import { useSession } from "../session/SessionProvider.tsx";
import { buildTheme } from "../theme.ts";
import { moduleAt, offered, readFolded, storageKey, writeFolded } from "./nav.ts";

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

// Folded groups (issue 21 §1): each section's header folds and unfolds it, kept per workspace and user; the group
// holding the page on screen opens whenever that page is reached.
function useFoldedSections(base: string): [Set<NavSection>, (s: NavSection) => void] {
  const { dbUser } = useSession();
  const key = storageKey("nav-folded", dbUser?.profile?.workspace_id, dbUser?.user.id);
  const [folded, setFolded] = useState<NavSection[]>(() => readFolded(key));
  useEffect(() => setFolded(readFolded(key)), [key]);
  const { pathname } = useLocation();
  const current = moduleAt(pathname, base)?.section;
  useEffect(() => {
    if (!current) return;
    setFolded((f) => {
      if (!f.includes(current)) return f;
      const next = f.filter((s) => s !== current);
      writeFolded(key, next);
      return next;
    });
  }, [current, key]);
  const toggle = useCallback(
    (section: NavSection) =>
      setFolded((f) => {
        const next = f.includes(section) ? f.filter((s) => s !== section) : [...f, section];
        writeFolded(key, next);
        return next;
      }),
    [key],
  );
  return [useMemo(() => new Set(folded), [folded]), toggle];
}

export function Sidebar({ base, onNavigate }: { base: string; onNavigate?: () => void }) {
  const who = useMember();
  const items = useMemo(() => offered(who), [who]);
  const [folded, toggle] = useFoldedSections(base);
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
          const open = !folded.has(section);
          const listId = `nav-section-${section.toLowerCase()}`;
          return (
            <List
              key={section}
              dense
              subheader={
                <ListSubheader sx={{ bgcolor: "transparent", lineHeight: "32px", px: 1 }}>
                  <ButtonBase
                    onClick={() => toggle(section)}
                    aria-expanded={open}
                    aria-controls={listId}
                    sx={{
                      width: "100%",
                      justifyContent: "space-between",
                      px: 1,
                      borderRadius: 1,
                      font: "inherit",
                      color: "inherit",
                      lineHeight: "32px",
                      "&:hover": { bgcolor: "action.hover" },
                    }}
                  >
                    {section}
                    {open ? <ExpandLess fontSize="small" aria-hidden /> : <ExpandMore fontSize="small" aria-hidden />}
                  </ButtonBase>
                </ListSubheader>
              }
            >
              <Collapse in={open} timeout="auto" id={listId} unmountOnExit>
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
                        {!locked && m.badge && (
                          <Suspense fallback={null}>
                            <m.badge />
                          </Suspense>
                        )}
                      </ListItemButton>
                    </Tooltip>
                  );
                })}
              </Collapse>
            </List>
          );
        })}
      </Box>
    </Box>
  );
  return preferences.isDarkSidebar ? <ThemeProvider theme={dark}>{nav}</ThemeProvider> : nav;
}
