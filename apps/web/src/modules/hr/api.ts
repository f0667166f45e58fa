import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { CommandArgs } from "@workmetrics/domain/commands";
import { useDataProvider } from "../../platform/data-access/provider.ts";
import { retryUnlessClientError } from "../../platform/resource/hooks.ts";

// Issue 21 §4: the leave page's reads (leave types, holidays and one's own requests through /rest/v1; balances and
// the requests to decide through the HR commands) and its commands. Every change reads the page's data again.

const KEY = ["hr"] as const;

export type LeaveTypeRow = { id: number; name: string; days_per_year: string };
export type OwnRequest = {
  id: number;
  leave_type_id: number;
  start_date: string;
  end_date: string;
  half_day: boolean;
  days: string;
  status: string;
  reason: string | null;
  decision_reason: string | null;
  leave_type: { name: string } | null;
};

export function useLeaveTypes() {
  const data = useDataProvider();
  return useQuery({
    queryKey: [...KEY, "types"],
    queryFn: async ({ signal }) =>
      (
        await data.getList("leave_type", {
          select: "id,name,days_per_year",
          filters: [{ column: "active", op: "eq", value: "true" }],
          order: [{ column: "name", ascending: true }],
          signal,
        })
      ).data as unknown as LeaveTypeRow[],
    retry: retryUnlessClientError,
  });
}

export function useHolidays(year: number) {
  const data = useDataProvider();
  return useQuery({
    queryKey: [...KEY, "holidays", year],
    queryFn: async ({ signal }) =>
      (
        await data.getList("public_holiday", {
          select: "date,name",
          filters: [
            { column: "date", op: "gte", value: `${year}-01-01` },
            { column: "date", op: "lte", value: `${year + 1}-12-31` },
          ],
          signal,
        })
      ).data as unknown as Array<{ date: string; name: string }>,
    retry: retryUnlessClientError,
  });
}

export function useOwnRequests(userId: string | undefined) {
  const data = useDataProvider();
  return useQuery({
    queryKey: [...KEY, "own", userId],
    queryFn: async ({ signal }) =>
      (
        await data.getList("leave_request", {
          select: "id,leave_type_id,start_date,end_date,half_day,days,status,reason,decision_reason,leave_type(name)",
          filters: [{ column: "user_id", op: "eq", value: userId as string }],
          order: [{ column: "start_date", ascending: false }],
          range: [0, 49],
          signal,
        })
      ).data as unknown as OwnRequest[],
    enabled: Boolean(userId),
    retry: retryUnlessClientError,
  });
}

export function useToDecide() {
  const data = useDataProvider();
  return useQuery({
    queryKey: [...KEY, "to-decide"],
    queryFn: ({ signal }) => data.command("leave_to_decide", {}, signal),
    retry: retryUnlessClientError,
  });
}

export function useBalances(year: number) {
  const data = useDataProvider();
  return useQuery({
    queryKey: [...KEY, "balances", year],
    queryFn: ({ signal }) => data.command("leave_balances", { year }, signal),
    retry: retryUnlessClientError,
  });
}

function useHrMutation<A, R>(run: (args: A) => Promise<R>) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: run,
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: KEY });
      void qc.invalidateQueries({ queryKey: ["calendar_events"] });
    },
  });
}

export function useAskLeave() {
  const data = useDataProvider();
  return useHrMutation((args: CommandArgs<"leave_request_save">) => data.command("leave_request_save", args));
}

export function useDecideLeave() {
  const data = useDataProvider();
  return useHrMutation((args: CommandArgs<"leave_decide">) => data.command("leave_decide", args));
}

export function useCancelLeave() {
  const data = useDataProvider();
  return useHrMutation((id: number) => data.command("leave_cancel", { id }));
}
