import { describe, expect, it } from "vitest";
import { isGuestPath, isProtectedPath, isPublicPath, stripWorkspacePrefix, workspaceFromPath } from "./routes.ts";

describe("guest and public paths (spec §2)", () => {
  it("strips the workspace prefix before checking", () => {
    expect(stripWorkspacePrefix("/_workspaces/demo/dashboard")).toBe("/dashboard");
    expect(stripWorkspacePrefix("/_workspaces/demo")).toBe("/");
    expect(stripWorkspacePrefix("/_workspacesx/demo")).toBe("/_workspacesx/demo");
    expect(workspaceFromPath("/_workspaces/demo/auth/login")).toBe("demo");
    expect(workspaceFromPath("/dashboard")).toBeNull();
  });

  it.each([
    ["/", true],
    ["/auth/login", true],
    ["/_workspaces/demo/auth/login", true],
    ["/pricing", true],
    ["/book-a-demo", true],
    ["/privacy", true],
    ["/outlook/callback", true],
    ["/instagram", true],
    ["/dashboard", false],
    ["/_workspaces/demo/dashboard/products", false],
    ["/authx", false],
  ])("%s is a guest path: %s", (path, expected) => {
    expect(isGuestPath(path)).toBe(expected);
  });

  it("accepts configured extras", () => {
    expect(isGuestPath("/status", ["/status"])).toBe(true);
    expect(isGuestPath("/status/page", ["/status"])).toBe(true);
    expect(isGuestPath("/statuses", ["/status"])).toBe(false);
    expect(isPublicPath("/dashboard")).toBe(false);
  });
});

describe("isProtectedPath (issue 21 §1)", () => {
  it("is the dashboard's pages, with or without the workspace prefix, and nothing else", () => {
    for (const p of ["/dashboard", "/dashboard/products", "/_workspaces/demo/dashboard/invoices/5"]) {
      expect(isProtectedPath(p), p).toBe(true);
    }
    for (const p of ["/", "/no-such-page", "/dashboards", "/auth/login", "/_workspaces/demo/x", "/pricing"]) {
      expect(isProtectedPath(p), p).toBe(false);
    }
  });
});
