import { DEFAULT_ROLE_PERMISSIONS, ROLE } from "@workmetrics/domain";
import { describe, expect, it } from "vitest";
import type { Action } from "./FileTable.tsx";
import { fileRights, offers } from "./file-rights.ts";

const member = (roleId: number) => ({
  kind: "member" as const,
  permissions: DEFAULT_ROLE_PERMISSIONS[roleId],
  features: [],
});
const ALL: Action[] = ["preview", "download", "share", "rename", "move", "delete"];

// Issue 9 §3: My files offers what the server would allow, and nothing else.
describe("what My files offers", () => {
  it.each([
    ["owner", ROLE.Owner, { read: true, upload: true, change: true, remove: true }, ALL],
    ["salesperson", ROLE.Salesperson, { read: true, upload: true, change: false, remove: false }, ALL.slice(0, 3)],
    ["driver", ROLE.Driver, { read: false, upload: false, change: false, remove: false }, []],
  ])("%s", (_name, roleId, rights, actions) => {
    const got = fileRights(member(roleId));
    expect(got).toEqual(rights);
    expect(ALL.filter((a) => offers(got, a))).toEqual(actions);
  });

  it("offers nothing to someone not signed in", () => {
    expect(fileRights({ kind: "anon" })).toEqual({ read: false, upload: false, change: false, remove: false });
  });
});
