import { registerRpc } from "../../platform/rest/rpc/registry.ts";
import { offlineConflictList, offlineConflictReport, offlineConflictResolve } from "./offline-conflict.rpc.ts";

// Issue 22 "One app shell": the role apps' refused offline actions, reported for a manager to resolve. (The
// hand-off between hosts, the manifests and the service worker are HTTP routes: roleapps.route.ts.)
export function registerRoleApps(): void {
  registerRpc(offlineConflictReport, offlineConflictResolve, offlineConflictList);
}
