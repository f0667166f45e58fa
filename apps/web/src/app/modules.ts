import type { SvgIconComponent } from "@mui/icons-material";
import AccountBalanceOutlined from "@mui/icons-material/AccountBalanceOutlined";
import AccountBalanceWalletOutlined from "@mui/icons-material/AccountBalanceWalletOutlined";
import AccountTreeOutlined from "@mui/icons-material/AccountTreeOutlined";
import AdminPanelSettingsOutlined from "@mui/icons-material/AdminPanelSettingsOutlined";
import AssignmentOutlined from "@mui/icons-material/AssignmentOutlined";
import AssignmentReturnOutlined from "@mui/icons-material/AssignmentReturnOutlined";
import AttachFileOutlined from "@mui/icons-material/AttachFileOutlined";
import AutoStoriesOutlined from "@mui/icons-material/AutoStoriesOutlined";
import BadgeOutlined from "@mui/icons-material/BadgeOutlined";
import BeachAccessOutlined from "@mui/icons-material/BeachAccessOutlined";
import BusinessOutlined from "@mui/icons-material/BusinessOutlined";
import CalendarMonthOutlined from "@mui/icons-material/CalendarMonthOutlined";
import CampaignOutlined from "@mui/icons-material/CampaignOutlined";
import CategoryOutlined from "@mui/icons-material/CategoryOutlined";
import CelebrationOutlined from "@mui/icons-material/CelebrationOutlined";
import ChecklistOutlined from "@mui/icons-material/ChecklistOutlined";
import ConfirmationNumberOutlined from "@mui/icons-material/ConfirmationNumberOutlined";
import ContactsOutlined from "@mui/icons-material/ContactsOutlined";
import CreditScoreOutlined from "@mui/icons-material/CreditScoreOutlined";
import CurrencyExchangeOutlined from "@mui/icons-material/CurrencyExchangeOutlined";
import DashboardOutlined from "@mui/icons-material/DashboardOutlined";
import DiscountOutlined from "@mui/icons-material/DiscountOutlined";
import DomainOutlined from "@mui/icons-material/DomainOutlined";
import DynamicFormOutlined from "@mui/icons-material/DynamicFormOutlined";
import EmojiEventsOutlined from "@mui/icons-material/EmojiEventsOutlined";
import EngineeringOutlined from "@mui/icons-material/EngineeringOutlined";
import EventAvailableOutlined from "@mui/icons-material/EventAvailableOutlined";
import EventBusyOutlined from "@mui/icons-material/EventBusyOutlined";
import FactCheckOutlined from "@mui/icons-material/FactCheckOutlined";
import FeedbackOutlined from "@mui/icons-material/FeedbackOutlined";
import FolderOutlined from "@mui/icons-material/FolderOutlined";
import ForumOutlined from "@mui/icons-material/ForumOutlined";
import HandshakeOutlined from "@mui/icons-material/HandshakeOutlined";
import HandymanOutlined from "@mui/icons-material/HandymanOutlined";
import HowToRegOutlined from "@mui/icons-material/HowToRegOutlined";
import HubOutlined from "@mui/icons-material/HubOutlined";
import InsightsOutlined from "@mui/icons-material/InsightsOutlined";
import Inventory2Outlined from "@mui/icons-material/Inventory2Outlined";
import LayersOutlined from "@mui/icons-material/LayersOutlined";
import LocalOfferOutlined from "@mui/icons-material/LocalOfferOutlined";
import LocalShippingOutlined from "@mui/icons-material/LocalShippingOutlined";
import LockClockOutlined from "@mui/icons-material/LockClockOutlined";
import ManageAccountsOutlined from "@mui/icons-material/ManageAccountsOutlined";
import MenuBookOutlined from "@mui/icons-material/MenuBookOutlined";
import MoveToInboxOutlined from "@mui/icons-material/MoveToInboxOutlined";
import PaidOutlined from "@mui/icons-material/PaidOutlined";
import PeopleOutlined from "@mui/icons-material/PeopleOutlined";
import PointOfSaleOutlined from "@mui/icons-material/PointOfSaleOutlined";
import PostAddOutlined from "@mui/icons-material/PostAddOutlined";
import ReceiptLongOutlined from "@mui/icons-material/ReceiptLongOutlined";
import ReceiptOutlined from "@mui/icons-material/ReceiptOutlined";
import ReportProblemOutlined from "@mui/icons-material/ReportProblemOutlined";
import RequestPageOutlined from "@mui/icons-material/RequestPageOutlined";
import RequestQuoteOutlined from "@mui/icons-material/RequestQuoteOutlined";
import RuleOutlined from "@mui/icons-material/RuleOutlined";
import SavingsOutlined from "@mui/icons-material/SavingsOutlined";
import SellOutlined from "@mui/icons-material/SellOutlined";
import ShoppingBagOutlined from "@mui/icons-material/ShoppingBagOutlined";
import ShoppingCartOutlined from "@mui/icons-material/ShoppingCartOutlined";
import StackedBarChartOutlined from "@mui/icons-material/StackedBarChartOutlined";
import StickyNote2Outlined from "@mui/icons-material/StickyNote2Outlined";
import StorefrontOutlined from "@mui/icons-material/StorefrontOutlined";
import StoreOutlined from "@mui/icons-material/StoreOutlined";
import SwapHorizOutlined from "@mui/icons-material/SwapHorizOutlined";
import SyncProblemOutlined from "@mui/icons-material/SyncProblemOutlined";
import TuneOutlined from "@mui/icons-material/TuneOutlined";
import WarehouseOutlined from "@mui/icons-material/WarehouseOutlined";
import WorkOutlined from "@mui/icons-material/WorkOutlined";
import WorkspacesOutlined from "@mui/icons-material/WorkspacesOutlined";
import type { QueryClient } from "@tanstack/react-query";
import {
  type Decision,
  decide,
  listDecision,
  type Member,
  type Requirement,
  STORAGE_ACTIONS,
} from "@workmetrics/domain";
import { CONVERSATION_READ } from "@workmetrics/domain/commands/inbox";
import { OFFLINE_CONFLICT_ACCESS } from "@workmetrics/domain/commands/roleapps";
import { REPORT_ACCESS, STOCK_ACCESS } from "@workmetrics/domain/reports";
import { BOOKS_ACCESS } from "@workmetrics/domain/resources/books";
import { type CatalogEntry, catalogByRoute } from "@workmetrics/domain/resources/catalog";
import { CHALLENGE_ACCESS } from "@workmetrics/domain/resources/challenge";
import { HR_ACCESS } from "@workmetrics/domain/resources/hr";
import { MARKETPLACE_ACCESS } from "@workmetrics/domain/resources/marketplace";
import { type ComponentType, type LazyExoticComponent, lazy } from "react";
import { registerDocumentExtensions } from "../modules/documents/extensions.ts";
import { discountFormsAccess } from "../modules/partners/access.ts";
import type { DataProvider } from "../platform/data-access/provider.ts";

