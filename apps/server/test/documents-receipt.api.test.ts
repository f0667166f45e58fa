import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { act, customer, type Doc, draft, ok, read, rpc } from "./documents-helpers.ts";
import { ownServer } from "./own-server-helpers.ts";
import { restFetch } from "./rest-helpers.ts";

// Issue 10 §2 and §5: record_payment — a receipt allocated to invoices in rows; each invoice's outstanding is
// recomputed from its allocations and its status follows; what is not allocated stays as the customer's credit;
// Dr 1010 (1000 in cash) / Cr 1100. A server of its own to read the journal.

const ADMIN = "admin@demo.test";
const THEM = "owner@pro.test";
const own = ownServer();
let company = 0;
const { q } = own;

beforeAll(async () => {
  company = await customer(ADMIN);
}, 120_000);

// A submitted invoice of one line at `price` (GST 9% on top).
async function invoice(price = "100", header: Record<string, unknown> = {}): Promise<Doc> {
  const d = await draft(ADMIN, "invoice", header, [{ description: "Consulting", qty: "1", unit_price: price }]);
  return ok(ADMIN, "document_transition", { type: "invoice", id: d.id, action: "submit" });
}
const pay = (
  email: string,
  amount: string,
  allocations: Array<[number, string]>,
  extra: Record<string, unknown> = {},
) =>
  rpc(email, "record_payment", {
    type: "receipt",
    company_id: company,
    amount,
    method: "bank_transfer",
    allocations: allocations.map(([document_id, a]) => ({ document_type: "invoice", document_id, amount: a })),
    ...extra,
  });
const message = (res: { body: unknown }) => (res.body as { message: string }).message;
const receipts = async () =>
  (await q<{ n: number }>(sql`select count(*)::int as n from receipt where workspace_id = ${own.ws}::uuid`))[0].n;

