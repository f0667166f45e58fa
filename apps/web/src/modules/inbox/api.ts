import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { CommandArgs } from "@workmetrics/domain/commands";
import { useDataProvider } from "../../platform/data-access/provider.ts";
import { retryUnlessClientError } from "../../platform/resource/hooks.ts";

// Issue 24: the inbox's reads and commands. Every change reads the inbox's data again; realtime (InboxPage) does
// the same when a conversation or message the member reads changes.

export const INBOX_KEY = ["inbox"] as const;

export type ListFilters = CommandArgs<"conversation_list">;

export function useConversations(filters: ListFilters) {
  const data = useDataProvider();
  return useQuery({
    queryKey: [...INBOX_KEY, "list", filters],
    queryFn: ({ signal }) => data.command("conversation_list", filters, signal),
    retry: retryUnlessClientError,
    placeholderData: (prev) => prev,
  });
}

export function useThread(id: number | null) {
  const data = useDataProvider();
  return useQuery({
    queryKey: [...INBOX_KEY, "thread", id],
    queryFn: ({ signal }) => data.command("conversation_thread", { conversation_id: id as number }, signal),
    enabled: id !== null,
    retry: retryUnlessClientError,
  });
}

export function useChannelAccounts() {
  const data = useDataProvider();
  return useQuery({
    queryKey: [...INBOX_KEY, "accounts"],
    queryFn: ({ signal }) => data.command("channel_accounts", {}, signal),
    retry: retryUnlessClientError,
  });
}

export function useCannedReplies(enabled: boolean) {
  const data = useDataProvider();
  return useQuery({
    queryKey: [...INBOX_KEY, "canned"],
    queryFn: async ({ signal }) =>
      (
        await data.getList("canned_reply", {
          select: "id,title,body",
          order: [{ column: "title", ascending: true }],
          range: [0, 99],
          signal,
        })
      ).data as unknown as Array<{ id: number; title: string; body: string }>,
    enabled,
    retry: retryUnlessClientError,
  });
}

function useInboxMutation<A, R>(run: (args: A) => Promise<R>) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: run,
    onSettled: () => void qc.invalidateQueries({ queryKey: INBOX_KEY }),
  });
}

export function useReply() {
  const data = useDataProvider();
  return useInboxMutation((args: CommandArgs<"conversation_reply">) => data.command("conversation_reply", args));
}
export function useNote() {
  const data = useDataProvider();
  return useInboxMutation((args: CommandArgs<"conversation_note">) => data.command("conversation_note", args));
}
export function useAssign() {
  const data = useDataProvider();
  return useInboxMutation((args: CommandArgs<"conversation_assign">) => data.command("conversation_assign", args));
}
export function useSetStatus() {
  const data = useDataProvider();
  return useInboxMutation((args: CommandArgs<"conversation_set_status">) =>
    data.command("conversation_set_status", args),
  );
}
export function useMakeQuotation() {
  const data = useDataProvider();
  return useInboxMutation((args: CommandArgs<"conversation_quotation">) =>
    data.command("conversation_quotation", args),
  );
}
export function useConnect() {
  const data = useDataProvider();
  return useInboxMutation((args: CommandArgs<"channel_connect">) => data.command("channel_connect", args));
}
export function useDisconnect() {
  const data = useDataProvider();
  return useInboxMutation((id: number) => data.command("channel_disconnect", { id }));
}
// Outlook: the Microsoft sign-in address to send the browser to (it comes back to /outlook/callback).
export function useOutlookConnect() {
  const data = useDataProvider();
  return useMutation({ mutationFn: () => data.command("outlook_connect", {}) });
}

// Which sign-ins (Outlook, Instagram) this server is set up for; asked only by who may connect.
export function useSignIns(enabled: boolean) {
  const data = useDataProvider();
  return useQuery({
    queryKey: ["channel_sign_ins"],
    queryFn: () => data.command("channel_sign_ins", {}),
    enabled,
    staleTime: 5 * 60_000,
  });
}

export function useInstagramConnect() {
  const data = useDataProvider();
  return useMutation({ mutationFn: () => data.command("instagram_connect", {}) });
}
