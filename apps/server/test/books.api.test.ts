import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { draft, ok, read } from "./documents-helpers.ts";
import type { Json } from "./http.ts";
import { ownServer } from "./own-server-helpers.ts";
import { restFetch } from "./rest-helpers.ts";

// Issue 12 "Books": manual journals (balanced or refused, JE numbers, reversal), the chart of accounts, bank
// accounts, opening balances by CSV, the lock date (a database wall every posting meets) and the year-end close.
// A server of its own: the lock date and the close change the demo workspace's books.

const own = ownServer({ LOG_LEVEL: "error" }, 300_000);
const ADMIN = "admin@demo.test";
const FINANCE = "finance@demo.test";
const ACCOUNTS = "accounts@demo.test";
const SALES = "sales@demo.test";
const BUYER = "procurement@demo.test";
const OTHER = "admin@pro.test";

// The command's answer, its body read as JSON.
async function rpc(email: string, fn: string, args: unknown) {
  const res = await restFetch(email, `rpc/${fn}`, { method: "POST", body: JSON.stringify(args) });
  return { ...res, body: res.body as Json };
}

type Entry = { id: number; number: string; entry_date: string; reversal_of: number | null; lines: Line[] };
type Line = { account_code: string; debit: string; credit: string };

const post = (email: string, date: string, lines: Array<[string, string, string]>, memo = "Test journal") =>
  rpc(email, "journal_post", {
    date,
    memo,
    lines: lines.map(([account_code, debit, credit]) => ({ account_code, debit, credit })),
  });

async function posted(email: string, date: string, lines: Array<[string, string, string]>, memo?: string) {
  const res = await post(email, date, lines, memo);
  expect(res.status, res.text).toBe(200);
  return res.body as Entry;
}

const count = async (table: string) =>
  (await own.q<{ n: number }>(sql`select count(*)::int as n from ${sql.identifier(table)}`))[0].n;

// Sum of debits minus credits per root over a date range (the books read directly).
async function byRoot(from: string, to: string) {
  const rows = await own.q<{ root: string; net: string }>(sql`select a.root, sum(l.debit - l.credit)::text as net
    from journal_line l join journal_entry e on e.workspace_id = l.workspace_id and e.id = l.entry_id
    join account a on a.workspace_id = l.workspace_id and a.code = l.account_code
    where e.entry_date between ${from}::date and ${to}::date group by a.root`);
  return Object.fromEntries(rows.map((r) => [r.root, Number(r.net)]));
}

