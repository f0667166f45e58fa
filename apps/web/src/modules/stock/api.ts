import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { Requirement } from "@workmetrics/domain";
import type { CommandArgs, CommandResult } from "@workmetrics/domain/commands";
import { useDataProvider } from "../../platform/data-access/provider.ts";
import { retryUnlessClientError } from "../../platform/resource/hooks.ts";

// The stock commands (issue 11 "Stock"): stock_levels, stock_card, reorder_draft_purchase_orders, purchase_short.

// The answers' types come from the commands' declarations (packages/domain/src/commands/inventory.ts).
export type { StockCardRow, StockLevel } from "@workmetrics/domain/commands/inventory";

export type StockLevelsQuery = CommandArgs<"stock_levels"> & { limit: number; offset: number };

export function useStockLevels(args: StockLevelsQuery) {
  const data = useDataProvider();
  return useQuery({
    queryKey: ["stock_levels", args],
    queryFn: ({ signal }) => data.command("stock_levels", args, signal),
    placeholderData: keepPreviousData,
    retry: retryUnlessClientError,
  });
}

export type StockCard = CommandResult<"stock_card">;

export type StockCardQuery = CommandArgs<"stock_card"> & { limit: number; offset: number };

export function useStockCard(args: StockCardQuery) {
  const data = useDataProvider();
  return useQuery({
    queryKey: ["stock_card", args],
    queryFn: ({ signal }) => data.command("stock_card", args, signal),
    placeholderData: keepPreviousData,
    retry: retryUnlessClientError,
  });
}

// Every move of the product for the CSV, page by page (the command pages at most 5,000).
export function useFetchWholeCard() {
  const data = useDataProvider();
  return async (productId: number, locationId: number | null): Promise<StockCard> => {
    const limit = 5000;
    const first = await data.command("stock_card", {
      product_id: productId,
      location_id: locationId,
      limit,
      offset: 0,
    });
    const rows = [...first.rows];
    while (rows.length < first.total) {
      const next = await data.command("stock_card", {
        product_id: productId,
        location_id: locationId,
        limit,
        offset: rows.length,
      });
      if (!next.rows.length) break;
      rows.push(...next.rows);
    }
    return { ...first, rows };
  };
}

export type Drafted = CommandResult<"purchase_short">["created"][number];
// What a drafting command answers: the orders made, and what it skipped or found short.
export type DraftResult = { created: Drafted[] } & Partial<
  Pick<CommandResult<"reorder_draft_purchase_orders">, "skipped"> & Pick<CommandResult<"purchase_short">, "short">
>;

export function useDraftPurchaseOrders() {
  const data = useDataProvider();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (args: CommandArgs<"reorder_draft_purchase_orders">) =>
      data.command("reorder_draft_purchase_orders", args),
    onSuccess: () => qc.invalidateQueries({ queryKey: ["stock_levels"] }),
  });
}

export function usePurchaseShort() {
  const data = useDataProvider();
  return useMutation({
    mutationFn: (args: CommandArgs<"purchase_short">) => data.command("purchase_short", args),
  });
}

export function useLocations() {
  const data = useDataProvider();
  return useQuery({
    queryKey: ["stock", "locations"],
    queryFn: async ({ signal }) =>
      (
        await data.getList("location", {
          select: "id,name,code",
          order: [{ column: "name", ascending: true }],
          signal,
        })
      ).data as Array<{ id: number; name: string; code: string }>,
    staleTime: 60_000,
  });
}

// Purchase orders are written by the document commands, not /rest/v1 (their resource offers read only): a buyer is
// whoever holds purchase_order.create, as the document page asks for a conversion.
export const DRAFT_PURCHASE_ORDERS = {
  audience: "member",
  permission: "purchase_order.create",
  feature: "erp",
  does: "draft purchase orders",
} as const satisfies Requirement;
