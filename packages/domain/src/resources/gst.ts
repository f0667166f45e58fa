import { gstReturn } from "../db/gst-schema.ts";
import { defineResource } from "./define.ts";
import { f, idField } from "./fields.ts";
import type { ResourceDef } from "./types.ts";

// Issue 12 "GST F5": the returns filed, read through /rest/v1 (the reports page shows "Filed on … by …") and written
// only by gst_f5_file. Whoever reads the financial reports reads them (Premium, finance roles).

const ro = { readOnly: true };

export const gstReturnResource = defineResource({
  name: "gst_return",
  title: "GST return",
  plural: "GST returns",
  route: null,
  scope: "tenant",
  feature: "financial_reports",
  actions: ["read"],
  permissionOf: "financial_reports",
  keptCount: false,
  table: gstReturn,
  display: "period_to",
  search: [],
  defaultOrder: "period_from.desc,id.desc",
  fields: [
    idField(),
    f.date("period_from", "Period from", { ...ro, list: true }),
    f.date("period_to", "Period to", { ...ro, list: true }),
    ...(["1", "2", "3", "4", "5", "6", "7", "8"] as const).map((b) =>
      f.money(`box${b}`, `Box ${b}`, { ...ro, list: b === "6" || b === "7" || b === "8" }),
    ),
    f.ref("entry_id", "Settlement entry", "journal_entry", "number", ro),
    f.ref("filed_by", "Filed by", "user", "name", { ...ro, list: true }),
    f.datetime("filed_at", "Filed", { ...ro, list: true, form: false }),
  ],
  relations: {
    entry: { resource: "journal_entry", kind: "one", column: "entry_id", references: "id" },
  },
});

export const GST_RESOURCES: readonly ResourceDef[] = [gstReturnResource];
