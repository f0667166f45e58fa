import { sql } from "drizzle-orm";
import type { Tx } from "../db/database.ts";
import { invalid } from "./refusals.ts";
import type { Row } from "./store.ts";

// Issue 10 §1 "document currency with the rate from the workspace's currency factors (a project's rate is locked
// when the project says so)". A document in the workspace's base currency has rate 1. In another currency, the rate
// comes from the document's project's currency factor (1 unit = factor of base currency): a locked factor is the
// rate whatever the client sent; an unlocked one is the default a clerk may override. With no factor, the clerk
// must give the rate — a silent 1 would book foreign money at face value.
export async function withExchangeRate(tx: Tx, ws: string, header: Row): Promise<Row> {
  const projectId = header.project_id == null ? null : Number(header.project_id);
  const asked = header.currency == null || String(header.currency).trim() === "" ? null : String(header.currency);
  const res = await tx.execute(sql`select w.base_currency as base,
      (select f.factor::text from currency_factor f
        where f.workspace_id = w.id and f.project_id = ${projectId} and f.currency = upper(${asked})) as factor,
      (select f.locked from currency_factor f
        where f.workspace_id = w.id and f.project_id = ${projectId} and f.currency = upper(${asked})) as locked
    from workspace w where w.id = ${ws}::uuid`);
  const found = res.rows[0] as { base: string; factor: string | null; locked: boolean | null } | undefined;
  const base = found?.base ?? "SGD";
  const currency = (asked ?? base).trim().toUpperCase();
  if (currency === base) return { ...header, currency, rate: "1" };
  if (found?.factor && found.locked) return { ...header, currency, rate: found.factor };
  const given = header.rate == null || String(header.rate).trim() === "" ? null : String(header.rate);
  if (given !== null && Number(given) > 0) return { ...header, currency, rate: given };
  if (found?.factor) return { ...header, currency, rate: found.factor };
  throw invalid(
    `Give the exchange rate from ${currency} to ${base}: ${projectId === null ? "the document has no project" : "its project has no currency factor"} for ${currency}`,
    "header.rate",
  );
}
