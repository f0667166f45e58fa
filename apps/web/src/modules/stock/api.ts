import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { Requirement } from "@workmetrics/domain";
import { useDataProvider } from "../../platform/data-access/provider.ts";
import { retryUnlessClientError } from "../../platform/resource/hooks.ts";

// The stock commands (issue 11 "Stock"): stock_levels, stock_card, reorder_draft_purchase_orders, purchase_short.

export type StockLevel = {
  product_id: number;
  sku: string;
  name: string;
  unit: string;
  on_hand: string;
  reserved: string;
  on_order: string;
  on_loan: string;
  in_transit: string;
  available: string;
  min_qty: string | null;
  reorder_qty: string | null;
  to_reorder: boolean;
  by_location: Array<{ location_id: number; location: string; qty: string }>;
};

export type StockLevelsQuery = {
  search?: string;
  location_id?: number | null;
  to_reorder?: boolean;
  product_ids?: number[];
  limit: number;
  offset: number;
};

export function useStockLevels(args: StockLevelsQuery) {
  const data = useDataProvider();
  return useQuery({
    queryKey: ["stock_levels", args],
    queryFn: ({ signal }) => data.rpc<{ rows: StockLevel[]; total: number }>("stock_levels", args, signal),
    placeholderData: keepPreviousData,
    retry: retryUnlessClientError,
  });
}

export type StockCardRow = {
  id: number;
  date: string;
  doc_type: string;
  doc_id: number;
  number: string | null;
  location_id: number;
  location: string;
  qty_in: string | null;
  qty_out: string | null;
  balance: string;
  unit_cost: string;
};

export type StockCard = {
  product: { id: number; sku: string; name: string; unit: string; cost: string };
  rows: StockCardRow[];
  total: number;
};

export type StockCardQuery = { product_id: number; location_id?: number | null; limit: number; offset: number };

export function useStockCard(args: StockCardQuery) {
  const data = useDataProvider();
  return useQuery({
    queryKey: ["stock_card", args],
    queryFn: ({ signal }) => data.rpc<StockCard>("stock_card", args, signal),
    placeholderData: keepPreviousData,
    retry: retryUnlessClientError,
  });
}

// Every move of the product for the CSV, page by page (the command pages at most 5,000).
export function useFetchWholeCard() {
  const data = useDataProvider();
  return async (productId: number, locationId: number | null): Promise<StockCard> => {
    const limit = 5000;
    const first = await data.rpc<StockCard>("stock_card", {
      product_id: productId,
      location_id: locationId,
      limit,
      offset: 0,
    });
    const rows = [...first.rows];
    while (rows.length < first.total) {
      const next = await data.rpc<StockCard>("stock_card", {
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

export type Drafted = {
  id: number;
  supplier_id: number;
  supplier: string;
  location_id: number;
  location: string;
  lines: number;
};
export type DraftResult = {
  created: Drafted[];
  skipped?: Array<{ product_id: number; product: string; reason: string }>;
  short?: Array<{ product_id: number; product: string; qty: string }>;
};

export function useDraftPurchaseOrders() {
  const data = useDataProvider();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (args: { location_id?: number | null; search?: string; product_ids?: number[] }) =>
      data.rpc<DraftResult>("reorder_draft_purchase_orders", args),
    onSuccess: () => qc.invalidateQueries({ queryKey: ["stock_levels"] }),
  });
}

export function usePurchaseShort() {
  const data = useDataProvider();
  return useMutation({
    mutationFn: (args: { sales_order_id: number; supplier_id?: number | null; location_id?: number | null }) =>
      data.rpc<DraftResult>("purchase_short", args),
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
