import { ROLE, TIER, TIERS } from "@workmetrics/domain";
import {
  authUser,
  banner,
  caseStudy,
  company,
  contact,
  coupon,
  demoRequest,
  subscription,
  user,
  workspace,
} from "@workmetrics/domain/db/schema";
import { and, eq } from "drizzle-orm";
import { hashPassword } from "../auth/password.ts";
import type { FileStore } from "../storage/disk.ts";
import type { Db, Tx } from "./database.ts";
import { seedBooks } from "./demo-books.ts";
import { seedChallenge } from "./demo-challenge.ts";
import { seedClaims } from "./demo-claims.ts";
import { seedCommission } from "./demo-commission.ts";
import { seedDriverTrip } from "./demo-driver.ts";
import { seedExpense } from "./demo-expense.ts";
import { seedHr } from "./demo-hr.ts";
import { seedInbox } from "./demo-inbox.ts";
import { ORCHARD_WORKSPACE } from "./demo-marketplace.ts";
import { seedMarketplace } from "./demo-marketplace-trade.ts";
import { seedPos } from "./demo-pos.ts";
import { seedPurchasing } from "./demo-purchasing.ts";
import { seedTrading } from "./demo-trading.ts";
import { seedMasterData } from "./master-seed.ts";
import { setUpWorkspace } from "./workspace-setup.ts";

const PRODUCT_COUNT = { demo: 320, pro: 180, lite: 90 } as const;

export const DEMO_PASSWORD = "demo-pass-2026";

type SeedUser = { local: string; name: string; roleId: number };

const FULL_TEAM: SeedUser[] = [
  { local: "owner", name: "Olivia Tan", roleId: ROLE.Owner },
  { local: "admin", name: "Aaron Lim", roleId: ROLE.Admin },
  { local: "manager", name: "Mei Ling Ng", roleId: ROLE.SalesManager },
  { local: "sales", name: "Samuel Goh", roleId: ROLE.Salesperson },
  { local: "driver", name: "Dinesh Kumar", roleId: ROLE.Driver },
  { local: "warehouse", name: "Wei Jie Koh", roleId: ROLE.WarehouseStaff },
  { local: "pos", name: "Priya Nair", roleId: ROLE.PosStaff },
  { local: "finance", name: "Farah Aziz", roleId: 40 },
  { local: "procurement", name: "Patrick Chua", roleId: 41 },
  { local: "accounts", name: "Alicia Teo", roleId: 42 },
  { local: "supplier", name: "Steven Ho", roleId: 43 },
];
const SMALL_TEAM = FULL_TEAM.filter((u) => ["owner", "admin", "driver", "warehouse", "pos"].includes(u.local));

// DESIGN §3.2: three workspaces of the three tiers.
const WORKSPACES = [
  {
    slug: "demo",
    name: "Harbourline Trading Pte Ltd",
    tierId: TIER.Premium,
    domain: "demo.test",
    team: FULL_TEAM,
    colors: ["Blue", "Black"],
    business: {
      businessAddress: "21 Tuas Avenue 3\n#02-10\nSingapore 639415",
      uen: "201712345K",
      gstRegistrationNumber: "201712345K",
    },
  },
  {
    slug: "pro",
    name: "Kallang Fixtures Pte Ltd",
    tierId: TIER.Pro,
    domain: "pro.test",
    team: SMALL_TEAM,
    colors: ["Green", "-"],
    business: { businessAddress: "33 Kallang Place\nSingapore 339167", uen: "201598765M", gstRegistrationNumber: null },
  },
  {
    slug: "lite",
    name: "Tiong Bahru Supplies",
    tierId: TIER.Lite,
    domain: "lite.test",
    team: SMALL_TEAM,
    colors: ["-", "-"],
    business: { businessAddress: null, uen: null, gstRegistrationNumber: null },
  },
] as const;

const SUPPLIER_ROLE = 43; // spec §3: the supplier role has no fixed id; ours (roles.ts)

const COMPANIES = [
  {
    name: "Marina Bay Hotels Pte Ltd",
    uen: "201812345K",
    isCustomer: true,
    isSupplier: false,
    paymentTermsDays: 30,
    creditLimit: "50000",
  },
  {
    name: "Jurong Engineering Works",
    uen: "199904567M",
    isCustomer: true,
    isSupplier: false,
    paymentTermsDays: 45,
    creditLimit: "80000",
  },
  {
    name: "Orchard Retail Group",
    uen: "200511223D",
    isCustomer: true,
    isSupplier: false,
    paymentTermsDays: 30,
    creditLimit: "25000",
  },
  {
    name: "Pasir Panjang Logistics",
    uen: "201600998R",
    isCustomer: false,
    isSupplier: true,
    paymentTermsDays: 30,
    creditLimit: null,
  },
  {
    name: "Tuas Steel Supply Co",
    uen: "198700321Z",
    isCustomer: false,
    isSupplier: true,
    paymentTermsDays: 60,
    creditLimit: null,
  },
  {
    name: "Changi Office Solutions",
    uen: "201233445W",
    isCustomer: true,
    isSupplier: true,
    paymentTermsDays: 14,
    creditLimit: "10000",
  },
];

