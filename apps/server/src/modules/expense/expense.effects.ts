import { dec, money, sum } from "@workmetrics/domain/documents/decimal";
import { leg, type PostingLeg, type PostingRule } from "@workmetrics/domain/documents/postings";
import { EMPLOYEE_CLAIMS_PAYABLE } from "@workmetrics/domain/documents/types/expense-claim";
import { postJournal } from "../../platform/documents/ledger.ts";
import type { Effect } from "../../platform/documents/registry.ts";
import { today } from "../../platform/documents/store.ts";

// Issue 24: what an expense claim posts. Approval books what the company owes the claimant: Dr each line's expense
// account its net (the amount less its GST), Dr 1300 GST Input Tax the GST, Cr 2410 Employee Claims Payable the
// total. Reimbursing pays it: Dr 2410 / Cr 1010 Bank. Postings are data (STYLE "Posting rules as data"); the
// expense legs are one per account the lines use, so the rule is built from the claim.

export function approvalRule(lines: readonly Record<string, unknown>[]): {
  rule: PostingRule;
  figures: Record<string, string>;
} {
  const byAccount = new Map<string, string[]>();
  for (const l of lines) {
    const code = String(l.account_code ?? "");
    const net = dec(String(l.amount ?? "0")).minus(dec(String(l.gst_amount ?? "0")));
    byAccount.set(code, [...(byAccount.get(code) ?? []), money(net)]);
  }
  const figures: Record<string, string> = {
    gst: money(sum(lines.map((l) => String(l.gst_amount ?? "0")))),
    total: money(sum(lines.map((l) => String(l.amount ?? "0")))),
  };
  const legs: PostingLeg[] = [];
  for (const [code, nets] of [...byAccount.entries()].sort(([a], [b]) => a.localeCompare(b))) {
    figures[`net_${code}`] = money(sum(nets));
    legs.push(leg("debit", code, `expense_${code}`, `net_${code}`));
  }
  legs.push(leg("debit", "1300", "input_tax", "gst"), leg("credit", EMPLOYEE_CLAIMS_PAYABLE, "payable", "total"));
  return { rule: { name: "expense_claim", memo: "Expense claim", legs }, figures };
}

export const EXPENSE_REIMBURSEMENT_RULE: PostingRule = {
  name: "expense_reimbursement",
  memo: "Expense claim reimbursed",
  legs: [leg("debit", EMPLOYEE_CLAIMS_PAYABLE, "payable", "total"), leg("credit", "1010", "bank", "total")],
};

const approve: Effect = async (tx, caller, spec, doc, step) => {
  const { rule, figures } = approvalRule(doc.lines);
  await postJournal(
    tx,
    caller,
    {
      type: spec.machine.type,
      id: Number(doc.header.id),
      number: step.number ?? (doc.header.number as string | null),
      date: await today(tx),
    },
    rule,
    figures,
  );
};

const reimburse: Effect = async (tx, caller, spec, doc, step) => {
  await postJournal(
    tx,
    caller,
    {
      type: spec.machine.type,
      id: Number(doc.header.id),
      number: step.number ?? (doc.header.number as string | null),
      date: await today(tx),
    },
    EXPENSE_REIMBURSEMENT_RULE,
    { total: money(dec(String(doc.header.total ?? "0"))) },
  );
};

export const EXPENSE_CLAIM_EFFECTS = { approve, reimburse } as const;