describe("manual journals", () => {
  it("refuses the roles without the books, saying why", async () => {
    for (const who of [SALES, BUYER]) {
      const res = await post(who, "2025-05-01", [
        ["6100", "10.00", "0"],
        ["1010", "0", "10.00"],
      ]);
      expect(res.status, who).toBe(403);
      expect(res.body.message).toMatch(/permission to post journal entries/);
    }
    const lock = await rpc(ACCOUNTS, "books_settings_set", { lock_date: "2020-01-01" });
    expect(lock.status).toBe(403);
    expect(lock.body.message).toMatch(/set the lock date/);
  });

  it("refuses an unbalanced entry, saying by how much, and writes nothing", async () => {
    const before = await count("journal_entry");
    const res = await post(ACCOUNTS, "2025-05-01", [
      ["6100", "110.00", "0"],
      ["1010", "0", "100.00"],
    ]);
    expect(res.status).toBe(422);
    expect(res.body.message).toBe("The entry does not balance: debits 110.00 and credits 100.00 differ by 10.00");
    const cases: Array<[Array<[string, string, string]>, RegExp]> = [
      [[["6100", "10.00", "0"]], /at least two lines/],
      [
        [
          ["6100", "10.00", "10.00"],
          ["1010", "0", "0"],
        ],
        /Line 1: give a debit or a credit, not both/,
      ],
      [
        [
          ["6100", "ten", "0"],
          ["1010", "0", "10"],
        ],
        /Line 1: the debit is not an amount/,
      ],
      [
        [
          ["9999", "10.00", "0"],
          ["1010", "0", "10.00"],
        ],
        /Line 1: there is no account 9999 in the chart/,
      ],
    ];
    for (const [lines, message] of cases) {
      const r = await post(ACCOUNTS, "2025-05-01", lines);
      expect(r.status, r.text).toBe(422);
      expect(r.body.message).toMatch(message);
    }
    expect(await count("journal_entry")).toBe(before);
  });

  it("numbers entries JE-YYYY-##### by the entry's year, gapless, and audits them", async () => {
    const a = await posted(ACCOUNTS, "2025-05-02", [
      ["6100", "12.50", "0"],
      ["1010", "0", "12.50"],
    ]);
    const b = await posted(ACCOUNTS, "2025-05-03", [
      ["6100", "7.00", "0"],
      ["1000", "0", "7.00"],
    ]);
    expect(a.number).toMatch(/^JE-2025-\d{5}$/);
    expect(Number(b.number.slice(-5))).toBe(Number(a.number.slice(-5)) + 1);
    expect(a.lines).toEqual([
      expect.objectContaining({ account_code: "6100", debit: "12.50", credit: "0.00" }),
      expect.objectContaining({ account_code: "1010", debit: "0.00", credit: "12.50" }),
    ]);
    const row = (
      await own.q<Record<string, unknown>>(sql`select source_type from journal_entry where id = ${a.id}`)
    )[0];
    expect(row.source_type).toBeNull();
    const events = await own.q(
      sql`select action from document_event where doc_type = 'journal_entry' and doc_id = ${a.id}`,
    );
    expect(events).toEqual([{ action: "post" }]);
  });

  it("reverses an entry by a new one, once; a document's entry is the document's to cancel", async () => {
    const e = await posted(FINANCE, "2025-06-01", [
      ["6100", "40.00", "0"],
      ["1010", "0", "40.00"],
    ]);
    const res = await rpc(FINANCE, "journal_reverse", { id: e.id, date: "2025-06-02", reason: "Posted twice" });
    expect(res.status, res.text).toBe(200);
    const r = res.body as Entry;
    expect(r.reversal_of).toBe(e.id);
    expect(r.number).toMatch(/^JE-2025-/);
    expect(r.lines.map((l) => [l.account_code, l.debit, l.credit])).toEqual([
      ["6100", "0.00", "40.00"],
      ["1010", "40.00", "0.00"],
    ]);
    const again = await rpc(FINANCE, "journal_reverse", { id: e.id, reason: "Again" });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe(`${e.number} is already reversed by ${r.number}`);
    const before = await rpc(FINANCE, "journal_reverse", { id: r.id, reason: "Undo the undo" });
    expect(before.status).toBe(409);

    const inv = await draft(ADMIN, "invoice", { doc_date: "2025-06-10" });
    await ok(ADMIN, "document_transition", { type: "invoice", id: inv.id, action: "submit" });
    const docEntry = (
      await own.q<{ id: number }>(
        sql`select id from journal_entry where source_type = 'invoice' and source_id = ${inv.id}`,
      )
    )[0];
    const refused = await rpc(FINANCE, "journal_reverse", { id: Number(docEntry.id), reason: "No" });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toMatch(/cancel the document instead/);
  });
});

