import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { act, customer, read, rpc } from "./documents-helpers.ts";
import { ownServer } from "./own-server-helpers.ts";
import { supplier, supplierInvoice } from "./payables-helpers.ts";
import { restFetch } from "./rest-helpers.ts";

// Issue 11: record_payment {type: "supplier_payment"} pays several supplier invoices at once, in part, keeps what it
// does not allocate as the supplier's credit, posts Dr 2000 / Cr 1010 (1000 in cash), refuses an invoice the
// three-way check holds until a finance manager releases it, refuses another workspace's invoice, and cancelling
// it reverses all of that. A server of its own to read the journal.

const ADMIN = "admin@demo.test";
const FINANCE = "finance@demo.test";
const SALES = "sales@demo.test";
const THEM = "owner@pro.test";
const own = ownServer();
let company = 0;
const { q } = own;

beforeAll(async () => {
  company = await supplier(ADMIN);
}, 120_000);

const pay = (
  email: string,
  amount: string,
  allocations: Array<[number, string]>,
  extra: Record<string, unknown> = {},
) =>
  rpc(email, "record_payment", {
    type: "supplier_payment",
    company_id: company,
    amount,
    method: "bank_transfer",
    allocations: allocations.map(([document_id, a]) => ({ document_type: "supplier_invoice", document_id, amount: a })),
    ...extra,
  });
const message = (res: { body: unknown }) => (res.body as { message: string }).message;
const payments = async () =>
  (await q<{ n: number }>(sql`select count(*)::int as n from supplier_payment where workspace_id = ${own.ws}::uuid`))[0]
    .n;
const journal = (id: number) =>
  q<{ account_code: string; debit: string; credit: string; reversal: boolean }>(sql`select l.account_code,
      l.debit::text as debit, l.credit::text as credit, e.reversal_of is not null as reversal
    from journal_entry e join journal_line l on l.workspace_id = e.workspace_id and l.entry_id = e.id
    where e.workspace_id = ${own.ws}::uuid and e.source_type = 'supplier_payment' and e.source_id = ${id}
    order by e.id, l.line_no`);

