import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useSession } from "../../app/session/SessionProvider.tsx";
import { apiFetch } from "../../platform/api.ts";

export type Overview = {
  subscription: {
    tier_id: number;
    cycle: "monthly" | "yearly";
    list_price: string;
    discount: string;
    price: string;
    coupon_code: string | null;
    status: string;
    starts_at: string;
  } | null;
  credit_balance: string;
  active_users: number;
  storage: { used_bytes: number; quota_bytes: number }; // all of the workspace's files against the tier's quota
};

// The workspace module's own endpoints (beyond /rest/v1), with the session's token.
export function useWorkspaceApi() {
  const { session } = useSession();
  const queryClient = useQueryClient();
  const headers = { authorization: `Bearer ${session?.access_token}` };
  return {
    call: <T>(path: string, init: RequestInit & { json?: unknown } = {}) => apiFetch<T>(path, { ...init, headers }),
    // The signed-in user carries the workspace (name, colours, logo): refresh it after a change.
    refreshUser: () => queryClient.invalidateQueries({ queryKey: ["db-user"] }),
  };
}

export function useOverview() {
  const { call } = useWorkspaceApi();
  return useQuery({ queryKey: ["workspace-overview"], queryFn: () => call<Overview>("/api/workspace/overview") });
}
