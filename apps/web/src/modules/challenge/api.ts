import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { CommandResult } from "@workmetrics/domain/commands";
import type { ChallengeSaveInput } from "@workmetrics/domain/resources/challenge";
import { useDataProvider } from "../../platform/data-access/provider.ts";
import { retryUnlessClientError } from "../../platform/resource/hooks.ts";

// Issue 12: the team challenge pages' commands (team_challenges, team_challenge_save/_cancel, calendar_events,
// calendar_feed). The leaderboards are read again when the server broadcasts that they may have moved (supabase-js
// channel, useBroadcast).

export const CHALLENGES_KEY = ["team_challenges"] as const;
export const CALENDAR_KEY = ["calendar_events"] as const;

export function useChallenges(enabled = true) {
  const data = useDataProvider();
  return useQuery({
    queryKey: CHALLENGES_KEY,
    queryFn: ({ signal }) => data.command("team_challenges", {}, signal),
    enabled,
    retry: retryUnlessClientError,
  });
}

export function useSaveChallenge() {
  const data = useDataProvider();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (args: ChallengeSaveInput) => data.command("team_challenge_save", args),
    onSuccess: () => qc.invalidateQueries({ queryKey: CHALLENGES_KEY }),
  });
}

export function useCancelChallenge() {
  const data = useDataProvider();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => data.command("team_challenge_cancel", { id }),
    onSuccess: () => qc.invalidateQueries({ queryKey: CHALLENGES_KEY }),
  });
}

export function useCalendarEvents(range: { from: string; to: string } | null) {
  const data = useDataProvider();
  return useQuery({
    queryKey: [...CALENDAR_KEY, range?.from, range?.to],
    queryFn: ({ signal }) => data.command("calendar_events", range as { from: string; to: string }, signal),
    enabled: range !== null,
    placeholderData: (previous) => previous,
    retry: retryUnlessClientError,
  });
}

export type Feed = CommandResult<"calendar_feed">;

export function useCalendarFeed() {
  const data = useDataProvider();
  return useQuery({
    queryKey: ["calendar_feed"],
    queryFn: ({ signal }) => data.command("calendar_feed", {}, signal),
    retry: retryUnlessClientError,
  });
}

export function useRegenerateFeed() {
  const data = useDataProvider();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => data.command("calendar_feed", { regenerate: true }),
    onSuccess: (feed) => qc.setQueryData(["calendar_feed"], { exists: feed.exists, path: null }),
  });
}
