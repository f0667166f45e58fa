import Decimal from "decimal.js";
import { z } from "zod";
import { RESERVED_SLUGS } from "../hosts.ts";
import type { TierDefinition } from "../tiers.ts";

export const SLUG_RULES = "3–30 lower-case letters, digits or dashes, starting with a letter";

// Issue 4 item 3: lower-case, 3–30 characters, unique, not a reserved host word.
export const WorkspaceSlug = z
  .string({ message: "Choose a workspace address" })
  .trim()
  .toLowerCase()
  .min(3, "The address needs at least 3 characters")
  .max(30, "The address can have at most 30 characters")
  .regex(/^[a-z][a-z0-9-]*[a-z0-9]$/, `Use ${SLUG_RULES}, not ending with a dash`)
  .refine((s) => !s.includes("--"), "Use single dashes only")
  .refine((s) => !RESERVED_SLUGS.includes(s), "That address is reserved; choose another");

export const BillingCycle = z.enum(["monthly", "yearly"], { message: "Choose monthly or yearly billing" });
export type BillingCycle = z.infer<typeof BillingCycle>;

export function slugFromName(name: string): string {
  const slug = name
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .replace(/^[^a-z]+/, "")
    .slice(0, 30)
    .replace(/-+$/, "");
  return slug;
}

// Issue 4 item 6: a new company, its owner and its plan.
export const CompanySignupInput = z.object({
  companyName: z.string({ message: "Company name is required" }).trim().min(2, "Company name is required").max(120),
  slug: WorkspaceSlug,
  name: z.string({ message: "Your name is required" }).trim().min(1, "Your name is required").max(120),
  email: z.string({ message: "Work e-mail is required" }).trim().toLowerCase().email("Enter a valid e-mail address"),
  password: z
    .string({ message: "Choose a password" })
    .min(8, "Use at least 8 characters")
    .max(72, "Use at most 72 characters"),
  tierId: z.coerce.number().int(),
  cycle: BillingCycle,
  couponCode: z
    .string()
    .trim()
    .toUpperCase()
    .max(40)
    .optional()
    .transform((v) => v || undefined),
});
export type CompanySignupInput = z.input<typeof CompanySignupInput>;

export type CouponTerms = { code: string; kind: "percent" | "amount"; value: string };
export type PriceQuote = { listPrice: string; discount: string; price: string };

// The price of a plan for a cycle, less a coupon (never below zero), to the cent.
export function quotePrice(
  tier: Pick<TierDefinition, "monthlyPrice" | "yearlyPrice">,
  cycle: BillingCycle,
  coupon?: CouponTerms | null,
): PriceQuote {
  const list = new Decimal(cycle === "monthly" ? tier.monthlyPrice : tier.yearlyPrice);
  let discount = new Decimal(0);
  if (coupon) {
    discount =
      coupon.kind === "percent"
        ? list.times(coupon.value).div(100).toDecimalPlaces(2, Decimal.ROUND_HALF_UP)
        : Decimal.min(list, new Decimal(coupon.value));
  }
  const price = Decimal.max(0, list.minus(discount));
  return { listPrice: list.toFixed(2), discount: discount.toFixed(2), price: price.toFixed(2) };
}
