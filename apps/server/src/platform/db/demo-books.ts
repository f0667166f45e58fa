import Decimal from "decimal.js";
import { sql } from "drizzle-orm";
import { writeEntry } from "../../modules/books/journal.ts";
import type { CheckedLine } from "../../modules/books/journal-lines.ts";
import type { Tx } from "./database.ts";
import { demoCalendar, demoTeam } from "./demo-trading.ts";

// Demo data for issue 12 (books), after the year of selling and buying: the opening balances on the demo year's
// first day (the bank and the share capital), the bank account, and a month-end journal of overheads (rent,
// salaries, utilities, bank charges) paid from the bank — sized from the year's gross profit so the P&L shows a
// profit — and the books locked up to the day before the demo year. A dozen entries: cheap.

const OVERHEADS: ReadonlyArray<{ code: string; name: string; share: string }> = [
  { code: "6400", name: "Rent", share: "0.25" },
  { code: "6500", name: "Salaries", share: "0.62" },
  { code: "6600", name: "Utilities", share: "0.08" },
];

export async function seedBooks(tx: Tx, ws: string, slug: string): Promise<void> {
  const date = await demoCalendar(tx);
  const who = await demoTeam(tx, ws, slug);
  const finance = who("journal_entry.create", "finance", "accounts");
  await tx.execute(sql`select set_config('app.workspace_id', ${ws}, true)`);

  await tx.execute(sql`insert into account (workspace_id, code, name, type, root)
    select ${ws}::uuid, v.code, v.name, 'expense', 'expense'
    from (values ${sql.join(
      OVERHEADS.map((o) => sql`(${o.code}, ${o.name})`),
      sql`, `,
    )}) as v(code, name)
    on conflict (workspace_id, code) do nothing`);
  await tx.execute(sql`insert into bank_account (workspace_id, name, bank_name, account_number, ledger_account_code)
    values (${ws}::uuid, 'DBS Business Current', 'DBS Bank', '072-014523-9', '1010')`);

  const open: CheckedLine[] = [
    { account_code: "1010", debit: "250000.00", credit: "0.00", memo: "Opening balance" },
    { account_code: "3000", debit: "0.00", credit: "200000.00", memo: "Opening balance" },
    { account_code: "3100", debit: "0.00", credit: "50000.00", memo: "Opening balance" },
  ];
  await writeEntry(
    tx,
    finance,
    { date: date(366), memo: "Opening balances as of the start of the year", sourceType: "opening_balance" },
    open,
  );

  // The year's gross profit so far (sales and contract revenue less cost of sales: the claims are seeded first): the
  // overheads take 55% of it (at least 500 a month), a twelfth a month, so the year shows a profit.
  const gross = await tx.execute(sql`select coalesce(sum(l.credit - l.debit), 0)::text as gp
    from journal_line l join account a on a.workspace_id = l.workspace_id and a.code = l.account_code
    where l.workspace_id = ${ws}::uuid and (a.root = 'income' or a.type = 'cogs')`);
  const monthly = Decimal.max(new Decimal((gross.rows[0] as { gp: string }).gp).times("0.55").div(12), 500);
  for (let month = 11; month >= 0; month--) {
    const lines: CheckedLine[] = OVERHEADS.map((o) => ({
      account_code: o.code,
      debit: monthly.times(o.share).toDecimalPlaces(0).toFixed(2),
      credit: "0.00",
      memo: o.name,
    }));
    lines.push({ account_code: "6100", debit: "25.00", credit: "0.00", memo: "Bank charges" });
    const total = lines.reduce((s, l) => s.plus(l.debit), new Decimal(0));
    lines.push({
      account_code: "1010",
      debit: "0.00",
      credit: total.toFixed(2),
      memo: "Paid from DBS Business Current",
    });
    await writeEntry(tx, finance, { date: date(month * 30 + 3), memo: "Month-end overheads", sourceType: null }, lines);
  }
  await tx.execute(sql`insert into books_settings (workspace_id, lock_date, lock_set_by, lock_set_at)
    values (${ws}::uuid, ${date(367)}::date, ${finance.userId}::uuid, now())`);
}
