import CloudOffOutlined from "@mui/icons-material/CloudOffOutlined";
import CloudQueueOutlined from "@mui/icons-material/CloudQueueOutlined";
import DarkModeOutlined from "@mui/icons-material/DarkModeOutlined";
import DashboardOutlined from "@mui/icons-material/DashboardOutlined";
import LightModeOutlined from "@mui/icons-material/LightModeOutlined";
import LogoutOutlined from "@mui/icons-material/LogoutOutlined";
import SyncOutlined from "@mui/icons-material/SyncOutlined";
import AppBar from "@mui/material/AppBar";
import Avatar from "@mui/material/Avatar";
import Badge from "@mui/material/Badge";
import BottomNavigation from "@mui/material/BottomNavigation";
import BottomNavigationAction from "@mui/material/BottomNavigationAction";
import Box from "@mui/material/Box";
import Chip from "@mui/material/Chip";
import Divider from "@mui/material/Divider";
import IconButton from "@mui/material/IconButton";
import ListItemIcon from "@mui/material/ListItemIcon";
import ListItemText from "@mui/material/ListItemText";
import Menu from "@mui/material/Menu";
import MenuItem from "@mui/material/MenuItem";
import Paper from "@mui/material/Paper";
import { ThemeProvider } from "@mui/material/styles";
import Toolbar from "@mui/material/Toolbar";
import Typography from "@mui/material/Typography";
import { type ReactNode, useEffect, useMemo, useState } from "react";
import toast from "react-hot-toast";
import { Link, useLocation } from "react-router";
import { usePreferences } from "../../app/preferences.tsx";
import { openSignedIn } from "../../app/session/handoff.ts";
import { useSession } from "../../app/session/SessionProvider.tsx";
import { buildTheme } from "../../app/theme.ts";
import { usePageTitle } from "../../platform/ui/usePageTitle.ts";
import { OutboxSheet } from "./OutboxSheet.tsx";
import { useOnline } from "./online.ts";
import { startOutbox, useOutbox } from "./outbox.ts";
import { installRoleApp } from "./pwa.ts";
import { activeTab, tabPath } from "./tabs.ts";

export type RoleAppTab = { to: string; label: string; icon: ReactNode };
type Props = {
  app: "driver" | "warehouse" | "pos";
  title: string;
  tabs: RoleAppTab[];
  actions?: ReactNode;
  children: ReactNode;
};

export const BOTTOM_NAV_HEIGHT = 64;

// The role apps' frame (issue 22 "One app shell"): mobile-first for 390×844 and one hand — a top bar with the
// title, whether the device is online, the outbox badge (actions waiting to be sent, and conflicts) and the menu
// (light/dark, the back office signed in, sign out); the content; the tabs at the bottom with large touch targets.
// The workspace's colours theme it as they theme the back office.
export function RoleAppShell({ app, title, tabs, actions, children }: Props) {
  // The outbox knows its app before the first action (children's effects run before this one's).
  useState(() => startOutbox(app));
  usePageTitle(title);
  const { dbUser } = useSession();
  const { preferences, resolvedMode } = usePreferences();
  const ws = dbUser?.profile?.workspace;
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
  const location = useLocation();
  const current = activeTab(location.pathname, tabs);
  const themeColor = theme.palette.primary.main;
  useEffect(() => installRoleApp(themeColor), [themeColor]);

  return (
    <ThemeProvider theme={theme}>
      <Box
        sx={{
          minHeight: "100dvh",
          bgcolor: "background.default",
          color: "text.primary",
          display: "flex",
          flexDirection: "column",
        }}
        data-role-app={app}
      >
        <AppBar
          position="sticky"
          color="primary"
          enableColorOnDark
          sx={{ pt: "env(safe-area-inset-top)", borderBottom: 1, borderColor: "divider" }}
        >
          <Toolbar sx={{ gap: 0.5, minHeight: { xs: 56 }, px: { xs: 1.5, sm: 2 } }}>
            <Typography variant="h6" component="h1" noWrap sx={{ flex: 1, fontWeight: 700, fontSize: 19 }}>
              {title}
            </Typography>
            {actions}
            <OnlineChip />
            <OutboxButton />
            <AccountMenu app={app} />
          </Toolbar>
        </AppBar>
        <Box
          component="main"
          sx={{
            flex: 1,
            width: "100%",
            maxWidth: 1100,
            mx: "auto",
            px: { xs: 1.5, sm: 2.5 },
            pt: 2,
            pb: tabs.length ? `calc(${BOTTOM_NAV_HEIGHT + 16}px + env(safe-area-inset-bottom))` : 2,
          }}
        >
          {children}
        </Box>
        {tabs.length > 0 && (
          <Paper
            component="nav"
            aria-label={`${title} sections`}
            elevation={8}
            sx={{ position: "fixed", left: 0, right: 0, bottom: 0, zIndex: 1100, pb: "env(safe-area-inset-bottom)" }}
          >
            <BottomNavigation showLabels value={current} sx={{ height: BOTTOM_NAV_HEIGHT }}>
              {tabs.map((t, i) => (
                <BottomNavigationAction
                  key={t.to}
                  value={i}
                  label={t.label}
                  icon={t.icon}
                  component={Link}
                  to={tabPath(t.to)}
                  aria-current={i === current ? "page" : undefined}
                  sx={{ minWidth: 64, minHeight: 48, "&.Mui-selected": { fontWeight: 700 } }}
                />
              ))}
            </BottomNavigation>
          </Paper>
        )}
      </Box>
    </ThemeProvider>
  );
}

