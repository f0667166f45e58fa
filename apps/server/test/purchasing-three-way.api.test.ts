import { sql } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import {
  ACCOUNTS,
  act,
  bill,
  billDraft,
  type Doc,
  expectBalancedBooks,
  FINANCE,
  ok,
  order,
  posted,
  query,
  read,
  receive,
  resave,
  rpc,
  settings,
  supplierNumber,
  world,
} from "./purchasing-helpers.ts";
import { restFetch } from "./rest-helpers.ts";

// Issue 11, the three-way check at submit: each exception reason, the tolerances at and just past their limits, the
// duplicate supplier number refused (naming the earlier invoice) or flagged when it only looks the same, a late
// receipt clearing an exception, and the release to pay by a finance manager with the reason kept.

const w = world();
beforeEach(async () => {
  await settings({ match_qty_tolerance: "0", match_price_tolerance: "0", match_amount_tolerance: null });
});

// A received order of `qty` at `price`, and a draft invoice of the receipt at `charged` per unit.
async function invoiceAt(qty: string, price: string, charged: string): Promise<Doc> {
  const po = await order(w, [{ qty, price }]);
  const sdo = await receive(po);
  const inv = await billDraft({ type: "supplier_delivery_order", doc: sdo });
  return charged === price ? inv : resave(inv, (l) => ({ ...l, unit_price: charged }));
}

const message = (res: { body: unknown }) => (res.body as { message: string }).message;

describe("the three-way check", () => {
  it("a price up to the tolerance passes (the difference posts to price variance); a cent more is an exception", async () => {
    await settings({ match_price_tolerance: "5" });
    const at = await bill(await invoiceAt("10", "20", "21"));
    expect(at.match_status).toBe("matched");
    expect(await posted(w, "supplier_invoice", at.id)).toEqual({
      "1300": "18.90",
      "2000": "-228.90",
      "2100": "200.00",
      "5020": "10.00",
    });
    const past = await bill(await invoiceAt("10", "20", "21.01"));
    expect(past.match_status).toBe("exception");
    expect(past.lines[0].match_exception).toBe("Price 21.01 is above the order's 20.00 (tolerance 5%)");
    await expectBalancedBooks(w);
  });

  it("the money cap holds a difference within its % (the stricter wins)", async () => {
    await settings({ match_price_tolerance: "10", match_amount_tolerance: "2.50" });
    expect((await bill(await invoiceAt("10", "20", "20.25"))).match_status).toBe("matched"); // 2.50 over
    const past = await bill(await invoiceAt("10", "20", "20.26")); // 2.60 over, 1.3%
    expect(past.lines[0].match_exception).toBe("Price 20.26 is above the order's 20.00 (tolerance 10%)");
  });

  it("invoicing beyond what is received: up to the quantity tolerance, then an exception", async () => {
    await settings({ match_qty_tolerance: "10" });
    const po = await order(w, [{ qty: "20", price: "5" }]);
    await receive(po, [{ line: 0, qty: "10" }]);
    const at = await bill(await billDraft({ type: "purchase_order", doc: po }, [{ line: 0, qty: "11" }]));
    expect(at).toMatchObject({ match_status: "matched" });
    const po2 = await order(w, [{ qty: "20", price: "5" }]);
    await receive(po2, [{ line: 0, qty: "10" }]);
    const past = await bill(await billDraft({ type: "purchase_order", doc: po2 }, [{ line: 0, qty: "11.001" }]));
    expect(past.match_status).toBe("exception");
    expect(past.lines[0].match_exception).toBe("Invoiced 11.001 but received 10 (tolerance 10%)");
  });

  it("an invoice ahead of its goods waits, and the receipt clears it", async () => {
    const po = await order(w, [{ qty: "4", price: "12.50" }]);
    const inv = await bill(await billDraft({ type: "purchase_order", doc: po }));
    expect(inv.match_status).toBe("exception");
    expect(inv.lines[0]).toMatchObject({
      match_exception: "Invoiced 4 but nothing is received yet",
      purchase_order_line_id: po.lines[0].id,
      supplier_delivery_order_line_id: null,
    });
    // Billed before receipt: 2100 is debited now and credited by the receipt.
    expect(await posted(w, "supplier_invoice", inv.id)).toMatchObject({ "2100": "50.00" });
    await receive(po);
    const after = await read(ACCOUNTS, "supplier_invoice", inv.id);
    expect(after.match_status).toBe("matched");
    expect(after.lines[0].match_exception).toBeNull();
    expect((await read(ACCOUNTS, "purchase_order", po.id)).status).toBe("completed");
    const [event] = await query<{ changes: unknown }>(
      w,
      sql`select changes from document_event where workspace_id = ${w.ws}::uuid and doc_type = 'supplier_invoice'
        and doc_id = ${inv.id} and action = 'three_way_check' order by id desc limit 1`,
    );
    expect(event.changes).toEqual({ match_status: ["exception", "matched"] });
    await expectBalancedBooks(w);
  });

  it("a direct invoice has no purchase order line: an exception, posted to an expense", async () => {
    const svc = (await restFetch(ACCOUNTS, "service?select=id&order=id&limit=1")).body as Array<{ id: number }>;
    const inv = await ok(ACCOUNTS, "document_save", {
      type: "supplier_invoice",
      header: { company_id: w.supplier, supplier_invoice_number: supplierNumber() },
      lines: [{ service_id: svc[0].id, qty: "1", unit_price: "300" }],
    });
    const done = await bill(inv);
    expect(done.match_status).toBe("exception");
    expect(done.lines[0].match_exception).toBe("No purchase order line");
    expect(await posted(w, "supplier_invoice", done.id)).toEqual({
      "1300": "27.00",
      "2000": "-327.00",
      "5000": "300.00",
    });
  });
});

