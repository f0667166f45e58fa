import { sql } from "drizzle-orm";
import { registerHooks } from "../../platform/rest/hooks.ts";

const t0 = sql.raw("t0");

// Users, roles, feedback and credits beyond the generic engine.
export function registerAdmin(): void {
  registerHooks("feedback", {
    beforeInsert: (row, caller) => ({ ...row, user_id: caller.userId }),
    // Marking feedback handled records who did it (issue 4 item 8).
    beforeUpdate: (patch, caller) =>
      "handled_at" in patch ? { ...patch, handled_by: patch.handled_at ? caller.userId : null } : patch,
  });
  registerHooks("credit_entry", { beforeInsert: (row, caller) => ({ ...row, created_by: caller.userId }) });
  registerHooks("user", {
    // The system role (flags, hosts) follows the workspace role chosen; an unknown role fails its foreign key.
    beforeUpdate: (patch) =>
      patch.workspace_role_id === undefined || patch.workspace_role_id === null
        ? patch
        : {
            ...patch,
            role_id: sql`coalesce((select wr.base_role_id from workspace_role wr where wr.workspace_id = ${t0}.workspace_id and wr.id = ${String(patch.workspace_role_id)}::bigint), ${t0}.role_id)`,
          },
  });
  registerHooks("workspace_role", {
    keep: { where: sql`${t0}.is_system`, message: "System roles cannot be deleted; change their permissions instead" },
  });
}
