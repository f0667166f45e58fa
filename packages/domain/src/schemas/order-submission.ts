import { z } from "zod";
import { Dec } from "../documents/decimal.ts";

// Issue 10 §2: what a customer sends from a public order form (`POST /api/public/order-forms/:token`). The public
// page validates with this very schema; the server then checks each product against the form (on the form, at
// least its minimum) and prices it from the form, never from the request.

const trimmed = (label: string, max: number) =>
  z
    .string({ message: `${label} is required` })
    .trim()
    .min(1, `${label} is required`)
    .max(max, `${label} must be at most ${max} characters`);

const optional = (label: string, max: number) =>
  z
    .string()
    .trim()
    .max(max, `${label} must be at most ${max} characters`)
    .nullish()
    .transform((v) => v || null);

// A quantity: up to 3 decimals (the line's scale), not negative; empty means none of it.
const QUANTITY = /^\d{1,11}(\.\d{1,3})?$/;
export const OrderQuantity = z
  .union([z.string(), z.number()])
  .transform((v) => String(v).trim())
  .refine((v) => v === "" || QUANTITY.test(v), "Enter a quantity such as 2 or 1.5 (at most 3 decimals)")
  .transform((v) => (v === "" ? "0" : v));

export const OrderSubmissionItem = z.object({
  product_id: z.number({ message: "Choose a product of the form" }).int().positive("Choose a product of the form"),
  qty: OrderQuantity,
});

export const MAX_ORDER_ITEMS = 200;

export const OrderSubmission = z.object({
  name: trimmed("Your name", 200),
  company: optional("Company", 200),
  email: z
    .string({ message: "E-mail is required" })
    .trim()
    .toLowerCase()
    .min(1, "E-mail is required")
    .max(254, "E-mail must be at most 254 characters")
    .email("Enter a valid e-mail address"),
  phone: z
    .string()
    .trim()
    .max(40, "Phone must be at most 40 characters")
    .regex(/^$|^[+\d(][\d\s()-]*$/, "Phone may contain digits, spaces, brackets, dashes and a leading +")
    .nullish()
    .transform((v) => v || null),
  delivery_address: trimmed("Delivery address", 2000),
  note: optional("Note", 2000),
  items: z
    .array(OrderSubmissionItem)
    .max(MAX_ORDER_ITEMS, `At most ${MAX_ORDER_ITEMS} products`)
    // An item whose quantity failed its own check is not counted (zod still runs this refine; Dec would throw).
    .refine(
      (items) => items.some((i) => QUANTITY.test(String(i.qty)) && new Dec(i.qty).greaterThan(0)),
      "Enter a quantity for at least one product",
    ),
});

export type OrderSubmission = z.infer<typeof OrderSubmission>;
export type OrderSubmissionInput = z.input<typeof OrderSubmission>;

// What the public page shows (GET): the workspace, the form, its products at the form's prices.
export type PublicOrderForm = {
  workspace: { name: string; logo: string | null; primary_color: string | null; currency: string };
  title: string;
  intro: string | null;
  customer: string | null; // the customer the form is for, when it is for one
  products: Array<{
    product_id: number;
    name: string;
    sku: string | null;
    unit: string | null;
    description: string | null;
    image: string | null;
    price: string;
    min_qty: string;
  }>;
};

export type SubmittedOrder = { number: string; status: string; total: string; currency: string };

// Below its minimum, for the item's quantity field: "The minimum for Widget is 5".
export const belowMinimum = (qty: string, min: string): boolean => {
  const q = new Dec(qty);
  return q.greaterThan(0) && q.lessThan(new Dec(min));
};
