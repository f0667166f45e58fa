import type { Member } from "@workmetrics/domain";
import { describe, expect, it } from "vitest";
import { documentSelect } from "../../modules/documents/api.ts";
import { docType } from "../../modules/documents/types.ts";
import { buildColumns } from "./columns.tsx";
import { orderColumns, readableBy, resourceByName, selectWithLabels } from "./definition.ts";
import { resourcePaths } from "./paths.ts";

const lite = (permissions: string[]): Member => ({
  kind: "member",
  permissions,
  features: ["erp", "accounting", "finance", "email_support"],
});
const pro = (permissions: string[]): Member => ({
  kind: "member",
  permissions,
  features: ["erp", "accounting", "finance", "email_support", "projects", "roles", "crm"],
});

describe("embeds follow the one access rule", () => {
  const quotation = resourceByName("quotation");
  const all = ["quotation.read", "company.read", "contact.read", "project.read", "user.read"];

  it("a Lite workspace's list asks for no project (the tier refuses it) and shows no Project column", () => {
    const readable = readableBy(lite(all));
    expect(readable("project")).toBe(false);
    expect(readable("company")).toBe(true);
    const select = selectWithLabels(quotation, readable);
    expect(select).not.toContain("project");
    expect(select).toContain("company:company(id,name)");
    expect(orderColumns(quotation, readable).has("project_id")).toBe(false);
    const fields = buildColumns(quotation, resourcePaths("/d", "quotations"), readable).map((c) => c.field);
    expect(fields).not.toContain("project_id");
    expect(fields).toContain("company_id");
  });

  it("a Pro member reading projects still gets the project's code", () => {
    expect(selectWithLabels(quotation, readableBy(pro(all)))).toContain("project:project(id,code)");
  });

  it("a member without the referenced resource's read permission asks for neither its embed nor on the page", () => {
    const driver = readableBy(pro(["delivery_order.read", "delivery_order.update"]));
    const select = selectWithLabels(resourceByName("delivery_order"), driver);
    expect(select).not.toMatch(/project|company/);
    expect(documentSelect(docType("delivery_order"), driver)).not.toMatch(/company|contact/);
    expect(documentSelect(docType("quotation"), readableBy(pro(all)))).toContain("company:company(id,name)");
  });
});

describe("a document type's own references", () => {
  it("are embedded with their labels (a delivery order's and a goods return note's location)", () => {
    expect(selectWithLabels(resourceByName("delivery_order"))).toContain("location:location(id,name)");
    expect(selectWithLabels(resourceByName("goods_return_note"))).toContain("location:location(id,name)");
  });
});
