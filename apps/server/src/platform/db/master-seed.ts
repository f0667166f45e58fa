import { ROLE } from "@workmetrics/domain";
import { ean13 } from "@workmetrics/domain/barcode";
import {
  brand,
  category,
  company,
  contact,
  currencyFactor,
  location,
  memo,
  product,
  project,
  projectBrand,
  projectCurrency,
  projectGroup,
  service,
  user,
  workspaceRole,
} from "@workmetrics/domain/db/schema";
import { and, eq } from "drizzle-orm";
import type { Tx } from "./database.ts";

// DESIGN §3.2: master data of a Singapore trading company, so every screen looks like a working business.
// Deterministic (no randomness): the same database every time.

type Family = { category: string; parent: string; unit: string; items: string[]; sizes: string[]; cost: number };

const FAMILIES: Family[] = [
  {
    category: "Bolts & Nuts",
    parent: "Fasteners",
    unit: "box",
    items: ["Hex Bolt", "Coach Bolt", "Hex Nut", "Nyloc Nut"],
    sizes: ["M6", "M8", "M10", "M12", "M16"],
    cost: 8.4,
  },
  {
    category: "Screws",
    parent: "Fasteners",
    unit: "box",
    items: ["Wood Screw", "Self-Drilling Screw", "Machine Screw"],
    sizes: ["4 x 25mm", "4 x 40mm", "5 x 50mm", "6 x 60mm"],
    cost: 6.2,
  },
  {
    category: "Anchors",
    parent: "Fasteners",
    unit: "box",
    items: ["Wall Plug", "Sleeve Anchor", "Chemical Anchor"],
    sizes: ["6mm", "8mm", "10mm"],
    cost: 11.5,
  },
  {
    category: "Power Tools",
    parent: "Tools",
    unit: "pcs",
    items: ["Cordless Drill", "Impact Driver", "Angle Grinder", "Rotary Hammer"],
    sizes: ["12V", "18V", "20V Brushless"],
    cost: 96,
  },
  {
    category: "Hand Tools",
    parent: "Tools",
    unit: "pcs",
    items: ["Claw Hammer", "Spirit Level", "Combination Spanner Set", "Screwdriver Set"],
    sizes: ["Standard", "Pro"],
    cost: 14.8,
  },
  {
    category: "Cables & Wires",
    parent: "Electrical",
    unit: "roll",
    items: ["PVC Cable", "Armoured Cable", "Flexible Cord"],
    sizes: ["1.5mm² 100m", "2.5mm² 100m", "4mm² 50m"],
    cost: 58,
  },
  {
    category: "Switches & Sockets",
    parent: "Electrical",
    unit: "pcs",
    items: ["1-Gang Switch", "2-Gang Switch", "13A Twin Socket", "USB Socket"],
    sizes: ["White", "Black"],
    cost: 7.9,
  },
  {
    category: "Lighting",
    parent: "Electrical",
    unit: "pcs",
    items: ["LED Downlight", "LED Tube", "Floodlight"],
    sizes: ["9W", "18W", "50W"],
    cost: 12.4,
  },
  {
    category: "Pipes & Fittings",
    parent: "Plumbing",
    unit: "pcs",
    items: ["PVC Pipe", "Elbow", "Tee", "Ball Valve"],
    sizes: ['1/2"', '3/4"', '1"', '2"'],
    cost: 4.6,
  },
  {
    category: "Sanitary",
    parent: "Plumbing",
    unit: "pcs",
    items: ["Basin Mixer", "Shower Set", "Floor Trap"],
    sizes: ["Chrome", "Matt Black"],
    cost: 42,
  },
  {
    category: "Safety Wear",
    parent: "Safety",
    unit: "pcs",
    items: ["Safety Helmet", "Safety Boots", "Reflective Vest", "Cut-Resistant Gloves"],
    sizes: ["S", "M", "L", "XL"],
    cost: 9.9,
  },
  {
    category: "Paint & Coatings",
    parent: "Building Materials",
    unit: "tin",
    items: ["Emulsion Paint", "Enamel Paint", "Waterproof Coating"],
    sizes: ["1L", "5L", "18L"],
    cost: 18,
  },
  {
    category: "Adhesives & Sealants",
    parent: "Building Materials",
    unit: "pcs",
    items: ["Silicone Sealant", "Construction Adhesive", "PU Foam"],
    sizes: ["300ml", "750ml"],
    cost: 5.4,
  },
];

const BRANDS = [
  "Bosch",
  "Makita",
  "Stanley",
  "3M",
  "Schneider Electric",
  "Philips",
  "Legrand",
  "Hafele",
  "Nippon Paint",
  "Sika",
  "Fischer",
  "Grohe",
];

const LOCATIONS = [
  { code: "WH-TUAS", name: "Tuas Main Warehouse", address: "21 Tuas Avenue 11, Singapore 639084" },
  { code: "WH-UBI", name: "Ubi Distribution Centre", address: "3 Ubi Crescent #02-10, Singapore 408564" },
  { code: "SR-BEN", name: "Bendemeer Showroom", address: "128 Bendemeer Road #01-05, Singapore 339914" },
];

