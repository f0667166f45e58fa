import { transitionMatrix } from "@workmetrics/domain/documents/machine";
import { INVOICE } from "@workmetrics/domain/documents/types/invoice";
import type { DocSnapshot } from "@workmetrics/domain/documents/types/snapshot";
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { act, type Doc, draft, ok, type Product, products, read, rpc } from "./documents-helpers.ts";
import { locationsByCode, openingStock, ownServer } from "./own-server-helpers.ts";
import { restFetch } from "./rest-helpers.ts";

// Issue 10 §2 and §5: invoices from a sales order, from a delivery order or written directly; submit posts
// Dr 1100 / Cr 4000 / Cr 2200 and bills the source lines (refusing more than is left); the due date comes from the
// customer's payment terms; cancel waits for nothing billed on it and reverses. A server of its own to read the
// journal rows and put opening stock in.

const ADMIN = "admin@demo.test";
const THEM = "owner@pro.test";
const own = ownServer();
let item: Product;
let tuas = 0;
const { q } = own;

beforeAll(async () => {
  [item] = await products(ADMIN, 1);
  tuas = (await locationsByCode(ADMIN))["WH-TUAS"];
  await openingStock(own, [item], tuas, 1000);
}, 120_000);

async function order(qty = "10"): Promise<Doc> {
  const so = await draft(ADMIN, "sales_order", {}, [{ product_id: item.id, qty }]);
  return ok(ADMIN, "document_transition", { type: "sales_order", id: so.id, action: "submit" });
}
const convert = (type: string, id: number, to: string, extra: Record<string, unknown> = {}) =>
  ok(ADMIN, "document_convert", { type, id, to, ...extra });
const submit = (type: string, id: number) => ok(ADMIN, "document_transition", { type, id, action: "submit" });
const message = (res: { body: unknown }) => (res.body as { message: string }).message;
const journal = (type: string, id: number) =>
  q<{ entry: string; reversal_of: string | null; account_code: string; debit: string; credit: string }>(sql`
    select e.id::text as entry, e.reversal_of::text as reversal_of, l.account_code, l.debit::text, l.credit::text
    from journal_entry e join journal_line l on l.workspace_id = e.workspace_id and l.entry_id = e.id
    where e.workspace_id = ${own.ws}::uuid and e.source_type = ${type} and e.source_id = ${id} order by e.id, l.line_no`);

const PATHS: Record<string, { header?: Record<string, unknown>; actions: string[] }> = {
  draft: { actions: [] },
  unpaid: { actions: ["submit"] },
  overdue: { header: { doc_date: "2025-01-02", due_date: "2025-02-01" }, actions: ["submit"] },
  cancelled: { actions: ["cancel"] },
};

describe("the invoice matrix on the server", () => {
  const snapshot = (status: string): DocSnapshot => ({
    status,
    today: new Date().toISOString().slice(0, 10),
    header: { total: "10.00", outstanding: "10.00", due_date: "2999-01-01" },
    lines: [{ id: 1, qty: "1" }],
  });
  const expected = transitionMatrix(INVOICE, { doc: snapshot }) as Record<string, Record<string, string>>;
  it.each(Object.keys(PATHS))("from %s", async (status) => {
    const answers: Record<string, string> = {};
    for (const action of INVOICE.actions) {
      const inv = await draft(ADMIN, "invoice", PATHS[status].header ?? {});
      for (const a of PATHS[status].actions)
        await ok(ADMIN, "document_transition", { type: "invoice", id: inv.id, action: a });
      const doc = await read(ADMIN, "invoice", inv.id);
      expect(doc.status).toBe(status);
      const res = await act(ADMIN, "invoice", doc.id, action);
      if (res.status === 200) answers[action] = `→ ${(res.body as Doc).status}`;
      else {
        expect(res.status, res.text).toBe(409);
        answers[action] = message(res);
        expect(await read(ADMIN, "invoice", doc.id)).toEqual(doc);
      }
    }
    expect(answers).toEqual(expected[status]);
  });
});

