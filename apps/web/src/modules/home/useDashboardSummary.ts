import { useQuery } from "@tanstack/react-query";
import type { CommandResult } from "@workmetrics/domain/commands";
import { useDataProvider } from "../../platform/data-access/provider.ts";
import { retryUnlessClientError } from "../../platform/resource/hooks.ts";

// `/rest/v1/rpc/dashboard_summary` (issue 5 item 7): what the signed-in user may read in their workspace.
export type DashboardSummary = CommandResult<"dashboard_summary">;
export type Breakdown = NonNullable<DashboardSummary["charts"]["products_by_category"]>;
export type RecentChange = DashboardSummary["recent"][number];
// Issue 10 §3: the selling figures, each present only for a member who may read that document type.
export type Figure = DashboardSummary["figures"][string];
// Issue 21 §1: and each role's work (work-figures.ts on the server).
export type SellingFigures = Partial<
  Record<
    | "sales_this_month"
    | "overdue_receivables"
    | "orders_to_deliver"
    | "open_quotations"
    | "quotations_expiring"
    | "deliveries_to_ship"
    | "receipts_due"
    | "transfers_in_transit"
    | "receivables_due_week"
    | "payables_due_week"
    | "cash_at_hand",
    Figure
  >
>;

export function useDashboardSummary(enabled: boolean) {
  const data = useDataProvider();
  return useQuery({
    queryKey: ["dashboard_summary"],
    queryFn: ({ signal }) => data.command("dashboard_summary", {}, signal),
    enabled,
    staleTime: 30_000,
    retry: retryUnlessClientError,
  });
}