const SERVICES = [
  { code: "SVC-INST", name: "Installation (per hour)", unit: "hour", price: "85.00" },
  { code: "SVC-DEL", name: "Same-day delivery within Singapore", unit: "trip", price: "45.00" },
  { code: "SVC-SITE", name: "Site survey", unit: "visit", price: "150.00" },
  { code: "SVC-TEST", name: "Electrical testing & certification", unit: "job", price: "320.00" },
  { code: "SVC-MAINT", name: "Preventive maintenance contract", unit: "month", price: "480.00" },
  { code: "SVC-CUT", name: "Pipe cutting & threading", unit: "job", price: "35.00" },
  { code: "SVC-RENT", name: "Power tool rental", unit: "day", price: "40.00" },
  { code: "SVC-TRAIN", name: "Workplace safety briefing", unit: "session", price: "250.00" },
];

const PEOPLE = [
  "Jason Lee",
  "Michelle Tan",
  "Ravi Menon",
  "Nurul Huda",
  "Kenneth Ong",
  "Grace Lim",
  "Ahmad Rahman",
  "Jasmine Chen",
  "Vincent Koh",
  "Siti Aminah",
  "Daniel Wong",
  "Rachel Ng",
];
const POSITIONS = [
  "Purchasing Manager",
  "Project Engineer",
  "Accounts Executive",
  "Operations Director",
  "Site Supervisor",
  "Procurement Officer",
];

const money = (n: number) => n.toFixed(2);