describe("record_payment for suppliers", () => {
  it("one payment pays one supplier invoice in full and another in part; the rest is the supplier's credit", async () => {
    const a = await supplierInvoice(ADMIN, { companyId: company, ordered: "1", poPrice: "100" });
    const b = await supplierInvoice(ADMIN, { companyId: company, ordered: "2", poPrice: "100" });
    expect([a.match_status, b.match_status]).toEqual(["matched", "matched"]);
    expect([a.total, a.outstanding, b.total]).toEqual(["109.00", "109.00", "218.00"]);
    const res = await pay(FINANCE, "200", [
      [a.id, "109.00"],
      [b.id, "50"],
    ]);
    expect(res.status, res.text).toBe(200);
    const paid = res.body as { id: number; number: string };
    expect(res.body).toMatchObject({
      number: expect.stringMatching(/^PAY-\d{4}-\d{5}$/),
      status: "submitted",
      amount: "200.00",
      unallocated: "41.00",
      allocations: [
        { document_type: "supplier_invoice", document_id: a.id, amount: "109.00" },
        { document_type: "supplier_invoice", document_id: b.id, amount: "50.00" },
      ],
    });
    expect(await read(ADMIN, "supplier_invoice", a.id)).toMatchObject({ status: "paid", outstanding: "0.00" });
    expect(await read(ADMIN, "supplier_invoice", b.id)).toMatchObject({ status: "partly_paid", outstanding: "168.00" });
    // Dr 2000 Trade Creditors / Cr 1010 Bank for the whole amount, the credit included.
    expect(await journal(paid.id)).toEqual([
      { account_code: "2000", debit: "200.00", credit: "0.00", reversal: false },
      { account_code: "1010", debit: "0.00", credit: "200.00", reversal: false },
    ]);
    // Read back through /rest/v1 like any resource.
    const listed = await restFetch(FINANCE, `supplier_payment?id=eq.${paid.id}&select=number,amount,company_id`);
    expect(listed.body).toEqual([{ number: paid.number, amount: "200.00", company_id: company }]);

    // Cancelling gives back what it paid: the invoices owe again, the entry is reversed, why is kept.
    const noReason = await rpc(FINANCE, "supplier_payment_cancel", { id: paid.id, reason: " " });
    expect(noReason.status).toBe(422);
    const cancelled = await rpc(FINANCE, "supplier_payment_cancel", {
      id: paid.id,
      reason: "Paid to the wrong account",
    });
    expect(cancelled.status, cancelled.text).toBe(200);
    expect(cancelled.body).toMatchObject({ status: "cancelled", allocations: [] });
    expect(await read(ADMIN, "supplier_invoice", a.id)).toMatchObject({ status: "unpaid", outstanding: "109.00" });
    expect(await read(ADMIN, "supplier_invoice", b.id)).toMatchObject({ status: "unpaid", outstanding: "218.00" });
    const lines = await journal(paid.id);
    expect(lines.filter((l) => l.reversal)).toEqual([
      { account_code: "2000", debit: "0.00", credit: "200.00", reversal: true },
      { account_code: "1010", debit: "200.00", credit: "0.00", reversal: true },
    ]);
    const again = await rpc(FINANCE, "supplier_payment_cancel", { id: paid.id, reason: "Twice" });
    expect(again.status).toBe(409);
    expect(message(again)).toBe(`${paid.number} is already cancelled`);
    const why = await q<{ cancel_reason: string; cancelled_by: string | null }>(sql`select cancel_reason,
        cancelled_by::text from supplier_payment where workspace_id = ${own.ws}::uuid and id = ${paid.id}`);
    expect(why[0].cancel_reason).toBe("Paid to the wrong account");
    expect(why[0].cancelled_by).not.toBeNull();
    // The remittance advice still prints, marked cancelled.
    const pdf = await restFetchRaw(FINANCE, `/api/documents/supplier_payment/${paid.id}/pdf`);
    expect(pdf.status).toBe(200);
    expect(pdf.type).toBe("application/pdf");
  });

  it("an invoice held by the three-way check is refused until a finance manager releases it", async () => {
    const held = await supplierInvoice(ADMIN, { companyId: company, ordered: "1", poPrice: "100", price: "108" });
    expect(held.match_status).toBe("exception");
    const before = await payments();
    const refused = await pay(FINANCE, "117.72", [[held.id, "117.72"]]);
    expect(refused.status).toBe(409);
    expect(message(refused)).toBe(
      `${held.number} is waiting in the three-way check; a finance manager must release it first`,
    );
    expect(await payments()).toBe(before);
    const released = await act(FINANCE, "supplier_invoice", held.id, "release", "Price rise agreed by phone");
    expect(released.status, released.text).toBe(200);
    const res = await pay(FINANCE, "117.72", [[held.id, "117.72"]], { method: "cash" });
    expect(res.status, res.text).toBe(200);
    expect(await read(ADMIN, "supplier_invoice", held.id)).toMatchObject({ status: "paid", outstanding: "0.00" });
    // Paid in cash: Cr 1000 Cash.
    expect((await journal((res.body as { id: number }).id)).map((l) => l.account_code)).toEqual(["2000", "1000"]);
  });

  it("refuses what is not this supplier's, too much, the wrong document type, and another workspace's invoice", async () => {
    const inv = await supplierInvoice(ADMIN, { companyId: company, ordered: "1", poPrice: "50" });
    const before = await payments();
    const over = await pay(FINANCE, "100", [[inv.id, "60"]]);
    expect(over.status).toBe(409);
    expect(message(over)).toBe(`Only 54.50 is outstanding on ${inv.number}; 60.00 cannot be allocated`);
    const more = await pay(FINANCE, "10", [[inv.id, "20"]]);
    expect(message(more)).toBe("The allocations (20.00) are more than the payment (10.00)");
    const other = await supplier(ADMIN, 1);
    const notTheirs = await pay(FINANCE, "10", [[inv.id, "10"]], { company_id: other });
    expect(notTheirs.status).toBe(422);
    expect(message(notTheirs)).toBe(`${inv.number} is not this supplier's supplier invoice`);
    const wrongType = await rpc(FINANCE, "record_payment", {
      type: "supplier_payment",
      company_id: company,
      amount: "10",
      method: "bank_transfer",
      allocations: [{ document_type: "invoice", document_id: inv.id, amount: "10" }],
    });
    expect(wrongType.status).toBe(422);
    expect(message(wrongType)).toBe("Allocation 1: a supplier's payment pays supplier invoices");
    // Another workspace's owner cannot reach this invoice: it does not exist for them.
    const theirSupplier = await supplier(THEM);
    const foreign = await rpc(THEM, "record_payment", {
      type: "supplier_payment",
      company_id: theirSupplier,
      amount: "10",
      method: "bank_transfer",
      allocations: [{ document_type: "supplier_invoice", document_id: inv.id, amount: "10" }],
    });
    expect(foreign.status).toBe(404);
    // Only a supplier is paid; a customer, or a company of another workspace, is not one.
    const buyer = await customer(ADMIN);
    const notSupplier = await pay(FINANCE, "10", [], { company_id: buyer });
    expect(notSupplier.status).toBe(422);
    expect(message(notSupplier)).toMatch(/ is not a supplier$/);
    const elsewhere = await pay(FINANCE, "10", [], { company_id: theirSupplier });
    expect(elsewhere.status).toBe(422);
    expect(message(elsewhere)).toBe(`There is no supplier ${theirSupplier} in this workspace`);
    // A salesperson does not pay suppliers.
    const sales = await pay(SALES, "10", [[inv.id, "10"]]);
    expect(sales.status).toBe(403);
    expect(await payments()).toBe(before);
    expect(await read(ADMIN, "supplier_invoice", inv.id)).toMatchObject({ status: "unpaid", outstanding: "54.50" });
  });

  it("the supplier's credit pays a later invoice once it is released; no journal entry", async () => {
    const first = await supplierInvoice(ADMIN, { companyId: company, ordered: "1", poPrice: "100" });
    const res = await pay(FINANCE, "150", [[first.id, "109"]]);
    expect(res.status, res.text).toBe(200);
    const payment = res.body as { id: number; number: string };
    const entries = (await journal(payment.id)).length;
    const held = await supplierInvoice(ADMIN, { companyId: company, ordered: "1", poPrice: "20", price: "30" });
    const use = (id: number, amount: string) =>
      rpc(FINANCE, "allocate_credit", {
        type: "supplier_payment",
        id: payment.id,
        allocations: [{ document_type: "supplier_invoice", document_id: id, amount }],
      });
    const waiting = await use(held.id, "30");
    expect(waiting.status).toBe(409);
    expect(message(waiting)).toBe(
      `${held.number} is waiting in the three-way check; a finance manager must release it first`,
    );
    expect((await act(FINANCE, "supplier_invoice", held.id, "release", "Dearer, agreed")).status).toBe(200);
    const tooMuch = await use(held.id, "41.01");
    expect(message(tooMuch)).toBe(
      `Only 41.00 of ${payment.number} is the supplier's credit; 41.01 cannot be allocated`,
    );
    const used = await use(held.id, "32.70");
    expect(used.status, used.text).toBe(200);
    expect(used.body).toMatchObject({ unallocated: "8.30" });
    expect(await read(ADMIN, "supplier_invoice", held.id)).toMatchObject({ status: "paid", outstanding: "0.00" });
    expect((await journal(payment.id)).length).toBe(entries);
  });

  it("keeps the books balanced", async () => {
    const rows = await q<{ debit: string; credit: string }>(sql`select coalesce(sum(debit), 0)::text as debit,
        coalesce(sum(credit), 0)::text as credit from journal_line where workspace_id = ${own.ws}::uuid`);
    expect(rows[0].debit).toBe(rows[0].credit);
  });
});

async function restFetchRaw(email: string, path: string): Promise<{ status: number; type: string | null }> {
  const { tokenFor } = await import("./rest-helpers.ts");
  const res = await fetch(`${own.server.url}${path}`, {
    headers: { authorization: `Bearer ${await tokenFor(email)}` },
  });
  await res.arrayBuffer();
  return { status: res.status, type: res.headers.get("content-type") };
}
