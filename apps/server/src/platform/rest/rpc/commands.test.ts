import { COMMAND_LIST, findCommand } from "@workmetrics/domain/commands";
import { describe, expect, it } from "vitest";
import { registerModules } from "../../../modules/index.ts";
import { registeredRpc } from "./registry.ts";

// Issue 20 §2: every /rest/v1/rpc command the server registers implements a declaration of the domain, and every
// declaration is implemented — a command added on one side only fails here.
describe("rpc commands and their domain declarations", () => {
  registerModules();
  const served = registeredRpc();

  it("registers each declared command, and nothing undeclared", () => {
    const declared = COMMAND_LIST.map((c) => c.name).sort();
    expect(served.map((c) => c.name).sort()).toEqual(declared);
    expect(new Set(declared).size).toBe(declared.length);
  });

  it("implements the declaration itself: its arguments, result, permission and feature", () => {
    for (const cmd of served) {
      const decl = findCommand(cmd.name);
      expect(decl, cmd.name).toBeDefined();
      expect(cmd.args, `${cmd.name}: args`).toBe(decl?.args);
      expect(cmd.result, `${cmd.name}: result`).toBe(decl?.result);
      expect([cmd.permission, cmd.does, cmd.feature], cmd.name).toEqual([decl?.permission, decl?.does, decl?.feature]);
    }
  });
});
