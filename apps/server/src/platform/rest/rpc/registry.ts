import { decide, memberRequirement } from "@workmetrics/domain";
import type { z } from "zod";
import type { Tx } from "../../db/database.ts";
import type { CommandDeps } from "../../jobs/deps.ts";
import { type Caller, memberOf, refusalError } from "../access.ts";
import { RestError } from "../rest-error.ts";
import type { AnyRpc } from "./command.ts";
import { csvImport } from "./csv-import.rpc.ts";
import { dashboardSummary } from "./dashboard-summary.rpc.ts";

// /rest/v1/rpc/{fn}: domain commands with zod-validated arguments and a permission, each in the request's one
// transaction (DESIGN §2.1). The engine's own commands are here; modules register theirs (modules/index.ts).

const COMMANDS = new Map<string, AnyRpc>();

export function registerRpc(...cmds: AnyRpc[]): void {
  for (const c of cmds) {
    if (COMMANDS.has(c.name)) throw new Error(`The command ${c.name} is registered twice`);
    COMMANDS.set(c.name, c);
  }
}

registerRpc(csvImport, dashboardSummary);

// Every registered command (the test that each implements its domain declaration).
export const registeredRpc = (): AnyRpc[] => [...COMMANDS.values()];

export async function runRpc(tx: Tx, name: string, raw: unknown, caller: Caller, deps: CommandDeps): Promise<unknown> {
  const cmd = COMMANDS.get(name);
  if (!cmd) {
    throw new RestError(404, "PGRST202", `Could not find the function public.${name} in the schema cache`);
  }
  if (caller.kind !== "member" || !caller.workspaceId) {
    throw new RestError(403, "42501", "Commands run inside a workspace; sign in as a member of one");
  }
  const decision = decide(memberOf(caller), memberRequirement(cmd.permission, cmd.does ?? "do this", cmd.feature));
  if (!decision.allowed) throw refusalError(decision);
  const parsed = (cmd.args as z.ZodType<unknown>).safeParse(raw);
  if (!parsed.success) {
    const details = parsed.error.issues.map((i) => ({ field: i.path.map(String).join("."), message: i.message }));
    throw new RestError(422, "validation_failed", details[0]?.message ?? "Invalid arguments", details);
  }
  return cmd.run(tx, parsed.data, caller, deps);
}