export type NavSection =
  | "Overview"
  | "Sales"
  | "Purchasing"
  | "Inventory"
  | "Projects"
  | "HR"
  | "Accounting"
  | "Marketplace"
  | "Channels"
  | "Administration"
  | "Platform"
  | "Settings";

type Page = LazyExoticComponent<ComponentType>;

// A page under a module's path (":id", "new", ":id/edit"); the module's own component is its index page.
export type ChildPage = { path: string; component: Page };

// One entry per dashboard module that exists; the router, the navigation and the page's gate are all built from
// this list, and whether a member may open it is the domain's one access rule (issue 9).
export type AppModule = {
  path: string; // under /dashboard; "" is the home page
  title: string;
  icon: SvgIconComponent;
  section: NavSection;
  access(who: Member): Decision; // refused for lack of a tier: shown locked; for any other reason: not shown
  hidden?: boolean; // routed but not listed in the navigation
  component: Page;
  children?: ChildPage[];
  resource?: CatalogEntry; // served by the generic resource pages; `path` is its route
  prefetch?: (qc: QueryClient, data: DataProvider, who: Member) => void; // fetch the page's code and first data ahead of a click
  badge?: ComponentType; // a live count beside the entry in the navigation (the marketplace chat's unread)
};

export const SECTION_ORDER: NavSection[] = [
  "Overview",
  "Sales",
  "Purchasing",
  "Inventory",
  "Projects",
  "HR",
  "Accounting",
  "Marketplace",
  "Channels",
  "Administration",
  "Platform",
  "Settings",
];

