import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { baseUrl } from "./http.ts";
import {
  ACCOUNTS,
  ADMIN,
  act,
  BUYER,
  FINANCE,
  ok,
  order,
  query,
  read,
  receive,
  rpc,
  STORE,
  settings,
  world,
} from "./purchasing-helpers.ts";
import { restFetch, tokenFor } from "./rest-helpers.ts";

// Issue 11: purchase orders — approval above the workspace threshold by a finance manager (a buyer may not), sent
// back with a reason; prices prefilled from the supplier's last order or the product's cost and never refused as
// below cost; who may do what by role; the PDF a supplier receives.

const w = world();

const message = (res: { body: unknown }) => (res.body as { message: string }).message;

describe("approval", () => {
  it("above the threshold waits for a finance manager; at it, it does not", async () => {
    await settings({ po_approval_threshold: "1000" });
    try {
      const big = await order(w, [{ qty: "10", price: "100.01" }]); // 1000.10 before GST
      expect(big).toMatchObject({ status: "pending_approval", number: expect.stringMatching(/^PO-/) });
      const receipt = await rpc(STORE, "document_convert", {
        type: "purchase_order",
        id: big.id,
        to: "supplier_delivery_order",
      });
      expect(receipt.status).toBe(409);
      expect(message(receipt)).toBe("A pending purchase order cannot be made into a supplier delivery order");
      const byBuyer = await act(BUYER, "purchase_order", big.id, "approve");
      expect(byBuyer.status).toBe(403);
      const approved = await ok(FINANCE, "document_transition", {
        type: "purchase_order",
        id: big.id,
        action: "approve",
      });
      expect(approved).toMatchObject({ status: "to_receive_and_bill", approved_by: expect.any(String) });
      expect(approved.approved_at).toEqual(expect.any(String));

      const small = await order(w, [{ qty: "10", price: "91.74" }]); // 917.40 + 82.57 GST = 999.97… under
      expect(small.status).toBe("to_receive_and_bill");
      const exact = await order(w, [{ qty: "1", price: "917.43" }]); // 1000.00 with GST: at the threshold
      expect(exact.total).toBe("1000.00");
      expect(exact.status).toBe("to_receive_and_bill");
    } finally {
      await settings({ po_approval_threshold: null });
    }
  });

  it("sent back to the buyer with a reason keeps its number; changed and submitted again", async () => {
    await settings({ po_approval_threshold: "50" });
    try {
      const po = await order(w, [{ qty: "10", price: "10" }]);
      expect(po.status).toBe("pending_approval");
      const noReason = await act(FINANCE, "purchase_order", po.id, "reject");
      expect(noReason.status).toBe(422);
      expect(message(noReason)).toBe("Give a reason to send it back");
      const back = await ok(FINANCE, "document_transition", {
        type: "purchase_order",
        id: po.id,
        action: "reject",
        reason: "Order 5, not 10",
      });
      expect(back).toMatchObject({ status: "draft", number: po.number });
      const changed = await ok(BUYER, "document_save", {
        type: "purchase_order",
        id: po.id,
        header: { company_id: w.supplier, location_id: w.tuas },
        lines: [{ product_id: w.items[0].id, qty: "4", unit_price: "10" }],
      });
      const again = await ok(BUYER, "document_transition", {
        type: "purchase_order",
        id: changed.id,
        action: "submit",
      });
      expect(again).toMatchObject({ status: "to_receive_and_bill", number: po.number });
    } finally {
      await settings({ po_approval_threshold: null });
    }
  });

  it("the threshold and the tolerances are document settings an admin saves, checked", async () => {
    const bad = await rpc(ADMIN, "document_settings_save", { po_approval_threshold: "-1" });
    expect(bad.status).toBe(422);
    expect(message(bad)).toBe("An amount cannot be negative");
    const badPct = await rpc(ADMIN, "document_settings_save", { match_price_tolerance: "abc" });
    expect(badPct.status).toBe(422);
    const byBuyer = await rpc(BUYER, "document_settings_save", { po_approval_threshold: "1" });
    expect(byBuyer.status).toBe(403);
    const saved = await ok(ADMIN, "document_settings_save", {
      po_approval_threshold: "2500.50",
      match_qty_tolerance: "2.5",
      match_price_tolerance: "1",
      match_amount_tolerance: "100",
    });
    expect(saved).toMatchObject({
      po_approval_threshold: "2500.5",
      match_qty_tolerance: "2.5",
      match_price_tolerance: "1",
      match_amount_tolerance: "100",
    });
    const cleared = await ok(ADMIN, "document_settings_save", {
      po_approval_threshold: null,
      match_qty_tolerance: "0",
      match_price_tolerance: "0",
      match_amount_tolerance: "",
    });
    expect(cleared).toMatchObject({ po_approval_threshold: null, match_amount_tolerance: null });
  });
});