const CASE_STUDIES = [
  {
    title: "From spreadsheets to same-day invoicing",
    companyName: "Harbourline Trading",
    industry: "Wholesale distribution",
    summary:
      "A 40-person distributor replaced four spreadsheets and an ageing accounting package. Quotes now become sales orders, delivery orders and invoices without retyping a line.",
    quote: "Our drivers close deliveries on their phones and the invoice is out before they are back at the depot.",
    quoteAuthor: "Olivia Tan, Managing Director",
    metricValue: "3 days → same day",
    metricLabel: "order to invoice",
    sortOrder: 1,
  },
  {
    title: "Three-way check that finance trusts",
    companyName: "Kallang Fixtures",
    industry: "Building fittings",
    summary:
      "Purchase orders, supplier delivery orders and supplier invoices are matched line by line, so the team only looks at the exceptions before paying.",
    quote: "We stopped paying for goods that never arrived. The three-way check paid for the subscription in a month.",
    quoteAuthor: "Farah Aziz, Finance Manager",
    metricValue: "92%",
    metricLabel: "of supplier invoices matched automatically",
    sortOrder: 2,
  },
  {
    title: "One inbox for every customer conversation",
    companyName: "Orchard Retail Group",
    industry: "Retail",
    summary:
      "WhatsApp, Facebook, Instagram and Outlook messages land in one shared inbox, linked to the customer and their open quotations.",
    quote: "Nobody asks 'who replied to this customer?' any more — it is all in one place.",
    quoteAuthor: "Samuel Goh, Sales Lead",
    metricValue: "2×",
    metricLabel: "faster first reply",
    sortOrder: 3,
  },
];

// The operator's home lists the demo requests still to answer: two waiting, one answered.
const day = 24 * 60 * 60 * 1000;
const DEMO_REQUESTS = [
  {
    name: "Hui Min Chua",
    email: "huimin@tampines-tiles.example",
    companyName: "Tampines Tiles Pte Ltd",
    companySize: "16-50",
    interest: "Sales and invoicing",
    message: "We quote from spreadsheets today and re-key every order.",
    createdAt: new Date(Date.now() - 3 * day),
  },
  {
    name: "Rajesh Pillai",
    email: "rajesh@jurong-hardware.example",
    companyName: "Jurong Hardware Supply",
    companySize: "1-15",
    interest: "Purchasing and inventory",
    message: null,
    createdAt: new Date(Date.now() - day),
  },
  {
    name: "Grace Lee",
    email: "grace@marina-fitout.example",
    companyName: "Marina Fit-Out",
    companySize: "51-200",
    interest: "Projects and claims",
    message: "Booked a call for Thursday.",
    createdAt: new Date(Date.now() - 10 * day),
    handledAt: new Date(Date.now() - 8 * day),
  },
];

const BANNERS = [
  {
    title: "New: progressive claims for project billing",
    body: "Bill projects in stages with retention tracked for you.",
    linkUrl: "/book-a-demo",
    linkLabel: "See it in a demo",
    placement: "landing",
  },
  {
    title: "Year-end stock take",
    body: "Count every location before 31 December; transfers are frozen on the 31st.",
    linkUrl: null,
    linkLabel: null,
    placement: "dashboard",
  },
];

export type DemoProfile = (typeof WORKSPACES)[number]["slug"];
// The `demo` workspace's spec (Premium, the whole team): what a sandbox copies under a slug of its own.
export const DEMO_WORKSPACE = WORKSPACES[0];
export type WorkspaceSeed = {
  slug: string;
  name: string;
  tierId: number;
  domain: string;
  team: readonly SeedUser[];
  colors: readonly [string, string];
  business: { businessAddress: string | null; uen: string | null; gstRegistrationNumber: string | null };
};

