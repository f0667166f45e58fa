import { can } from "@workmetrics/domain";
import type { z } from "zod";
import type { Tx } from "../../db/database.ts";
import type { Caller } from "../access.ts";
import { RestError } from "../rest-error.ts";
import type { RpcCommand } from "./command.ts";
import { csvImport } from "./csv-import.rpc.ts";
import { dashboardSummary } from "./dashboard-summary.rpc.ts";
import { memoInbox, memoMarkRead } from "./memo.rpc.ts";

// /rest/v1/rpc/{fn}: domain commands with zod-validated arguments and a permission, each in the request's one
// transaction (DESIGN §2.1).

const COMMANDS = new Map<string, RpcCommand<never>>(
  [csvImport, dashboardSummary, memoInbox, memoMarkRead].map((c) => [c.name, c as unknown as RpcCommand<never>]),
);

export async function runRpc(tx: Tx, name: string, raw: unknown, caller: Caller): Promise<unknown> {
  const cmd = COMMANDS.get(name);
  if (!cmd) {
    throw new RestError(404, "PGRST202", `Could not find the function public.${name} in the schema cache`);
  }
  if (caller.kind !== "member" || !caller.workspaceId) {
    throw new RestError(403, "42501", "Commands run inside a workspace; sign in as a member of one");
  }
  if (cmd.permission && !can(caller.permissions, cmd.permission)) {
    throw new RestError(
      403,
      "42501",
      "You do not have permission to do this",
      `Needs the permission ${cmd.permission}`,
    );
  }
  const parsed = (cmd.args as z.ZodType<unknown>).safeParse(raw);
  if (!parsed.success) {
    const details = parsed.error.issues.map((i) => ({ field: i.path.map(String).join("."), message: i.message }));
    throw new RestError(422, "validation_failed", details[0]?.message ?? "Invalid arguments", details);
  }
  return cmd.run(tx, parsed.data as never, caller);
}
