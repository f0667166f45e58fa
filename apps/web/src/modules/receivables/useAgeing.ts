import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useDataProvider } from "../../platform/data-access/provider.ts";
import { retryUnlessClientError } from "../../platform/resource/hooks.ts";

// POST /rest/v1/rpc/report {name: "ar_ageing", as_of, company_id?}: per customer, or one customer's open invoices.
export function useAgeing(asOf: string, companyId?: number) {
  const data = useDataProvider();
  return useQuery({
    queryKey: ["report", "ar_ageing", asOf, companyId ?? null],
    queryFn: ({ signal }) =>
      data.command(
        "report",
        { name: "ar_ageing", as_of: asOf, ...(companyId ? { company_id: companyId } : {}) },
        signal,
      ),
    placeholderData: companyId ? undefined : keepPreviousData,
    staleTime: 30_000,
    retry: retryUnlessClientError,
  });
}
