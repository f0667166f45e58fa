import type { Feature } from "@workmetrics/domain";
import type { z } from "zod";
import type { Tx } from "../../db/database.ts";
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
  run(tx: Tx, args: A, caller: Caller): Promise<unknown>;
};

// A registered command: `run` receives what `args` parsed, so its own argument type can be forgotten here.
export type AnyRpc = RpcCommand<unknown>;

export const defineRpc = <A>(cmd: RpcCommand<A>): AnyRpc => cmd as AnyRpc;
