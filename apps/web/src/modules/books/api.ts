import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { CommandArgs, CommandName, CommandResult } from "@workmetrics/domain/commands";
import type { BankAccount, BooksState, JournalEntry } from "@workmetrics/domain/commands/books";
import { useDataProvider } from "../../platform/data-access/provider.ts";
import { retryUnlessClientError } from "../../platform/resource/hooks.ts";

// The books' commands (modules/books on the server) as the pages call them.

// The answers' types come from the commands' declarations (packages/domain/src/commands/books.ts).
export type { BankAccount, BooksState, JournalEntry, JournalRow } from "@workmetrics/domain/commands/books";
export type JournalLine = JournalEntry["lines"][number];
export type Chart = CommandResult<"account_balances">;
export type AccountRow = Chart["accounts"][number];
export type Close = BooksState["closes"][number];

export const BOOKS_KEY = ["books"] as const;

export type JournalFilters = { from?: string; to?: string; account_code?: string; source?: string; search?: string };

export function useJournal(filters: JournalFilters, page: number, size: number) {
  const data = useDataProvider();
  const args = { ...clean(filters), limit: size, offset: page * size };
  return useQuery({
    queryKey: [...BOOKS_KEY, "journal", args],
    queryFn: ({ signal }) => data.command("journal_list", args, signal),
    placeholderData: keepPreviousData,
    retry: retryUnlessClientError,
  });
}

export function useEntry(id: number | null) {
  const data = useDataProvider();
  return useQuery({
    queryKey: [...BOOKS_KEY, "entry", id],
    queryFn: ({ signal }) => data.command("journal_get", { id: id as number }, signal),
    enabled: id != null,
    retry: retryUnlessClientError,
  });
}

export function useChart(asOf?: string) {
  const data = useDataProvider();
  return useQuery({
    queryKey: [...BOOKS_KEY, "chart", asOf ?? null],
    queryFn: ({ signal }) => data.command("account_balances", asOf ? { as_of: asOf } : {}, signal),
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
    queryFn: ({ signal }) => data.command("books_settings_get", {}, signal),
    retry: retryUnlessClientError,
  });
}

// A books command; every books query is fetched again after it.
export function useBooksCommand<N extends CommandName>(name: N) {
  const data = useDataProvider();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (args: CommandArgs<N>) => data.command(name, args),
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