// One workspace of the demo data: its team, master data and (with `trading`) a year of documents, as `profile`
// (demo, pro or lite) shapes them. The demo's own workspaces and a sandbox copy of `demo` (GET /demo) both use it.
export async function seedWorkspace(
  tx: Tx,
  ws: WorkspaceSeed,
  profile: DemoProfile,
  opts: {
    trading: boolean;
    files?: FileStore;
    passwordHash: string;
    now: Date;
    extra?: Partial<typeof workspace.$inferInsert>;
  },
): Promise<string> {
  const { passwordHash, now } = opts;
  const [created] = await tx
    .insert(workspace)
    .values({
      slug: ws.slug,
      name: ws.name,
      tierId: ws.tierId,
      primaryColor: ws.colors[0],
      secondaryColor: ws.colors[1],
      ...ws.business,
      ...opts.extra,
    })
    .returning({ id: workspace.id });
  const roles = await setUpWorkspace(tx, created.id);
  const plan = TIERS.find((t) => t.id === ws.tierId)!;
  await tx.insert(subscription).values({
    workspaceId: created.id,
    tierId: plan.id,
    cycle: "yearly",
    listPrice: plan.yearlyPrice,
    price: plan.yearlyPrice,
  });
  for (const member of ws.team) {
    const email = `${member.local}@${ws.domain}`;
    const [au] = await tx
      .insert(authUser)
      .values({
        email,
        encryptedPassword: passwordHash,
        emailConfirmedAt: now,
        appMetadata: { provider: "email", providers: ["email"] },
        userMetadata: { name: member.name },
      })
      .returning({ id: authUser.id });
    await tx.insert(user).values({
      workspaceId: created.id,
      id: au.id,
      slug: `${member.local}-${ws.slug}`,
      name: member.name,
      email,
      roleId: member.roleId,
      workspaceRoleId: roles.get(member.roleId),
    });
    if (member.roleId === ROLE.Owner) {
      await tx.update(workspace).set({ userId: au.id }).where(eq(workspace.id, created.id));
    }
  }
  await tx.insert(company).values(COMPANIES.map((c) => ({ ...c, workspaceId: created.id })));
  await seedMasterData(tx, created.id, profile, PRODUCT_COUNT[profile]);
  // A supplier's user belongs to a supplier company through a contact with their e-mail (issue 11: they answer
  // the discount requests addressed to it): the demo's is Tuas Steel's.
  const supplierUser = ws.team.find((m) => m.roleId === SUPPLIER_ROLE);
  if (supplierUser) {
    const [steel] = await tx
      .select({ id: company.id })
      .from(company)
      .where(and(eq(company.workspaceId, created.id), eq(company.name, "Tuas Steel Supply Co")));
    await tx.insert(contact).values({
      workspaceId: created.id,
      companyId: steel.id,
      name: supplierUser.name,
      email: `${supplierUser.local}@${ws.domain}`,
      position: "Sales Executive",
    });
  }
  await seedHr(tx, created.id, profile); // issue 21 §4: staff, leave and holidays (people, not trading)
  if (opts.trading) await seedTrading(tx, created.id, profile);
  if (opts.trading) await seedPurchasing(tx, created.id, profile, opts.files);
  // Issue 12: the books (expenses, bank, opening balances), project claims, challenges and commission.
  // Claims before the books: the overheads are sized on the year's whole gross profit, contract revenue included.
  if (opts.trading) await seedClaims(tx, created.id, profile);
  if (opts.trading) await seedBooks(tx, created.id, profile);
  if (opts.trading) await seedChallenge(tx, created.id, profile);
  if (opts.trading) await seedCommission(tx, created.id, profile);
  if (opts.trading) await seedDriverTrip(tx, created.id, profile); // issue 22: the driver's trip today
  if (opts.trading) await seedPos(tx, created.id, profile); // issue 22: a closed and an open POS session
  if (opts.trading) await seedInbox(tx, created.id, profile); // issue 24: the inbox's conversations
  if (opts.trading) await seedExpense(tx, created.id, profile); // issue 24: expense claims in each state
  return created.id;
}

// DESIGN §3.2: demo data, only on an empty database; running it twice changes nothing.
// `trading`: and a year of documents made through the document commands (demo-trading.ts, demo-purchasing.ts);
// `files`: the file store the receipts' attached scans are written to (none: the receipts go without them).
export async function seedDemo(
  db: Db,
  opts: { trading: boolean; files?: FileStore } = { trading: true },
): Promise<boolean> {
  const existing = await db.select({ id: workspace.id }).from(workspace).where(eq(workspace.slug, "demo")).limit(1);
  if (existing.length > 0) return false;
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  await db.transaction(async (tx) => {
    const now = new Date();
    const ids: Record<string, string> = {};
    for (const ws of WORKSPACES) ids[ws.slug] = await seedWorkspace(tx, ws, ws.slug, { ...opts, passwordHash, now });
    // Issue 23: Orchard Retail Group, demo's buyer on the marketplace (a small business's master data, Premium).
    const orchard = await seedWorkspace(tx, ORCHARD_WORKSPACE, "lite", { ...opts, trading: false, passwordHash, now });
    if (opts.trading) await seedMarketplace(tx, ids.demo, orchard);
    await tx.insert(authUser).values({
      email: "platform@workmetrics.test",
      encryptedPassword: passwordHash,
      emailConfirmedAt: now,
      isPlatformOperator: true,
      appMetadata: { provider: "email", providers: ["email"], platform_operator: true },
      userMetadata: { name: "Platform Operator" },
    });
    await tx.insert(caseStudy).values(CASE_STUDIES);
    await tx.insert(banner).values(BANNERS);
    await tx.insert(demoRequest).values(DEMO_REQUESTS);
    await tx.insert(coupon).values([
      { code: "WELCOME10", kind: "percent", value: "10", usageLimit: 500 },
      { code: "LAUNCH50", kind: "amount", value: "50", usageLimit: 100 },
      { code: "EXPIRED2025", kind: "percent", value: "20", validUntil: new Date("2025-12-31T16:00:00Z") },
    ]);
  });
  return true;
}
