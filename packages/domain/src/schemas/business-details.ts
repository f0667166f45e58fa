import { z } from "zod";
import { isUen, normalizeUen, UEN_EXAMPLES } from "../uen.ts";

// What a Singapore tax invoice must name of the seller (IRAS): address, UEN and GST registration number. Kept in
// Workspace settings → Business details and printed on every document's letterhead. Empty means "not given".

const optional = (inner: z.ZodType<string, string>) =>
  z
    .string()
    .trim()
    .transform((v) => (v === "" ? null : v))
    .pipe(inner.nullable())
    .nullable()
    .optional()
    .transform((v) => v ?? null);

// IRAS numbers GST registrations either by the UEN or as M + 8 digits + a check letter, written with or without
// dashes (M2-0123456-7, MR-8500001-1): letters, digits and dashes.
const GST_NUMBER = /^[A-Z0-9]{1,3}(-?[A-Z0-9]){6,12}$/;

export const BusinessDetails = z.object({
  business_address: optional(z.string().max(300, "The address must be at most 300 characters")),
  uen: optional(z.string().transform(normalizeUen).refine(isUen, `Enter a UEN like ${UEN_EXAMPLES}`)),
  gst_registration_number: optional(
    z
      .string()
      .transform((v) => v.toUpperCase().replace(/\s+/g, ""))
      .refine(
        (v) => GST_NUMBER.test(v) && v.length <= 15,
        "Enter the GST registration number as IRAS gave it, e.g. M2-0123456-7 or 201912345K",
      ),
  ),
});
export type BusinessDetails = z.infer<typeof BusinessDetails>;
