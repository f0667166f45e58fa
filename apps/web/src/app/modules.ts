import type { SvgIconComponent } from "@mui/icons-material";
import DashboardOutlined from "@mui/icons-material/DashboardOutlined";
import ManageAccountsOutlined from "@mui/icons-material/ManageAccountsOutlined";
import type { Feature } from "@workmetrics/domain";
import { type ComponentType, type LazyExoticComponent, lazy } from "react";

export type NavSection =
  | "Overview"
  | "Sales"
  | "Purchasing"
  | "Inventory"
  | "Projects"
  | "Channels"
  | "Administration"
  | "Settings";

// One entry per dashboard module that exists; the router and the navigation are both built from this list.
export type AppModule = {
  path: string; // under /dashboard; "" is the home page
  title: string;
  icon: SvgIconComponent;
  section: NavSection;
  feature?: Feature; // tier feature the module needs (spec §9)
  hidden?: boolean; // routed but not listed in the navigation
  component: LazyExoticComponent<ComponentType>;
};

export const SECTION_ORDER: NavSection[] = [
  "Overview",
  "Sales",
  "Purchasing",
  "Inventory",
  "Projects",
  "Channels",
  "Administration",
  "Settings",
];

export const MODULES: AppModule[] = [
  {
    path: "",
    title: "Dashboard",
    icon: DashboardOutlined,
    section: "Overview",
    component: lazy(() => import("../modules/home/Home.tsx")),
  },
  {
    path: "settings/account",
    title: "My account",
    icon: ManageAccountsOutlined,
    section: "Settings",
    component: lazy(() => import("../modules/account/AccountSettings.tsx")),
  },
];