export async function seedMasterData(tx: Tx, workspaceId: string, slug: string, productCount: number): Promise<void> {
  const w = { workspaceId };
  // Categories: parents, then their children.
  const parents = [...new Set(FAMILIES.map((f) => f.parent))];
  const parentRows = await tx
    .insert(category)
    .values(parents.map((name) => ({ ...w, name, description: `All ${name.toLowerCase()}` })))
    .returning({ id: category.id, name: category.name });
  const parentId = new Map(parentRows.map((r) => [r.name, r.id]));
  const childRows = await tx
    .insert(category)
    .values(FAMILIES.map((f) => ({ ...w, name: f.category, parentId: parentId.get(f.parent) })))
    .returning({ id: category.id, name: category.name });
  const categoryId = new Map(childRows.map((r) => [r.name, r.id]));
  const brandRows = await tx
    .insert(brand)
    .values(
      BRANDS.map((name) => ({
        ...w,
        name,
        website: `https://www.${name.toLowerCase().replace(/[^a-z0-9]/g, "")}.com`,
      })),
    )
    .returning({ id: brand.id });
  await tx.insert(location).values(LOCATIONS.map((l) => ({ ...w, ...l })));
  await tx.insert(service).values(SERVICES.map((s) => ({ ...w, ...s, description: `${s.name} by our own team` })));

  // Products: every family × item × size, round-robin until the workspace's count.
  const gs1Company = [...slug].reduce((h, c) => (h * 31 + c.charCodeAt(0)) % 10_000, 7);
  // A further company number for each 100,000 items (the bench's large catalogues), so none repeats.
  const barcodeOf = (n: number) =>
    ean13(
      `888${String((gs1Company + Math.floor(n / 100_000)) % 10_000).padStart(4, "0")}${String(n % 100_000).padStart(5, "0")}`,
    );
  const all: Array<typeof product.$inferInsert> = [];
  let n = 0;
  for (let round = 0; all.length < productCount && round < 4; round++) {
    for (const f of FAMILIES) {
      for (const item of f.items) {
        for (const size of f.sizes) {
          if (all.length >= productCount) break;
          n++;
          const grade = ["", " Heavy Duty", " Premium", " Economy"][round];
          const cost =
            f.cost * (1 + ((n * 7) % 23) / 20) * (round === 1 ? 1.4 : round === 2 ? 1.8 : round === 3 ? 0.7 : 1);
          all.push({
            ...w,
            sku: `${f.category.slice(0, 3).toUpperCase()}-${String(n).padStart(4, "0")}`,
            // Issue 22: an EAN-13 on every pack (GS1 Singapore's 888, a company number per workspace, the item).
            barcode: barcodeOf(n),
            name: `${item} ${size}${grade}`,
            description: `${item} (${size}) for trade and project use.`,
            categoryId: categoryId.get(f.category),
            brandId: brandRows[n % brandRows.length].id,
            unit: f.unit,
            cost: money(cost),
            price: money(cost * (1.28 + (n % 5) * 0.04)),
            taxCode: n % 29 === 0 ? "ZR" : "SR",
            isStockTracked: true,
            active: n % 41 !== 0,
          });
        }
      }
    }
  }
  for (let i = 0; i < all.length; i += 500) await tx.insert(product).values(all.slice(i, i + 500));

  // Contacts at the workspace's companies (not the default walk-in customer).
  const companies = await tx
    .select({ id: company.id, name: company.name })
    .from(company)
    .where(eq(company.workspaceId, workspaceId));
  const contacts = companies
    .filter((c) => c.id !== 9)
    .flatMap((c, i) =>
      [0, 1].map((k) => {
        const name = PEOPLE[(i * 2 + k) % PEOPLE.length];
        const domain = c.name
          .toLowerCase()
          .split(" ")[0]
          .replace(/[^a-z]/g, "");
        return {
          ...w,
          companyId: c.id,
          name,
          email: `${name.toLowerCase().replace(/[^a-z]+/g, ".")}@${domain}.com.sg`,
          phone: `+65 ${6100 + ((i * 37 + k * 11) % 900)} ${String(1000 + ((i * 53 + k) % 9000)).slice(0, 4)}`,
          position: POSITIONS[(i + k) % POSITIONS.length],
          isPrimary: k === 0,
        };
      }),
    );
  if (contacts.length) await tx.insert(contact).values(contacts);

  // Memos from the owner: one for everyone, one for the sales team, a draft.
  const [owner] = await tx
    .select({ id: user.id })
    .from(user)
    .where(and(eq(user.workspaceId, workspaceId), eq(user.roleId, ROLE.Owner)));
  const [salesRole] = await tx
    .select({ id: workspaceRole.id })
    .from(workspaceRole)
    .where(and(eq(workspaceRole.workspaceId, workspaceId), eq(workspaceRole.slug, "salesperson")));
  const day = (d: number) => new Date(Date.UTC(2026, 0, 5 + d, 1, 0, 0));
  await tx.insert(memo).values([
    {
      ...w,
      title: "Chinese New Year operating hours",
      body: "The warehouse closes at 1 pm on the eve and reopens on the third day. Please plan deliveries around it.",
      pinned: true,
      publishedAt: day(20),
      authorId: owner?.id,
    },
    {
      ...w,
      title: "New price list from 1 February",
      body: "Updated selling prices for power tools and lighting are in the product list. Quote with the new prices from 1 February.",
      audience: "roles",
      audienceRoleIds: salesRole ? [salesRole.id] : [],
      publishedAt: day(14),
      authorId: owner?.id,
    },
    {
      ...w,
      title: "Safety refresher for warehouse staff",
      body: "Forklift refresher training is on the last Friday of the month at Tuas.",
      publishedAt: day(3),
      authorId: owner?.id,
    },
    {
      ...w,
      title: "Draft: quarterly sales targets",
      body: "Targets per salesperson for Q2 — to be confirmed.",
      authorId: owner?.id,
    },
  ]);

  if (slug === "lite") return; // projects are a Pro feature (spec §9)
  const groups = await tx
    .insert(projectGroup)
    .values([
      { ...w, name: "Commercial fit-outs", description: "Offices and retail units" },
      { ...w, name: "Infrastructure", description: "Public and industrial works" },
    ])
    .returning({ id: projectGroup.id });
  const customers = companies.filter((c) => c.id !== 9);
  const PROJECTS = [
    {
      code: "PRJ-2026-001",
      name: "Marina Bay hotel lobby refurbishment",
      status: "active",
      start: "2026-01-12",
      end: "2026-06-30",
      budget: "480000.00",
    },
    {
      code: "PRJ-2026-002",
      name: "Jurong plant electrical upgrade",
      status: "active",
      start: "2026-02-02",
      end: "2026-09-15",
      budget: "1250000.00",
    },
    {
      code: "PRJ-2026-003",
      name: "Orchard flagship store fit-out",
      status: "planning",
      start: "2026-04-01",
      end: "2026-07-31",
      budget: "320000.00",
    },
    {
      code: "PRJ-2025-014",
      name: "Changi office expansion",
      status: "completed",
      start: "2025-06-01",
      end: "2025-12-20",
      budget: "210000.00",
    },
    {
      code: "PRJ-2025-011",
      name: "Pasir Panjang warehouse racking",
      status: "on_hold",
      start: "2025-09-01",
      end: null,
      budget: "95000.00",
    },
  ] as const;
  const projects = await tx
    .insert(project)
    .values(
      PROJECTS.map((p, i) => ({
        ...w,
        code: p.code,
        name: p.name,
        status: p.status,
        startDate: p.start,
        endDate: p.end,
        budget: p.budget,
        companyId: customers[i % customers.length]?.id,
        projectGroupId: groups[i % 2].id,
        description: `${p.name} — supply of materials and installation.`,
      })),
    )
    .returning({ id: project.id });
  await tx.insert(projectBrand).values(
    projects.flatMap((p, i) =>
      [0, 1].map((k) => ({
        ...w,
        projectId: p.id,
        brandId: brandRows[(i * 2 + k) % brandRows.length].id,
        discountPercent: money(5 + ((i + k) % 4) * 2.5),
      })),
    ),
  );
  await tx.insert(projectCurrency).values(
    projects.flatMap((p, i) => [
      { ...w, projectId: p.id, currency: "SGD", isDefault: true },
      { ...w, projectId: p.id, currency: i % 2 ? "USD" : "MYR" },
    ]),
  );
  await tx.insert(currencyFactor).values(
    projects.map((p, i) => ({
      ...w,
      projectId: p.id,
      currency: i % 2 ? "USD" : "MYR",
      factor: i % 2 ? "1.345000" : "0.298500",
      effectiveDate: "2026-01-02",
    })),
  );
}
