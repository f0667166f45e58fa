import { z } from "zod";
import { DATE_RANGE } from "../brand.ts";
import type { demoRequest } from "../db/platform-schema.ts";

export const COMPANY_SIZES = ["1-15", "16-50", "51-200", "200+"] as const;
export const DEMO_INTERESTS = [
  "Sales and invoicing",
  "Purchasing and inventory",
  "Projects and claims",
  "Everything",
] as const;

const trimmed = (label: string, max: number) =>
  z
    .string({ message: `${label} is required` })
    .trim()
    .min(1, `${label} is required`)
    .max(max, `${label} must be at most ${max} characters`);

// The public booking form. Tied to the table by type only (see the check below), so the landing bundle
// does not carry drizzle; resources of the dashboard derive theirs with drizzle-zod.
export const DemoRequestInput = z.object({
  name: trimmed("Your name", 120),
  email: z.string({ message: "Work e-mail is required" }).trim().toLowerCase().email("Enter a valid e-mail address"),
  phone: z
    .string()
    .trim()
    .max(30, "Phone must be at most 30 characters")
    .regex(/^[+\d][\d\s-]*$|^$/, "Phone may contain digits, spaces, dashes and a leading +")
    .optional()
    .transform((v) => v || undefined),
  companyName: trimmed("Company name", 160),
  companySize: z.enum(COMPANY_SIZES, { message: "Choose your company size" }),
  interest: z.enum(DEMO_INTERESTS, { message: "Choose what you would like to see" }),
  preferredDate: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, "Pick a valid date")
    .refine((d) => d >= DATE_RANGE.min && d <= DATE_RANGE.max, "Pick a date between 1900 and 2099")
    .optional()
    .or(z.literal("").transform(() => undefined)),
  message: z.string().trim().max(2000, "Message must be at most 2000 characters").optional(),
});
export type DemoRequestInput = z.input<typeof DemoRequestInput>;

type DemoRequestColumns = Pick<
  typeof demoRequest.$inferInsert,
  "name" | "email" | "phone" | "companyName" | "companySize" | "interest" | "preferredDate" | "message"
>;
// Fails to compile if the form's output stops fitting the table's insert type.
export const demoRequestFitsTable = (v: z.output<typeof DemoRequestInput>): DemoRequestColumns => v;
