import { useQuery } from "@tanstack/react-query";
import { can, DEFAULT_ROLE_PERMISSIONS } from "@workmetrics/domain";
import type { ResourceAction, ResourceDef } from "@workmetrics/domain/resources/types";
import { useSession } from "../../app/session/SessionProvider.tsx";
import { useDataProvider } from "../data-access/provider.ts";

// null: not known (the server still decides every request).
type Who = { features: readonly string[]; operator: boolean; permissions: readonly string[] | null };

// What this user may do with a resource (react-admin's canAccess): the actions the resource offers, who writes
// it, the tier feature an action needs and the role's `<resource>.<action>` permissions. It only hides what
// would be refused; the REST engine enforces all of it.
export function canAccess(def: ResourceDef, action: ResourceAction, who: Who): boolean {
  if (def.actions && !def.actions.includes(action)) return false;
  if (action !== "read" && def.writers === "platform") return who.operator;
  const gated = def.featureActions ?? ["read", "create", "update", "delete"];
  if (def.feature && gated.includes(action) && !who.features.includes(def.feature)) return false;
  if (def.scope === "tenant" && who.permissions) return can(who.permissions, `${def.name}.${action}`);
  return true;
}

type MyRole = { role_id: number; workspace_role_id: number | null; workspace_role: { permissions: string[] } | null };

// The signed-in member's permissions, as the engine computes them: the workspace role's set, or the system
// role's defaults when no workspace role is assigned.
function usePermissions(): readonly string[] | null {
  const { dbUser } = useSession();
  const data = useDataProvider();
  const userId = dbUser?.profile?.id;
  const mine = useQuery({
    queryKey: ["user", "permissions", userId],
    queryFn: async ({ signal }) =>
      (await data.getOne(
        "user",
        userId as string,
        "id,role_id,workspace_role_id,workspace_role:workspace_role(permissions)",
        signal,
      )) as unknown as MyRole,
    enabled: Boolean(userId),
    staleTime: 60_000,
    retry: false,
  });
  const row = mine.data;
  if (!row) return null;
  if (row.workspace_role) return row.workspace_role.permissions;
  return row.workspace_role_id === null ? (DEFAULT_ROLE_PERMISSIONS[row.role_id] ?? []) : null;
}

export function useCan(def: ResourceDef): (action: ResourceAction) => boolean {
  const { dbUser } = useSession();
  const permissions = usePermissions();
  const who = {
    features: dbUser?.profile?.workspace.tier.features ?? [],
    operator: Boolean(dbUser?.is_platform_operator),
    permissions,
  };
  return (action) => canAccess(def, action, who);
}
