import type { SupabaseClient } from "@supabase/supabase-js";
import type { CommandArgs, CommandName, CommandResult } from "@workmetrics/domain/commands";
import { toDataError } from "./data-access/errors.ts";

// The typed client of /rest/v1/rpc (issue 20 §2): a command's name picks what to send and what comes back, both
// from its one declaration in packages/domain/src/commands, so a command the server changes and the caller does not
// follow fails the type check. The web app, the role apps and integrators use it the same way, over any
// supabase-js client signed in to a workspace:
//
//   const { rows, total } = await callCommand(client, "stock_levels", { search: "bolt", limit: 20 });
//
// A refusal throws a DataError (status, code, the server's message and each field it blamed). `idempotencyKey`
// sends the Idempotency-Key header (DESIGN §2.3.2): an offline outbox replays a command with the key made when the
// user acted, and the server answers a repeat with the first answer, running it once. Answers are not validated
// here (the API tests check them against the declarations).
export type CommandOptions = { signal?: AbortSignal; idempotencyKey?: string };

export async function callCommand<N extends CommandName>(
  client: SupabaseClient,
  name: N,
  args: CommandArgs<N>,
  opts: CommandOptions = {},
): Promise<CommandResult<N>> {
  let q = client.rpc(name, (args ?? {}) as Record<string, unknown>);
  if (opts.signal) q = q.abortSignal(opts.signal);
  if (opts.idempotencyKey) q = q.setHeader("Idempotency-Key", opts.idempotencyKey);
  const res = await q;
  if (res.error) throw toDataError(res.error, res.status);
  return res.data as CommandResult<N>;
}
