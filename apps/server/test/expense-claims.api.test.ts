import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { act, type Doc, ok, read, rpc } from "./documents-helpers.ts";
import { ownServer, squeezeQuota } from "./own-server-helpers.ts";
import { restFetch, tokenFor } from "./rest-helpers.ts";

// Issue 24 "OCR and expense claims" (DESIGN §2.3.2): an employee's expense claim on the documents engine — receipts
// (merchant, date, amount with GST, tax code, account, photo) saved as a draft, submitted, approved by a manager
// (Dr expense net + Dr 1300 GST input / Cr 2410 Employee Claims Payable), reimbursed by finance (Dr 2410 / Cr 1010).
// Staff read and act on their own claims only; managers on all; Pro and Lite are refused; replays run once.

const w = ownServer({}, 600_000);
const SALES = "sales@demo.test";
const DRIVER = "driver@demo.test";
const MANAGER = "manager@demo.test";
const FINANCE = "finance@demo.test";
const ACCOUNTS = "accounts@demo.test";
const OTHER = "owner@orchard.test";
const PHOTO = `data:image/jpeg;base64,${Buffer.from("a taxi receipt, photographed").toString("base64")}`;

type Answer = { status: number; text: string; body: Record<string, unknown> & { message?: string } };
const call = async (email: string, fn: string, args: unknown, key?: string) =>
  (await restFetch(email, `rpc/${fn}`, {
    method: "POST",
    body: JSON.stringify(args),
    headers: key ? { "idempotency-key": key } : {},
  })) as unknown as Answer;

const receipt = async (email: string) => (await ok(email, "expense_receipt_upload", { image: PHOTO })).path as string;

const line = (over: Record<string, unknown> = {}) => ({
  merchant: "ComfortDelGro Taxi",
  expense_date: "2026-11-20",
  amount: "21.80",
  tax_code: "SR",
  account_code: "6400",
  ...over,
});

const claim = (email: string, lines: Array<Record<string, unknown>>, header: Record<string, unknown> = {}) =>
  ok(email, "document_save", { type: "expense_claim", header: { notes: "Client visit", ...header }, lines });

async function posted(type: string, id: number): Promise<Record<string, string>[]> {
  return w.q<Record<string, string>>(sql`select e.memo, l.account_code, (l.debit - l.credit)::text as net
    from journal_line l join journal_entry e on e.workspace_id = l.workspace_id and e.id = l.entry_id
    where e.workspace_id = ${w.ws}::uuid and e.source_type = ${type} and e.source_id = ${id}
    order by e.id, l.line_no`);
}

