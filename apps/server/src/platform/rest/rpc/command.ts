import type { z } from "zod";
import type { Tx } from "../../db/database.ts";
import type { Caller } from "../access.ts";

// A /rest/v1/rpc command: zod-validated arguments, a permission (null: any member of the workspace), and its work,
// run inside the request's one transaction.
export type RpcCommand<A> = {
  name: string;
  args: z.ZodType<A>;
  permission: string | null;
  run(tx: Tx, args: A, caller: Caller): Promise<unknown>;
};

export const defineRpc = <A>(cmd: RpcCommand<A>): RpcCommand<A> => cmd;
