import {
  bannerResource,
  caseStudyResource,
  couponResource,
  creditEntryResource,
  demoRequestResource,
  feedbackResource,
  roleResource,
  subscriptionResource,
  tierResource,
  userResource,
  workspaceResource,
  workspaceRoleResource,
} from "./admin.ts";
import { BOOKS_RESOURCES } from "./books.ts";
import { CHALLENGE_RESOURCES } from "./challenge.ts";
import { CLAIMS_RESOURCES } from "./claims.ts";
import { COMMISSION_RESOURCES } from "./commission.ts";
import { companyResource, contactResource, memoReadResource, memoResource } from "./crm.ts";
import { EXPENSE_RESOURCES } from "./expense.ts";
import { GST_RESOURCES } from "./gst.ts";
import { HR_RESOURCES } from "./hr.ts";
import { INBOX_RESOURCES } from "./inbox.ts";
import { INVENTORY_RESOURCES } from "./inventory.ts";
import { accountResource, journalEntryResource, journalLineResource, stockMoveResource } from "./ledger.ts";
import { MARKETPLACE_RESOURCES } from "./marketplace.ts";
import { brandResource, categoryResource, locationResource, productResource, serviceResource } from "./master.ts";
import {
  customerOrderLineResource,
  customerOrderResource,
  deliveryInstructionLineResource,
  deliveryInstructionResource,
  orderFormItemResource,
  orderFormResource,
} from "./orders.ts";
import { PARTNERS_RESOURCES } from "./partners.ts";
import { PAYABLES_RESOURCES } from "./payables.ts";
import { paymentAllocationResource, receiptResource } from "./payments.ts";
import { POS_RESOURCES } from "./pos.ts";
import {
  currencyFactorResource,
  projectBrandResource,
  projectCurrencyResource,
  projectGroupResource,
  projectResource,
} from "./projects.ts";
import { PURCHASING_RESOURCES } from "./purchasing.ts";
import {
  creditNoteLineResource,
  creditNoteResource,
  debitNoteLineResource,
  debitNoteResource,
  goodsReturnNoteLineResource,
  goodsReturnNoteResource,
} from "./returns.ts";
import {
  deliveryOrderLineResource,
  deliveryOrderResource,
  invoiceLineResource,
  invoiceResource,
  quotationLineResource,
  quotationResource,
  salesOrderLineResource,
  salesOrderResource,
} from "./selling.ts";
import { STOCK_RESOURCES } from "./stock.ts";
import type { CheckMessage, ResourceDef } from "./types.ts";
import { WAREHOUSE_RESOURCES } from "./warehouse.ts";

export { announcesChanges, brokenRules, defineResource, SERVER_COLUMNS, wireColumns } from "./define.ts";
export { textLimit } from "./fields.ts";
export { FIELD_GRANTS } from "./master.ts";
export * from "./types.ts";

// DESIGN §2.3: every resource /rest/v1 serves, the generic screens list and CSV import/export reads.
// Pure: importable by the web bundle (no server code).
export const RESOURCES: readonly ResourceDef[] = [
  productResource,
  categoryResource,
  locationResource,
  brandResource,
  serviceResource,
  companyResource,
  contactResource,
  memoResource,
  memoReadResource,
  projectResource,
  projectBrandResource,
  projectCurrencyResource,
  currencyFactorResource,
  projectGroupResource,
  quotationResource,
  quotationLineResource,
  salesOrderResource,
  salesOrderLineResource,
  deliveryOrderResource,
  deliveryOrderLineResource,
  invoiceResource,
  invoiceLineResource,
  receiptResource,
  paymentAllocationResource,
  orderFormResource,
  orderFormItemResource,
  customerOrderResource,
  customerOrderLineResource,
  deliveryInstructionResource,
  deliveryInstructionLineResource,
  creditNoteResource,
  creditNoteLineResource,
  debitNoteResource,
  debitNoteLineResource,
  goodsReturnNoteResource,
  goodsReturnNoteLineResource,
  accountResource,
  journalEntryResource,
  journalLineResource,
  stockMoveResource,
  ...PURCHASING_RESOURCES,
  ...PAYABLES_RESOURCES,
  ...INVENTORY_RESOURCES,
  ...STOCK_RESOURCES,
  ...PARTNERS_RESOURCES,
  ...BOOKS_RESOURCES,
  ...CLAIMS_RESOURCES,
  ...CHALLENGE_RESOURCES,
  ...COMMISSION_RESOURCES,
  ...GST_RESOURCES,
  ...HR_RESOURCES,
  ...POS_RESOURCES,
  ...INBOX_RESOURCES,
  ...MARKETPLACE_RESOURCES,
  ...WAREHOUSE_RESOURCES,
  ...EXPENSE_RESOURCES,
  userResource,
  workspaceRoleResource,
  feedbackResource,
  subscriptionResource,
  creditEntryResource,
  workspaceResource,
  tierResource,
  couponResource,
  bannerResource,
  caseStudyResource,
  demoRequestResource,
  roleResource,
];

export const RESOURCES_BY_NAME: Readonly<Record<string, ResourceDef>> = Object.fromEntries(
  RESOURCES.map((r) => [r.name, r]),
);

export function findResource(name: string): ResourceDef | undefined {
  return Object.hasOwn(RESOURCES_BY_NAME, name) ? RESOURCES_BY_NAME[name] : undefined;
}

// Every table CHECK the registry explains: constraint names are unique in the schema.
const CHECKS: ReadonlyMap<string, CheckMessage> = new Map(RESOURCES.flatMap((r) => Object.entries(r.checks ?? {})));

export function checkMessage(constraint: string): CheckMessage | undefined {
  return CHECKS.get(constraint);
}
