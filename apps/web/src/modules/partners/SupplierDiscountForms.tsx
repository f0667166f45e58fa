import { decide, decideResource } from "@workmetrics/domain";
import { CATALOG } from "@workmetrics/domain/resources/catalog";
import { useMember } from "../../platform/resource/access.ts";
import ResourceList from "../../platform/resource/ResourceList.tsx";
import { DISCOUNT_NEEDS } from "./access.ts";
import MyDiscountForms from "./MyDiscountForms.tsx";

// Issue 11 (/dashboard/supplier-discount-forms): staff get the generic list of every request (New opens the
// editor); a supplier user gets the requests addressed to their company, to confirm or reject.
export default function SupplierDiscountForms() {
  const who = useMember();
  if (!decideResource(who, CATALOG.supplier_discount_form, "read").allowed) return <MyDiscountForms />;
  return <ResourceList extras={{ canCreate: decide(who, DISCOUNT_NEEDS.create).allowed, canImport: false }} />;
}
