import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { act, customer, type Doc, draft, ok, type Product, products, read, rpc } from "./documents-helpers.ts";
import { locationsByCode, openingStock, ownServer } from "./own-server-helpers.ts";

// Issue 10 §2 and §5: goods return notes (from a delivery order: stock back at the delivery's cost, qty_returned on
// the delivery's and the order's lines, over-return refused), credit notes (from an invoice or a goods return note:
// the invoice's outstanding, never below zero, the rest customer credit; Credit note issued; over-credit refused) and
// debit notes (receivables of their own, paid by receipts); every cancel reverses stock and journal; matrices;
// another workspace's documents answered as not found. A server of its own to put opening stock in and read rows.

const ADMIN = "admin@demo.test";
const THEM = "owner@pro.test";
const own = ownServer();
let items: Product[] = [];
let company = 0;
let tuas = 0;
const { q } = own;

beforeAll(async () => {
  items = await products(ADMIN, 2);
  company = await customer(ADMIN);
  tuas = (await locationsByCode(ADMIN))["WH-TUAS"];
  await openingStock(own, items, tuas, 1000);
}, 600_000);

const message = (res: { body: unknown }) => (res.body as { message: string }).message;
const submit = (type: string, id: number) => ok(ADMIN, "document_transition", { type, id, action: "submit" });
const convert = (type: string, id: number, to: string, extra: Record<string, unknown> = {}) =>
  ok(ADMIN, "document_convert", { type, id, to, ...extra });

// A submitted sales order of `qty` of the first product, delivered in full from Tuas.
async function delivered(qty = "10"): Promise<{ so: Doc; dox: Doc }> {
  const d = await draft(ADMIN, "sales_order", {}, [{ product_id: items[0].id, qty }]);
  const so = await submit("sales_order", d.id);
  const dd = await convert("sales_order", so.id, "delivery_order", { header: { location_id: tuas } });
  return { so, dox: await submit("delivery_order", dd.id) };
}

const returned = (dox: Doc, qty?: string) =>
  convert("delivery_order", dox.id, "goods_return_note", {
    ...(qty ? { lines: [{ line_id: dox.lines[0].id, qty }] } : {}),
  });

const onHand = async (productId: number) =>
  (
    await q<{ n: string }>(sql`select coalesce(sum(qty), 0)::text as n from stock_move
      where workspace_id = ${own.ws}::uuid and product_id = ${productId} and location_id = ${tuas}`)
  )[0].n;

const journal = (type: string, id: number) =>
  q<{ reversal_of: string | null; account_code: string; debit: string; credit: string }>(sql`
    select e.reversal_of::text as reversal_of, l.account_code, l.debit::text as debit, l.credit::text as credit
    from journal_entry e join journal_line l on l.workspace_id = e.workspace_id and l.entry_id = e.id
    where e.workspace_id = ${own.ws}::uuid and e.source_type = ${type} and e.source_id = ${id} order by e.id, l.line_no`);
const legs = (rows: Awaited<ReturnType<typeof journal>>) => rows.map((l) => [l.account_code, l.debit, l.credit]);

// A submitted invoice of one service-like line at `price` (GST 9% on top).
async function invoice(price = "100", qty = "1"): Promise<Doc> {
  const d = await draft(ADMIN, "invoice", {}, [{ description: "Consulting", qty, unit_price: price }]);
  return submit("invoice", d.id);
}

const pay = (amount: string, allocations: Array<[string, number, string]>) =>
  rpc(ADMIN, "record_payment", {
    type: "receipt",
    company_id: company,
    amount,
    method: "bank_transfer",
    allocations: allocations.map(([document_type, document_id, a]) => ({ document_type, document_id, amount: a })),
  });