describe("chart of accounts", () => {
  it("adds an account with a unique code and the right type for its root", async () => {
    const made = await rpc(FINANCE, "account_create", { code: "6800", name: "Rent", type: "expense" });
    expect(made.status, made.text).toBe(200);
    expect(made.body).toMatchObject({ code: "6800", root: "expense", active: true });
    const dup = await rpc(FINANCE, "account_create", { code: "6800", name: "Rent again", type: "expense" });
    expect(dup.status).toBe(409);
    expect(dup.body.message).toBe("The code 6800 is already Rent; give another code");
    const wrong = await rpc(FINANCE, "account_create", { code: "6810", name: "Odd", type: "income" });
    expect(wrong.status).toBe(422);
    expect((await rpc(ACCOUNTS, "account_create", { code: "6820", name: "X", type: "expense" })).status).toBe(403);
  });

  it("renames; deactivates only what nothing needs", async () => {
    const chart = (await rpc(FINANCE, "account_balances", { as_of: "2099-12-31" })).body as {
      accounts: Array<{ id: number; code: string; balance: string }>;
    };
    const id = (code: string) => Number(chart.accounts.find((a) => a.code === code)?.id);
    const used = await rpc(FINANCE, "account_update", { id: id("1010"), active: false });
    expect(used.status).toBe(409);
    expect(used.body.message).toBe("1010 Bank SGD is used by the posting rules; it stays active");
    await posted(FINANCE, "2025-07-01", [
      ["6800", "500.00", "0"],
      ["1010", "0", "500.00"],
    ]);
    const balance = await rpc(FINANCE, "account_update", { id: id("6800"), active: false });
    expect(balance.status).toBe(409);
    expect(balance.body.message).toMatch(/6800 Rent has a balance of 500.00/);
    const renamed = await rpc(FINANCE, "account_update", { id: id("6800"), name: "Office rent" });
    expect(renamed.body).toMatchObject({ name: "Office rent" });
    const spare = await rpc(FINANCE, "account_create", { code: "6890", name: "Spare", type: "expense" });
    const off = await rpc(FINANCE, "account_update", { id: spare.body.id, active: false });
    expect(off.status, off.text).toBe(200);
    const inactive = await post(FINANCE, "2025-07-02", [
      ["6890", "1.00", "0"],
      ["1010", "0", "1.00"],
    ]);
    expect(inactive.status).toBe(422);
    expect(inactive.body.message).toBe("Line 1: account 6890 is inactive");
  });
});

describe("bank accounts", () => {
  it("creates with a new 10xx ledger account or an existing bank account of the chart; edits; refuses the rest", async () => {
    const made = await rpc(ACCOUNTS, "bank_account_create", {
      name: "DBS Current",
      bank_name: "DBS Bank",
      account_number: "072-123456-7",
    });
    expect(made.status, made.text).toBe(200);
    expect(made.body).toMatchObject({ ledger_account_code: "1011", currency: "SGD", active: true });
    const acc = await own.q<{ name: string; type: string }>(sql`select name, type from account where code = '1011'`);
    expect(acc).toEqual([{ name: "Bank SGD – DBS Current", type: "bank" }]);
    const linked = await rpc(ACCOUNTS, "bank_account_create", {
      name: "OCBC",
      bank_name: "OCBC",
      account_number: "501234567001",
      ledger_account_code: "1010",
    });
    expect(linked.status, linked.text).toBe(200);
    const notBank = await rpc(ACCOUNTS, "bank_account_create", {
      name: "UOB",
      bank_name: "UOB",
      account_number: "1234567",
      ledger_account_code: "1100",
    });
    expect(notBank.status).toBe(422);
    expect(notBank.body.message).toBe("1100 Trade Debtors is not a cash or bank account");
    const dup = await rpc(ACCOUNTS, "bank_account_update", { id: linked.body.id, name: "dbs current" });
    expect(dup.status).toBe(409);
    const edited = await rpc(ACCOUNTS, "bank_account_update", {
      id: linked.body.id,
      name: "OCBC Business",
      active: false,
    });
    expect(edited.body).toMatchObject({ name: "OCBC Business", active: false });
    const list = await restFetch(ACCOUNTS, "bank_account?select=name,ledger_account_code&order=name");
    expect(list.body).toEqual([
      { name: "DBS Current", ledger_account_code: "1011" },
      { name: "OCBC Business", ledger_account_code: "1010" },
    ]);
    expect((await restFetch(SALES, "bank_account?select=name")).status).toBe(403);
    expect(
      (await rpc(BUYER, "bank_account_create", { name: "X", bank_name: "X", account_number: "12345" })).status,
    ).toBe(403);
  });
});