function OnlineChip() {
  const online = useOnline();
  return online ? (
    <Chip
      size="small"
      icon={<CloudQueueOutlined />}
      label="Online"
      role="status"
      sx={{
        color: "inherit",
        bgcolor: "rgba(255,255,255,0.14)",
        "& .MuiChip-icon": { color: "inherit" },
        display: { xs: "none", sm: "inline-flex" },
      }}
    />
  ) : (
    <Chip
      size="small"
      icon={<CloudOffOutlined />}
      label="Offline"
      role="status"
      color="warning"
      sx={{ fontWeight: 600 }}
    />
  );
}

function OutboxButton() {
  const { pending, conflicts } = useOutbox();
  const [open, setOpen] = useState(false);
  const count = pending.length + conflicts.length;
  const label =
    count === 0
      ? "Outbox: everything is sent"
      : `Outbox: ${pending.length} waiting to send${conflicts.length ? `, ${conflicts.length} refused` : ""}`;
  return (
    <>
      <IconButton
        color="inherit"
        aria-label={label}
        title={label}
        onClick={() => setOpen(true)}
        sx={{ width: 48, height: 48 }}
      >
        <Badge
          badgeContent={count}
          color={conflicts.length ? "error" : "secondary"}
          data-testid="outbox-count"
          slotProps={{ badge: { "aria-hidden": true } as object }}
        >
          <SyncOutlined />
        </Badge>
      </IconButton>
      <OutboxSheet open={open} onClose={() => setOpen(false)} />
    </>
  );
}

function AccountMenu({ app }: { app: Props["app"] }) {
  const { dbUser, signOut } = useSession();
  const { resolvedMode, toggleMode } = usePreferences();
  const { pending } = useOutbox();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const profile = dbUser?.profile;
  const name = profile?.name ?? dbUser?.user.email ?? "Account";
  const initials = name
    .split(/[\s@.]+/)
    .slice(0, 2)
    .map((p) => p[0]?.toUpperCase() ?? "")
    .join("");
  const close = () => setAnchor(null);
  return (
    <>
      <IconButton
        aria-label="Account menu"
        onClick={(e) => setAnchor(e.currentTarget)}
        sx={{ width: 48, height: 48 }}
        color="inherit"
      >
        <Avatar sx={{ width: 32, height: 32, fontSize: 14, bgcolor: "background.paper", color: "primary.main" }}>
          {initials}
        </Avatar>
      </IconButton>
      <Menu
        anchorEl={anchor}
        open={anchor !== null}
        onClose={close}
        anchorOrigin={{ vertical: "bottom", horizontal: "right" }}
        transformOrigin={{ vertical: "top", horizontal: "right" }}
        slotProps={{ list: { sx: { minWidth: 260 } } }}
      >
        <MenuItem disabled sx={{ opacity: "1 !important", display: "block" }}>
          <Typography sx={{ fontWeight: 600 }}>{name}</Typography>
          <Typography variant="body2" color="text.secondary">
            {profile ? `${profile.role.title} · ${profile.workspace.name}` : ""}
          </Typography>
        </MenuItem>
        <Divider />
        <MenuItem
          onClick={() => {
            close();
            toggleMode();
          }}
          sx={{ minHeight: 48 }}
        >
          <ListItemIcon>{resolvedMode === "dark" ? <LightModeOutlined /> : <DarkModeOutlined />}</ListItemIcon>
          <ListItemText>{resolvedMode === "dark" ? "Light theme" : "Dark theme"}</ListItemText>
        </MenuItem>
        <MenuItem
          sx={{ minHeight: 48 }}
          onClick={() => {
            close();
            openSignedIn("main", "/dashboard").catch(() =>
              toast.error("The back office needs the network. Try again when you are online."),
            );
          }}
        >
          <ListItemIcon>
            <DashboardOutlined />
          </ListItemIcon>
          <ListItemText>Open the back office</ListItemText>
        </MenuItem>
        <Divider />
        <MenuItem
          sx={{ minHeight: 48 }}
          onClick={() => {
            close();
            if (
              pending.length > 0 &&
              !window.confirm(
                `${pending.length} action${pending.length === 1 ? " has" : "s have"} not been sent yet. They stay on this device and are sent when you sign in here again. Sign out?`,
              )
            ) {
              return;
            }
            void signOut().then(() => window.location.assign("/auth/login"));
          }}
        >
          <ListItemIcon>
            <LogoutOutlined />
          </ListItemIcon>
          <ListItemText>Sign out</ListItemText>
        </MenuItem>
      </Menu>
      <span hidden data-app={app} />
    </>
  );
}
