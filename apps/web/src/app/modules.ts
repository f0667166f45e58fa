import type { SvgIconComponent } from "@mui/icons-material";
import AdminPanelSettingsOutlined from "@mui/icons-material/AdminPanelSettingsOutlined";
import AutoStoriesOutlined from "@mui/icons-material/AutoStoriesOutlined";
import BusinessOutlined from "@mui/icons-material/BusinessOutlined";
import CampaignOutlined from "@mui/icons-material/CampaignOutlined";
import CategoryOutlined from "@mui/icons-material/CategoryOutlined";
import ConfirmationNumberOutlined from "@mui/icons-material/ConfirmationNumberOutlined";
import ContactsOutlined from "@mui/icons-material/ContactsOutlined";
import CurrencyExchangeOutlined from "@mui/icons-material/CurrencyExchangeOutlined";
import DashboardOutlined from "@mui/icons-material/DashboardOutlined";
import DomainOutlined from "@mui/icons-material/DomainOutlined";
import EventAvailableOutlined from "@mui/icons-material/EventAvailableOutlined";
import FeedbackOutlined from "@mui/icons-material/FeedbackOutlined";
import FolderOutlined from "@mui/icons-material/FolderOutlined";
import HandymanOutlined from "@mui/icons-material/HandymanOutlined";
import Inventory2Outlined from "@mui/icons-material/Inventory2Outlined";
import LayersOutlined from "@mui/icons-material/LayersOutlined";
import LocalOfferOutlined from "@mui/icons-material/LocalOfferOutlined";
import ManageAccountsOutlined from "@mui/icons-material/ManageAccountsOutlined";
import PaidOutlined from "@mui/icons-material/PaidOutlined";
import PeopleOutlined from "@mui/icons-material/PeopleOutlined";
import RuleOutlined from "@mui/icons-material/RuleOutlined";
import SavingsOutlined from "@mui/icons-material/SavingsOutlined";
import SellOutlined from "@mui/icons-material/SellOutlined";
import StickyNote2Outlined from "@mui/icons-material/StickyNote2Outlined";
import TuneOutlined from "@mui/icons-material/TuneOutlined";
import WarehouseOutlined from "@mui/icons-material/WarehouseOutlined";
import WorkOutlined from "@mui/icons-material/WorkOutlined";
import WorkspacesOutlined from "@mui/icons-material/WorkspacesOutlined";
import type { QueryClient } from "@tanstack/react-query";
import type { Feature } from "@workmetrics/domain";
import { type ComponentType, type LazyExoticComponent, lazy } from "react";
import type { DataProvider } from "../platform/data-access/provider.ts";

export type NavSection =
  | "Overview"
  | "Sales"
  | "Purchasing"
  | "Inventory"
  | "Projects"
  | "Channels"
  | "Administration"
  | "Platform"
  | "Settings";

type Page = LazyExoticComponent<ComponentType>;

// A page under a module's path (":id", "new", ":id/edit"); the module's own component is its index page.
export type ChildPage = { path: string; component: Page };

// One entry per dashboard module that exists; the router and the navigation are both built from this list.
export type AppModule = {
  path: string; // under /dashboard; "" is the home page
  title: string;
  icon: SvgIconComponent;
  section: NavSection;
  feature?: Feature; // tier feature the module needs (spec §9)
  hidden?: boolean; // routed but not listed in the navigation
  platform?: boolean; // for platform operators only (issue 4 item 9); workspace modules are for members
  component: Page;
  children?: ChildPage[];
  resource?: boolean; // served by the generic resource pages; `path` is the resource's route in the registry
  prefetch?: (qc: QueryClient, data: DataProvider) => void; // fetch the page's code and first data ahead of a click
};

export const SECTION_ORDER: NavSection[] = [
  "Overview",
  "Sales",
  "Purchasing",
  "Inventory",
  "Projects",
  "Channels",
  "Administration",
  "Platform",
  "Settings",
];

// The generic list, detail and form pages serve every resource with a route (DESIGN §2.3). Title and feature
// are repeated here so the navigation needs no registry in the first bundle; modules.test.ts keeps them equal.
const loadList = () => import("../platform/resource/ResourceList.tsx");
const loadShow = () => import("../platform/resource/ResourceShow.tsx");
const loadForm = () => import("../platform/resource/ResourceForm.tsx");
const ResourceList = lazy(loadList);
const ResourceShow = lazy(loadShow);
const ResourceForm = lazy(loadForm);

