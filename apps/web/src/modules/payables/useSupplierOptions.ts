import { useQuery } from "@tanstack/react-query";
import { useDataProvider } from "../../platform/data-access/provider.ts";

// The suppliers (companies marked is_supplier, by name) a purchasing page offers in its Supplier filter; scope is the
// page's query-key prefix, so each page's list is cached with the rest of that page.
export function useSupplierOptions(scope: string) {
  const data = useDataProvider();
  return useQuery({
    queryKey: [scope, "suppliers"],
    queryFn: async () =>
      (
        await data.getList("company", {
          select: "id,name",
          filters: [{ column: "is_supplier", op: "is", value: "true" }],
          order: [{ column: "name", ascending: true }],
          range: [0, 499],
        })
      ).data,
    staleTime: 60_000,
  });
}
