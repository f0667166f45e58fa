// Spec §3 and §9: tier ids, prices, user ranges and features.
export const TIER = { Lite: 10, Pro: 11, Premium: 12 } as const;
export type TierId = (typeof TIER)[keyof typeof TIER];
export type TierSlug = "lite" | "pro" | "premium";

export const FEATURES = {
  erp: "ERP",
  accounting: "Accounting",
  finance: "Finance",
  email_support: "Email support",
  projects: "Projects",
  roles: "Roles",
  hr: "HR",
  crm: "CRM",
  analytics: "Analytics",
  warehouse_tracking: "Warehouse tracking",
  live_support: "Live support",
  ocr: "OCR",
  supplier_discount: "Supplier discount",
  pos: "POS",
  shipping_expense: "Shipping and expense",
  commission: "Commission",
  financial_reports: "Financial reports",
  onedrive: "OneDrive",
  marketplace: "Marketplace",
  communication_channels: "Communication channels",
} as const;
export type Feature = keyof typeof FEATURES;

const LITE: Feature[] = ["erp", "accounting", "finance", "email_support"];
const PRO: Feature[] = [...LITE, "projects", "roles", "hr", "crm", "analytics", "warehouse_tracking", "live_support"];
const PREMIUM: Feature[] = [
  ...PRO,
  "ocr",
  "supplier_discount",
  "pos",
  "shipping_expense",
  "commission",
  "financial_reports",
  "onedrive",
  "marketplace",
  "communication_channels",
];

export type TierDefinition = {
  id: TierId;
  slug: TierSlug;
  title: string;
  monthlyPrice: string;
  yearlyPrice: string;
  minUsers: number;
  maxUsers: number | null;
  features: Feature[];
  storageQuotaMb: number; // every file of the workspace together (issue 9 §3); the tier row may change it
};

export const TIERS: readonly TierDefinition[] = [
  {
    id: TIER.Lite,
    slug: "lite",
    title: "Lite",
    monthlyPrice: "89",
    yearlyPrice: "961.2",
    minUsers: 1,
    maxUsers: 15,
    features: LITE,
    storageQuotaMb: 1024,
  },
  {
    id: TIER.Pro,
    slug: "pro",
    title: "Pro",
    monthlyPrice: "149",
    yearlyPrice: "1609.2",
    minUsers: 15,
    maxUsers: 50,
    features: PRO,
    storageQuotaMb: 10 * 1024,
  },
  {
    id: TIER.Premium,
    slug: "premium",
    title: "Premium",
    monthlyPrice: "249",
    // Spec §9 lists 2988 (= 12 × 249) for Premium although it mentions a 10% discount; the list price stands.
    yearlyPrice: "2988",
    minUsers: 50,
    maxUsers: null,
    features: PREMIUM,
    storageQuotaMb: 100 * 1024,
  },
];

// What paying yearly saves against twelve monthly payments, as a whole percent (0 when nothing).
// Exact integer cents (bigint), so the public pages need not load decimal.js.
export function yearlySavingPercent(monthly: string, yearly: string): number {
  const full = toCents(monthly) * 12n;
  if (full === 0n) return 0;
  const saved = (full - toCents(yearly)) * 100n;
  return Number((saved * 2n + full) / (2n * full)); // half-up
}

export function toCents(amount: string): bigint {
  const m = /^(-?)(\d+)(?:\.(\d{1,2}))?$/.exec(amount.trim());
  if (!m) throw new Error(`Not a money amount: ${amount}`);
  const cents = BigInt(m[2]) * 100n + BigInt((m[3] ?? "").padEnd(2, "0"));
  return m[1] ? -cents : cents;
}

export function tierById(id: number): TierDefinition | undefined {
  return TIERS.find((t) => t.id === id);
}

export function tierHasFeature(features: readonly string[], feature: Feature): boolean {
  return features.includes(feature);
}

// The cheapest tier that includes a feature, for "upgrade to …" messages.
export function lowestTierWith(feature: Feature): TierDefinition {
  const tier = TIERS.find((t) => t.features.includes(feature));
  if (!tier) throw new Error(`No tier includes ${feature}`);
  return tier;
}

export function userRangeLabel(t: Pick<TierDefinition, "minUsers" | "maxUsers">): string {
  return t.maxUsers === null ? `${t.minUsers} users and above` : `${t.minUsers} to ${t.maxUsers} users`;
}

// Money always shows cents, thousands grouped: "961.20", "2,988.00", or "S$89.00" with a currency symbol (issue 9
// §2). Integer cents (bigint), so the public pages need not load decimal.js.
export function formatPrice(value: string, currency = ""): string {
  const cents = toCents(value);
  const abs = cents < 0n ? -cents : cents;
  const whole = (abs / 100n).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  const frac = (abs % 100n).toString().padStart(2, "0");
  return `${cents < 0n ? "-" : ""}${currency}${whole}.${frac}`;
}