describe("an expense claim from draft to reimbursed", () => {
  it("prices receipts GST-inclusive, posts approval and reimbursement, and balances", async () => {
    const path = await receipt(SALES);
    expect(path).toMatch(/^expense_claims\/receipts\/.+\.jpg$/);
    const draft = await claim(SALES, [
      line({ receipt_path: path }),
      line({ merchant: "Ya Kun Kaya Toast", amount: "10.90", account_code: "6410" }),
      line({ merchant: "Parking", amount: "5.00", tax_code: "OS", account_code: "6400" }),
    ]);
    expect(draft.status).toBe("draft");
    expect(draft.company_id).toBeNull();
    const saved = await read(SALES, "expense_claim", draft.id);
    expect(saved.lines.map((l) => [l.merchant, l.amount, l.gst_amount, l.net_amount])).toEqual([
      ["ComfortDelGro Taxi", "21.80", "1.80", "20.00"],
      ["Ya Kun Kaya Toast", "10.90", "0.90", "10.00"],
      ["Parking", "5.00", "0.00", "5.00"],
    ]);
    expect([saved.net_total, saved.tax_total, saved.total]).toEqual(["35.00", "2.70", "37.70"]);
    expect(saved.lines[0].receipt_path).toBe(path);

    const submitted = await act(SALES, "expense_claim", draft.id, "submit");
    expect(submitted.status, submitted.text).toBe(200);
    const after = await read(SALES, "expense_claim", draft.id);
    expect(after.status).toBe("submitted");
    expect(after.number).toMatch(/^EXP-\d{4}-\d{5}$/);

    // The salesperson cannot approve (their own or anyone's); the sales manager can.
    const selfApprove = await act(SALES, "expense_claim", draft.id, "approve");
    expect(selfApprove.status).toBe(403);
    expect(await posted("expense_claim", draft.id)).toEqual([]);
    const approved = await act(MANAGER, "expense_claim", draft.id, "approve");
    expect(approved.status, approved.text).toBe(200);
    expect((await posted("expense_claim", draft.id)).map((r) => [r.account_code, r.net])).toEqual([
      ["6400", "25.00"],
      ["6410", "10.00"],
      ["1300", "2.70"],
      ["2410", "-37.70"],
    ]);

    // The manager does not pay; finance reimburses with the transfer's reference.
    const managerPays = await act(MANAGER, "expense_claim", draft.id, "reimburse");
    expect(managerPays.status).toBe(403);
    const paid = await rpc(FINANCE, "document_transition", {
      type: "expense_claim",
      id: draft.id,
      action: "reimburse",
      values: { payment_reference: "FAST-20261127-001" },
    });
    expect(paid.status, paid.text).toBe(200);
    const done = await read(SALES, "expense_claim", draft.id);
    expect(done.status).toBe("paid");
    expect(done.payment_reference).toBe("FAST-20261127-001");
    const entries = await posted("expense_claim", draft.id);
    expect(entries.slice(4).map((r) => [r.account_code, r.net])).toEqual([
      ["2410", "37.70"],
      ["1010", "-37.70"],
    ]);
    const [balance] = await w.q<{ d: string }>(sql`select coalesce(sum(l.debit - l.credit), 0)::text as d
      from journal_line l join journal_entry e on e.workspace_id = l.workspace_id and e.id = l.entry_id
      where e.workspace_id = ${w.ws}::uuid and e.source_type = 'expense_claim' and e.source_id = ${draft.id}`);
    expect(Number(balance.d)).toBe(0);

    // The history keeps every step; the claimant and an approver open the receipt; the PDF prints.
    const history = await w.q<{ action: string }>(sql`select action from document_event
      where workspace_id = ${w.ws}::uuid and doc_type = 'expense_claim' and doc_id = ${draft.id} order by id`);
    expect(history.map((h) => h.action)).toEqual(["create", "submit", "approve", "reimburse"]);
    const photo = await ok(MANAGER, "expense_receipt_read", { line_id: Number(saved.lines[0].id) });
    expect(photo.data_url).toBe(PHOTO);
    const pdf = await fetch(`${w.server.url}/api/documents/expense_claim/${draft.id}/pdf`, {
      headers: { authorization: `Bearer ${await tokenFor(SALES)}` },
    });
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get("content-type")).toContain("pdf");
  });

  it("a rejection needs a reason, and the claimant reopens, corrects and submits again", async () => {
    const draft = await claim(DRIVER, [line({ merchant: "Shell", amount: "60.00", account_code: "6400" })]);
    expect((await act(DRIVER, "expense_claim", draft.id, "submit")).status).toBe(200);
    const bare = await act(MANAGER, "expense_claim", draft.id, "reject");
    expect(bare.status).toBe(422);
    const rejected = await act(MANAGER, "expense_claim", draft.id, "reject", "Fuel is paid by the fleet card");
    expect(rejected.status, rejected.text).toBe(200);
    expect(await posted("expense_claim", draft.id)).toEqual([]);
    expect((await act(DRIVER, "expense_claim", draft.id, "reopen")).status).toBe(200);
    const fixed = await ok(DRIVER, "document_save", {
      type: "expense_claim",
      id: draft.id,
      header: { notes: "Toll only" },
      lines: [line({ merchant: "ERP gantry", amount: "3.00", tax_code: "OS" })],
    });
    expect(fixed.status).toBe("draft");
    expect((await act(DRIVER, "expense_claim", draft.id, "submit")).status).toBe(200);
  });
});

describe("bad input changes nothing", () => {
  it("refuses a missing merchant at submit, a foreign account, a future date, a negative amount and a made-up receipt", async () => {
    const empty = await claim(SALES, [line({ merchant: "" })]);
    const refused = await act(SALES, "expense_claim", empty.id, "submit");
    expect(refused.status).toBe(409);
    expect(refused.text).toContain("Line 1: give the merchant of the receipt");
    expect((await read(SALES, "expense_claim", empty.id)).status).toBe("draft");

    const cases: Array<[Record<string, unknown>, RegExp, string]> = [
      [{ account_code: "4000" }, /4000 is not an active expense account/, "lines.0.account_code"],
      [{ expense_date: "2099-01-01" }, /cannot be in the future/, "lines.0.expense_date"],
      [{ amount: "-5" }, /.+/, "lines.0.amount"],
      [{ receipt_path: "documents/invoice/1/secret.pdf" }, /not one kept in this workspace/, "lines.0.receipt_path"],
    ];
    const [{ n: before }] = await w.q<{ n: number }>(
      sql`select count(*)::int as n from expense_claim where workspace_id = ${w.ws}::uuid`,
    );
    for (const [over, message, field] of cases) {
      const res = await call(SALES, "document_save", { type: "expense_claim", header: {}, lines: [line(over)] });
      expect(res.status, res.text).toBe(422);
      expect(res.body.message).toMatch(message);
      expect(res.text).toContain(field);
    }
    const [{ n: after }] = await w.q<{ n: number }>(
      sql`select count(*)::int as n from expense_claim where workspace_id = ${w.ws}::uuid`,
    );
    expect(after).toBe(before);
    const notImage = await call(SALES, "expense_receipt_upload", { image: "data:text/plain;base64,aGVsbG8=" });
    expect(notImage.status).toBe(422);
    expect(notImage.text).toContain("image");
  });
});