describe("opening balances", () => {
  const rows = [
    { account_code: "1010", debit: "50000.00", credit: "" },
    { account_code: "3000", debit: "", credit: "40000" },
    { account_code: "2000", balance: "-2500.50" },
  ];

  it("previews row errors and refuses posting them or an unbalanced file", async () => {
    const bad = await rpc(FINANCE, "opening_balances", {
      as_of: "2024-01-01",
      rows: [
        ...rows,
        { account_code: "9999", debit: "1" },
        { account_code: "1000", debit: "5", credit: "5" },
        { account_code: "1300", debit: "1x" },
      ],
    });
    expect(bad.status, bad.text).toBe(200);
    expect(bad.body.rows.map((r: { row: number; error: string | null }) => [r.row, r.error])).toEqual([
      [2, null],
      [3, null],
      [4, null],
      [5, "There is no account 9999 in the chart"],
      [6, "Both a debit and a credit: give one side"],
      [7, "The debit 1x is not an amount"],
    ]);
    const refused = await rpc(FINANCE, "opening_balances", { as_of: "2024-01-01", rows: bad.body.rows, post: true });
    expect(refused.status).toBe(422);
    const unbalanced = await rpc(FINANCE, "opening_balances", { as_of: "2024-01-01", rows, post: true });
    expect(unbalanced.status).toBe(422);
    expect(unbalanced.body.message).toMatch(/differ by 7499.50; choose a balancing account/);
    const notEquity = await rpc(FINANCE, "opening_balances", {
      as_of: "2024-01-01",
      rows,
      balancing_account_code: "1000",
      post: true,
    });
    expect(notEquity.status).toBe(422);
  });

  it("posts one balanced entry, the difference to the chosen equity account; once unless reversed", async () => {
    const res = await rpc(FINANCE, "opening_balances", {
      as_of: "2024-01-01",
      rows,
      balancing_account_code: "3100",
      post: true,
    });
    expect(res.status, res.text).toBe(200);
    const entry = res.body.entry as Entry;
    expect(entry.number).toMatch(/^JE-2024-/);
    expect(entry.lines.map((l) => [l.account_code, l.debit, l.credit])).toEqual([
      ["1010", "50000.00", "0.00"],
      ["3000", "0.00", "40000.00"],
      ["2000", "0.00", "2500.50"],
      ["3100", "0.00", "7499.50"],
    ]);
    const twice = await rpc(FINANCE, "opening_balances", {
      as_of: "2024-01-01",
      rows,
      balancing_account_code: "3100",
      post: true,
    });
    expect(twice.status).toBe(409);
    expect(twice.body.message).toBe(
      `Opening balances were already posted as ${entry.number} on 1 Jan 2024; reverse that entry first`,
    );
    const preview = await rpc(FINANCE, "opening_balances", { as_of: "2024-01-01", rows });
    expect(preview.body.problem).toMatch(/already posted/);
  });
});

