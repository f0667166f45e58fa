import { SYSTEM_ROLES } from "@workmetrics/domain";
import { COMMANDS } from "@workmetrics/domain/commands";
import {
  COMMISSION_APPROVAL_RULE,
  COMMISSION_PAYMENT_RULE,
  type CommissionRule,
  isWholePeriod,
} from "@workmetrics/domain/commission";
import { dec } from "@workmetrics/domain/documents/decimal";
import { sql } from "drizzle-orm";
import { postJournal } from "../../platform/documents/ledger.ts";
import { today, writeEvent } from "../../platform/documents/store.ts";
import type { Caller } from "../../platform/rest/access.ts";
import { RestError } from "../../platform/rest/rest-error.ts";
import { implement } from "../../platform/rest/rpc/command.ts";
import { frozenStatements, readScope } from "./commission.report.ts";
import { computeStatement, loadRules, loadSellers, ruleLabel } from "./statement.ts";

// Issue 12 "Commission" commands (/rest/v1/rpc), each in the request's one transaction: the rules (workspace
// settings), approving a salesperson's period (frozen, Dr 6000 Commission / Cr 2400 Commission Payable) and paying
// it (Dr 2400 / Cr the bank). A refused command changes nothing.

const fail = (status: 404 | 409 | 422, message: string, field?: string) =>
  new RestError(
    status,
    status === 422 ? "validation_failed" : status === 409 ? "PGRST409" : "PGRST116",
    message,
    field ? [{ field, message }] : null,
  );

const wsOf = (caller: Caller) => caller.workspaceId as string;

// ---- rules -------------------------------------------------------------------------------------------------------

export const commissionRules = implement(COMMANDS.commission_rules, {
  async run(tx, _args, caller) {
    const ws = wsOf(caller);
    const [rules, sellers] = await Promise.all([loadRules(tx, ws), loadSellers(tx, ws)]);
    return rules.map((r) => ({
      ...r,
      label: ruleLabel(r),
      user_name: sellers.find((s) => s.id === r.user_id)?.name ?? null,
      role_title: SYSTEM_ROLES.find((x) => x.id === r.role_id)?.title ?? null,
    }));
  },
});

