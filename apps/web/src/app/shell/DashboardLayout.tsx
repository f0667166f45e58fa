import MenuIcon from "@mui/icons-material/Menu";
import AppBar from "@mui/material/AppBar";
import Avatar from "@mui/material/Avatar";
import Box from "@mui/material/Box";
import Drawer from "@mui/material/Drawer";
import IconButton from "@mui/material/IconButton";
import { ThemeProvider } from "@mui/material/styles";
import Toolbar from "@mui/material/Toolbar";
import Typography from "@mui/material/Typography";
import { LAYOUT } from "@workmetrics/domain";
import { Suspense, useMemo, useState } from "react";
import { Outlet, useParams } from "react-router";
import { FullScreenSpinner } from "../FullScreenSpinner.tsx";
import { ModeToggle } from "../ModeToggle.tsx";
import { usePreferences } from "../preferences.tsx";
import { useSession } from "../session/SessionProvider.tsx";
import { buildTheme } from "../theme.ts";
import { DashboardBanners } from "./DashboardBanners.tsx";
import { PaletteLauncher } from "./PaletteLauncher.tsx";
import { RightAsideProvider } from "./RightAside.tsx";
import { SandboxBanner } from "./SandboxBanner.tsx";
import { Sidebar } from "./Sidebar.tsx";
import { UserMenu } from "./UserMenu.tsx";

const W = LAYOUT.leftAside;

export function DashboardLayout() {
  const { dbUser } = useSession();
  const { preferences, resolvedMode } = usePreferences();
  const { workspace: prefixed } = useParams();
  const base = prefixed ? `/_workspaces/${prefixed}/dashboard` : "/dashboard";
  const [mobileOpen, setMobileOpen] = useState(false);
  const ws = dbUser?.profile?.workspace;
  // A workspace's named colours re-theme the app for everyone in it (spec §3).
  const theme = useMemo(
    () =>
      buildTheme({
        mode: resolvedMode,
        direction: preferences.direction,
        responsive: preferences.responsiveFontSizes,
        primaryColor: ws?.primary_color,
        secondaryColor: ws?.secondary_color,
      }),
    [resolvedMode, preferences.direction, preferences.responsiveFontSizes, ws?.primary_color, ws?.secondary_color],
  );
  const sidebar = <Sidebar base={base} onNavigate={() => setMobileOpen(false)} />;

  return (
    <ThemeProvider theme={theme}>
      <RightAsideProvider>
        <Box sx={{ display: "flex", minHeight: "100vh", bgcolor: "background.default" }}>
          <AppBar
            position="fixed"
            color="inherit"
            sx={{
              width: { md: `calc(100% - ${W}px)` },
              ml: { md: `${W}px` },
              borderBottom: 1,
              borderColor: "divider",
              bgcolor: "background.paper",
            }}
          >
            <Toolbar sx={{ minHeight: `${LAYOUT.headerHeight}px !important`, gap: 1 }}>
              <IconButton
                aria-label="Open navigation"
                edge="start"
                onClick={() => setMobileOpen(true)}
                sx={{ display: { md: "none" } }}
              >
                <MenuIcon />
              </IconButton>
              {ws?.logo && (
                <Avatar src={ws.logo} alt="" variant="rounded" sx={{ width: 32, height: 32, bgcolor: "transparent" }} />
              )}
              <Typography sx={{ fontWeight: 600, flex: 1 }} noWrap>
                {ws?.name ?? "Workmetrics platform"}
              </Typography>
              <PaletteLauncher base={base} />
              <ModeToggle color="default" />
              <UserMenu base={base} />
            </Toolbar>
          </AppBar>
          <Box component="aside" sx={{ width: { md: W }, flexShrink: { md: 0 } }}>
            <Drawer
              variant="temporary"
              open={mobileOpen}
              onClose={() => setMobileOpen(false)}
              ModalProps={{ keepMounted: true }}
              sx={{ display: { xs: "block", md: "none" }, "& .MuiDrawer-paper": { width: W } }}
            >
              {sidebar}
            </Drawer>
            <Drawer
              variant="permanent"
              open
              sx={{ display: { xs: "none", md: "block" }, "& .MuiDrawer-paper": { width: W, boxSizing: "border-box" } }}
            >
              {sidebar}
            </Drawer>
          </Box>
          <Box component="main" sx={{ flex: 1, minWidth: 0, pt: `${LAYOUT.headerHeight}px` }}>
            <Box sx={{ p: { xs: 2, md: 3 } }}>
              {/* The platform's announcements are for workspace members, not for the operator who writes them. */}
              <SandboxBanner />
              {!dbUser?.is_platform_operator && <DashboardBanners />}
              <Suspense fallback={<FullScreenSpinner />}>
                <Outlet />
              </Suspense>
            </Box>
          </Box>
        </Box>
      </RightAsideProvider>
    </ThemeProvider>
  );
}