describe("the storage quota", () => {
  it("counts receipts: one that does not fit is refused with the quota's message and nothing is kept", async () => {
    const big = `data:image/jpeg;base64,${Buffer.alloc(1200 * 1024, 1).toString("base64")}`;
    const files = async () =>
      (
        await w.q<{ n: number }>(sql`select count(*)::int as n from storage_object
        where name like 'expense_claims/receipts/%'`)
      )[0].n;
    const before = await files();
    const quota = await squeezeQuota(w);
    try {
      const refused = await call(SALES, "expense_receipt_upload", { image: big });
      expect(refused.status, refused.text).toBe(413);
      expect(refused.body.message).toBe(quota.message);
      expect(refused.body.message).toMatch(/^This workspace's storage is full \(\d+ MB on the Premium plan\)/);
      expect(await files()).toBe(before);
    } finally {
      await quota.restore();
    }
    // With room again, the same photo is kept.
    expect((await call(SALES, "expense_receipt_upload", { image: big })).status).toBe(200);
    expect(await files()).toBe(before + 1);
  });
});

describe("whose claims", () => {
  it("staff read and act on their own claims only; managers and finance read all", async () => {
    const mine = await claim(SALES, [line()]);
    const list = async (email: string) =>
      ((await restFetch(email, "expense_claim?select=id,created_by")).body as Array<{ id: number }>).map((r) => r.id);
    expect(await list(SALES)).toContain(mine.id);
    expect(await list(DRIVER)).not.toContain(mine.id);
    expect(await list(MANAGER)).toContain(mine.id);
    expect(await list(FINANCE)).toContain(mine.id);
    expect(await list(ACCOUNTS)).toContain(mine.id);
    const foreignSubmit = await act(DRIVER, "expense_claim", mine.id, "submit");
    expect([403, 404]).toContain(foreignSubmit.status);
    const foreignSave = await call(DRIVER, "document_save", {
      type: "expense_claim",
      id: mine.id,
      header: {},
      lines: [line({ amount: "999" })],
    });
    expect([403, 404]).toContain(foreignSave.status);
    expect((await read(SALES, "expense_claim", mine.id)).total).toBe("21.80");
    // Nor does a salesperson open another's receipt.
    const path = await receipt(MANAGER);
    const managers = await claim(MANAGER, [line({ receipt_path: path })]);
    const theirLine = (await read(MANAGER, "expense_claim", managers.id)).lines[0].id;
    expect((await call(SALES, "expense_receipt_read", { line_id: Number(theirLine) })).status).toBe(404);
  });

  it("another workspace sees none of them and cannot act on them", async () => {
    const mine = await claim(SALES, [line()]);
    const theirs = await restFetch(OTHER, `expense_claim?id=eq.${mine.id}`);
    expect(theirs.status).toBe(200);
    expect(theirs.body).toEqual([]);
    const lines = await restFetch(OTHER, `expense_claim_line?expense_claim_id=eq.${mine.id}`);
    expect(lines.body).toEqual([]);
    const acted = await act(OTHER, "expense_claim", mine.id, "submit");
    expect(acted.status).toBe(404);
    const path = await receipt(SALES);
    const borrowed = await call(OTHER, "document_save", {
      type: "expense_claim",
      header: {},
      lines: [line({ receipt_path: path })],
    });
    expect(borrowed.status).toBe(422);
  });

  it("Pro and Lite are refused: expense claims are Premium's", async () => {
    for (const email of ["owner@pro.test", "owner@lite.test"]) {
      const res = await call(email, "document_save", { type: "expense_claim", header: {}, lines: [line()] });
      expect(res.status, res.text).toBe(403);
      expect(res.body.message).toMatch(/Premium/);
      expect((await call(email, "expense_receipt_upload", { image: PHOTO })).status).toBe(403);
    }
  });
});

describe("replays", () => {
  it("a save and an approval replayed with the same Idempotency-Key run once", async () => {
    const key = `exp-save-${Date.now()}`;
    const args = { type: "expense_claim", header: {}, lines: [line({ merchant: "Replay Cafe" })] };
    const first = await call(SALES, "document_save", args, key);
    const again = await call(SALES, "document_save", args, key);
    expect(first.status, first.text).toBe(200);
    expect(again.body.id).toBe(first.body.id);
    const [{ n }] = await w.q<{ n: number }>(sql`select count(*)::int as n from expense_claim_line
      where workspace_id = ${w.ws}::uuid and merchant = 'Replay Cafe'`);
    expect(n).toBe(1);
    const id = Number(first.body.id);
    expect((await act(SALES, "expense_claim", id, "submit")).status).toBe(200);
    const approveKey = `exp-approve-${id}`;
    const a1 = await call(MANAGER, "document_transition", { type: "expense_claim", id, action: "approve" }, approveKey);
    const a2 = await call(MANAGER, "document_transition", { type: "expense_claim", id, action: "approve" }, approveKey);
    expect(a1.status, a1.text).toBe(200);
    expect(a2.status).toBe(200);
    const entries = await w.q<{ n: number }>(sql`select count(*)::int as n from journal_entry
      where workspace_id = ${w.ws}::uuid and source_type = 'expense_claim' and source_id = ${id}`);
    expect(entries[0].n).toBe(1);
    const doc = (await read(MANAGER, "expense_claim", id)) as Doc;
    expect(doc.status).toBe("approved");
  });
});