describe("prices", () => {
  it("a line without a price takes the supplier's last price, else the product's cost; below cost is no refusal", async () => {
    const p = w.items[2];
    const [{ cost }] = await query<{ cost: string }>(
      w,
      sql`select cost::text as cost from product where workspace_id = ${w.ws}::uuid and id = ${p.id}`,
    );
    const first = await ok(BUYER, "document_save", {
      type: "purchase_order",
      header: { company_id: w.otherSupplier },
      lines: [{ product_id: p.id, qty: "1" }],
    });
    expect(Number(first.lines[0].unit_price)).toBe(Number(cost));
    await order(w, [{ item: 2, qty: "1", price: "0.50" }]); // far below cost: a buying price is not refused
    const next = await ok(BUYER, "document_save", {
      type: "purchase_order",
      header: { company_id: w.supplier },
      lines: [{ product_id: p.id, qty: "3" }],
    });
    expect(next.lines[0].unit_price).toBe("0.5000");
    const elsewhere = await ok(BUYER, "document_save", {
      type: "purchase_order",
      header: { company_id: w.otherSupplier },
      lines: [{ product_id: p.id, qty: "3" }],
    });
    expect(Number(elsewhere.lines[0].unit_price)).toBe(Number(cost));
  });

  // Issue 21 §1: the lines grid asks purchase_prices as a product is picked and shows what the save will give.
  it("purchase_prices answers what the save gives: the supplier's last price, else our cost — and says which", async () => {
    const p = w.items[2];
    const [{ cost }] = await query<{ cost: string }>(
      w,
      sql`select cost::text as cost from product where workspace_id = ${w.ws}::uuid and id = ${p.id}`,
    );
    const asked = async (company_id: number | null) =>
      (await ok(BUYER, "purchase_prices", { company_id, product_ids: [p.id], qty: "3" })).prices as Array<
        Record<string, unknown>
      >;
    expect(await asked(w.supplier)).toEqual([
      {
        product_id: p.id,
        unit_price: "0.5000",
        discount_percent: "0",
        supplier_discount_form_id: null,
        source: "last_price",
      },
    ]);
    const [other] = await asked(w.otherSupplier);
    expect(other).toMatchObject({ source: "cost", supplier_discount_form_id: null });
    expect(Number(other.unit_price)).toBe(Number(cost));
    expect((await asked(null))[0]).toMatchObject({ source: "cost" });
    // Cost information: a driver may not ask; nothing asked is a clear 422.
    const driver = await rpc("driver@demo.test", "purchase_prices", { product_ids: [p.id] });
    expect(driver.status).toBe(403);
    const none = await rpc(BUYER, "purchase_prices", { product_ids: [] });
    expect(none.status).toBe(422);
    expect(message(none)).toMatch(/Name at least one product/);
  });
});

describe("roles", () => {
  it("buyers raise orders, the warehouse receives, accounts enter invoices; each is refused the others' steps", async () => {
    const byStore = await rpc(STORE, "document_save", {
      type: "purchase_order",
      header: { company_id: w.supplier },
      lines: [{ product_id: w.items[0].id, qty: "1" }],
    });
    expect(byStore.status).toBe(403);
    const po = await order(w, [{ qty: "2", price: "5" }]);
    const byAccounts = await rpc(ACCOUNTS, "document_convert", {
      type: "purchase_order",
      id: po.id,
      to: "supplier_delivery_order",
    });
    expect(byAccounts.status).toBe(403);
    const sdo = await receive(po);
    const billByStore = await rpc(STORE, "document_convert", {
      type: "supplier_delivery_order",
      id: sdo.id,
      to: "supplier_invoice",
    });
    expect(billByStore.status).toBe(403);
    // Accounts enter supplier invoices (issue 11 "Roles"): a buyer could make a draft they could then neither edit,
    // submit nor cancel, so the buyer is refused the invoice too.
    const billByBuyer = await rpc(BUYER, "document_convert", {
      type: "purchase_order",
      id: po.id,
      to: "supplier_invoice",
    });
    expect(billByBuyer.status).toBe(403);
    expect((await read(STORE, "purchase_order", po.id)).status).toBe("to_bill");
  });
});

describe("printing", () => {
  it("a purchase order prints as a PDF", async () => {
    const po = await order(w, [{ qty: "2", price: "5" }]);
    const res = await fetch(`${baseUrl()}/api/documents/purchase_order/${po.id}/pdf`, {
      headers: { authorization: `Bearer ${await tokenFor(BUYER)}` },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("application/pdf");
    expect((await res.arrayBuffer()).byteLength).toBeGreaterThan(1000);
  });
});

describe("the supplier (issue 21 §1)", () => {
  it("refuses a purchase order or supplier invoice to a company that is not a supplier at save, naming the field", async () => {
    const customers = (await restFetch(ADMIN, "company?select=id,name&is_supplier=is.false&order=id&limit=1"))
      .body as Array<{ id: number; name: string }>;
    for (const type of ["purchase_order", "supplier_invoice"]) {
      const res = await rpc(ADMIN, "document_save", {
        type,
        header: { company_id: customers[0].id },
        lines: [{ product_id: w.items[0].id, qty: "1" }],
      });
      expect(res.status, `${type}: ${res.text}`).toBe(422);
      expect(message(res)).toBe(
        `${customers[0].name} is not a supplier: mark it as one on its company page, or choose a supplier`,
      );
      expect((res.body as { details: Array<{ field: string }> }).details[0].field).toBe("header.company_id");
    }
    const fine = await rpc(ADMIN, "document_save", {
      type: "purchase_order",
      header: { company_id: w.supplier },
      lines: [{ product_id: w.items[0].id, qty: "1" }],
    });
    expect(fine.status, fine.text).toBe(200);
  });
});
