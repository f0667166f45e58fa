import { AsyncLocalStorage } from "node:async_hooks";
import { Dec, dec } from "@workmetrics/domain/documents/decimal";
import { DEFAULT_LOCALE, type LocaleFormat, localeFormat, workspaceLocale } from "@workmetrics/domain/locale";
import { sql } from "drizzle-orm";
import type { Tx } from "../../../platform/db/database.ts";

// How printed figures read: money with two decimals and the currency ("SGD 1,234.50"), amounts in a table without
// it (the column says), quantities without trailing zeros, dates as a clerk writes them ("3 Nov 2026").
//
// Issue 21 §1: in the workspace's locale (en-SG for an SGD workspace), through the domain's one formatter the web
// uses too. A PDF, an e-mail or a report is made inside `inLocale(locale, …)` — `printingLocale` finds the
// workspace's — so the helpers below need no locale argument at their many call sites; outside one (a refusal's
// message) they read en-SG.

const scope = new AsyncLocalStorage<LocaleFormat>();

export function inLocale<T>(locale: string, fn: () => T): T {
  return scope.run(localeFormat(locale), fn);
}

const current = (): LocaleFormat => scope.getStore() ?? localeFormat(DEFAULT_LOCALE);

// The workspace's locale as its printed documents and e-mails use it (its base currency's, until a setting exists).
export async function printingLocale(tx: Tx, workspaceId: string | null | undefined): Promise<string> {
  if (!workspaceId) return DEFAULT_LOCALE;
  const res = await tx.execute(sql`select base_currency from workspace where id = ${workspaceId}::uuid`);
  const row = res.rows[0] as { base_currency?: string } | undefined;
  return workspaceLocale({ baseCurrency: row?.base_currency ?? null });
}

export function day(iso: string | null | undefined): string {
  return /^\d{4}-\d{2}-\d{2}/.test(iso ?? "") ? current().spelledDate((iso as string).slice(0, 10)) : "";
}

export const moneyOf = (value: string | null | undefined, currency: string): string =>
  current().money(dec(value ?? "0").toFixed(2), currency);

// 1234.5 → "1,234.50"; negative with a minus.
export function amount(value: string | null | undefined): string {
  return current().amount(dec(value ?? "0").toFixed(2));
}

// A unit price keeps the decimals it was given (4 at most), at least two: 12.5000 → "12.50", 0.1234 → "0.1234".
export function price(value: string | null | undefined): string {
  const n = dec(value ?? "0");
  return current().amount(n.toFixed(Math.max(2, n.decimalPlaces())), 4);
}

export const quantity = (value: string | null | undefined): string => {
  const n = dec(value ?? "0");
  return n.isZero() ? "0" : n.toFixed();
};

export const percent = (value: string | null | undefined): string => `${quantity(value)}%`;

export const isZero = (value: string | null | undefined): boolean => dec(value ?? "0").isZero();

export const minus = (a: string, b: string): string => new Dec(dec(a)).minus(dec(b)).toFixed(2);

// "Delivery order" → "Delivery Order": a printed title is a heading.
export const heading = (title: string): string => title.replace(/\b[a-z]/g, (c) => c.toUpperCase());
