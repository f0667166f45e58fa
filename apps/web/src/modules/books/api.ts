import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { AccountRoot } from "@workmetrics/domain/resources/books";
import { useDataProvider } from "../../platform/data-access/provider.ts";
import { retryUnlessClientError } from "../../platform/resource/hooks.ts";

// The books' commands (modules/books on the server) as the pages call them.

export type JournalRow = {
  id: number;
  number: string | null;
  entry_date: string;
  memo: string | null;
  source_type: string | null;
  source_id: number | null;
  reversal_of: number | null;
  reversed_by: number | null;
  amount: string;
};
export type JournalLine = { line_no: number; account_code: string; debit: string; credit: string; memo: string | null };
export type JournalEntry = Omit<JournalRow, "amount"> & { lines: JournalLine[] };

export type AccountRow = {
  id: number;
  code: string;
  name: string;
  type: string;
  root: AccountRoot;
  contra: boolean;
  active: boolean;
  debit: string;
  credit: string;
  balance: string;
};
export type Chart = { as_of: string; in_use: string[]; accounts: AccountRow[] };

export type BankAccount = {
  id: number;
  name: string;
  bank_name: string;
  account_number: string;
  currency: string;
  ledger_account_code: string;
  active: boolean;
};

export type Close = {
  id: number;
  year_start: string;
  year_end: string;
  profit: string;
  entry_id: number;
  number: string;
  closed_at: string;
  closed_by: string | null;
  reopened_at: string | null;
  reopened_by: string | null;
  reopen_reason: string | null;
};
export type BooksState = {
  lock_date: string | null;
  fy_start_month: number;
  lock_set_by: string | null;
  lock_set_at: string | null;
  closes: Close[];
  opening_balance: { id: number; number: string; entry_date: string } | null;
};

export const BOOKS_KEY = ["books"] as const;

export type JournalFilters = { from?: string; to?: string; account_code?: string; source?: string; search?: string };

export function useJournal(filters: JournalFilters, page: number, size: number) {
  const data = useDataProvider();
  const args = { ...clean(filters), limit: size, offset: page * size };
  return useQuery({
    queryKey: [...BOOKS_KEY, "journal", args],
    queryFn: ({ signal }) => data.rpc<{ total: number; rows: JournalRow[] }>("journal_list", args, signal),
    placeholderData: keepPreviousData,
    retry: retryUnlessClientError,
  });
}

export function useEntry(id: number | null) {
  const data = useDataProvider();
  return useQuery({
    queryKey: [...BOOKS_KEY, "entry", id],
    queryFn: ({ signal }) => data.rpc<JournalEntry>("journal_get", { id }, signal),
    enabled: id != null,
    retry: retryUnlessClientError,
  });
}

export function useChart(asOf?: string) {
  const data = useDataProvider();
  return useQuery({
    queryKey: [...BOOKS_KEY, "chart", asOf ?? null],
    queryFn: ({ signal }) => data.rpc<Chart>("account_balances", asOf ? { as_of: asOf } : {}, signal),
    placeholderData: keepPreviousData,
    retry: retryUnlessClientError,
  });
}

export function useBankAccounts() {
  const data = useDataProvider();
  return useQuery({
    queryKey: [...BOOKS_KEY, "bank_accounts"],
    queryFn: async ({ signal }) =>
      (
        await data.getList("bank_account", {
          select: "id,name,bank_name,account_number,currency,ledger_account_code,active",
          order: [{ column: "name", ascending: true }],
          signal,
        })
      ).data as unknown as BankAccount[],
    retry: retryUnlessClientError,
  });
}

export function useBooksState() {
  const data = useDataProvider();
  return useQuery({
    queryKey: [...BOOKS_KEY, "state"],
    queryFn: ({ signal }) => data.rpc<BooksState>("books_settings_get", {}, signal),
    retry: retryUnlessClientError,
  });
}

// A books command; every books query is fetched again after it.
export function useBooksCommand<T = unknown>(fn: string) {
  const data = useDataProvider();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (args: Record<string, unknown>) => data.rpc<T>(fn, args),
    onSuccess: () => qc.invalidateQueries({ queryKey: BOOKS_KEY }),
  });
}

function clean(o: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined && v !== null && v !== ""));
}

// "072-123456-7" → "•••• 4567": the last four, enough to tell accounts apart on a shared screen.
export function maskAccountNumber(n: string): string {
  const digits = n.replace(/[^0-9A-Za-z]/g, "");
  return digits.length <= 4 ? digits : `•••• ${digits.slice(-4)}`;
}

export const MONTHS = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];

export const ROOT_TITLES: Record<AccountRow["root"], string> = {
  asset: "Assets",
  liability: "Liabilities",
  equity: "Equity",
  income: "Income",
  expense: "Expenses",
};

// An account's balance on its natural side: assets and expenses are debits, the rest credits.
export const naturalBalance = (a: Pick<AccountRow, "root" | "balance">): number =>
  a.root === "asset" || a.root === "expense" ? Number(a.balance) : -Number(a.balance);
