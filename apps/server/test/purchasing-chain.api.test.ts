import { Dec } from "@workmetrics/domain/documents/decimal";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import {
  act,
  BUYER,
  bill,
  billDraft,
  cost,
  expectBalancedBooks,
  ok,
  onHand,
  order,
  posted,
  query,
  read,
  receive,
  STORE,
  world,
} from "./purchasing-helpers.ts";

// Issue 11: a purchase order received in parts (goods rejected at the door do not count) and billed from each
// receipt; the order's status follows the quantities; stock comes in at the order's price, the product's cost
// becomes the moving average, and cancelling a receipt gives all of it back; the books balance at every step.

const w = world();

describe("procure to pay", () => {
  it("orders, receives in two parts, bills each receipt; the order settles from its quantities", async () => {
    const p = w.items[0];
    const start = await onHand(w, p.id);
    const po = await order(w, [{ qty: "10", price: "20" }]);
    expect(po).toMatchObject({ status: "to_receive_and_bill", number: expect.stringMatching(/^PO-\d{4}-\d{5}$/) });
    expect(po.total).toBe("218.00"); // 200 + 9% GST

    const first = await receive(po, [{ line: 0, qty: "6" }]);
    expect(first).toMatchObject({ status: "to_bill", number: expect.stringMatching(/^SDO-\d{4}-\d{5}$/) });
    expect(first).toMatchObject({ location_id: w.tuas, source_type: "purchase_order", source_id: po.id });
    expect(await onHand(w, p.id)).toBe(String(Number(start) + 6));
    expect(await posted(w, "supplier_delivery_order", first.id)).toEqual({ "1200": "120.00", "2100": "-120.00" });
    let after = await read(BUYER, "purchase_order", po.id);
    expect(after).toMatchObject({ status: "to_receive_and_bill" });
    expect(after.lines[0]).toMatchObject({ qty_received: "6.000", qty_billed: "0.000" });

    const inv1 = await bill(await billDraft({ type: "supplier_delivery_order", doc: first }));
    expect(inv1).toMatchObject({
      status: "unpaid",
      number: expect.stringMatching(/^SINV-\d{4}-\d{5}$/),
      match_status: "matched",
      outstanding: "130.80",
      due_date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
    });
    expect(inv1.lines[0]).toMatchObject({
      match_exception: null,
      purchase_order_line_id: po.lines[0].id,
      supplier_delivery_order_line_id: first.lines[0].id,
    });
    expect(await posted(w, "supplier_invoice", inv1.id)).toEqual({
      "1300": "10.80",
      "2000": "-130.80",
      "2100": "120.00",
    });
    after = await read(BUYER, "purchase_order", po.id);
    expect(after.lines[0]).toMatchObject({ qty_received: "6.000", qty_billed: "6.000" });
    expect((await read(STORE, "supplier_delivery_order", first.id)).status).toBe("completed");

    const second = await receive(po); // defaults to what is left: 4
    expect(second.lines[0].qty).toBe("4.000");
    after = await read(BUYER, "purchase_order", po.id);
    expect(after.status).toBe("to_bill");
    await bill(await billDraft({ type: "supplier_delivery_order", doc: second }));
    after = await read(BUYER, "purchase_order", po.id);
    expect(after.status).toBe("completed");
    expect(after.lines[0]).toMatchObject({ qty_received: "10.000", qty_billed: "10.000" });
    // Nothing is left to receive or bill.
    const more = await act(STORE, "purchase_order", po.id, "close");
    expect(more.status).toBe(409);
    await expectBalancedBooks(w);
  });

  it("rejected goods do not count as received; a receipt cannot take more than is left", async () => {
    const po = await order(w, [{ item: 2, qty: "5", price: "8" }]);
    const made = await ok(STORE, "document_convert", {
      type: "purchase_order",
      id: po.id,
      to: "supplier_delivery_order",
      header: { supplier_do_number: "DO-88812" },
    });
    expect(made.lines[0]).toMatchObject({ qty: "5.000", qty_rejected: "0.000", unit_price: "8.0000" });
    const line = made.lines[0];
    const saved = await ok(STORE, "document_save", {
      type: "supplier_delivery_order",
      id: made.id,
      header: { company_id: made.company_id, location_id: w.ubi, supplier_do_number: "DO-88812" },
      lines: [
        {
          source_line_id: line.source_line_id,
          product_id: line.product_id,
          qty: "3",
          unit_price: line.unit_price,
          qty_rejected: "2",
          reject_reason: "Cracked in transit",
        },
      ],
    });
    expect(saved.lines[0]).toMatchObject({ qty: "3.000", qty_rejected: "2.000", reject_reason: "Cracked in transit" });
    const done = await ok(STORE, "document_transition", {
      type: "supplier_delivery_order",
      id: made.id,
      action: "submit",
    });
    expect(done.status).toBe("to_bill");
    const after = await read(BUYER, "purchase_order", po.id);
    expect(after.lines[0].qty_received).toBe("3.000");
    expect(after.status).toBe("to_receive_and_bill");
    const [atUbi] = await query<{ n: string }>(
      w,
      sql`select sum(qty)::text as n from stock_move where workspace_id = ${w.ws}::uuid and doc_type = 'supplier_delivery_order' and doc_id = ${made.id} and location_id = ${w.ubi}`,
    );
    expect(atUbi.n).toBe("3.000");

    const tooMany = await ok(STORE, "document_convert", {
      type: "purchase_order",
      id: po.id,
      to: "supplier_delivery_order",
    });
    expect(tooMany.lines[0].qty).toBe("2.000");
    const over = await ok(STORE, "document_save", {
      type: "supplier_delivery_order",
      id: tooMany.id,
      header: { company_id: tooMany.company_id, location_id: w.tuas },
      lines: [
        { source_line_id: tooMany.lines[0].source_line_id, product_id: line.product_id, qty: "3", unit_price: "8" },
      ],
    });
    const refused = await act(STORE, "supplier_delivery_order", over.id, "submit");
    expect(refused.status).toBe(409);
    expect((refused.body as { message: string }).message).toBe("Only 2 of 5 are left to receive on line 1");
    const reason = await ok(STORE, "document_save", {
      type: "supplier_delivery_order",
      id: over.id,
      header: { company_id: tooMany.company_id, location_id: w.tuas },
      lines: [
        {
          source_line_id: tooMany.lines[0].source_line_id,
          product_id: line.product_id,
          qty: "1",
          reject_reason: "Wet",
        },
      ],
    }).catch((e: unknown) => e);
    expect(String(reason)).toContain("give the quantity rejected with the reason");
  });

  it("the product's cost becomes the moving average, and a cancelled receipt takes itself back out", async () => {
    const p = w.items[1];
    // Opening stock: 10 at the current cost.
    const c0 = await cost(w, p.id);
    await query(
      w,
      sql`insert into stock_move (workspace_id, product_id, location_id, qty, unit_cost, doc_type, doc_id)
        values (${w.ws}::uuid, ${p.id}, ${w.tuas}, 10, ${c0}::numeric, 'opening', 0)`,
    );
    const h0 = new Dec(await onHand(w, p.id));
    const price = new Dec(c0).plus(7).toFixed(2);
    const po = await order(w, [{ item: 1, qty: "10", price }]);
    const sdo = await receive(po);
    const expected = h0.times(c0).plus(new Dec(price).times(10)).dividedBy(h0.plus(10)).toFixed(2);
    expect(await cost(w, p.id)).toBe(expected);
    expect(await onHand(w, p.id)).toBe(h0.plus(10).toFixed());

    const cancelled = await ok(STORE, "document_transition", {
      type: "supplier_delivery_order",
      id: sdo.id,
      action: "cancel",
    });
    expect(cancelled.status).toBe("cancelled");
    expect(await onHand(w, p.id)).toBe(h0.toFixed());
    expect(await cost(w, p.id)).toBe(new Dec(c0).toFixed(2));
    const after = await read(BUYER, "purchase_order", po.id);
    expect(after).toMatchObject({ status: "to_receive_and_bill" });
    expect(after.lines[0].qty_received).toBe("0.000");
    const [rev] = await query<{ n: number }>(
      w,
      sql`select count(*)::int as n from journal_entry where workspace_id = ${w.ws}::uuid and source_type = 'supplier_delivery_order' and source_id = ${sdo.id} and reversal_of is not null`,
    );
    expect(rev.n).toBe(1);
    await expectBalancedBooks(w);
  });

  it("an order in another currency comes into stock and clears 2100 in base currency", async () => {
    const po = await order(w, [{ item: 2, qty: "10", price: "20" }], { currency: "USD", rate: "1.35" });
    expect(po).toMatchObject({ total: "218.00", base_total: "294.30" });
    const sdo = await receive(po);
    expect(await posted(w, "supplier_delivery_order", sdo.id)).toEqual({ "1200": "270.00", "2100": "-270.00" });
    const inv = await bill(await billDraft({ type: "supplier_delivery_order", doc: sdo }));
    expect(inv.match_status).toBe("matched");
    expect(await posted(w, "supplier_invoice", inv.id)).toEqual({
      "1300": "24.30",
      "2000": "-294.30",
      "2100": "270.00",
    });
    await expectBalancedBooks(w);
  });

  it("a billed receipt and a received order cannot be cancelled; stock on hand is the sum of the moves", async () => {
    const po = await order(w, [{ qty: "2", price: "15" }]);
    const sdo = await receive(po);
    const inv = await bill(await billDraft({ type: "supplier_delivery_order", doc: sdo }));
    const refusedSdo = await act(STORE, "supplier_delivery_order", sdo.id, "cancel");
    expect(refusedSdo.status).toBe(409);
    expect((refusedSdo.body as { message: string }).message).toBe(
      `This supplier delivery order is billed on supplier invoice ${inv.number}: cancel the supplier invoice first`,
    );
    const refusedPo = await act(BUYER, "purchase_order", po.id, "cancel");
    expect(refusedPo.status).toBe(409);
    // Cancelling the invoice frees the receipt; the order's billed quantity goes back.
    await ok("finance@demo.test", "document_transition", { type: "supplier_invoice", id: inv.id, action: "cancel" });
    expect((await read(BUYER, "purchase_order", po.id)).lines[0].qty_billed).toBe("0.000");
    // A cancelled invoice owes nothing: on its page and in the list's totals (accounts payable leaves it out too).
    const gone = await read("finance@demo.test", "supplier_invoice", inv.id);
    expect([gone.status, gone.outstanding]).toEqual(["cancelled", "0.00"]);
    const totals = (await ok("finance@demo.test", "document_list_totals", {
      type: "supplier_invoice",
      filters: [["id", `eq.${inv.id}`]],
    })) as unknown as Array<{ count: number; outstanding: string }>;
    expect(totals.map((t) => [t.count, t.outstanding])).toEqual([[1, "0.00"]]);
    await ok(STORE, "document_transition", { type: "supplier_delivery_order", id: sdo.id, action: "cancel" });
    const done = await ok(BUYER, "document_transition", { type: "purchase_order", id: po.id, action: "cancel" });
    expect(done.status).toBe("cancelled");
    const [mismatch] = await query<{ n: number }>(
      w,
      sql`select count(*)::int as n from (select product_id, sum(qty) as q from stock_move where workspace_id = ${w.ws}::uuid
        group by product_id having sum(qty) < 0) t`,
    );
    expect(mismatch.n).toBe(0);
    await expectBalancedBooks(w);
  });
});
