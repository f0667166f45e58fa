import { DEFAULT_COMPANY } from "@workmetrics/domain";
import { type SQL, sql } from "drizzle-orm";
import type { Caller } from "./access.ts";

// What a few resources need beyond the generic engine: columns the server fills from the caller (never from the
// body) and rows that must stay. Values may be SQL expressions over the target row (alias t0).

export type RowValues = Record<string, unknown>;

export type ResourceHooks = {
  beforeInsert?(row: RowValues, caller: Caller): RowValues;
  beforeUpdate?(patch: RowValues, caller: Caller): RowValues;
  keep?: { where: SQL; message: string }; // rows matching `where` (alias t0) cannot be deleted
};

const t0 = sql.raw("t0");

export const HOOKS: Record<string, ResourceHooks> = {
  feedback: {
    beforeInsert: (row, caller) => ({ ...row, user_id: caller.userId }),
    // Marking feedback handled records who did it (issue 4 item 8).
    beforeUpdate: (patch, caller) =>
      "handled_at" in patch ? { ...patch, handled_by: patch.handled_at ? caller.userId : null } : patch,
  },
  memo: { beforeInsert: (row, caller) => ({ ...row, author_id: caller.userId }) },
  credit_entry: { beforeInsert: (row, caller) => ({ ...row, created_by: caller.userId }) },
  user: {
    // The system role (flags, hosts) follows the workspace role chosen; an unknown role fails its foreign key.
    beforeUpdate: (patch) =>
      patch.workspace_role_id === undefined || patch.workspace_role_id === null
        ? patch
        : {
            ...patch,
            role_id: sql`coalesce((select wr.base_role_id from workspace_role wr where wr.workspace_id = ${t0}.workspace_id and wr.id = ${String(patch.workspace_role_id)}::bigint), ${t0}.role_id)`,
          },
  },
  company: {
    keep: { where: sql`${t0}.id = ${DEFAULT_COMPANY.id}`, message: "The default company cannot be deleted" },
  },
  workspace_role: {
    keep: { where: sql`${t0}.is_system`, message: "System roles cannot be deleted; change their permissions instead" },
  },
};
