import FeedbackOutlined from "@mui/icons-material/FeedbackOutlined";
import LocalShippingOutlined from "@mui/icons-material/LocalShippingOutlined";
import LogoutOutlined from "@mui/icons-material/LogoutOutlined";
import ManageAccountsOutlined from "@mui/icons-material/ManageAccountsOutlined";
import PointOfSaleOutlined from "@mui/icons-material/PointOfSaleOutlined";
import WarehouseOutlined from "@mui/icons-material/WarehouseOutlined";
import Avatar from "@mui/material/Avatar";
import Divider from "@mui/material/Divider";
import IconButton from "@mui/material/IconButton";
import ListItemIcon from "@mui/material/ListItemIcon";
import ListItemText from "@mui/material/ListItemText";
import Menu from "@mui/material/Menu";
import MenuItem from "@mui/material/MenuItem";
import Switch from "@mui/material/Switch";
import Typography from "@mui/material/Typography";
import { ROLE, roleAppsFor } from "@workmetrics/domain";
import { useState } from "react";
import { useNavigate } from "react-router";
import { usePreferences } from "../preferences.tsx";
import { openSignedIn } from "../session/handoff.ts";
import { useSession } from "../session/SessionProvider.tsx";

const ROLE_APP_LINKS = {
  driver: { label: "Open the driver app", icon: LocalShippingOutlined },
  warehouse: { label: "Open the warehouse app", icon: WarehouseOutlined },
  pos: { label: "Open the POS app", icon: PointOfSaleOutlined },
} as const;

export function UserMenu({ base }: { base: string }) {
  const { dbUser, signOut } = useSession();
  const { preferences, update } = usePreferences();
  const navigate = useNavigate();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const profile = dbUser?.profile;
  // Issue 22: the role apps this person may open, signed in (the host rules' own test: hosts.ts).
  const apps = profile
    ? roleAppsFor({
        roleId: profile.role_id,
        workspaceSlug: profile.workspace.slug,
        tierId: profile.workspace.tier_id,
        isOwner: profile.role_id === ROLE.Owner,
      })
    : [];
  const name = profile?.name ?? dbUser?.user.email ?? "Account";
  const initials = name
    .split(/[\s@.]+/)
    .slice(0, 2)
    .map((p) => p[0]?.toUpperCase() ?? "")
    .join("");
  return (
    <>
      <IconButton aria-label="Account menu" onClick={(e) => setAnchor(e.currentTarget)}>
        <Avatar sx={{ width: 34, height: 34, bgcolor: "primary.main", fontSize: 14 }}>{initials}</Avatar>
      </IconButton>
      <Menu
        anchorEl={anchor}
        open={anchor !== null}
        onClose={() => setAnchor(null)}
        anchorOrigin={{ vertical: "bottom", horizontal: "right" }}
        transformOrigin={{ vertical: "top", horizontal: "right" }}
      >
        <MenuItem disabled sx={{ opacity: "1 !important", display: "block" }}>
          <Typography sx={{ fontWeight: 600 }}>{name}</Typography>
          <Typography variant="body2" color="text.secondary">
            {profile?.role.title ?? (dbUser?.is_platform_operator ? "Platform operator" : "")}
            {profile ? ` · ${profile.workspace.name}` : ""}
          </Typography>
        </MenuItem>
        <Divider />
        <MenuItem
          onClick={() => {
            setAnchor(null);
            navigate(`${base}/settings/account`);
          }}
        >
          <ListItemIcon>
            <ManageAccountsOutlined fontSize="small" />
          </ListItemIcon>
          <ListItemText>My account</ListItemText>
        </MenuItem>
        {profile && (
          <MenuItem
            onClick={() => {
              setAnchor(null);
              navigate(`${base}/feedbacks/new`);
            }}
          >
            <ListItemIcon>
              <FeedbackOutlined fontSize="small" />
            </ListItemIcon>
            <ListItemText>Send feedback</ListItemText>
          </MenuItem>
        )}
        {apps.map((app) => {
          const Icon = ROLE_APP_LINKS[app].icon;
          return (
            <MenuItem
              key={app}
              onClick={() => {
                setAnchor(null);
                void openSignedIn(app, "/dashboard");
              }}
            >
              <ListItemIcon>
                <Icon fontSize="small" />
              </ListItemIcon>
              <ListItemText>{ROLE_APP_LINKS[app].label}</ListItemText>
            </MenuItem>
          );
        })}
        <MenuItem onClick={() => update({ isDarkSidebar: !preferences.isDarkSidebar })}>
          <ListItemText>Dark sidebar</ListItemText>
          <Switch
            edge="end"
            size="small"
            checked={preferences.isDarkSidebar}
            slotProps={{ input: { "aria-label": "Dark sidebar" } }}
          />
        </MenuItem>
        <Divider />
        <MenuItem onClick={() => signOut().then(() => navigate("/auth/login", { replace: true }))}>
          <ListItemIcon>
            <LogoutOutlined fontSize="small" />
          </ListItemIcon>
          <ListItemText>Sign out</ListItemText>
        </MenuItem>
      </Menu>
    </>
  );
}
