import { useQuery } from "@tanstack/react-query";
import { type CommissionPeriod, periodOf } from "@workmetrics/domain/commission";
import { useDataProvider } from "../../platform/data-access/provider.ts";
import { retryUnlessClientError } from "../../platform/resource/hooks.ts";
import { quarterLabel, quarterPeriod, recentQuarters } from "../reports/periods.ts";

// Issue 12 "Commission": the statements page and the rules section read the commission commands (the figures are
// the commission_statement report, read with the reports' useReport).

export type Statement = {
  id: number;
  salesperson_id: string;
  salesperson: string;
  period_from: string;
  period_to: string;
  status: "approved" | "paid";
  basis: string;
  base: string;
  rate_percent: string;
  commission: string;
  paid_date: string | null;
  paid_account: string | null;
  approved_at: string;
};

export type Rule = {
  id: number;
  user_id: string | null;
  role_id: number | null;
  basis: "invoiced" | "collected";
  rate_percent: string;
  period: CommissionPeriod;
  target: string | null;
  tiers: Array<{ from_percent: string; rate_percent: string }>;
  excluded_category_ids: number[];
  label: string;
  user_name: string | null;
  role_title: string | null;
};

export function useStatements(enabled = true) {
  const data = useDataProvider();
  return useQuery({
    queryKey: ["commission-statements"],
    queryFn: ({ signal }) => data.rpc<Statement[]>("commission_statements", {}, signal),
    retry: retryUnlessClientError,
    enabled,
  });
}

export function useRules(enabled = true) {
  const data = useDataProvider();
  return useQuery({
    queryKey: ["commission-rules"],
    queryFn: ({ signal }) => data.rpc<Rule[]>("commission_rules", {}, signal),
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
