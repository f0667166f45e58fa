import { decideResource } from "@workmetrics/domain";
import type { ReportDrill } from "@workmetrics/domain/reports";
import { findResource } from "@workmetrics/domain/resources";
import { type SQL, sql } from "drizzle-orm";
import { z } from "zod";
import { type Caller, memberOf, readScope } from "../../../platform/rest/access.ts";

// What the sales, purchasing and stock reports share (issue 12): a period of ISO dates with a clear refusal when
// it runs backwards, money as a decimal string with two places, and the ROLLUP's grand-total row taken apart.

export const period = z
  .object({ from: z.iso.date(), to: z.iso.date() })
  .refine((p) => p.from <= p.to, { message: "The report's from date is after its to date", path: ["from"] });

export const moneySql = (e: SQL) => sql`coalesce(${e}, 0)::numeric(14,2)::text`;

export type RollupRow = Record<string, string | number | null> & { is_total: number | string };

// The ROLLUP's grand-total row becomes `totals` (its `keys`, zero when there are no rows); the others are the rows.
export function splitTotals(all: RollupRow[], keys: string[]) {
  const total = all.find((r) => Number(r.is_total) === 1);
  const rows = all
    .filter((r) => Number(r.is_total) !== 1)
    .map(({ is_total: _, ...r }) => r as Record<string, string | number | null>);
  const zero = (k: string) => (k === "invoices" || k === "pos_orders" || k === "count" ? 0 : "0.00");
  return { rows, totals: Object.fromEntries(keys.map((k) => [k, total?.[k] ?? zero(k)])) };
}

// The rows of a document type the caller reads (a salesperson's own invoices when they read only their own): the
// reports sum no more than the list pages show the same member.
export function docScope(caller: Caller, type: string, alias: string): SQL {
  const def = findResource(type);
  if (!def) throw new Error(`${type} is not a resource`);
  return readScope(def, caller, sql.raw(alias)) ?? sql`true`;
}

// Whether the caller reads every row of the type (not only their own).
export function readsAll(caller: Caller, type: string): boolean {
  const def = findResource(type);
  if (!def) return false;
  const d = decideResource(memberOf(caller), def, "read");
  return d.allowed && d.scope === "all";
}

// Each row of a summary drills to the same report over the same period narrowed to the row's `key` (a customer, a
// product, a supplier…).
export const narrowedDrill =
  (report: string, p: { from: string; to: string }, key: string) =>
  (r: Record<string, unknown>): ReportDrill => ({ report, params: { from: p.from, to: p.to, [key]: String(r[key]) } });

export const docDrill = (type: string, id: unknown, number: unknown): ReportDrill => ({
  document: { type, id: Number(id), number: number == null ? null : String(number) },
});

// An id in a report's parameters: a number, or the digits of one (drill-down parameters and addresses are strings).
export const idParam = z.coerce.number().int().positive();
