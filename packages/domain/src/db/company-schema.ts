import { boolean, index, integer, numeric, pgTable, text } from "drizzle-orm/pg-core";
import { searchIndexes, tenantColumns, tenantKeys, timestamps } from "./columns.ts";
import { workspace } from "./platform-schema.ts";

// Customers and suppliers (issue 5 item 5). Its own file so master data and documents import it without going
// through the schema barrel (issue 10 §1: arrows point down).
export const company = pgTable(
  "company",
  {
    ...tenantColumns,
    name: text("name").notNull(),
    uen: text("uen"),
    isCustomer: boolean("is_customer").notNull().default(true),
    isSupplier: boolean("is_supplier").notNull().default(false),
    email: text("email"),
    phone: text("phone"),
    billingAddress: text("billing_address"),
    shippingAddress: text("shipping_address"),
    paymentTermsDays: integer("payment_terms_days").notNull().default(30),
    creditLimit: numeric("credit_limit", { precision: 14, scale: 2 }),
    currency: text("currency").notNull().default("SGD"),
    active: boolean("active").notNull().default(true),
    ...timestamps,
  },
  (t) => [
    ...tenantKeys("company", t, workspace),
    index("company_name_idx").on(t.workspaceId, t.name, t.id),
    ...searchIndexes("company", [t.name, t.uen, t.email, t.phone]),
  ],
).enableRLS();
