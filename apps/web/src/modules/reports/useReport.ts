import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useDataProvider } from "../../platform/data-access/provider.ts";
import { retryUnlessClientError } from "../../platform/resource/hooks.ts";
import type { ReportEntry } from "./catalog.ts";
import {
  isDay,
  type PresetKey,
  preset,
  previousDate,
  previousPeriod,
  quarterPeriod,
  recentQuarters,
} from "./periods.ts";

// A report's parameters from the page's address, with the defaults its kind takes when the address has none (this
// month; sales by month this year; GST F5 the last quarter), and the same parameters over the previous period.

const DEFAULT_PRESET: Partial<Record<string, PresetKey>> = { sales_by_month: "this_year", trial_balance: "this_year" };

export function reportArgs(entry: ReportEntry, search: URLSearchParams, today: string): Record<string, string> {
  const args: Record<string, string> = {};
  for (const [k, v] of search) if (k !== "compare" && v !== "") args[k] = v;
  if (entry.params === "as_of") return args;
  if (!args.from && !args.to) {
    const p =
      entry.params === "quarter"
        ? quarterPeriod(recentQuarters(today, 2)[1])
        : preset(DEFAULT_PRESET[entry.name] ?? "this_month", today);
    return { ...args, ...p };
  }
  return args;
}

export function comparedArgs(entry: ReportEntry, args: Record<string, string>, today: string): Record<string, string> {
  if (entry.params === "as_of") return { ...args, as_of: previousDate(args.as_of ?? today) };
  if (!isDay(args.from) || !isDay(args.to) || args.from > args.to) return args;
  return { ...args, ...previousPeriod({ from: args.from, to: args.to }) };
}

// POST /rest/v1/rpc/report {name, …params} (DESIGN §2.3.1); the previous answer stays while parameters change.
export function useReport(name: string, args: Record<string, string>, enabled: boolean) {
  const data = useDataProvider();
  return useQuery({
    queryKey: ["report", name, args],
    queryFn: ({ signal }) => data.command("report", { name, ...args }, signal),
    placeholderData: keepPreviousData,
    staleTime: 30_000,
    retry: retryUnlessClientError,
    enabled,
  });
}