describe("invoicing", () => {
  it("a sales order: what is left to bill, due by the payment terms, Dr 1100 / Cr 4000 / Cr 2200; no more than ordered", async () => {
    const so = await order("10");
    const inv = await convert("sales_order", so.id, "invoice", { lines: [{ line_id: so.lines[0].id, qty: "4" }] });
    const sent = await submit("invoice", inv.id);
    const terms = (await restFetch(ADMIN, `company?select=payment_terms_days&id=eq.${so.company_id}`)).body as Array<{
      payment_terms_days: number;
    }>;
    const due = new Date(`${sent.doc_date}T00:00:00Z`);
    due.setUTCDate(due.getUTCDate() + terms[0].payment_terms_days);
    expect(sent).toMatchObject({
      status: "unpaid",
      number: expect.stringMatching(/^INV-\d{4}-\d{5}$/),
      due_date: due.toISOString().slice(0, 10),
      outstanding: sent.total,
    });
    expect((await journal("invoice", inv.id)).map((l) => [l.account_code, l.debit, l.credit])).toEqual([
      ["1100", sent.total, "0.00"],
      ["4000", "0.00", sent.net_total],
      ["2200", "0.00", sent.tax_total],
    ]);
    expect((await read(ADMIN, "sales_order", so.id)).lines[0].qty_billed).toBe("4.000");
    const rest = await convert("sales_order", so.id, "invoice");
    expect(rest.lines[0].qty).toBe("6.000");
    const more = await rpc(ADMIN, "document_save", {
      type: "invoice",
      id: rest.id,
      header: { company_id: so.company_id },
      lines: [{ product_id: item.id, qty: "7", source_line_id: so.lines[0].id }],
    });
    expect(more.status).toBe(200);
    const refused = await act(ADMIN, "invoice", rest.id, "submit");
    expect(refused.status).toBe(409);
    expect(message(refused)).toBe("Only 6 of 10 are left to bill on line 1");

    const cancelled = await act(ADMIN, "invoice", inv.id, "cancel");
    expect(cancelled.status, cancelled.text).toBe(200);
    expect((await read(ADMIN, "sales_order", so.id)).lines[0].qty_billed).toBe("0.000");
    expect((await read(ADMIN, "invoice", inv.id)).outstanding).toBe("0.00"); // a cancelled invoice owes nothing
    const rows = await journal("invoice", inv.id);
    expect(rows.filter((r) => r.reversal_of === rows[0].entry).map((l) => [l.account_code, l.debit, l.credit])).toEqual(
      [
        ["1100", "0.00", sent.total],
        ["4000", sent.net_total, "0.00"],
        ["2200", sent.tax_total, "0.00"],
      ],
    );
  });

  it("a delivery order: completes it; the delivery cannot be cancelled while the invoice stands", async () => {
    const so = await order("5");
    const d = await convert("sales_order", so.id, "delivery_order", { header: { location_id: tuas } });
    const delivered = await submit("delivery_order", d.id);
    const inv = await convert("delivery_order", d.id, "invoice");
    expect(inv).toMatchObject({ source_type: "delivery_order", source_id: d.id });
    expect(inv.lines[0]).toMatchObject({ qty: "5.000", source_line_id: delivered.lines[0].id });
    const sent = await submit("invoice", inv.id);
    expect((await read(ADMIN, "delivery_order", d.id)).status).toBe("completed");
    // Billed through its delivery, the order is billed too: delivered and billed, it is Completed.
    const billed = await read(ADMIN, "sales_order", so.id);
    expect([billed.lines[0].qty_billed, billed.status]).toEqual(["5.000", "completed"]);
    const blocked = await act(ADMIN, "delivery_order", d.id, "cancel");
    expect(blocked.status).toBe(409);
    expect(message(blocked)).toBe(`This delivery order is billed on invoice ${sent.number}: cancel the invoice first`);
    const again = await rpc(ADMIN, "document_convert", { type: "delivery_order", id: d.id, to: "invoice" });
    expect(message(again)).toBe(`Nothing is left to bill on ${delivered.number}`);
    await ok(ADMIN, "document_transition", { type: "invoice", id: inv.id, action: "cancel" });
    expect((await read(ADMIN, "delivery_order", d.id)).status).toBe("to_bill");
    const unbilled = await read(ADMIN, "sales_order", so.id);
    expect([unbilled.lines[0].qty_billed, unbilled.status]).toEqual(["0.000", "to_bill"]);
    expect((await act(ADMIN, "delivery_order", d.id, "cancel")).status).toBe(200);
  });

  it("billed partly on the order and partly through its delivery: never more than the order", async () => {
    const so = await order("5");
    const direct = await convert("sales_order", so.id, "invoice", { lines: [{ line_id: so.lines[0].id, qty: "3" }] });
    await submit("invoice", direct.id);
    const d = await convert("sales_order", so.id, "delivery_order", { header: { location_id: tuas } });
    const delivered = await submit("delivery_order", d.id);
    const inv = await convert("delivery_order", d.id, "invoice");
    expect(inv.lines[0].qty).toBe("5.000");
    const refused = await act(ADMIN, "invoice", inv.id, "submit");
    expect(refused.status).toBe(409);
    expect(message(refused)).toBe(`Only 2 of 5 are left to bill on line 1 of ${so.number}`);
    await ok(ADMIN, "document_save", {
      type: "invoice",
      id: inv.id,
      header: { company_id: so.company_id },
      lines: [{ product_id: item.id, qty: "2", source_line_id: delivered.lines[0].id }],
    });
    await submit("invoice", inv.id);
    const billed = await read(ADMIN, "sales_order", so.id);
    expect([billed.lines[0].qty_billed, billed.status]).toEqual(["5.000", "completed"]);
  });

  it("directly, with its own due date; another workspace cannot invoice demo's documents", async () => {
    const inv = await draft(ADMIN, "invoice", { due_date: "2099-12-31" });
    expect(await submit("invoice", inv.id)).toMatchObject({ status: "unpaid", due_date: "2099-12-31" });
    const so = await order("2");
    const theirs = await rpc(THEM, "document_convert", { type: "sales_order", id: so.id, to: "invoice" });
    expect(theirs.status).toBe(404);
    expect(message(theirs)).toBe(`There is no sales order ${so.id} in this workspace`);
    expect((await act(THEM, "invoice", inv.id, "cancel")).status).toBe(404);
    expect((await read(ADMIN, "invoice", inv.id)).status).toBe("unpaid");
  });

  it("every journal entry balances", async () => {
    const rows = await q<{ entries: number; unbalanced: number }>(sql`select count(*)::int as entries,
        count(*) filter (where d <> c)::int as unbalanced from (select entry_id, sum(debit) as d, sum(credit) as c
        from journal_line where workspace_id = ${own.ws}::uuid group by entry_id) t`);
    expect(rows[0].entries).toBeGreaterThan(5);
    expect(rows[0].unbalanced).toBe(0);
  });
});