describe("the supplier's invoice number", () => {
  it("is refused when the supplier already used it, naming the invoice; another supplier may use it", async () => {
    const number = `INV-${Date.now() % 100000}`;
    const inv = await bill(
      await billDraft({ type: "purchase_order", doc: await order(w, [{ qty: "1", price: "10" }]) }, undefined, number),
    );
    const again = await rpc(ACCOUNTS, "document_save", {
      type: "supplier_invoice",
      header: { company_id: w.supplier, supplier_invoice_number: ` ${number.toLowerCase()} ` },
      lines: [{ description: "Freight", qty: "1", unit_price: "10" }],
    });
    expect(again.status).toBe(409);
    expect(message(again)).toBe(`${inv.number} already has the supplier's number ${number.toLowerCase()}`);
    const other = await rpc(ACCOUNTS, "document_save", {
      type: "supplier_invoice",
      header: { company_id: w.otherSupplier, supplier_invoice_number: number },
      lines: [{ description: "Freight", qty: "1", unit_price: "10" }],
    });
    expect(other.status).toBe(200);
    // Once the first is cancelled, the number is free again.
    await ok(FINANCE, "document_transition", { type: "supplier_invoice", id: inv.id, action: "cancel" });
    const free = await rpc(ACCOUNTS, "document_save", {
      type: "supplier_invoice",
      header: { company_id: w.supplier, supplier_invoice_number: number },
      lines: [{ description: "Freight", qty: "1", unit_price: "10" }],
    });
    expect(free.status).toBe(200);
  });

  it("that only looks like an earlier one (spaces, dashes, case) is an exception on every line", async () => {
    const stamp = Date.now() % 100000;
    const earlier = await bill(
      await billDraft(
        { type: "purchase_order", doc: await order(w, [{ qty: "1", price: "10" }]) },
        undefined,
        `AB-${stamp}`,
      ),
    );
    const po = await order(w, [{ qty: "1", price: "10" }]);
    await receive(po);
    const looksSame = await bill(await billDraft({ type: "purchase_order", doc: po }, undefined, `ab ${stamp}`));
    expect(looksSame.match_status).toBe("exception");
    expect(looksSame.lines[0].match_exception).toBe(`Supplier's number looks like AB-${stamp} on ${earlier.number}`);
  });

  it("is left blank on a duplicate, which is another bill", async () => {
    const inv = await bill(await invoiceAt("1", "10", "10"));
    const copy = await ok(ACCOUNTS, "document_duplicate", { type: "supplier_invoice", id: inv.id });
    expect(copy).toMatchObject({ status: "draft", supplier_invoice_number: null, company_id: inv.company_id });
  });

  it("must be given to submit", async () => {
    const inv = await ok(ACCOUNTS, "document_save", {
      type: "supplier_invoice",
      header: { company_id: w.supplier },
      lines: [{ description: "Freight", qty: "1", unit_price: "10" }],
    });
    const res = await act(ACCOUNTS, "supplier_invoice", inv.id, "submit");
    expect(res.status).toBe(409);
    expect(message(res)).toBe("Give the supplier's invoice number before submitting");
  });
});

describe("release to pay", () => {
  it("is a finance manager's, needs a reason, and keeps who, when and why", async () => {
    const inv = await bill(await invoiceAt("10", "20", "21.60")); // 8% above the order
    expect(inv.match_status).toBe("exception");
    const byAccounts = await act(ACCOUNTS, "supplier_invoice", inv.id, "release", "Agreed on the phone");
    expect(byAccounts.status).toBe(403);
    const noReason = await act(FINANCE, "supplier_invoice", inv.id, "release");
    expect(noReason.status).toBe(422);
    expect(message(noReason)).toBe("Give a reason to release it to pay despite its exceptions");
    const released = await ok(FINANCE, "document_transition", {
      type: "supplier_invoice",
      id: inv.id,
      action: "release",
      reason: "Steel surcharge agreed with the supplier",
    });
    expect(released).toMatchObject({
      status: "unpaid",
      match_status: "released",
      release_reason: "Steel surcharge agreed with the supplier",
      released_by: expect.any(String),
      released_at: expect.any(String),
    });
    const [event] = await query<{ user_id: string; reason: string }>(
      w,
      sql`select user_id::text as user_id, reason from document_event where workspace_id = ${w.ws}::uuid
        and doc_type = 'supplier_invoice' and doc_id = ${inv.id} and action = 'release'`,
    );
    expect(event).toEqual({ user_id: released.released_by, reason: "Steel surcharge agreed with the supplier" });
    const twice = await act(FINANCE, "supplier_invoice", inv.id, "release", "Again");
    expect(twice.status).toBe(409);
    expect(message(twice)).toBe("This supplier invoice is already released to pay");
    const matched = await bill(await invoiceAt("1", "10", "10"));
    const needless = await act(FINANCE, "supplier_invoice", matched.id, "release", "Why not");
    expect(message(needless)).toBe("This supplier invoice passed the three-way check: it needs no release");
  });
});