// The generic list, detail and form pages serve every resource with a route (DESIGN §2.3). The navigation reads
// the light catalog (title, who may use it), so the first bundle needs no registry.
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

const requires =
  (need: Requirement) =>
  (who: Member): Decision =>
    decide(who, need);

const SIGNED_IN: Requirement = { audience: "signed_in", does: "use this" };

function resource(path: string, icon: SvgIconComponent, section: NavSection): AppModule {
  const entry = catalogByRoute(path);
  if (!entry) throw new Error(`No resource has the route ${path}`);
  return {
    path,
    title: entry.plural,
    icon,
    section,
    resource: entry,
    access: (who) => listDecision(who, entry),
    component: ResourceList,
    prefetch: (qc, data, who) =>
      void loadList()
        .then(() => import("../platform/resource/hooks.ts"))
        .then((m) => m.prefetchFirstPage(qc, data, path, who))
        .catch(() => undefined),
    children: [
      { path: "new", component: ResourceForm },
      { path: ":id", component: ResourceShow },
      { path: ":id/edit", component: ResourceForm },
    ],
  };
}

// A document type (issue 10 §3): its list is the generic list with the document filters and totals; new and
// existing documents open the one document page, which reads the type's declarations.
const loadDocumentList = () => import("../modules/documents/DocumentList.tsx");
const loadDocumentPage = () => import("../modules/documents/DocumentPage.tsx");
const DocumentList = lazy(loadDocumentList);
const DocumentPage = lazy(loadDocumentPage);

// Modules extend the document pages of the types they add to (issue 20 §5, as addEffect does on the server): each
// module's buttons and editors load with the document pages, not with the app.
registerDocumentExtensions(() => import("../modules/claims/documents.ts"));
registerDocumentExtensions(() => import("../modules/payables/documents.ts"));
registerDocumentExtensions(() => import("../modules/stock/documents.ts"));
registerDocumentExtensions(() => import("../modules/warehouse/documents.ts"));
registerDocumentExtensions(() => import("../modules/inbox/documents.ts")); // issue 24: a document's conversations
registerDocumentExtensions(() => import("../modules/delivery/documents.ts")); // issue 22: proof of delivery, dispatch
registerDocumentExtensions(() => import("../modules/expense/documents.ts")); // issue 24: an expense claim's receipts
registerDocumentExtensions(() => import("../modules/scan/documents.ts")); // issue 24: scan a supplier invoice

function documentModule(path: string, icon: SvgIconComponent, section: NavSection): AppModule {
  const m = resource(path, icon, section);
  return {
    ...m,
    component: DocumentList,
    prefetch: (qc, data, who) =>
      void loadDocumentList()
        .then(() => import("../platform/resource/hooks.ts"))
        .then((h) => h.prefetchFirstPage(qc, data, path, who))
        .catch(() => undefined),
    children: [
      { path: "new", component: DocumentPage },
      { path: ":id", component: DocumentPage },
      { path: ":id/edit", component: DocumentPage },
    ],
  };
}