export const commissionRuleSave = implement(COMMANDS.commission_rule_save, {
  async run(tx, rule, caller) {
    const ws = wsOf(caller);
    if (rule.user_id) {
      const u = await tx.execute(sql`select name from "user"
        where workspace_id = ${ws}::uuid and id = ${rule.user_id}::uuid and active`);
      if (u.rows.length === 0) throw fail(422, "Salesperson: choose an active user of this workspace", "user_id");
    }
    if (rule.role_id && !SYSTEM_ROLES.some((r) => r.id === rule.role_id)) {
      throw fail(422, "Role: choose one of the workspace's roles", "role_id");
    }
    const excluded = [...new Set(rule.excluded_category_ids)];
    const ids = JSON.stringify(excluded);
    if (excluded.length > 0) {
      const found = await tx.execute(sql`select count(*)::int as n from category
        where workspace_id = ${ws}::uuid and id in (select value::bigint from jsonb_array_elements_text(${ids}::jsonb))`);
      if (Number((found.rows[0] as { n: number }).n) !== excluded.length) {
        throw fail(422, "Excluded categories: choose categories of this workspace", "excluded_category_ids");
      }
    }
    const same = await tx.execute(sql`select id from commission_rule where workspace_id = ${ws}::uuid
      and (user_id = ${rule.user_id ?? null}::uuid or role_id = ${rule.role_id ?? null}::int)
      and id is distinct from ${rule.id ?? null}::bigint`);
    if (same.rows.length > 0) {
      throw fail(
        409,
        rule.user_id
          ? "This salesperson already has a rule; change that one"
          : "This role already has a rule; change that one",
        rule.user_id ? "user_id" : "role_id",
      );
    }
    const values = sql`${rule.user_id ?? null}::uuid, ${rule.role_id ?? null}::int, ${rule.basis},
      ${rule.rate_percent}::numeric, ${rule.period}, ${rule.target ?? null}::numeric, ${JSON.stringify(rule.tiers)}::jsonb`;
    let id = rule.id;
    let before: unknown = null;
    if (id) {
      const old = await tx.execute(sql`select * from commission_rule where workspace_id = ${ws}::uuid and id = ${id}
        for update`);
      if (old.rows.length === 0) throw fail(404, `There is no commission rule ${id} in this workspace`);
      before = old.rows[0];
      await tx.execute(sql`update commission_rule set (user_id, role_id, basis, rate_percent, period, target, tiers)
        = (${values}), updated_at = now() where workspace_id = ${ws}::uuid and id = ${id}`);
      await tx.execute(sql`delete from commission_rule_category where workspace_id = ${ws}::uuid and rule_id = ${id}`);
    } else {
      const res = await tx.execute(sql`insert into commission_rule
          (workspace_id, user_id, role_id, basis, rate_percent, period, target, tiers, created_by)
        values (${ws}::uuid, ${values}, ${caller.userId}::uuid) returning id`);
      id = Number((res.rows[0] as { id: number }).id);
    }
    if (excluded.length > 0) {
      await tx.execute(sql`insert into commission_rule_category (workspace_id, rule_id, category_id)
        select ${ws}::uuid, ${id}, value::bigint from jsonb_array_elements_text(${ids}::jsonb)`);
    }
    // The rule's history: who changed it from what to what (the documents' audit trail).
    await writeEvent(tx, caller, {
      type: "commission_rule",
      docId: id,
      action: rule.id ? "update" : "create",
      from: null,
      to: "active",
      changes: { before, after: rule },
    });
    return (await loadRules(tx, ws)).find((r) => r.id === id) as CommissionRule;
  },
});

export const commissionRuleDelete = implement(COMMANDS.commission_rule_delete, {
  async run(tx, args, caller) {
    const ws = wsOf(caller);
    const res = await tx.execute(sql`delete from commission_rule where workspace_id = ${ws}::uuid and id = ${args.id}
      returning *`);
    if (res.rows.length === 0) throw fail(404, `There is no commission rule ${args.id} in this workspace`);
    await writeEvent(tx, caller, {
      type: "commission_rule",
      docId: args.id,
      action: "delete",
      from: "active",
      to: "deleted",
      changes: { before: res.rows[0] },
    });
    return { id: args.id, deleted: true };
  },
});

// ---- statements ----------------------------------------------------------------------------------------------------

// The approved and paid statements (newest first); a salesperson sees their own.
export const commissionStatements = implement(COMMANDS.commission_statements, {
  async run(tx, args, caller) {
    const who = readScope(caller, args?.salesperson);
    const rows = await frozenStatements(tx, wsOf(caller), { salesperson: who });
    return rows.map(({ lines: _, ...s }) => s);
  },
});

