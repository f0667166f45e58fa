import type { ResourceDef } from "@workmetrics/domain/resources/types";
import { describe, expect, it } from "vitest";
import { canAccess } from "./access.ts";

const def = (extra: Partial<ResourceDef>) => ({ name: "product", scope: "tenant", ...extra }) as ResourceDef;
const member = { features: ["erp"], operator: false, permissions: ["*.read", "product.create"] };

describe("canAccess", () => {
  it("follows the role's permissions on tenant resources", () => {
    expect(canAccess(def({}), "read", member)).toBe(true);
    expect(canAccess(def({}), "create", member)).toBe(true);
    expect(canAccess(def({}), "delete", member)).toBe(false);
    expect(canAccess(def({}), "delete", { ...member, permissions: null })).toBe(true);
  });
  it("hides what the resource does not offer or the tier lacks", () => {
    expect(canAccess(def({ actions: ["read", "update"] }), "create", member)).toBe(false);
    expect(canAccess(def({ feature: "projects" }), "read", member)).toBe(false);
    expect(canAccess(def({ feature: "roles", featureActions: ["create"] }), "read", member)).toBe(true);
  });
  it("leaves platform-written resources to operators", () => {
    const credits = def({ writers: "platform" });
    expect(canAccess(credits, "create", { ...member, permissions: ["*"] })).toBe(false);
    expect(canAccess(credits, "create", { ...member, operator: true })).toBe(true);
    expect(canAccess(credits, "read", member)).toBe(true);
  });
});
