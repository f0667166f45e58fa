import { z } from "zod";
import type { Feature } from "../tiers.ts";

// A /rest/v1/rpc command declared once (issue 20 §2, DESIGN §2.1): its name, the arguments it accepts, the answer
// it gives, the permission and tier feature it needs. The server implements the declaration and the web, the role
// apps and integrators call it through the typed client, so a change one side makes that the other does not follow
// fails the type check. Result schemas describe the answer as it travels (JSON): a timestamp is a string.
export type Command<N extends string = string, A extends z.ZodType = z.ZodType, R extends z.ZodType = z.ZodType> = {
  name: N;
  args: A;
  result: R;
  permission: string | null; // null: any member of the workspace (the command may check more inside)
  does?: string; // the action in words for a refusal: "import records"
  feature?: Feature;
};

export const defineCommand = <const N extends string, A extends z.ZodType, R extends z.ZodType>(
  cmd: Command<N, A, R>,
): Command<N, A, R> => cmd;

// What a caller sends (before defaults) and what it gets back.
export type ArgsOf<C extends Command> = z.input<C["args"]>;
export type ResultOf<C extends Command> = z.output<C["result"]>;

// Shared shapes of answers. A server's Date (node-postgres, PGlite) travels as an ISO string: the server may hand
// over either, the client reads a string.
export const instant = z.union([z.string(), z.date()]).transform((v) => (typeof v === "string" ? v : v.toISOString()));
export const id = z.number().int().positive();
// An id the database answers as bigint: node-postgres gives a string, PGlite a number.
export const dbId = z.union([z.number(), z.string()]);
export const decimal = z.string(); // numeric columns travel as decimal strings, never floats
export const day = z.string(); // YYYY-MM-DD
