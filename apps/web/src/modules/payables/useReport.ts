import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useDataProvider } from "../../platform/data-access/provider.ts";
import { retryUnlessClientError } from "../../platform/resource/hooks.ts";

// POST /rest/v1/rpc/report {name, …params} (DESIGN §2.3.1) for the purchasing pages: accounts payable, the
// three-way check queue and the receipts' attachments. The previous answer stays on screen while a filter changes.
export function useReport(args: { name: string } & Record<string, unknown>, enabled = true) {
  const data = useDataProvider();
  return useQuery({
    queryKey: ["report", args.name, args],
    queryFn: ({ signal }) => data.command("report", args, signal),
    placeholderData: keepPreviousData,
    staleTime: 30_000,
    retry: retryUnlessClientError,
    enabled,
  });
}
