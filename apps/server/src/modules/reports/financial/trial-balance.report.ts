import { money, sum } from "@workmetrics/domain/documents/decimal";
import { REPORT_ACCESS } from "@workmetrics/domain/reports";
import { sql } from "drizzle-orm";
import { z } from "zod";
import { today } from "../../../platform/documents/store.ts";
import { defineReport } from "../registry.ts";
import { accountSums, BACKWARDS, isoDate, ledgerDrill, naturalSign, runsForward, shiftDay } from "./ledger-sql.ts";

// DESIGN §2.3.1 `report {name: "trial_balance", as_of | from, to}`: every account with a balance or a movement —
// its opening balance on `from` (nothing before it when only `as_of` is given), the period's debits and credits and
// the closing balance, both on the account's natural side, and the closing balance again as a debit or a credit
// column. Totals {debit, credit} (the period's movements) are equal because every entry balances; so are
// {closing_debit, closing_credit}. One statement: whole months from journal_month, partial months' lines (accountSums).

const params = z
  .object({ as_of: isoDate.optional(), from: isoDate.optional(), to: isoDate.optional() })
  .refine((p) => !(p.as_of && (p.from || p.to)), { message: "Give either as_of or from and to, not both" })
  .refine(runsForward, BACKWARDS);

type Row = {
  account_code: string;
  account: string;
  root: string;
  opening: string;
  debit: string;
  credit: string;
  closing: string;
  closing_debit: string;
  closing_credit: string;
};

export const trialBalance = defineReport({
  name: "trial_balance",
  params,
  need: REPORT_ACCESS.trial_balance,
  async run(tx, p, caller) {
    const ws = caller.workspaceId;
    const to = p.as_of ?? p.to ?? (await today(tx));
    const from = p.as_of ? undefined : p.from;
    const sign = naturalSign(sql`a.root`);
    const opening = from
      ? accountSums(ws, { to: shiftDay(from, -1) })
      : sql`select null::text as account_code, 0::numeric as debit, 0::numeric as credit where false`;
    const res = await tx.execute(sql`with o as (${opening}), p as (${accountSums(ws, { from, to })}), m as (
        select coalesce(o.account_code, p.account_code) as account_code,
          coalesce(o.debit - o.credit, 0) as opening, coalesce(p.debit, 0) as debit, coalesce(p.credit, 0) as credit
        from o full join p on p.account_code = o.account_code
      )
      select a.code as account_code, a.name as account, a.root,
        (${sign} * m.opening)::numeric(16,2)::text as opening,
        m.debit::numeric(16,2)::text as debit, m.credit::numeric(16,2)::text as credit,
        (${sign} * (m.opening + m.debit - m.credit))::numeric(16,2)::text as closing,
        greatest(m.opening + m.debit - m.credit, 0)::numeric(16,2)::text as closing_debit,
        greatest(m.credit - m.debit - m.opening, 0)::numeric(16,2)::text as closing_credit
      from m join account a on a.workspace_id = ${ws}::uuid and a.code = m.account_code
      where m.opening <> 0 or m.debit <> 0 or m.credit <> 0
      order by a.code`);
    const rows = res.rows as Row[];
    const total = (k: keyof Row) => money(sum(rows.map((r) => r[k])));
    return {
      columns: [
        { key: "account_code", label: "Code", kind: "text" },
        { key: "account", label: "Account", kind: "text" },
        { key: "root", label: "Type", kind: "text" },
        { key: "opening", label: "Opening", kind: "money" },
        { key: "debit", label: "Debit", kind: "money" },
        { key: "credit", label: "Credit", kind: "money" },
        { key: "closing", label: "Closing", kind: "money" },
        { key: "closing_debit", label: "Closing debit", kind: "money" },
        { key: "closing_credit", label: "Closing credit", kind: "money" },
      ],
      rows: rows.map((r) => ({ ...r, row_kind: "account" })),
      totals: {
        debit: total("debit"),
        credit: total("credit"),
        closing_debit: total("closing_debit"),
        closing_credit: total("closing_credit"),
        count: rows.length,
      },
      key: "account_code",
      drill: rows.map((r) => ledgerDrill(r.account_code, from, to)),
    };
  },
});