describe("year-end close and the lock date", () => {
  it("moves the year's income and expense to retained earnings, locks the year and refuses a second close", async () => {
    await posted(FINANCE, "2024-03-15", [
      ["1100", "1000.00", "0"],
      ["4000", "0", "1000.00"],
    ]);
    await posted(FINANCE, "2024-04-15", [
      ["6100", "150.00", "0"],
      ["5000", "250.00", "0"],
      ["1010", "0", "400.00"],
    ]);
    const before = await byRoot("2024-01-01", "2024-12-31");
    const profit = -((before.income ?? 0) + (before.expense ?? 0));
    const retainedBefore = await own.q<{ n: string }>(
      sql`select coalesce(sum(credit - debit), 0)::text as n from journal_line where account_code = '3100'`,
    );

    const empty = await rpc(FINANCE, "year_end_close", { year_end_date: "2023-12-31" });
    expect(empty.status).toBe(409);
    expect(empty.body.message).toBe("Nothing to close: no income or expense was posted from 1 Jan 2023 to 31 Dec 2023");
    const notEnd = await rpc(FINANCE, "year_end_close", { year_end_date: "2024-06-30" });
    expect(notEnd.status).toBe(422);
    expect(notEnd.body.message).toBe(
      "30 Jun 2024 is not the last day of a financial year: the year holding it ends 31 Dec 2024",
    );
    expect((await rpc(ACCOUNTS, "year_end_close", { year_end_date: "2024-12-31" })).status).toBe(403);

    const res = await rpc(FINANCE, "year_end_close", { year_end_date: "2024-12-31" });
    expect(res.status, res.text).toBe(200);
    expect(Number(res.body.profit)).toBeCloseTo(profit, 2);
    expect(res.body.lock_date).toBe("2024-12-31");
    const after = await byRoot("2024-01-01", "2024-12-31");
    expect(after.income ?? 0).toBe(0);
    expect(after.expense ?? 0).toBe(0);
    const retainedAfter = await own.q<{ n: string }>(
      sql`select coalesce(sum(credit - debit), 0)::text as n from journal_line where account_code = '3100'`,
    );
    expect(Number(retainedAfter[0].n) - Number(retainedBefore[0].n)).toBeCloseTo(profit, 2);
    const tb = await own.q<{ dr: string; cr: string }>(
      sql`select sum(debit)::text as dr, sum(credit)::text as cr from journal_line`,
    );
    expect(tb[0].dr).toBe(tb[0].cr);

    const twice = await rpc(FINANCE, "year_end_close", { year_end_date: "2024-12-31" });
    expect(twice.status).toBe(409);
    expect(twice.body.message).toMatch(
      new RegExp(`^The financial year ending 31 Dec 2024 was already closed on .+ \\(${res.body.entry.number}\\)$`),
    );
    const locked = await post(FINANCE, "2024-12-31", [
      ["6100", "1.00", "0"],
      ["1010", "0", "1.00"],
    ]);
    expect(locked.status).toBe(409);
    expect(locked.body.message).toBe(
      "The books are locked up to 31 Dec 2024: nothing can be posted on or before that date.",
    );
    const moveBack = await rpc(FINANCE, "books_settings_set", { lock_date: "2024-06-30" });
    expect(moveBack.status).toBe(409);
    const earlier = await rpc(FINANCE, "year_end_close", { year_end_date: "2023-12-31" });
    expect(earlier.status).toBe(409);
    expect(earlier.body.message).toBe("A later year (ending 31 Dec 2024) is closed; reopen it first");
  });

  it("reopens a closed year by reversing its entry, and it can be closed again", async () => {
    const state = (await rpc(FINANCE, "books_settings_get", {})).body as { closes: Array<{ id: number }> };
    const reopen = await rpc(FINANCE, "year_end_reopen", { id: state.closes[0].id, reason: "Late supplier invoice" });
    expect(reopen.status, reopen.text).toBe(200);
    expect(reopen.body.lock_date).toBe("2023-12-31");
    const open = await byRoot("2024-01-01", "2024-12-31");
    expect(open.income).toBeLessThan(0);
    await posted(FINANCE, "2024-12-20", [
      ["6100", "5.00", "0"],
      ["1010", "0", "5.00"],
    ]);
    // A lock set by hand over the year's last day refuses the close, naming it, and changes nothing (issue 21 §2).
    expect((await rpc(FINANCE, "books_settings_set", { lock_date: "2025-01-31" })).status).toBe(200);
    const entries = await own.q<{ n: number }>(sql`select count(*)::int as n from journal_entry`);
    const overLock = await rpc(FINANCE, "year_end_close", { year_end_date: "2024-12-31" });
    expect(overLock.status).toBe(409);
    expect(overLock.body.message).toBe(
      "The books are locked up to 31 Jan 2025, and the close posts on 31 Dec 2024: move the lock date before 31 Dec 2024 to close this year",
    );
    expect(await own.q<{ n: number }>(sql`select count(*)::int as n from journal_entry`)).toEqual(entries);
    expect((await rpc(FINANCE, "books_settings_set", { lock_date: "2023-12-31" })).status).toBe(200);
    const again = await rpc(FINANCE, "year_end_close", { year_end_date: "2024-12-31" });
    expect(again.status, again.text).toBe(200);
    expect(again.body.lock_date).toBe("2024-12-31");
  });

  it("refuses a document submitted on or before the lock date, naming it, and changes nothing; allows after", async () => {
    const set = await rpc(FINANCE, "books_settings_set", { lock_date: "2025-03-31" });
    expect(set.status, set.text).toBe(200);
    expect(set.body).toMatchObject({ lock_date: "2025-03-31", lock_set_by: expect.any(String) });
    const audit = await own.q<{ from_status: string; to_status: string }>(
      sql`select from_status, to_status from document_event where doc_type = 'books_settings' and action = 'lock_date'
        order by id desc limit 1`,
    );
    expect(audit).toEqual([{ from_status: "2024-12-31", to_status: "2025-03-31" }]);

    const entries = await count("journal_entry");
    const inv = await draft(ADMIN, "invoice", { doc_date: "2025-03-31" });
    const refused = await rpc(ADMIN, "document_transition", { type: "invoice", id: inv.id, action: "submit" });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({
      code: "PT409",
      message: "The books are locked up to 31 Mar 2025: nothing can be posted on or before that date.",
    });
    const still = await read(ADMIN, "invoice", inv.id);
    expect(still).toMatchObject({ status: "draft", number: null });
    expect(await count("journal_entry")).toBe(entries);
    const journal = await post(ACCOUNTS, "2025-03-01", [
      ["6100", "1.00", "0"],
      ["1010", "0", "1.00"],
    ]);
    expect(journal.status).toBe(409);

    const after = await draft(ADMIN, "invoice", { doc_date: "2025-04-01" });
    await ok(ADMIN, "document_transition", { type: "invoice", id: after.id, action: "submit" });
    expect((await read(ADMIN, "invoice", after.id)).number).toMatch(/^INV-2025-/);
  });
});

