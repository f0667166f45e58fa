import { DEFAULT_ROLE_PERMISSIONS, ROLE } from "@workmetrics/domain";
import { RESOURCES } from "@workmetrics/domain/resources";
import { describe, expect, it } from "vitest";
import { expand, grantable, toggle } from "./matrix.ts";

describe("permission matrix", () => {
  const rows = grantable(RESOURCES);

  it("lists tenant resources and the workspace, not platform tables", () => {
    const names = rows.map((r) => r.name);
    expect(names).toEqual(expect.arrayContaining(["product", "company", "user", "workspace_role", "workspace"]));
    expect(names).not.toContain("coupon");
    // Lines are granted with their document.
    expect(names).toContain("quotation");
    expect(names).not.toContain("quotation_line");
  });

  it("expands wildcards into explicit grants", () => {
    const all = expand(["*"], rows);
    expect(all.has("product.delete")).toBe(true);
    const reads = expand(["*.read", "product.*"], rows);
    expect(reads.has("company.read")).toBe(true);
    expect(reads.has("company.update")).toBe(false);
    expect(reads.has("product.delete")).toBe(true);
  });

  it("writing implies reading; removing read removes the rest", () => {
    const withUpdate = toggle(new Set(), "product", "update");
    expect([...withUpdate].sort()).toEqual(["product.read", "product.update"]);
    expect([...toggle(withUpdate, "product", "read")]).toEqual([]);
  });

  // Issue 9 §3: files and buckets are granted on the same page.
  it("lists files and buckets; buckets have no read of their own", () => {
    expect(rows.filter((r) => ["file", "bucket"].includes(r.name))).toEqual([
      { name: "file", plural: "Files", actions: ["read", "create", "update", "delete"] },
      { name: "bucket", plural: "Buckets", actions: ["create", "update", "delete"] },
    ]);
    expect([...toggle(new Set(), "bucket", "create")]).toEqual(["bucket.create"]);
    expect([...toggle(new Set(), "file", "delete")].sort()).toEqual(["file.delete", "file.read"]);
  });

  // Issue 10: receivables are granted on their own row; salespeople read everything else but not them.
  it("lists accounts receivable; a salesperson's defaults leave it and the journal out", () => {
    expect(rows.find((r) => r.name === "accounts_receivable")).toEqual({
      name: "accounts_receivable",
      plural: "Accounts receivable",
      actions: ["read"],
    });
    const sales = expand(DEFAULT_ROLE_PERMISSIONS[ROLE.Salesperson], rows);
    expect(sales.has("accounts_receivable.read")).toBe(false);
    expect(sales.has("journal_entry.read")).toBe(false);
    expect(sales.has("invoice.read")).toBe(true);
    expect(expand(DEFAULT_ROLE_PERMISSIONS[40], rows).has("accounts_receivable.read")).toBe(true);
  });

  it("shows the file defaults: reading through *.read, nothing for drivers", () => {
    const sales = expand(DEFAULT_ROLE_PERMISSIONS[ROLE.Salesperson], rows);
    expect([...sales].filter((p) => /^(file|bucket)\./.test(p))).toEqual(["file.read", "file.create"]);
    const driver = expand(DEFAULT_ROLE_PERMISSIONS[ROLE.Driver], rows);
    expect([...driver].filter((p) => /^(file|bucket)\./.test(p))).toEqual([]);
  });
});