export const commissionApprove = implement(COMMANDS.commission_approve, {
  async run(tx, args, caller) {
    const ws = wsOf(caller);
    // One approval per salesperson at a time: the overlap check below must see the other's row.
    await tx.execute(
      sql`select pg_advisory_xact_lock(hashtext('commission:' || ${ws}::text || ${args.salesperson}::text))`,
    );
    const [seller] = await loadSellers(tx, ws, args.salesperson);
    if (!seller) throw fail(422, "Choose a salesperson of this workspace", "salesperson");
    const rules = await loadRules(tx, ws);
    const statement = await computeStatement(tx, ws, rules, seller, args.from, args.to);
    if (!statement)
      throw fail(422, `${seller.name} has no commission rule; add one in workspace settings`, "salesperson");
    if (!isWholePeriod(statement.rule.period, args.from, args.to)) {
      const unit = statement.rule.period === "monthly" ? "a whole month" : "a whole quarter";
      throw fail(422, `${seller.name}'s commission is ${statement.rule.period}: approve ${unit}`, "from");
    }
    if (args.to >= (await today(tx)))
      throw fail(422, `The period ends on ${args.to}; approve it once it has ended`, "to");
    const [earlier] = await frozenStatements(tx, ws, { salesperson: seller.id, from: args.from, to: args.to });
    if (earlier) {
      throw fail(
        409,
        `${seller.name}'s commission for ${earlier.period_from} to ${earlier.period_to} is already ${earlier.status} (statement ${earlier.id})`,
      );
    }
    const res = await tx.execute(sql`insert into commission_statement (workspace_id, salesperson_id, period_from,
        period_to, basis, base, target, achievement_percent, rate_percent, commission, lines, approved_by)
      values (${ws}::uuid, ${seller.id}::uuid, ${args.from}::date, ${args.to}::date, ${statement.basis},
        ${statement.base}::numeric, ${statement.target}::numeric, ${statement.achievement_percent}::numeric,
        ${statement.rate_percent}::numeric, ${statement.commission}::numeric, ${JSON.stringify(statement.lines)}::jsonb,
        ${caller.userId}::uuid)
      returning id`);
    const id = Number((res.rows[0] as { id: number }).id);
    const memo = `Commission ${seller.name} ${args.from} to ${args.to}`;
    const entry = await postJournal(
      tx,
      caller,
      { type: "commission_statement", id, number: null, date: args.to },
      { ...COMMISSION_APPROVAL_RULE, memo },
      { commission: statement.commission },
    );
    await tx.execute(sql`update commission_statement set journal_entry_id = ${entry} where workspace_id = ${ws}::uuid
      and id = ${id}`);
    await writeEvent(tx, caller, {
      type: "commission_statement",
      docId: id,
      action: "approve",
      from: null,
      to: "approved",
    });
    return (await frozenStatements(tx, ws, { id }))[0];
  },
});

export const commissionPay = implement(COMMANDS.commission_pay, {
  async run(tx, args, caller) {
    const ws = wsOf(caller);
    const locked = await tx.execute(sql`select id from commission_statement where workspace_id = ${ws}::uuid
      and id = ${args.statement_id} for update`);
    if (locked.rows.length === 0)
      throw fail(404, `There is no commission statement ${args.statement_id} in this workspace`);
    const [s] = await frozenStatements(tx, ws, { id: args.statement_id });
    if (s.status === "paid") throw fail(409, `This statement was already paid on ${s.paid_date}`);
    if (!dec(s.commission).gt(0)) throw fail(409, "Nothing to pay: this statement's commission is not more than 0");
    if (args.date < s.period_from) throw fail(422, `Pay on or after the period's first day, ${s.period_from}`, "date");
    const bank = await tx.execute(
      sql`select type from account where workspace_id = ${ws}::uuid and code = ${args.account}`,
    );
    const type = (bank.rows[0] as { type?: string } | undefined)?.type;
    if (type !== "bank" && type !== "cash") throw fail(422, "Choose a bank or cash account to pay from", "account");
    const entry = await postJournal(
      tx,
      caller,
      { type: "commission_statement", id: s.id, number: null, date: args.date },
      { ...COMMISSION_PAYMENT_RULE, memo: `Commission paid ${s.salesperson} ${s.period_from} to ${s.period_to}` },
      { commission: s.commission, accounts: { bank: args.account } },
    );
    await tx.execute(sql`update commission_statement set status = 'paid', paid_date = ${args.date}::date,
        paid_account = ${args.account}, payment_entry_id = ${entry}, paid_by = ${caller.userId}::uuid, updated_at = now()
      where workspace_id = ${ws}::uuid and id = ${s.id}`);
    await writeEvent(tx, caller, {
      type: "commission_statement",
      docId: s.id,
      action: "pay",
      from: "approved",
      to: "paid",
    });
    return (await frozenStatements(tx, ws, { id: s.id }))[0];
  },
});