// Fetches the generic pages' code (the grid, the registry) ahead of need: while the session loads when a resource
// page is opened directly, or once the home page is idle.
export function preloadResourcePages(): void {
  void Promise.all([loadList(), loadShow(), loadForm()]).catch(() => undefined);
}

function resource(
  path: string,
  title: string,
  icon: SvgIconComponent,
  section: NavSection,
  feature?: Feature,
): AppModule {
  return {
    path,
    title,
    icon,
    section,
    feature,
    resource: true,
    component: ResourceList,
    prefetch: (qc, data) =>
      void loadList()
        .then(() => import("../platform/resource/hooks.ts"))
        .then((m) => m.prefetchFirstPage(qc, data, path))
        .catch(() => undefined),
    children: [
      { path: "new", component: ResourceForm },
      { path: ":id", component: ResourceShow },
      { path: ":id/edit", component: ResourceForm },
    ],
  };
}

const platform = (m: AppModule): AppModule => ({ ...m, platform: true });

export const MODULES: AppModule[] = [
  {
    path: "",
    title: "Dashboard",
    icon: DashboardOutlined,
    section: "Overview",
    component: lazy(() => import("../modules/home/Home.tsx")),
  },
  {
    path: "my-files",
    title: "My files",
    icon: FolderOutlined,
    section: "Overview",
    component: lazy(() => import("../modules/files/MyFiles.tsx")),
  },
  resource("companies", "Companies", BusinessOutlined, "Sales", "erp"),
  resource("contacts", "Contacts", ContactsOutlined, "Sales", "erp"),
  resource("memos", "Memos", StickyNote2Outlined, "Sales", "erp"),
  resource("products", "Products", Inventory2Outlined, "Inventory", "erp"),
  resource("categorys", "Categories", CategoryOutlined, "Inventory", "erp"),
  resource("brands", "Brands", LocalOfferOutlined, "Inventory", "erp"),
  resource("services", "Services", HandymanOutlined, "Inventory", "erp"),
  resource("locations", "Locations", WarehouseOutlined, "Inventory", "erp"),
  resource("projects", "Projects", WorkOutlined, "Projects", "projects"),
  resource("project-brands", "Project brands", SellOutlined, "Projects", "projects"),
  resource("project-currencies", "Project currencies", PaidOutlined, "Projects", "projects"),
  resource("currency-factors", "Currency factors", CurrencyExchangeOutlined, "Projects", "projects"),
  resource("project-groups", "Project groups", WorkspacesOutlined, "Projects", "projects"),
  {
    ...resource("users", "Users", PeopleOutlined, "Administration"),
    component: lazy(() => import("../modules/users/UsersPage.tsx")),
  },
  resource("roles", "Roles", AdminPanelSettingsOutlined, "Administration"),
  resource("feedbacks", "Feedbacks", FeedbackOutlined, "Administration"),
  {
    path: "permissions",
    title: "Permissions",
    icon: RuleOutlined,
    section: "Administration",
    feature: "roles",
    component: lazy(() => import("../modules/permissions/PermissionsPage.tsx")),
  },
  {
    path: "settings/workspace",
    title: "Workspace settings",
    icon: TuneOutlined,
    section: "Settings",
    component: lazy(() => import("../modules/workspace/WorkspaceSettings.tsx")),
  },
  platform(resource("workspaces", "Workspaces", DomainOutlined, "Platform")),
  platform(resource("tiers", "Tiers", LayersOutlined, "Platform")),
  platform(resource("coupons", "Coupons", ConfirmationNumberOutlined, "Platform")),
  platform(resource("banners", "Banners", CampaignOutlined, "Platform")),
  platform(resource("credits", "Credits", SavingsOutlined, "Platform")),
  platform(resource("case-studies", "Case studies", AutoStoriesOutlined, "Platform")),
  platform(resource("demo-requests", "Demo requests", EventAvailableOutlined, "Platform")),
  {
    path: "settings/account",
    title: "My account",
    icon: ManageAccountsOutlined,
    section: "Settings",
    component: lazy(() => import("../modules/account/AccountSettings.tsx")),
  },
];
