import { useQuery } from "@tanstack/react-query";
import { useDataProvider } from "../../platform/data-access/provider.ts";
import { retryUnlessClientError } from "../../platform/resource/hooks.ts";

// `/rest/v1/rpc/dashboard_summary` (issue 5 item 7): what the signed-in user may read in their workspace.
export type Breakdown = { label: string; count: number }[];
export type RecentChange = {
  resource: string;
  route: string;
  id: string;
  label: string | null;
  updated_at: string;
  created: boolean;
};
// Issue 10 §3: the selling figures, each present only for a member who may read that document type.
export type Figure = { amount?: string; count: number };
export type SellingFigures = Partial<
  Record<"sales_this_month" | "overdue_receivables" | "orders_to_deliver" | "open_quotations", Figure>
>;
export type DashboardSummary = {
  counts: Record<string, number>;
  recent: RecentChange[];
  charts: Partial<Record<"products_by_category" | "projects_by_status" | "companies_by_kind", Breakdown>>;
  figures?: SellingFigures;
};

export function useDashboardSummary(enabled: boolean) {
  const data = useDataProvider();
  return useQuery({
    queryKey: ["dashboard_summary"],
    queryFn: ({ signal }) => data.rpc<DashboardSummary>("dashboard_summary", {}, signal),
    enabled,
    staleTime: 30_000,
    retry: retryUnlessClientError,
  });
}
