import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { CommandArgs, CommandName } from "@workmetrics/domain/commands";
import { useDataProvider } from "../../platform/data-access/provider.ts";
import { useTableChanges } from "../../platform/realtime/useRealtime.ts";
import { retryUnlessClientError } from "../../platform/resource/hooks.ts";

// Issue 23: the marketplace pages' reads and commands (packages/domain/src/commands/marketplace.ts). Every change
// reads the marketplace's data again; orders and messages also arrive over realtime (postgres_changes on
// marketplace_sales_order and marketplace_message: the server sends each only to the two parties' members).

const KEY = ["marketplace"] as const;

export type SearchArgs = CommandArgs<"marketplace_search">;

export function useSearch(args: SearchArgs) {
  const data = useDataProvider();
  return useQuery({
    queryKey: [...KEY, "search", args],
    queryFn: ({ signal }) => data.command("marketplace_search", args, signal),
    retry: retryUnlessClientError,
    placeholderData: (prev) => prev,
  });
}

export function useMyAccount() {
  const data = useDataProvider();
  return useQuery({
    queryKey: [...KEY, "account"],
    queryFn: ({ signal }) => data.command("marketplace_account_mine", {}, signal),
    retry: retryUnlessClientError,
  });
}

export function useOrders() {
  const data = useDataProvider();
  return useQuery({
    queryKey: [...KEY, "orders"],
    queryFn: ({ signal }) => data.command("marketplace_orders", {}, signal),
    retry: retryUnlessClientError,
  });
}

export function useThreads() {
  const data = useDataProvider();
  return useQuery({
    queryKey: [...KEY, "threads"],
    queryFn: ({ signal }) => data.command("marketplace_threads", {}, signal),
    retry: retryUnlessClientError,
  });
}

export function useThread(threadId: number | null) {
  const data = useDataProvider();
  return useQuery({
    queryKey: [...KEY, "thread", threadId],
    queryFn: ({ signal }) => data.command("marketplace_thread_messages", { thread_id: threadId as number }, signal),
    enabled: threadId != null,
    retry: retryUnlessClientError,
  });
}

// The marketplace's live changes: a new message or an order that moved reads the pages' data again.
export function useMarketplaceLive(enabled = true) {
  const qc = useQueryClient();
  return useTableChanges(enabled ? ["marketplace_message", "marketplace_sales_order"] : null, (change) => {
    if (change.table === "marketplace_message") {
      void qc.invalidateQueries({ queryKey: [...KEY, "threads"] });
      const thread = (change.new as { thread_id?: number } | null)?.thread_id;
      if (thread != null) void qc.invalidateQueries({ queryKey: [...KEY, "thread", Number(thread)] });
    } else {
      void qc.invalidateQueries({ queryKey: [...KEY, "orders"] });
    }
  });
}

export function useMarketplaceCommand<N extends CommandName>(name: N) {
  const data = useDataProvider();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (args: CommandArgs<N>) => data.command(name, args),
    onSuccess: () => void qc.invalidateQueries({ queryKey: KEY }),
  });
}
