import { useQuery } from "@tanstack/react-query";
import type { PgFilter } from "../data-access/filters.ts";
import { useDataProvider } from "../data-access/provider.ts";
import { useReadable } from "../resource/access.ts";

// Issue 21 §1 "Locations": In transit and On loan (system_location) hold goods between two places or at a customer's;
// nothing is sent from, received into, ordered to or kept in them by a clerk's choice, so a picker of locations does
// not offer them (the server refuses them too). The filter that leaves them out of a location picker's choices;
// none for other resources, or while they are being read (the server's refusal still stands).
export function useChoiceFilters(resource: string): readonly PgFilter[] {
  const data = useDataProvider();
  const readable = useReadable()("system_location");
  const system = useQuery({
    queryKey: ["system_location", "ids"],
    queryFn: async ({ signal }) =>
      (await data.getList("system_location", { select: "id,location_id", signal })).data.map((s) =>
        Number(s.location_id),
      ),
    enabled: resource === "location" && readable,
    staleTime: 300_000,
  });
  if (resource !== "location" || !system.data?.length) return NONE;
  return [{ column: "id", op: "not.in", value: `(${system.data.join(",")})` }];
}

const NONE: readonly PgFilter[] = [];
