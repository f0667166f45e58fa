import { DocumentError, dec, money, sum } from "@workmetrics/domain/documents/decimal";
import { TAX_CODES, type TaxCode } from "@workmetrics/domain/documents/totals";
import { gstInside } from "@workmetrics/domain/documents/types/expense-claim";
import { sql } from "drizzle-orm";
import { invalid } from "../../platform/documents/refusals.ts";
import type { PrepareSave, PriceDraft } from "../../platform/documents/registry.ts";
import { RECEIPT_FOLDER } from "./receipts.ts";

// Issue 24: an expense claim's draft as document_save writes it. A line is a receipt: the amount paid (GST
// included), the merchant, the date on it, the tax code and the expense account; the line's quantity is 1 and its
// price the amount less its GST, so the engine's columns (and the printed claim) read like any document's:
// lines net, then GST, then the total paid. A claim has no customer.

const given = (v: unknown) => v !== undefined && v !== null && String(v).trim() !== "";

export const prepareExpenseSave: PrepareSave = async (tx, caller, _spec, draft) => {
  const ws = caller.workspaceId as string;
  const codes = [
    ...new Set(
      draft.lines
        .map((l) => l.account_code)
        .filter(given)
        .map(String),
    ),
  ];
  const accounts = new Map<string, { root: string; active: boolean; name: string }>();
  if (codes.length) {
    const res = await tx.execute(sql`select code, root, active, name from account
      where workspace_id = ${ws}::uuid and code = any(${`{${codes.map((c) => `"${c.replaceAll('"', "")}"`).join(",")}}`}::text[])`);
    for (const a of res.rows as Array<{ code: string; root: string; active: boolean; name: string }>) {
      accounts.set(a.code, a);
    }
  }
  const paths = [
    ...new Set(
      draft.lines
        .map((l) => l.receipt_path)
        .filter(given)
        .map(String),
    ),
  ];
  const kept = new Set<string>();
  if (paths.length) {
    const res = await tx.execute(sql`select o.name from storage_object o
      where o.workspace_id = ${ws}::uuid and o.name = any(${`{${paths.map((p) => `"${p.replaceAll('"', "")}"`).join(",")}}`}::text[])`);
    for (const r of res.rows as Array<{ name: string }>) kept.add(r.name);
  }
  const today = new Date().toISOString().slice(0, 10);
  const lines = draft.lines.map((l, i) => {
    const n = i + 1;
    if (l.product_id != null || l.service_id != null) {
      throw invalid(`Line ${n}: an expense claim line is a receipt, not a product or service`, `lines.${i}.product_id`);
    }
    const amount = given(l.amount) ? String(l.amount) : "0";
    if (dec(amount).isNegative()) throw invalid(`Line ${n}: the amount cannot be negative`, `lines.${i}.amount`);
    if (given(l.account_code)) {
      const a = accounts.get(String(l.account_code));
      if (!(a?.root === "expense" && a.active)) {
        throw invalid(
          `Line ${n}: ${l.account_code} is not an active expense account of this workspace`,
          `lines.${i}.account_code`,
        );
      }
    }
    if (given(l.expense_date) && String(l.expense_date) > today) {
      throw invalid(`Line ${n}: the receipt's date cannot be in the future`, `lines.${i}.expense_date`);
    }
    if (given(l.receipt_path)) {
      const p = String(l.receipt_path);
      if (!p.startsWith(`${RECEIPT_FOLDER}/`) || !kept.has(p)) {
        throw invalid(
          `Line ${n}: that receipt is not one kept in this workspace; photograph it again`,
          `lines.${i}.receipt_path`,
        );
      }
    }
    const merchant = given(l.merchant) ? String(l.merchant).trim() : null;
    return {
      ...l,
      merchant,
      amount,
      qty: "1",
      unit_price: amount,
      discount_percent: "0",
      tax_code: l.tax_code ?? "SR",
      description: given(l.description) ? String(l.description) : (merchant ?? "Expense"),
      gst_amount: null, // priceExpense's; present here so the save writes it
    };
  });
  return {
    header: { ...draft.header, company_id: null, discount_percent: null, discount_amount: "0" },
    lines,
  };
};

// A claim's totals: each receipt's GST from its amount and tax code; the claim's net, GST and total their sums.
export const priceExpense: PriceDraft = (header, lines) => {
  try {
    const priced = lines.map((l, i) => {
      const code = String(l.tax_code ?? "SR") as TaxCode;
      if (!TAX_CODES.includes(code)) throw invalid(`Line ${i + 1}: choose a tax code`, `lines.${i}.tax_code`);
      const amount = money(dec(String(l.amount ?? "0")));
      const gst = gstInside(amount, code);
      const net = money(dec(amount).minus(gst));
      return { ...l, amount, gst_amount: gst, unit_price: net, line_total: net, net_amount: net, tax_code: code };
    });
    const net = money(sum(priced.map((l) => l.net_amount)));
    const gst = money(sum(priced.map((l) => l.gst_amount)));
    const total = money(sum(priced.map((l) => l.amount)));
    return {
      header: {
        ...header,
        rate: "1",
        currency: "SGD",
        subtotal: net,
        discount_amount: "0",
        net_total: net,
        tax_total: gst,
        total,
        base_total: total,
      },
      lines: priced,
    };
  } catch (err) {
    if (err instanceof DocumentError) throw invalid(err.message);
    throw err;
  }
};
