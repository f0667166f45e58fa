import { can, DEFAULT_ROLE_PERMISSIONS, ROLE } from "@workmetrics/domain";
import { RESOURCES } from "@workmetrics/domain/resources";
import { describe, expect, it } from "vitest";
import { DOCUMENT_TYPES } from "../documents/types.ts";
import { approvesBelowCost, expand, grantable, keysOf, reconcile, toggle, unshown } from "./matrix.ts";

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

// Issue 10 §3: document permissions are edited in the matrix; saving keeps every pattern it does not change.
describe("document actions in the matrix", () => {
  const rows = grantable(RESOURCES);
  const row = (name: string) => rows.find((r) => r.name === name);

  it("lists each document's other actions from its type's transitions, and approve", () => {
    expect(row("quotation")?.other).toEqual([
      { action: "submit", label: "Mark as sent" },
      { action: "cancel", label: "Cancel" },
      { action: "approve", label: "Approve", help: "Save lines priced below their cost" },
    ]);
    expect(row("invoice")?.other?.map((o) => o.action)).toEqual(["submit", "cancel", "approve"]);
    expect(row("credit_note")?.other?.find((o) => o.action === "submit")?.label).toBe("Issue");
    // Documents are created and changed through the document commands, never deleted; receipts by record_payment.
    expect(keysOf(row("quotation")!)).toEqual([
      "quotation.read",
      "quotation.create",
      "quotation.update",
      "quotation.submit",
      "quotation.cancel",
      "quotation.approve",
    ]);
    expect(row("receipt")?.actions).toEqual(["read", "create"]);
    // Transitions that need update or create add no box of their own; plain resources have no other actions.
    expect(row("sales_order")?.other?.map((o) => o.action)).toEqual(["submit", "cancel", "approve"]);
    expect(row("product")?.other).toBeUndefined();
  });

  it("shows on each document row only what its type declares: approve where a transition or a save asks it", () => {
    // A purchase order's Approve is its approval transitions (no below-cost check on buying documents).
    expect(row("purchase_order")?.other?.filter((o) => o.action === "approve")).toEqual([
      { action: "approve", label: "Approve / Send back" },
    ]);
    // Supplier invoices and receipts are bought: no approve at all; a release where the type declares one.
    expect(row("supplier_invoice")?.other?.map((o) => o.action)).toEqual(["submit", "release", "cancel"]);
    expect(row("supplier_delivery_order")?.other?.some((o) => o.action === "approve")).toBe(false);
    // Every box of every document row is a permission some transition or save of that type checks.
    for (const t of DOCUMENT_TYPES) {
      const declared = new Set([
        ...t.machine.transitions.map((tr) => tr.permission),
        ...(approvesBelowCost(t) ? [`${t.type}.approve`] : []),
      ]);
      for (const o of row(t.type)?.other ?? []) expect(declared.has(`${t.type}.${o.action}`)).toBe(true);
    }
  });

  it("expands wildcards and denies into the document actions", () => {
    const g = expand(DEFAULT_ROLE_PERMISSIONS[ROLE.SalesManager], rows);
    expect(
      ["quotation.approve", "invoice.submit", "invoice.cancel", "delivery_order.submit"].every((k) => g.has(k)),
    ).toBe(true);
    const s = expand(DEFAULT_ROLE_PERMISSIONS[ROLE.Salesperson], rows);
    expect(s.has("quotation.submit")).toBe(true);
    expect(s.has("quotation.approve")).toBe(false);
  });

  it("taking read away takes the other actions with it; an other action brings read", () => {
    const g = expand(["quotation.*"], rows);
    expect([...toggle(g, "quotation", "read")]).toEqual([]);
    expect([...toggle(new Set(), "invoice", "cancel")].sort()).toEqual(["invoice.cancel", "invoice.read"]);
  });

  type Case = { name: string; patterns: string[]; toggles: [string, string][]; out: string[] };
  const cases: Case[] = [
    {
      name: "unticking one action of a wildcard keeps the others (a deny, not a list)",
      patterns: ["*.read", "quotation.*"],
      toggles: [["quotation", "approve"]],
      out: ["*.read", "quotation.*", "!quotation.approve"],
    },
    {
      name: "ticking it again lifts that deny",
      patterns: ["*.read", "quotation.*", "!quotation.approve"],
      toggles: [["quotation", "approve"]],
      out: ["*.read", "quotation.*"],
    },
    {
      name: "an explicit grant is removed, not denied",
      patterns: ["quotation.read", "quotation.submit", "invoice.*"],
      toggles: [["quotation", "submit"]],
      out: ["quotation.read", "invoice.*"],
    },
    {
      name: "a new grant is written as it is",
      patterns: ["*.read", "quotation.create"],
      toggles: [["quotation", "approve"]],
      out: ["*.read", "quotation.create", "quotation.approve"],
    },
    {
      name: "ticking what a resource deny takes away narrows the deny to what stays unticked",
      patterns: ["*", "!quotation.*"],
      toggles: [["quotation", "read"]],
      out: [
        "*",
        "!quotation.create",
        "!quotation.update",
        "!quotation.submit",
        "!quotation.cancel",
        "!quotation.approve",
      ],
    },
    {
      name: "a deny under *.read is simply lifted when only reading comes back",
      patterns: ["*.read", "!journal_entry.*", "!account.*"],
      toggles: [["journal_entry", "read"]],
      out: ["*.read", "!account.*"],
    },
    {
      name: "emptying a row under * writes one resource deny",
      patterns: ["*"],
      toggles: [["invoice", "read"]],
      out: ["*", "!invoice.*"],
    },
    {
      name: "emptying a row drops its own patterns, keeps actions no row shows, and denies what *.read still grants",
      patterns: ["*.read", "quotation.*", "quotation.export", "feedback.create"],
      toggles: [["quotation", "read"]],
      out: ["*.read", "quotation.export", "feedback.create", "!quotation.*"],
    },
    {
      name: "a row emptied with nothing wider needs no deny",
      patterns: ["quotation.*", "product.read"],
      toggles: [["quotation", "read"]],
      out: ["product.read"],
    },
    {
      name: "patterns it does not understand and rows left alone are kept as written",
      patterns: ["*.read", "!account.*", "weird", "report.export", "sales_order.*"],
      toggles: [
        ["invoice", "submit"],
        ["invoice", "submit"],
        ["product", "create"],
      ],
      out: ["*.read", "!account.*", "weird", "report.export", "sales_order.*", "product.create"],
    },
  ];

  it.each(cases)("$name", ({ patterns, toggles, out }) => {
    let g = expand(patterns, rows);
    for (const [resource, action] of toggles) g = toggle(g, resource, action);
    const saved = reconcile(patterns, g, rows);
    expect(saved).toEqual(out);
    // What is saved grants exactly the boxes ticked.
    expect([...expand(saved, rows)].sort()).toEqual([...g].sort());
  });

  it("the sales manager without quotation approval keeps every other quotation action", () => {
    const before = DEFAULT_ROLE_PERMISSIONS[ROLE.SalesManager];
    const saved = reconcile(before, toggle(expand(before, rows), "quotation", "approve"), rows);
    expect(saved).toEqual([...before, "!quotation.approve"]);
    for (const a of ["read", "create", "update", "delete", "submit", "cancel"])
      expect(can(saved, `quotation.${a}`)).toBe(true);
    expect(can(saved, "quotation.approve")).toBe(false);
    expect(can(saved, "invoice.approve")).toBe(true);
  });

  it("names the patterns no box shows", () => {
    expect(
      unshown(["*.read", "!account.*", "report.export", "!weird.thing", "quotation.approve", "nonsense"], rows),
    ).toEqual(["report.export", "!weird.thing", "nonsense"]);
    expect(unshown(DEFAULT_ROLE_PERMISSIONS[ROLE.SalesManager], rows)).toEqual([]);
  });
});

