import {
  customerOrder,
  customerOrderLine,
  deliveryInstruction,
  deliveryInstructionLine,
  orderForm,
  orderFormItem,
} from "../db/orders-schema.ts";
import { CUSTOMER_ORDER } from "../documents/types/customer-order.ts";
import { DELIVERY_INSTRUCTION } from "../documents/types/delivery-instruction.ts";
import { CATALOG } from "./catalog.ts";
import { defineResource } from "./define.ts";
import { documentHeaderFields, documentLineFields, documentResources } from "./documents.ts";
import { auditFields, f, idField } from "./fields.ts";

// Issue 10 §2 "Orders and order forms" and "Delivery instructions".

const ro = { readOnly: true };

// An order form is master data, not a document: no number, no statuses, written through /rest/v1 like a product.
// Its token is made by the database and only read (the link staff copy); its products are order_form_item rows.
export const orderFormResource = defineResource({
  ...CATALOG.order_form,
  table: orderForm,
  display: "title",
  search: ["title", "intro"],
  defaultOrder: "id.desc",
  fields: [
    idField(),
    f.name("title", "Title", { required: true, list: true, width: 260 }),
    f.textarea("intro", "Introduction", { help: "Shown above the products on the public form" }),
    f.ref("company_id", "Customer", "company", "name", {
      list: true,
      help: "Only this customer's orders; leave empty for anyone with the link",
    }),
    f.boolean("active", "Active", { list: true, width: 90, help: "A disabled link answers that the form is closed" }),
    f.text("token", "Link token", { ...ro, form: false }),
    ...auditFields,
  ],
  relations: {
    items: { resource: "order_form_item", kind: "many", column: "order_form_id", references: "id" },
    company: { resource: "company", kind: "one", column: "company_id", references: "id" },
  },
});

export const orderFormItemResource = defineResource({
  ...CATALOG.order_form_item,
  table: orderFormItem,
  display: "product_id",
  search: [],
  defaultOrder: "order_form_id.asc,sort_order.asc,id.asc",
  keptCount: false,
  fields: [
    idField(),
    f.ref("order_form_id", "Order form", "order_form", "title", { required: true }),
    f.ref("product_id", "Product", "product", "name", { required: true, list: true }),
    f.money("price", "Price", { required: true, min: 0, list: true }),
    f.number("min_qty", "Minimum quantity", { min: 0, list: true }),
    f.integer("sort_order", "Order on the form"),
    ...auditFields,
  ],
  relations: {
    order_form: { resource: "order_form", kind: "one", column: "order_form_id", references: "id" },
    product: { resource: "product", kind: "one", column: "product_id", references: "id" },
  },
  checks: {
    order_form_item_price_not_negative: { field: "price", message: "The price cannot be less than 0" },
    order_form_item_min_qty_positive: { field: "min_qty", message: "The minimum quantity must be more than 0" },
    order_form_item_product_key: { field: "product_id", message: "This product is already on the form" },
  },
});

// A guest's order has no customer until staff choose one (the confirm guard asks for it).
const customerOptional = (fields: ReturnType<typeof documentHeaderFields>) =>
  fields.map((field) => (field.name === "company_id" ? { ...field, required: false } : field));

export const [customerOrderResource, customerOrderLineResource] = documentResources(
  "customer_order",
  {
    entry: CATALOG.customer_order,
    table: customerOrder,
    fields: customerOptional(
      documentHeaderFields(CUSTOMER_ORDER.statusNames, [
        f.name("customer_name", "Name", { list: true }),
        f.name("customer_company", "Company", { list: true }),
        f.email("customer_email", "E-mail"),
        f.phone("customer_phone", "Phone"),
        f.textarea("delivery_address", "Delivery address", { maxLength: 2000 }),
        f.ref("order_form_id", "Order form", "order_form", "title", ro),
      ]),
    ),
  },
  { entry: CATALOG.customer_order_line, table: customerOrderLine, fields: documentLineFields("customer_order") },
);

export const [deliveryInstructionResource, deliveryInstructionLineResource] = documentResources(
  "delivery_instruction",
  {
    entry: CATALOG.delivery_instruction,
    table: deliveryInstruction,
    fields: documentHeaderFields(DELIVERY_INSTRUCTION.statusNames, [
      f.date("planned_date", "Planned date", { list: true }),
      f.ref("driver_id", "Driver", "user", "name", { list: true }),
      f.ref("location_id", "Pick from", "location", "name"),
    ]),
  },
  {
    entry: CATALOG.delivery_instruction_line,
    table: deliveryInstructionLine,
    fields: documentLineFields("delivery_instruction", [
      f.ref("location_id", "Pick from", "location", "name"),
      f.number("qty_delivered", "Delivered", ro),
    ]),
  },
);