describe("isolation", () => {
  it("another workspace sees none of the books' rows and cannot act on them", async () => {
    for (const table of ["bank_account", "books_settings", "year_end_close"]) {
      expect((await own.q(sql`select 1 from ${sql.identifier(table)}`)).length, table).toBeGreaterThan(0);
      const theirs = await restFetch(OTHER, `${table}?select=*`);
      expect(theirs.status, table).toBe(200);
      expect(theirs.body, table).toEqual([]);
    }
    const mine = await own.q<{ id: number }>(sql`select id from journal_entry where source_type is null limit 1`);
    const bank = await own.q<{ id: number }>(sql`select id from bank_account limit 1`);
    const close = await own.q<{ id: number }>(sql`select id from year_end_close limit 1`);
    expect((await rpc(OTHER, "journal_reverse", { id: Number(mine[0].id), reason: "x" })).status).toBe(404);
    expect((await rpc(OTHER, "journal_get", { id: Number(mine[0].id) })).status).toBe(404);
    expect((await rpc(OTHER, "bank_account_update", { id: Number(bank[0].id), name: "Hijack" })).status).toBe(404);
    expect((await rpc(OTHER, "year_end_reopen", { id: Number(close[0].id), reason: "x" })).status).toBe(404);
    // The other workspace's lock date is its own: it still posts in the demo's locked period.
    const theirs = await post(OTHER, "2025-01-15", [
      ["6100", "1.00", "0"],
      ["1010", "0", "1.00"],
    ]);
    expect(theirs.status, theirs.text).toBe(200);
  });
});
