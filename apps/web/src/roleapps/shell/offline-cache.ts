import { type UseQueryResult, useQuery } from "@tanstack/react-query";
import { useEffect } from "react";
import { idbDelete, idbGet, idbPut, SHIFT_CACHE } from "./idb.ts";
import { useOnline } from "./online.ts";

// The data a shift needs (today's stops, the open POs to receive, the POS catalogue and prices), readable offline
// (issue 22 "Offline"): a TanStack Query whose last good answer is kept in IndexedDB, per signed-in person, and
// answered from there when the server cannot be reached — with `isOffline` and the time it was saved, so the app
// can say "as of 09:12".

type Saved<T> = { id: string; userId: string; data: T; savedAt: string };
type Answer<T> = { data: T; savedAt: string; offline: boolean };

export type ShiftData<T> = Omit<UseQueryResult<Answer<T>>, "data"> & {
  data: T | undefined;
  isOffline: boolean;
  savedAt: string | null; // when the answer shown came from the server (ISO)
};

async function currentUserId(): Promise<string> {
  const { getSupabase } = await import("../../app/session/client.ts");
  const { data } = await (await getSupabase()).auth.getSession();
  return data.session?.user.id ?? "";
}

const cacheId = (user: string, key: string[]) => `${user}:${JSON.stringify(key)}`;

export async function readShiftCache<T>(key: string[]): Promise<Saved<T> | undefined> {
  const user = await currentUserId();
  const saved = await idbGet<Saved<T>>(SHIFT_CACHE, cacheId(user, key));
  return saved?.userId === user ? saved : undefined;
}

export async function clearShiftCache(key: string[]): Promise<void> {
  await idbDelete(SHIFT_CACHE, cacheId(await currentUserId(), key));
}

// Runs the fetcher; on success keeps the answer, on failure (offline, server down) answers the kept one if any.
export async function fetchWithCache<T>(key: string[], fetcher: () => Promise<T>): Promise<Answer<T>> {
  const user = await currentUserId();
  const id = cacheId(user, key);
  const fromCache = async (err: unknown): Promise<Answer<T>> => {
    const saved = await idbGet<Saved<T>>(SHIFT_CACHE, id).catch(() => undefined);
    if (saved && saved.userId === user) return { data: saved.data, savedAt: saved.savedAt, offline: true };
    throw err;
  };
  if (typeof navigator !== "undefined" && navigator.onLine === false) {
    return fromCache(new Error("You are offline and this has not been loaded on this device yet."));
  }
  let data: T;
  try {
    data = await fetcher();
  } catch (err) {
    // A refusal the server made (no permission, bad request) is not hidden behind stale data.
    const status = (err as { status?: unknown })?.status;
    if (typeof status === "number" && status >= 400 && status < 500 && status !== 408 && status !== 429) throw err;
    return fromCache(err);
  }
  const savedAt = new Date().toISOString();
  await idbPut<Saved<T>>(SHIFT_CACHE, { id, userId: user, data, savedAt }).catch(() => undefined);
  return { data, savedAt, offline: false };
}

export function useShiftData<T>(key: string[], fetcher: () => Promise<T>): ShiftData<T> {
  const online = useOnline();
  const query = useQuery({
    queryKey: ["shift", ...key],
    queryFn: () => fetchWithCache(key, fetcher),
    // Offline the query still runs: its answer is the kept one (TanStack would otherwise pause it).
    networkMode: "always",
    retry: (count, err) => {
      const status = (err as { status?: unknown })?.status;
      return count < 1 && !(typeof status === "number" && status >= 400 && status < 500);
    },
    staleTime: 30_000,
  });
  const { refetch } = query;
  // Back online: fetch afresh so what is shown is the server's again.
  useEffect(() => {
    if (online && query.data?.offline) void refetch();
  }, [online, query.data?.offline, refetch]);
  return {
    ...query,
    data: query.data?.data,
    isOffline: query.data?.offline ?? !online,
    savedAt: query.data?.savedAt ?? null,
  } as ShiftData<T>;
}