describe("record_payment", () => {
  it("one receipt pays one invoice in full and another in part; the rest is the customer's credit", async () => {
    const a = await invoice("100");
    const b = await invoice("200");
    expect([a.total, b.total, a.outstanding]).toEqual(["109.00", "218.00", "109.00"]);
    const res = await pay(ADMIN, "200", [
      [a.id, "109.00"],
      [b.id, "50"],
    ]);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({
      number: expect.stringMatching(/^RCT-\d{4}-\d{5}$/),
      amount: "200.00",
      unallocated: "41.00",
      allocations: [
        { document_type: "invoice", document_id: a.id, amount: "109.00" },
        { document_type: "invoice", document_id: b.id, amount: "50.00" },
      ],
    });
    expect(await read(ADMIN, "invoice", a.id)).toMatchObject({ status: "paid", outstanding: "0.00" });
    expect(await read(ADMIN, "invoice", b.id)).toMatchObject({ status: "partly_paid", outstanding: "168.00" });
    const id = (res.body as { id: number }).id;
    const lines = await q(sql`select l.account_code, l.debit::text, l.credit::text from journal_entry e
      join journal_line l on l.workspace_id = e.workspace_id and l.entry_id = e.id
      where e.workspace_id = ${own.ws}::uuid and e.source_type = 'receipt' and e.source_id = ${id} order by l.line_no`);
    expect(lines).toEqual([
      { account_code: "1010", debit: "200.00", credit: "0.00" },
      { account_code: "1100", debit: "0.00", credit: "200.00" },
    ]);
    const read2 = await restFetch(ADMIN, `receipt?id=eq.${id}&select=number,allocations:payment_allocation(amount)`);
    expect(read2.body).toEqual([
      { number: (res.body as { number: string }).number, allocations: [{ amount: "109.00" }, { amount: "50.00" }] },
    ]);

    // The second payment settles the rest, in cash.
    const rest = await pay(ADMIN, "168", [[b.id, "168"]], { method: "cash" });
    expect(rest.status, rest.text).toBe(200);
    expect(await read(ADMIN, "invoice", b.id)).toMatchObject({ status: "paid", outstanding: "0.00" });
    const cash = await q<{ account_code: string }>(sql`select l.account_code from journal_line l
      join journal_entry e on e.workspace_id = l.workspace_id and e.id = l.entry_id
      where e.workspace_id = ${own.ws}::uuid and e.source_type = 'receipt' and e.source_id = ${(rest.body as { id: number }).id}
      order by l.line_no`);
    expect(cash.map((c) => c.account_code)).toEqual(["1000", "1100"]);

    // A paid invoice cannot be cancelled while the receipt stands.
    const cancel = await act(ADMIN, "invoice", a.id, "cancel");
    expect(cancel.status).toBe(409);
    expect(message(cancel)).toBe("109.00 of 109.00 is paid: an invoice with a payment allocated cannot be cancelled");
  });

  it("refuses more than is outstanding, more than is paid, a closed invoice and someone else's — writing nothing", async () => {
    const inv = await invoice("10");
    const before = await receipts();
    const over = await pay(ADMIN, "20", [[inv.id, "10.91"]]);
    expect(over.status).toBe(409);
    expect(message(over)).toBe(`Only 10.90 is outstanding on ${inv.number}; 10.91 cannot be allocated`);
    const more = await pay(ADMIN, "5", [[inv.id, "6"]]);
    expect(more.status).toBe(422);
    expect(message(more)).toBe("The allocations (6.00) are more than the payment (5.00)");
    const cents = await pay(ADMIN, "10.555", [[inv.id, "10.555"]]);
    expect(cents.status).toBe(422);
    expect(message(cents)).toBe("The amount 10.555 has more than 2 decimals");
    const part = await pay(ADMIN, "10", [[inv.id, "5.001"]]);
    expect(message(part)).toBe("Allocation 1 (5.001) has more than 2 decimals");
    const other = (await restFetch(ADMIN, `company?select=id&id=neq.${company}&order=id&limit=1`)).body as Array<{
      id: number;
    }>;
    const wrong = await pay(ADMIN, "5", [[inv.id, "5"]], { company_id: other[0].id });
    expect(wrong.status).toBe(422);
    expect(message(wrong)).toBe(`${inv.number} is not this customer's invoice`);
    const drafted = await draft(ADMIN, "invoice", {}, [{ description: "x", qty: "1", unit_price: "1" }]);
    const early = await pay(ADMIN, "1", [[drafted.id, "1"]]);
    expect(early.status).toBe(409);
    expect(message(early)).toBe(
      `Invoice ${drafted.id} is draft: only an unpaid, partly paid or overdue invoice can be paid`,
    );
    const theirs = await pay(THEM, "5", [[inv.id, "5"]], { company_id: 9 });
    expect(theirs.status, theirs.text).toBe(404);
    expect(message(theirs)).toBe(`There is no invoice ${inv.id} in this workspace`);
    const clerk = await pay("sales@demo.test", "5", [[inv.id, "5"]]);
    expect(clerk.status).toBe(403);
    expect(await receipts()).toBe(before);
    expect(await read(ADMIN, "invoice", inv.id)).toMatchObject({ status: "unpaid", outstanding: "10.90" });
  });

  it("an overdue invoice paid in part stays overdue; every journal entry balances", async () => {
    const late = await invoice("100", { doc_date: "2025-01-02", due_date: "2025-02-01" });
    expect(late.status).toBe("overdue");
    expect((await pay(ADMIN, "9", [[late.id, "9"]])).status).toBe(200);
    expect(await read(ADMIN, "invoice", late.id)).toMatchObject({ status: "overdue", outstanding: "100.00" });
    const rows = await q<{ entries: number; unbalanced: number }>(sql`select count(*)::int as entries,
        count(*) filter (where d <> c)::int as unbalanced from (select entry_id, sum(debit) as d, sum(credit) as c
        from journal_line where workspace_id = ${own.ws}::uuid group by entry_id) t`);
    expect(rows[0].entries).toBeGreaterThan(5);
    expect(rows[0].unbalanced).toBe(0);
  });
});