// The platform operator's pages over every workspace (issue 4 item 9): workspace members never see them, even
// where they may read a row of their own there (their credits and plan are on the workspace settings page).
const platform = (path: string, icon: SvgIconComponent): AppModule => {
  const m = resource(path, icon, "Platform");
  return { ...m, access: requires({ audience: "operator", does: `manage ${m.title.toLowerCase()}` }) };
};

export const MODULES: AppModule[] = [
  {
    path: "",
    title: "Dashboard",
    icon: DashboardOutlined,
    section: "Overview",
    access: requires(SIGNED_IN),
    component: lazy(() => import("../modules/home/Home.tsx")),
  },
  {
    path: "my-files",
    title: "My files",
    icon: FolderOutlined,
    section: "Overview",
    access: requires(STORAGE_ACTIONS["file.read"]),
    component: lazy(() => import("../modules/files/MyFiles.tsx")),
  },
  resource("companies", BusinessOutlined, "Sales"),
  resource("contacts", ContactsOutlined, "Sales"),
  resource("memos", StickyNote2Outlined, "Sales"),
  documentModule("quotations", RequestQuoteOutlined, "Sales"),
  documentModule("sales-orders", ShoppingCartOutlined, "Sales"),
  documentModule("delivery-orders", LocalShippingOutlined, "Sales"),
  documentModule("orders", AssignmentOutlined, "Sales"),
  {
    ...resource("order-forms", DynamicFormOutlined, "Sales"),
    component: lazy(() => import("../modules/orders/OrderForms.tsx")),
  },
  documentModule("delivery-instructions", ChecklistOutlined, "Sales"),
  documentModule("invoices", ReceiptLongOutlined, "Sales"),
  documentModule("credit-notes", CreditScoreOutlined, "Sales"),
  documentModule("debit-notes", PostAddOutlined, "Sales"),
  documentModule("goods-return-notes", AssignmentReturnOutlined, "Sales"),
  // Issue 22: the point of sale's orders and sessions (Premium), written at the counter and read here.
  {
    ...resource("pos-orders", PointOfSaleOutlined, "Sales"),
    // An order's page adds its lines and payments under the generic record.
    children: [
      { path: "new", component: ResourceForm },
      { path: ":id", component: lazy(() => import("../modules/pos/PosOrderShow.tsx")) },
      { path: ":id/edit", component: ResourceForm },
    ],
  },
  resource("pos-sessions", SavingsOutlined, "Sales"),
  {
    path: "accounts-receivable",
    title: "Accounts receivable",
    icon: AccountBalanceWalletOutlined,
    section: "Sales",
    access: requires(REPORT_ACCESS.ar_ageing),
    component: lazy(() => import("../modules/receivables/ReceivablesPage.tsx")),
  },
  // Issue 12: the team challenge with its live leaderboards (HR, Pro); its calendar is every member's (each event
  // under its document's read permission), so it is a module of its own under the challenge's path.
  {
    path: "team-challenge",
    title: "Team challenge",
    icon: EmojiEventsOutlined,
    section: "Sales",
    access: requires(CHALLENGE_ACCESS.read),
    component: lazy(() => import("../modules/challenge/TeamChallengePage.tsx")),
  },
  {
    path: "team-challenge/calendar",
    title: "Calendar",
    icon: CalendarMonthOutlined,
    section: "Overview",
    access: requires(CHALLENGE_ACCESS.calendar),
    component: lazy(() => import("../modules/challenge/CalendarPage.tsx")),
  },
  documentModule("purchase-orders", ShoppingBagOutlined, "Purchasing"),
  documentModule("supplier-delivery-orders", MoveToInboxOutlined, "Purchasing"),
  documentModule("supplier-invoices", ReceiptOutlined, "Purchasing"),
  // Issue 11: the supplier invoices held by the three-way check, what is owed to suppliers and paid, and the
  // suppliers' delivery orders attached to receipts.
  {
    path: "three-way-check",
    title: "Three-way check",
    icon: FactCheckOutlined,
    section: "Purchasing",
    access: requires(REPORT_ACCESS.three_way_check),
    component: lazy(() => import("../modules/three-way/ThreeWayPage.tsx")),
  },
  {
    path: "accounts-payable",
    title: "Accounts payable",
    icon: AccountBalanceOutlined,
    section: "Purchasing",
    access: requires(REPORT_ACCESS.ap_ageing),
    component: lazy(() => import("../modules/payables/PayablesPage.tsx")),
  },
  {
    path: "supplier-delivery-order-attachment-files",
    title: "Receipt attachments",
    icon: AttachFileOutlined,
    section: "Purchasing",
    access: (who) => {
      const files = decide(who, STORAGE_ACTIONS["file.read"]);
      return files.allowed ? decide(who, REPORT_ACCESS.supplier_receipt_files) : files;
    },
    component: lazy(() => import("../modules/receipt-files/ReceiptFilesPage.tsx")),
  },
  // Issue 11: staff list every request; a supplier user sees the ones addressed to their company.
  {
    ...resource("supplier-discount-forms", DiscountOutlined, "Purchasing"),
    access: discountFormsAccess,
    component: lazy(() => import("../modules/partners/SupplierDiscountForms.tsx")),
    children: ["new", ":id", ":id/edit"].map((path) => ({
      path,
      component: lazy(() => import("../modules/partners/DiscountFormPage.tsx")),
    })),
  },
  // Issue 12 "Books": the journal (manual entries), the chart of accounts, the bank accounts, and the lock date,
  // year-end close and opening balances.
  {
    path: "journal",
    title: "Journal",
    icon: MenuBookOutlined,
    section: "Accounting",
    access: requires(BOOKS_ACCESS.readJournal),
    component: lazy(() => import("../modules/books/JournalPage.tsx")),
  },
  {
    path: "chart-of-accounts",
    title: "Chart of accounts",
    icon: AccountTreeOutlined,
    section: "Accounting",
    access: requires(BOOKS_ACCESS.readAccounts),
    component: lazy(() => import("../modules/books/ChartOfAccountsPage.tsx")),
  },
  {
    path: "bank-accounts",
    title: "Bank accounts",
    icon: AccountBalanceOutlined,
    section: "Accounting",
    access: requires(BOOKS_ACCESS.readBankAccounts),
    component: lazy(() => import("../modules/books/BankAccountsPage.tsx")),
  },
  {
    path: "period-close",
    title: "Period close",
    icon: LockClockOutlined,
    section: "Accounting",
    access: requires(BOOKS_ACCESS.readAccounts),
    component: lazy(() => import("../modules/books/PeriodClosePage.tsx")),
  },
  // Issue 12: every report by area. Open when the member may read at least one report; otherwise refused for the
  // reason the financial reports give (a tier lock shows the upgrade).
  {
    path: "reports",
    title: "Reports",
    icon: InsightsOutlined,
    section: "Accounting",
    access: (who) => {
      const decisions = Object.values(REPORT_ACCESS).map((need) => decide(who, need));
      return decisions.find((d) => d.allowed) ?? decide(who, REPORT_ACCESS.trial_balance);
    },
    component: lazy(() => import("../modules/reports/ReportsPage.tsx")),
    children: [
      { path: ":name", component: lazy(() => import("../modules/reports/ReportPage.tsx")) },
      // Issue 12 "Commission": the statements page (a static path, so it wins over :name).
      { path: "commission", component: lazy(() => import("../modules/commission/CommissionPage.tsx")) },
    ],
  },
  {
    ...resource("products", Inventory2Outlined, "Inventory"),
    // A product's page adds its stock per location (the stock module's panel under the generic record).
    children: [
      { path: "new", component: ResourceForm },
      { path: ":id", component: lazy(() => import("../modules/stock/ProductShow.tsx")) },
      { path: ":id/edit", component: ResourceForm },
    ],
  },
  resource("categorys", CategoryOutlined, "Inventory"),
  resource("brands", LocalOfferOutlined, "Inventory"),
  resource("services", HandymanOutlined, "Inventory"),
  resource("locations", WarehouseOutlined, "Inventory"),
  {
    path: "stock-levels",
    title: "Stock levels",
    icon: StackedBarChartOutlined,
    section: "Inventory",
    access: requires(STOCK_ACCESS),
    component: lazy(() => import("../modules/stock/StockLevelsPage.tsx")),
    children: [{ path: ":id", component: lazy(() => import("../modules/stock/StockCardPage.tsx")) }],
  },
  resource("reorder-levels", TuneOutlined, "Inventory"),
  documentModule("goods-transfer-forms", SwapHorizOutlined, "Inventory"),
  documentModule("loan-forms", HandshakeOutlined, "Inventory"),
  // Issue 22 "Warehouse": what the warehouse app picks and counts; a manager applies a count's differences here.
  documentModule("pick-lists", ChecklistOutlined, "Inventory"),
  documentModule("stock-counts", FactCheckOutlined, "Inventory"),
  resource("product-bins", Inventory2Outlined, "Inventory"),
  // Issue 21 §4: HR (Pro) — every member's leave page, the staff directory, the leave requests they may read, and
  // the leave types and public holidays HR keeps.
  {
    path: "hr",
    title: "Leave",
    icon: BeachAccessOutlined,
    section: "HR",
    access: requires(HR_ACCESS.use),
    component: lazy(() => import("../modules/hr/LeavePage.tsx")),
  },
  // Issue 24: expense claims (Premium's "shipping and expense") — every employee's own receipts, approved by managers.
  documentModule("expense-claims", RequestPageOutlined, "HR"),
  // Issue 24: the inbox (Premium, communication channels) — WhatsApp, Facebook and Instagram conversations beside
  // the documents they lead to — and the channel accounts it receives on (/dashboard/cca).
  {
    path: "inbox",
    title: "Inbox",
    icon: ForumOutlined,
    section: "Channels",
    access: requires(CONVERSATION_READ),
    component: lazy(() => import("../modules/inbox/InboxPage.tsx")),
  },
  {
    path: "cca",
    title: "Channel accounts",
    icon: HubOutlined,
    section: "Channels",
    access: requires({
      audience: "member",
      permission: "channel_account.read",
      does: "read channel accounts",
      feature: "communication_channels",
    }),
    component: lazy(() => import("../modules/inbox/ChannelsPage.tsx")),
  },
  resource("employees", BadgeOutlined, "HR"),
  resource("leave-requests", EventBusyOutlined, "HR"),
  resource("leave-types", CategoryOutlined, "HR"),
  resource("public-holidays", CelebrationOutlined, "HR"),
  // Issue 23: the marketplace (Premium) — browse and buy, the seller's listings and profile, orders both ways, chat.
  {
    path: "marketplace",
    title: "Marketplace",
    icon: StorefrontOutlined,
    section: "Marketplace",
    access: requires(MARKETPLACE_ACCESS.browse),
    component: lazy(() => import("../modules/marketplace/BrowsePage.tsx")),
  },
  {
    path: "marketplace-sales-order",
    title: "Marketplace orders",
    icon: ShoppingBagOutlined,
    section: "Marketplace",
    access: requires(MARKETPLACE_ACCESS.orders),
    component: lazy(() => import("../modules/marketplace/OrdersPage.tsx")),
  },
  {
    path: "marketplace-chat",
    title: "Marketplace chat",
    icon: ForumOutlined,
    section: "Marketplace",
    access: requires(MARKETPLACE_ACCESS.readChat),
    component: lazy(() => import("../modules/marketplace/ChatPage.tsx")),
    badge: lazy(() => import("../modules/marketplace/UnreadBadge.tsx")),
  },
  {
    path: "marketplace-product",
    title: "Listings",
    icon: StoreOutlined,
    section: "Marketplace",
    access: requires(MARKETPLACE_ACCESS.browse),
    component: lazy(() => import("../modules/marketplace/ListingsPage.tsx")),
  },
  {
    path: "marketplace-account",
    title: "Seller profile",
    icon: ManageAccountsOutlined,
    section: "Marketplace",
    access: requires(MARKETPLACE_ACCESS.browse),
    component: lazy(() => import("../modules/marketplace/AccountPage.tsx")),
  },
  resource("projects", WorkOutlined, "Projects"),
  // Issue 12: progressive claims with retention (projects feature, Pro).
  documentModule("progressive-claims", EngineeringOutlined, "Projects"),
  resource("project-brands", SellOutlined, "Projects"),
  resource("project-currencies", PaidOutlined, "Projects"),
  resource("currency-factors", CurrencyExchangeOutlined, "Projects"),
  resource("project-groups", WorkspacesOutlined, "Projects"),
  {
    ...resource("project-registrations", HowToRegOutlined, "Projects"),
    // A registration opens on its review page; the generic new and edit pages say it is not written there.
    children: [
      { path: "new", component: ResourceForm },
      { path: ":id", component: lazy(() => import("../modules/partners/RegistrationReview.tsx")) },
      { path: ":id/edit", component: ResourceForm },
    ],
  },
  {
    ...resource("users", PeopleOutlined, "Administration"),
    component: lazy(() => import("../modules/users/UsersPage.tsx")),
  },
  resource("roles", AdminPanelSettingsOutlined, "Administration"),
  resource("feedbacks", FeedbackOutlined, "Administration"),
  // Issue 22: what the role apps did offline and the server refused on replay, for owners and admins to resolve.
  {
    path: "offline-conflicts",
    title: "Offline conflicts",
    icon: SyncProblemOutlined,
    section: "Administration",
    access: requires(OFFLINE_CONFLICT_ACCESS),
    component: lazy(() => import("../modules/roleapps/OfflineConflictsPage.tsx")),
  },
  {
    path: "permissions",
    title: "Permissions",
    icon: RuleOutlined,
    section: "Administration",
    // The matrix edits roles: custom roles are a Pro feature, as on the Roles page.
    access: requires({
      audience: "member",
      permission: "workspace_role.update",
      feature: "roles",
      does: "change role permissions",
      subject: "Permissions",
    }),
    component: lazy(() => import("../modules/permissions/PermissionsPage.tsx")),
  },
  {
    path: "settings/workspace",
    title: "Workspace settings",
    icon: TuneOutlined,
    section: "Settings",
    access: requires({ audience: "member", permission: "workspace.update", does: "change the workspace settings" }),
    component: lazy(() => import("../modules/workspace/WorkspaceSettings.tsx")),
  },
  platform("workspaces", DomainOutlined),
  platform("tiers", LayersOutlined),
  platform("coupons", ConfirmationNumberOutlined),
  platform("banners", CampaignOutlined),
  platform("credits", SavingsOutlined),
  platform("case-studies", AutoStoriesOutlined),
  platform("demo-requests", EventAvailableOutlined),
  {
    // Issue 20 §1: jobs that failed (dead, or waiting for a retry) across the platform, and a retry.
    path: "failed-jobs",
    title: "Failed jobs",
    icon: ReportProblemOutlined,
    section: "Platform",
    access: requires({ audience: "operator", does: "see the failed jobs" }),
    component: lazy(() => import("../modules/platform-jobs/FailedJobsPage.tsx")),
  },
  {
    path: "settings/account",
    title: "My account",
    icon: ManageAccountsOutlined,
    section: "Settings",
    access: requires(SIGNED_IN),
    component: lazy(() => import("../modules/account/AccountSettings.tsx")),
  },
];