// Issue 12 "Commission": who reads statements, changes the rules, approves and pays — with today's defaults.
describe("commission in the matrix", () => {
  const rows = grantable(RESOURCES);
  const row = rows.find((r) => r.name === "commission")!;
  const held = (patterns: readonly string[]) => [...expand(patterns, rows)].filter((k) => k.startsWith("commission."));

  it("has a row: read, change (the rules), read own, approve / pay", () => {
    expect(keysOf(row)).toEqual(["commission.read", "commission.update", "commission.read_own", "commission.approve"]);
  });

  it("shows the defaults: finance does everything, managers and accounts read, salespeople read their own", () => {
    expect(held(DEFAULT_ROLE_PERMISSIONS[40]).sort()).toEqual(keysOf(row).sort());
    expect(held(DEFAULT_ROLE_PERMISSIONS[ROLE.SalesManager])).toEqual(["commission.read"]);
    expect(held(DEFAULT_ROLE_PERMISSIONS[ROLE.Salesperson])).toEqual(["commission.read_own"]);
    expect(held(DEFAULT_ROLE_PERMISSIONS[42])).toEqual(["commission.read"]);
    expect(held(DEFAULT_ROLE_PERMISSIONS[ROLE.WarehouseStaff])).toEqual([]);
    expect(held(DEFAULT_ROLE_PERMISSIONS[ROLE.Driver])).toEqual([]);
  });

  it("read own is granted without read and stays when read is taken away; approve brings read", () => {
    expect([...toggle(new Set(), "commission", "read_own")]).toEqual(["commission.read_own"]);
    expect([...toggle(new Set(["commission.read", "commission.read_own"]), "commission", "read")]).toEqual([
      "commission.read_own",
    ]);
    expect([...toggle(new Set(), "commission", "approve")].sort()).toEqual(["commission.approve", "commission.read"]);
  });

  it("saves a change as patterns the server's rule reads the same way", () => {
    const accounts = DEFAULT_ROLE_PERMISSIONS[42];
    const granted = toggle(expand(accounts, rows), "commission", "approve");
    const saved = reconcile(accounts, granted, rows);
    expect(saved).toEqual([...accounts, "commission.approve"]);
    expect(can(saved, "commission.update")).toBe(false);
    const sales = DEFAULT_ROLE_PERMISSIONS[ROLE.Salesperson];
    const none = reconcile(sales, toggle(expand(sales, rows), "commission", "read_own"), rows);
    expect(held(none)).toEqual([]);
    expect(none.some((p) => !p.startsWith("!") && p.startsWith("commission."))).toBe(false);
  });
});

// A supplier's user never sees our cost: a product's cost is read by a grant of its own.
describe("product costs in the matrix", () => {
  const rows = grantable(RESOURCES);
  it("has a row read by the office roles and the warehouse, not by a supplier, a driver or the POS", () => {
    expect(rows.find((r) => r.name === "product_cost")).toEqual({
      name: "product_cost",
      plural: "Product costs",
      actions: ["read"],
    });
    const reads = (role: number) => expand(DEFAULT_ROLE_PERMISSIONS[role], rows).has("product_cost.read");
    for (const role of [ROLE.Owner, ROLE.Admin, ROLE.SalesManager, ROLE.Salesperson, ROLE.WarehouseStaff, 40, 41, 42])
      expect(reads(role), String(role)).toBe(true);
    for (const role of [ROLE.Driver, ROLE.PosStaff, 43]) expect(reads(role), String(role)).toBe(false);
  });
});