describe("goods return notes", () => {
  it("take back part of a delivery at its cost: stock, qty_returned on the delivery and the order, Dr 1200 / Cr 5000", async () => {
    const { so, dox } = await delivered("10");
    const before = await onHand(items[0].id);
    const grn = await returned(dox);
    expect(grn).toMatchObject({ status: "draft", direction: "customer", location_id: tuas, source_id: dox.id });
    expect(grn.lines[0]).toMatchObject({ qty: "10.000", source_line_id: dox.lines[0].id });
    const part = await returned(dox, "4");
    const done = await submit("goods_return_note", part.id);
    expect(done).toMatchObject({ status: "to_credit", number: expect.stringMatching(/^GRN-\d{4}-\d{5}$/) });
    expect(Number(await onHand(items[0].id))).toBe(Number(before) + 4);
    expect((await read(ADMIN, "delivery_order", dox.id)).lines[0].qty_returned).toBe("4.000");
    expect((await read(ADMIN, "sales_order", so.id)).lines[0].qty_returned).toBe("4.000");
    const cost = (Number(items[0].cost) * 4).toFixed(2);
    expect(legs(await journal("goods_return_note", part.id))).toEqual([
      ["1200", cost, "0.00"],
      ["5000", "0.00", cost],
    ]);
    // The first draft still asks for all 10: only 6 are left.
    const over = await act(ADMIN, "goods_return_note", grn.id, "submit");
    expect(over.status).toBe(409);
    expect(message(over)).toBe("Only 6 of 10 are left to return on line 1");
    // A new conversion defaults to what is left.
    expect((await returned(dox)).lines[0].qty).toBe("6.000");
    // The delivery cannot be cancelled while the return stands.
    const blocked = await act(ADMIN, "delivery_order", dox.id, "cancel");
    expect(blocked.status).toBe(409);
    expect(message(blocked)).toBe(
      `This delivery order is returned on goods return note ${done.number}: cancel the goods return note first`,
    );
    // Cancel reverses stock, quantities and the entry.
    const cancelled = await ok(ADMIN, "document_transition", {
      type: "goods_return_note",
      id: part.id,
      action: "cancel",
    });
    expect(cancelled.status).toBe("cancelled");
    expect(await onHand(items[0].id)).toBe(before);
    expect((await read(ADMIN, "delivery_order", dox.id)).lines[0].qty_returned).toBe("0.000");
    expect((await read(ADMIN, "sales_order", so.id)).lines[0].qty_returned).toBe("0.000");
    const rows = await journal("goods_return_note", part.id);
    expect(rows.filter((r) => r.reversal_of != null).map((r) => [r.account_code, r.debit, r.credit])).toEqual([
      ["1200", "0.00", cost],
      ["5000", cost, "0.00"],
    ]);
  });

  it("two clerks returning the same remainder at once: one wins, the other is told what is left", async () => {
    const { dox } = await delivered("10");
    const a = await returned(dox, "6");
    const b = await returned(dox, "6");
    const answers = await Promise.all([
      act(ADMIN, "goods_return_note", a.id, "submit"),
      act(ADMIN, "goods_return_note", b.id, "submit"),
    ]);
    expect(answers.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(message(answers.find((r) => r.status === 409)!)).toBe("Only 4 of 10 are left to return on line 1");
    expect((await read(ADMIN, "delivery_order", dox.id)).lines[0].qty_returned).toBe("6.000");
  });

  it("are made from a submitted delivery order only, never straight from a sales order", async () => {
    const { so } = await delivered("2");
    const res = await rpc(ADMIN, "document_convert", { type: "sales_order", id: so.id, to: "goods_return_note" });
    expect(res.status).toBe(422);
    expect(message(res)).toBe("A goods return note cannot be made from a sales order");
    const loose = await draft(ADMIN, "goods_return_note", { location_id: tuas }, [
      { product_id: items[0].id, qty: "1" },
    ]);
    const refused = await act(ADMIN, "goods_return_note", loose.id, "submit");
    expect(refused.status).toBe(409);
    expect(message(refused)).toBe("A goods return note is made from a delivery order");
  });
});

describe("credit notes", () => {
  it("from a goods return note: the returned quantity at the invoice's price; the return is then credited", async () => {
    const { dox } = await delivered("5");
    const inv = await submit("invoice", (await convert("delivery_order", dox.id, "invoice")).id);
    const grn = await submit("goods_return_note", (await returned(dox, "2")).id);
    const cn = await convert("goods_return_note", grn.id, "credit_note");
    expect(cn).toMatchObject({ status: "draft", invoice_id: inv.id, source_type: "goods_return_note" });
    expect(cn.lines[0]).toMatchObject({
      qty: "2.000",
      unit_price: inv.lines[0].unit_price,
      invoice_line_id: inv.lines[0].id,
      source_line_id: grn.lines[0].id,
    });
    const issued = await submit("credit_note", cn.id);
    expect(issued).toMatchObject({ status: "issued", number: expect.stringMatching(/^CN-\d{4}-\d{5}$/) });
    expect(issued).toMatchObject({ applied: issued.total, unapplied: "0.00" });
    const after = await read(ADMIN, "invoice", inv.id);
    // A credit note is not a payment: nothing paid yet, the invoice is still unpaid on what is left.
    expect(after).toMatchObject({ status: "unpaid", credited: issued.total });
    expect(Number(after.outstanding)).toBeCloseTo(Number(inv.total) - Number(issued.total), 2);
    expect(after.lines[0].qty_credited).toBe("2.000");
    expect((await read(ADMIN, "goods_return_note", grn.id)).status).toBe("credited");
    expect(legs(await journal("credit_note", cn.id))).toEqual([
      ["4100", issued.net_total, "0.00"],
      ["2200", issued.tax_total, "0.00"],
      ["1100", "0.00", issued.total],
    ]);
    // The return cannot be cancelled while its credit note stands; the invoice neither.
    const blocked = await act(ADMIN, "goods_return_note", grn.id, "cancel");
    expect(message(blocked)).toBe(
      `This goods return note is credited on credit note ${issued.number}: cancel the credit note first`,
    );
    const invBlocked = await act(ADMIN, "invoice", inv.id, "cancel");
    expect(invBlocked.status).toBe(409);
    expect(message(invBlocked)).toBe(
      `${issued.total} of this invoice is credited: cancel the credit note against it first`,
    );
    // Cancel gives it all back.
    await ok(ADMIN, "document_transition", { type: "credit_note", id: cn.id, action: "cancel" });
    expect(await read(ADMIN, "invoice", inv.id)).toMatchObject({
      status: "unpaid",
      outstanding: inv.total,
      credited: "0.00",
    });
    expect((await read(ADMIN, "goods_return_note", grn.id)).status).toBe("to_credit");
    expect((await journal("credit_note", cn.id)).filter((r) => r.reversal_of != null)).toHaveLength(3);
    await ok(ADMIN, "document_transition", { type: "goods_return_note", id: grn.id, action: "cancel" });
  });

  it("a goods return note of a delivery not invoiced has nothing to credit", async () => {
    const { dox } = await delivered("3");
    const grn = await submit("goods_return_note", (await returned(dox, "1")).id);
    const res = await rpc(ADMIN, "document_convert", { type: "goods_return_note", id: grn.id, to: "credit_note" });
    expect(res.status).toBe(409);
    expect(message(res)).toBe(`${grn.number} is not invoiced yet: there is nothing to credit`);
  });

  it("from an invoice: what is left to credit by default, over-credit refused, fully credited → Credit note issued", async () => {
    const inv = await invoice("10", "5");
    const first = await convert("invoice", inv.id, "credit_note", { lines: [{ line_id: inv.lines[0].id, qty: "2" }] });
    await submit("credit_note", first.id);
    const rest = await convert("invoice", inv.id, "credit_note");
    expect(rest.lines[0].qty).toBe("3.000");
    const tooMuch = await convert("invoice", inv.id, "credit_note");
    await ok(ADMIN, "document_save", {
      type: "credit_note",
      id: tooMuch.id,
      header: { company_id: company, invoice_id: inv.id },
      lines: [{ ...pickLine(tooMuch.lines[0]), qty: "4" }],
    });
    const over = await act(ADMIN, "credit_note", tooMuch.id, "submit");
    expect(over.status).toBe(409);
    expect(message(over)).toBe("Only 3 of 5 are left to credit on line 1");
    await submit("credit_note", rest.id);
    expect(await read(ADMIN, "invoice", inv.id)).toMatchObject({
      status: "credit_note_issued",
      outstanding: "0.00",
    });
    const none = await rpc(ADMIN, "document_convert", { type: "invoice", id: inv.id, to: "credit_note" });
    expect(message(none)).toBe(`Nothing is left to credit on ${inv.number}`);
  });

  it("a price correction on a paid invoice becomes the customer's credit; never more than the invoice", async () => {
    const inv = await invoice("100");
    expect((await pay("109", [["invoice", inv.id, "109.00"]])).status).toBe(200);
    const cn = await draft(ADMIN, "credit_note", { invoice_id: inv.id }, [
      { description: "Price correction", qty: "1", unit_price: "10" },
    ]);
    const issued = await submit("credit_note", cn.id);
    expect(issued).toMatchObject({ total: "10.90", applied: "0.00", unapplied: "10.90" });
    expect(await read(ADMIN, "invoice", inv.id)).toMatchObject({ status: "credit_note_issued", outstanding: "0.00" });
    const big = await draft(ADMIN, "credit_note", { invoice_id: inv.id }, [
      { description: "Too much", qty: "1", unit_price: "95" },
    ]);
    const refused = await act(ADMIN, "credit_note", big.id, "submit");
    expect(refused.status).toBe(409);
    expect(message(refused)).toBe(`Only 98.10 of 109.00 is left to credit on ${inv.number}`);
    // Partly paid, then credited beyond what is owed: the invoice goes to zero, the rest is credit.
    const inv2 = await invoice("100");
    await pay("100", [["invoice", inv2.id, "100.00"]]);
    const cn2 = await submit(
      "credit_note",
      (await draft(ADMIN, "credit_note", { invoice_id: inv2.id }, [{ description: "Fix", qty: "1", unit_price: "20" }]))
        .id,
    );
    expect(cn2).toMatchObject({ total: "21.80", applied: "9.00", unapplied: "12.80" });
    expect(await read(ADMIN, "invoice", inv2.id)).toMatchObject({ status: "credit_note_issued", outstanding: "0.00" });
  });

  it("needs an invoice of the same customer that is submitted", async () => {
    const none = await draft(ADMIN, "credit_note", {}, [{ description: "X", qty: "1", unit_price: "1" }]);
    expect(message(await act(ADMIN, "credit_note", none.id, "submit"))).toBe(
      "Choose the invoice this credit note credits",
    );
    const d = await draft(ADMIN, "invoice", {}, [{ description: "Draft", qty: "1", unit_price: "5" }]);
    const onDraft = await draft(ADMIN, "credit_note", { invoice_id: d.id }, [
      { description: "X", qty: "1", unit_price: "1" },
    ]);
    const res = await act(ADMIN, "credit_note", onDraft.id, "submit");
    expect(res.status).toBe(409);
    expect(message(res)).toBe(`Invoice ${d.id} is draft: only a submitted invoice can be credited`);
  });
});

describe("a customer's credit allocated later", () => {
  it("a credit note's unapplied amount and a receipt's unallocated amount pay later documents", async () => {
    const inv = await invoice("100");
    await pay("109", [["invoice", inv.id, "109.00"]]);
    const cn = await submit(
      "credit_note",
      (await draft(ADMIN, "credit_note", { invoice_id: inv.id }, [{ description: "Fix", qty: "1", unit_price: "20" }]))
        .id,
    );
    expect(cn).toMatchObject({ applied: "0.00", unapplied: "21.80" });
    const later = await invoice("50");
    const tooMuch = await rpc(ADMIN, "allocate_credit", {
      type: "credit_note",
      id: cn.id,
      allocations: [{ document_type: "invoice", document_id: later.id, amount: "30" }],
    });
    expect(tooMuch.status).toBe(422);
    expect(message(tooMuch)).toBe(`Only 21.80 of ${cn.number} is the customer's credit; 30.00 cannot be allocated`);
    const done = await ok(ADMIN, "allocate_credit", {
      type: "credit_note",
      id: cn.id,
      allocations: [{ document_type: "invoice", document_id: later.id, amount: "21.80" }],
    });
    expect(done).toMatchObject({ unapplied: "0.00" });
    expect(await read(ADMIN, "invoice", later.id)).toMatchObject({ status: "partly_paid", outstanding: "32.70" });
    const blocked = await act(ADMIN, "invoice", later.id, "cancel");
    expect(blocked.status).toBe(409);
    // Its guard refuses it (the page shows Cancel disabled with this reason), before the effect that names the credit.
    expect(message(blocked)).toBe("21.80 of 54.50 is paid: an invoice with a payment allocated cannot be cancelled");
    // Cancelling the credit note takes its credit back from the later invoice too.
    await ok(ADMIN, "document_transition", { type: "credit_note", id: cn.id, action: "cancel" });
    expect(await read(ADMIN, "invoice", later.id)).toMatchObject({ status: "unpaid", outstanding: "54.50" });
    // A receipt's overpayment pays a debit note later.
    const over = await pay("150", [["invoice", later.id, "54.50"]]);
    const receipt = over.body as { id: number; unallocated: string };
    expect(receipt.unallocated).toBe("95.50");
    const dn = await submit(
      "debit_note",
      (await draft(ADMIN, "debit_note", { invoice_id: later.id }, [{ description: "Fee", qty: "1", unit_price: "10" }]))
        .id,
    );
    const used = await ok(ADMIN, "allocate_credit", {
      type: "receipt",
      id: receipt.id,
      allocations: [{ document_type: "debit_note", document_id: dn.id, amount: "10.90" }],
    });
    expect(used).toMatchObject({ unallocated: "84.60" });
    expect(await read(ADMIN, "debit_note", dn.id)).toMatchObject({ status: "paid", outstanding: "0.00" });
    const theirs = await rpc(THEM, "allocate_credit", {
      type: "receipt",
      id: receipt.id,
      allocations: [{ document_type: "invoice", document_id: later.id, amount: "1" }],
    });
    expect(theirs.status).toBe(404);
    expect(message(theirs)).toBe(`There is no receipt ${receipt.id} in this workspace`);
  });
});

describe("debit notes", () => {
  it("charge extra against an invoice as a receivable of their own, paid by a receipt", async () => {
    const inv = await invoice("100");
    const dn = await convert("invoice", inv.id, "debit_note");
    expect(dn).toMatchObject({ status: "draft", invoice_id: inv.id });
    const saved = await ok(ADMIN, "document_save", {
      type: "debit_note",
      id: dn.id,
      header: { company_id: company, invoice_id: inv.id },
      lines: [{ description: "Late delivery surcharge", qty: "1", unit_price: "50" }],
    });
    const done = await submit("debit_note", saved.id);
    expect(done).toMatchObject({
      status: "unpaid",
      total: "54.50",
      outstanding: "54.50",
      number: expect.stringMatching(/^DN-\d{4}-\d{5}$/),
      due_date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
    });
    expect(legs(await journal("debit_note", dn.id))).toEqual([
      ["1100", "54.50", "0.00"],
      ["4000", "0.00", "50.00"],
      ["2200", "0.00", "4.50"],
    ]);
    expect((await read(ADMIN, "invoice", inv.id)).outstanding).toBe("109.00");
    const over = await pay("60", [["debit_note", dn.id, "60.00"]]);
    expect(over.status).toBe(409);
    expect(message(over)).toBe(`Only 54.50 is outstanding on ${done.number}; 60.00 cannot be allocated`);
    expect(
      (
        await pay("60", [
          ["debit_note", dn.id, "20.00"],
          ["invoice", inv.id, "40.00"],
        ])
      ).status,
    ).toBe(200);
    expect(await read(ADMIN, "debit_note", dn.id)).toMatchObject({ status: "partly_paid", outstanding: "34.50" });
    const blocked = await act(ADMIN, "debit_note", dn.id, "cancel");
    expect(blocked.status).toBe(409);
    expect(message(blocked)).toBe("20.00 of 54.50 is paid: a debit note with a payment allocated cannot be cancelled");
    const invBlocked = await act(ADMIN, "invoice", inv.id, "cancel");
    expect(message(invBlocked)).toMatch(/is paid: an invoice with a payment allocated cannot be cancelled$/);
  });

  it("opening Cancel on an invoice names the debit note that stands against it; asking changes nothing", async () => {
    const inv = await invoice("100");
    const dn = await submit(
      "debit_note",
      (await draft(ADMIN, "debit_note", { invoice_id: inv.id }, [{ description: "Fee", qty: "1", unit_price: "10" }]))
        .id,
    );
    // Issue 20 §3: the page's actions come from pure guards over its rows; the cancel's effects, which know of the
    // debit note, are tried when the clerk opens Cancel (document_action_check), not on every read of the page.
    const offered = async () => {
      const res = await rpc(ADMIN, "document_action_check", { type: "invoice", id: inv.id, action: "cancel" });
      expect(res.status).toBe(200);
      return res.body as { action: string; blocked: string | null };
    };
    const why = `Debit note ${dn.number} stands against this invoice: cancel the debit note first`;
    expect(await offered()).toMatchObject({ blocked: why });
    // The same words as the server's refusal, and the question wrote nothing: the invoice and its books stand.
    expect(message(await act(ADMIN, "invoice", inv.id, "cancel"))).toBe(why);
    expect(await read(ADMIN, "invoice", inv.id)).toMatchObject({ status: "unpaid", outstanding: "109.00" });
    expect(legs(await journal("invoice", inv.id))).toHaveLength(3);
    await ok(ADMIN, "document_transition", { type: "debit_note", id: dn.id, action: "cancel" });
    expect(await offered()).toMatchObject({ blocked: null });
    expect((await act(ADMIN, "invoice", inv.id, "cancel")).status).toBe(200);
  });
});

// Each action from each status: → the status it lands on, or the refusal's message (the server's answer).
describe("transition matrices", () => {
  const attempt = async (type: string, id: number, action: string) => {
    const res = await act(ADMIN, type, id, action);
    return res.status === 200 ? `→ ${(res.body as Doc).status}` : message(res);
  };

  it("credit note", async () => {
    const inv = await invoice("10", "3");
    const make = async (status: string) => {
      const d = await convert("invoice", inv.id, "credit_note", { lines: [{ line_id: inv.lines[0].id, qty: "1" }] });
      if (status !== "draft") await submit("credit_note", d.id);
      if (status === "cancelled")
        await ok(ADMIN, "document_transition", { type: "credit_note", id: d.id, action: "cancel" });
      return d.id;
    };
    const seen: Record<string, Record<string, string>> = {};
    for (const status of ["draft", "issued", "cancelled"]) {
      seen[status] = {};
      for (const action of ["submit", "cancel"])
        seen[status][action] = await attempt("credit_note", await make(status), action);
    }
    expect(seen).toEqual({
      draft: { submit: "→ issued", cancel: "→ cancelled" },
      issued: { submit: "An issued credit note cannot be issued", cancel: "→ cancelled" },
      cancelled: {
        submit: "A cancelled credit note cannot be issued",
        cancel: "A cancelled credit note cannot be cancelled",
      },
    });
  });

  it("debit note", async () => {
    const inv = await invoice("10");
    const make = async (status: string) => {
      const d = await draft(ADMIN, "debit_note", { invoice_id: inv.id }, [
        { description: "Fee", qty: "1", unit_price: "5" },
      ]);
      if (status !== "draft") await submit("debit_note", d.id);
      if (status === "paid") await pay("5.45", [["debit_note", d.id, "5.45"]]);
      if (status === "cancelled")
        await ok(ADMIN, "document_transition", { type: "debit_note", id: d.id, action: "cancel" });
      return d.id;
    };
    const seen: Record<string, Record<string, string>> = {};
    for (const status of ["draft", "unpaid", "paid", "cancelled"]) {
      seen[status] = {};
      for (const action of ["submit", "cancel"])
        seen[status][action] = await attempt("debit_note", await make(status), action);
    }
    expect(seen.draft).toEqual({ submit: "→ unpaid", cancel: "→ cancelled" });
    expect(seen.unpaid).toEqual({ submit: "An unpaid debit note cannot be submitted", cancel: "→ cancelled" });
    expect(seen.paid.submit).toBe("A paid debit note cannot be submitted");
    expect(seen.paid.cancel).toBe("5.45 of 5.45 is paid: a debit note with a payment allocated cannot be cancelled");
    expect(seen.cancelled).toEqual({
      submit: "A cancelled debit note cannot be submitted",
      cancel: "A cancelled debit note cannot be cancelled",
    });
  });

  it("goods return note", async () => {
    const { dox } = await delivered("20");
    const make = async (status: string) => {
      const d = await returned(dox, "1");
      if (status !== "draft") await submit("goods_return_note", d.id);
      if (status === "cancelled") {
        await ok(ADMIN, "document_transition", { type: "goods_return_note", id: d.id, action: "cancel" });
      }
      return d.id;
    };
    const seen: Record<string, Record<string, string>> = {};
    for (const status of ["draft", "to_credit", "cancelled"]) {
      seen[status] = {};
      for (const action of ["submit", "cancel"]) {
        seen[status][action] = await attempt("goods_return_note", await make(status), action);
      }
    }
    expect(seen).toEqual({
      draft: { submit: "→ to_credit", cancel: "→ cancelled" },
      to_credit: { submit: "A submitted goods return note cannot be submitted", cancel: "→ cancelled" },
      cancelled: {
        submit: "A cancelled goods return note cannot be submitted",
        cancel: "A cancelled goods return note cannot be cancelled",
      },
    });
  });
});

describe("another workspace", () => {
  it("cannot credit, debit, return, transition, amend or duplicate demo's documents: not found", async () => {
    const { dox } = await delivered("2");
    const inv = await invoice("10");
    const cn = await draft(ADMIN, "credit_note", { invoice_id: inv.id }, [
      { description: "X", qty: "1", unit_price: "1" },
    ]);
    const attempts = [
      [await rpc(THEM, "document_convert", { type: "invoice", id: inv.id, to: "credit_note" }), "invoice", inv.id],
      [await rpc(THEM, "document_convert", { type: "invoice", id: inv.id, to: "debit_note" }), "invoice", inv.id],
      [
        await rpc(THEM, "document_convert", { type: "delivery_order", id: dox.id, to: "goods_return_note" }),
        "delivery order",
        dox.id,
      ],
      [await act(THEM, "credit_note", cn.id, "submit"), "credit note", cn.id],
      [await rpc(THEM, "document_duplicate", { type: "credit_note", id: cn.id }), "credit note", cn.id],
      [await rpc(THEM, "document_amend", { type: "credit_note", id: cn.id }), "credit note", cn.id],
    ] as const;
    for (const [res, what, id] of attempts) {
      expect(res.status, res.text).toBe(404);
      expect(message(res)).toBe(`There is no ${what} ${id} in this workspace`);
    }
    // Their own credit note naming demo's invoice is refused (the invoice is another workspace's row).
    const theirs = await rpc(THEM, "document_save", {
      type: "credit_note",
      header: { company_id: 1, invoice_id: inv.id },
      lines: [{ description: "X", qty: "1", unit_price: "1" }],
    });
    expect(theirs.status, theirs.text).toBeGreaterThanOrEqual(400);
    expect(theirs.status, theirs.text).toBeLessThan(500);
    expect((await read(ADMIN, "credit_note", cn.id)).status).toBe("draft");
  });

  it("every journal entry balances", async () => {
    const rows = await q<{ entries: number; unbalanced: number }>(sql`select count(*)::int as entries,
        count(*) filter (where d <> c)::int as unbalanced from (select entry_id, sum(debit) as d, sum(credit) as c
        from journal_line where workspace_id = ${own.ws}::uuid group by entry_id) t`);
    expect(rows[0].entries).toBeGreaterThan(10);
    expect(rows[0].unbalanced).toBe(0);
  });
});

function pickLine(l: Record<string, unknown>) {
  const {
    product_id,
    service_id,
    description,
    qty,
    unit_price,
    tax_code,
    discount_percent,
    source_line_id,
    invoice_line_id,
  } = l;
  return {
    product_id,
    service_id,
    description,
    qty,
    unit_price,
    tax_code,
    discount_percent,
    source_line_id,
    invoice_line_id,
  };
}
