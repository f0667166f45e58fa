import { describe, expect, it } from "vitest";
import { can, DEFAULT_ROLE_PERMISSIONS, matches } from "./permissions.ts";
import { ROLE } from "./roles.ts";

describe("permissions", () => {
  it("matches exact names and wildcards", () => {
    expect(matches("*", "product.delete")).toBe(true);
    expect(matches("product.*", "product.delete")).toBe(true);
    expect(matches("*.read", "product.read")).toBe(true);
    expect(matches("*.read", "product.update")).toBe(false);
    expect(matches("product.read", "products.read")).toBe(false);
  });

  it("gives system roles sensible defaults", () => {
    expect(can(DEFAULT_ROLE_PERMISSIONS[ROLE.Owner], "workspace.update")).toBe(true);
    expect(can(DEFAULT_ROLE_PERMISSIONS[ROLE.Salesperson], "quotation.create")).toBe(true);
    expect(can(DEFAULT_ROLE_PERMISSIONS[ROLE.Salesperson], "product.delete")).toBe(false);
    expect(can(DEFAULT_ROLE_PERMISSIONS[ROLE.Driver], "invoice.read")).toBe(false);
  });

  it("takes away with a ! pattern whatever the others grant", () => {
    expect(can(["*.read", "!journal_entry.*"], "journal_entry.read")).toBe(false);
    expect(can(["*.read", "!journal_entry.*"], "invoice.read")).toBe(true);
    expect(can(["!journal_entry.read", "journal_entry.*"], "journal_entry.read")).toBe(false);
    expect(can(["!journal_entry.read"], "journal_entry.create")).toBe(false);
  });

  it("keeps the books and below-cost approval away from salespeople (issue 10 §3)", () => {
    const sales = DEFAULT_ROLE_PERMISSIONS[ROLE.Salesperson];
    expect(can(sales, "quotation.create")).toBe(true);
    expect(can(sales, "quotation.submit")).toBe(true);
    expect(can(sales, "quotation.approve")).toBe(false);
    expect(can(sales, "sales_order.create")).toBe(true);
    expect(can(sales, "invoice.read")).toBe(true);
    expect(can(sales, "journal_entry.read")).toBe(false);
    expect(can(sales, "accounts_receivable.read")).toBe(false);
    expect(can(DEFAULT_ROLE_PERMISSIONS[ROLE.SalesManager], "quotation.approve")).toBe(true);
    expect(can(DEFAULT_ROLE_PERMISSIONS[ROLE.SalesManager], "accounts_receivable.read")).toBe(true);
    expect(can(DEFAULT_ROLE_PERMISSIONS[ROLE.SalesManager], "journal_entry.read")).toBe(false);
    for (const finance of [40, 42]) {
      for (const p of ["invoice.submit", "receipt.create", "credit_note.create", "journal_entry.create"]) {
        expect(can(DEFAULT_ROLE_PERMISSIONS[finance], p)).toBe(true);
      }
      expect(can(DEFAULT_ROLE_PERMISSIONS[finance], "accounts_receivable.read")).toBe(true);
    }
  });
});
