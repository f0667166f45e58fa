import { useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { apiFetch } from "../platform/api.ts";

// Asks the server whether an address is free, 300 ms after the user stops typing.
export function useSlugAvailability(slug: string | undefined) {
  const [debounced, setDebounced] = useState(slug ?? "");
  useEffect(() => {
    const t = setTimeout(() => setDebounced(slug ?? ""), 300);
    return () => clearTimeout(t);
  }, [slug]);
  return useQuery({
    queryKey: ["slug-availability", debounced],
    queryFn: () =>
      apiFetch<{ available: boolean; message?: string }>(
        `/api/public/slug-availability?slug=${encodeURIComponent(debounced)}`,
      ),
    enabled: debounced.length >= 3,
    staleTime: 10_000,
  });
}
