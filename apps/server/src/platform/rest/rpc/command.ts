import type { Feature } from "@workmetrics/domain";
import type { Command } from "@workmetrics/domain/commands";
import type { z } from "zod";
import type { Tx } from "../../db/database.ts";
import type { CommandDeps } from "../../jobs/deps.ts";
import type { Caller } from "../access.ts";

// A /rest/v1/rpc command: zod-validated arguments, a permission (null: any member of the workspace) and the tier
// feature it needs, checked through the domain's one access rule, and its work, run inside the request's one
// transaction.
export type RpcCommand<A> = {
  name: string;
  args: z.ZodType<A>;
  permission: string | null;
  does?: string; // the action in words for a refusal: "import records"
  feature?: Feature;
  result: z.ZodType; // the declaration's answer, for the tests that check answers against it
  // `deps`: what the server the command runs in gives it (its job queue, mailer, clock, links), never module state.
  run(tx: Tx, args: A, caller: Caller, deps: CommandDeps): Promise<unknown>;
};

// A registered command: `run` receives what `args` parsed, so its own argument type can be forgotten here. Made
// only by implement(): every command is declared in the domain first.
export type AnyRpc = RpcCommand<unknown>;

// The server's side of a command declared in the domain (packages/domain/src/commands, issue 20 §2): `run` gets the
// parsed arguments and must answer what the declaration's result schema accepts (its input: a Date may stand for the
// ISO string the client reads), so a server answer that drifts from the declaration is a type error here. Answers
// are not validated at run time (cost); the API test checks a sample against the schemas.
type Extra = AnyRpc["run"] extends (tx: Tx, args: unknown, caller: Caller, ...rest: infer R) => unknown ? R : [];
export const implement = <A extends z.ZodType, R extends z.ZodType>(
  decl: Command<string, A, R>,
  impl: { run(tx: Tx, args: z.output<A>, caller: Caller, ...rest: Extra): Promise<z.input<R>> },
): AnyRpc => ({ ...decl, run: impl.run }) as AnyRpc;
