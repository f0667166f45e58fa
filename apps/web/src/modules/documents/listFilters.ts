import type { PgFilter } from "../../platform/data-access/filters.ts";
import { escapeLike, quoteValue } from "../../platform/data-access/filters.ts";

// The document lists' own filters, kept in the URL beside the grid's (status, customer, date range), as PostgREST
// filters; pure, so they are tested apart from the page.

export type DocFilters = { status: string[]; customer: number | null; from: string | null; to: string | null };

const DAY = /^\d{4}-\d{2}-\d{2}$/;

export function readDocFilters(params: URLSearchParams): DocFilters {
  const status = (params.get("status") ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter((s) => /^[a-z][a-z0-9_]*$/.test(s));
  const customer = Number(params.get("customer"));
  const from = params.get("from");
  const to = params.get("to");
  return {
    status,
    customer: Number.isInteger(customer) && customer > 0 ? customer : null,
    from: from && DAY.test(from) ? from : null,
    to: to && DAY.test(to) ? to : null,
  };
}

export function writeDocFilters(params: URLSearchParams, f: DocFilters): URLSearchParams {
  const out = new URLSearchParams(params);
  const set = (k: string, v: string | null) => (v ? out.set(k, v) : out.delete(k));
  set("status", f.status.join(",") || null);
  set("customer", f.customer ? String(f.customer) : null);
  set("from", f.from);
  set("to", f.to);
  out.delete("page"); // a new filter starts at the first page
  return out;
}

export function docFilters(f: DocFilters): PgFilter[] {
  const out: PgFilter[] = [];
  if (f.status.length === 1) out.push({ column: "status", op: "eq", value: f.status[0] });
  else if (f.status.length > 1) out.push({ column: "status", op: "in", value: `(${f.status.join(",")})` });
  if (f.customer) out.push({ column: "company_id", op: "eq", value: String(f.customer) });
  if (f.from) out.push({ column: "doc_date", op: "gte", value: f.from });
  if (f.to) out.push({ column: "doc_date", op: "lte", value: f.to });
  return out;
}

export const hasDocFilters = (f: DocFilters): boolean =>
  f.status.length > 0 || f.customer !== null || f.from !== null || f.to !== null;

// Quick search by number or customer: the number contains the words, or the customer is one whose name does.
export function numberOrCustomer(term: string, customerIds: readonly number[]): PgFilter | null {
  const t = term.trim();
  if (!t) return null;
  const parts = [`number.ilike.${quoteValue(`%${escapeLike(t)}%`)}`];
  if (customerIds.length) parts.push(`company_id.in.(${customerIds.join(",")})`);
  return { or: parts.join(",") };
}

// The filters as the query parameters a read sends (`status=in.(…)`, `or=(…)`), for document_list_totals.
export function toQueryPairs(filters: readonly PgFilter[]): [string, string][] {
  return filters.map((f) => ("or" in f ? ["or", `(${f.or})`] : [f.column, `${f.op}.${f.value}`]));
}
