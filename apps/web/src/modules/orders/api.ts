import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { CommandArgs } from "@workmetrics/domain/commands";
import { type Row, useDataProvider } from "../../platform/data-access/provider.ts";

// The order forms page's reads and its one write (order_form_save: the form and its products in one transaction).

export type OrderFormRow = Row & {
  title: string;
  intro: string | null;
  active: boolean;
  token: string;
  company: Row | null;
  items: Array<Row & { price: string; min_qty: string; product: Row | null }>;
};

const SELECT =
  "id,title,intro,active,token,company_id,company:company(id,name),items:order_form_item(id,product_id,price,min_qty,sort_order,product:product(id,name,sku,price))";

export function useOrderForms() {
  const data = useDataProvider();
  return useQuery({
    queryKey: ["order_form", "list", "page"],
    queryFn: async ({ signal }) =>
      (
        await data.getList("order_form", {
          select: SELECT,
          order: [{ column: "id", ascending: false }],
          range: [0, 199],
          signal,
        })
      ).data as OrderFormRow[],
  });
}

export function useSaveOrderForm() {
  const data = useDataProvider();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (args: CommandArgs<"order_form_save">) => data.command("order_form_save", args),
    onSuccess: () => qc.invalidateQueries({ queryKey: ["order_form"] }),
  });
}

export function useToggleOrderForm() {
  const data = useDataProvider();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (args: { id: number; active: boolean }) => data.update("order_form", args.id, { active: args.active }),
    onSuccess: () => qc.invalidateQueries({ queryKey: ["order_form"] }),
  });
}

// The public link of a form, on the host the member works on (DESIGN §3.3: a workspace's own address).
export const orderFormLink = (token: string) => `${window.location.origin}/auth/order-forms/${token}`;
