import { useQuery } from "@tanstack/react-query";
import type { CommandResult } from "@workmetrics/domain/commands";
import { periodOf } from "@workmetrics/domain/commission";
import { useDataProvider } from "../../platform/data-access/provider.ts";
import { retryUnlessClientError } from "../../platform/resource/hooks.ts";
import { quarterLabel, quarterPeriod, recentQuarters } from "../reports/periods.ts";

// Issue 12 "Commission": the statements page and the rules section read the commission commands (the figures are
// the commission_statement report, read with the reports' useReport).

// The commands' answers, as their declarations say (packages/domain/src/commands/commission.ts).
export type Statement = CommandResult<"commission_statements">[number];
export type Rule = CommandResult<"commission_rules">[number];

export function useStatements(enabled = true) {
  const data = useDataProvider();
  return useQuery({
    queryKey: ["commission-statements"],
    queryFn: ({ signal }) => data.command("commission_statements", {}, signal),
    retry: retryUnlessClientError,
    enabled,
  });
}

export function useRules(enabled = true) {
  const data = useDataProvider();
  return useQuery({
    queryKey: ["commission-rules"],
    queryFn: ({ signal }) => data.command("commission_rules", {}, signal),
    retry: retryUnlessClientError,
    enabled,
  });
}

// The periods offered: the last 12 months and the last 4 quarters, newest first, from `today` (YYYY-MM-DD).
export function recentPeriods(today: string): Array<{ from: string; to: string; label: string }> {
  const out: Array<{ from: string; to: string; label: string }> = [];
  const y = Number(today.slice(0, 4));
  const mo = Number(today.slice(5, 7));
  const at = (monthsBack: number) => {
    const d = new Date(Date.UTC(y, mo - 1 - monthsBack, 15));
    return d.toISOString().slice(0, 10);
  };
  const month = new Intl.DateTimeFormat("en-SG", { month: "long", year: "numeric", timeZone: "UTC" });
  for (let i = 0; i < 12; i++) {
    const p = periodOf("monthly", at(i));
    out.push({ ...p, label: month.format(new Date(`${p.from}T00:00:00Z`)) });
  }
  for (const q of recentQuarters(today, 4)) out.push({ ...quarterPeriod(q), label: quarterLabel(q) });
  return out;
}
