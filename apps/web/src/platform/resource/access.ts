import type { ResourceAction, ResourceDef } from "@workmetrics/domain/resources/types";
import { useSession } from "../../app/session/SessionProvider.tsx";

type Who = { features: readonly string[]; operator: boolean };

// What the registry says the engine offers this user (react-admin's canAccess): the actions the resource has,
// who writes it, and the tier feature an action needs. Role permissions are the server's to refuse.
export function canAccess(def: ResourceDef, action: ResourceAction, who: Who): boolean {
  if (def.actions && !def.actions.includes(action)) return false;
  if (action !== "read" && def.writers === "platform" && !who.operator) return false;
  const gated = def.featureActions ?? ["read", "create", "update", "delete"];
  if (def.feature && gated.includes(action) && !who.features.includes(def.feature)) return false;
  return true;
}

export function useCan(def: ResourceDef): (action: ResourceAction) => boolean {
  const { dbUser } = useSession();
  const who = {
    features: dbUser?.profile?.workspace.tier.features ?? [],
    operator: Boolean(dbUser?.is_platform_operator),
  };
  return (action) => canAccess(def, action, who);
}
