import { describe, expect, it } from "vitest";
import { MESSAGES } from "./errors.ts";
import { decideHost, parseHost, samePath, workspaceHost } from "./hosts.ts";
import { ROLE } from "./roles.ts";
import { TIER } from "./tiers.ts";

const B = "localhost";
const demoSales = { roleId: ROLE.Salesperson, workspaceSlug: "demo", tierId: TIER.Premium, isOwner: false };

describe("parseHost (DESIGN §3.3)", () => {
  it.each([
    ["localhost:3000", { kind: "bare" }],
    ["example.com", { kind: "bare" }],
    ["app.localhost", { kind: "platform", sub: "app" }],
    ["admin.localhost:3000", { kind: "platform", sub: "admin" }],
    ["demo.localhost", { kind: "workspace", slug: "demo", app: "main" }],
    ["demo.pos.localhost", { kind: "workspace", slug: "demo", app: "pos" }],
    ["lite.driver.localhost:8080", { kind: "workspace", slug: "lite", app: "driver" }],
    ["pro.warehouse.localhost", { kind: "workspace", slug: "pro", app: "warehouse" }],
  ])("%s", (host, expected) => {
    expect(parseHost(host, B)).toEqual(expected);
  });

  it("builds workspace hosts", () => {
    expect(workspaceHost("demo", "example.com")).toBe("demo.example.com");
    expect(workspaceHost("demo", "example.com", "pos", "3000")).toBe("demo.pos.example.com:3000");
  });
});

describe("decideHost rules in order", () => {
  it("sends a signed-in person from another workspace's /_workspaces address to the same page of theirs", () => {
    const owner = { ...demoSales, roleId: ROLE.Owner, isOwner: true };
    for (const [host, user] of [
      ["localhost:3000", demoSales],
      ["localhost:3000", owner],
      ["demo.localhost", owner],
    ] as const) {
      expect(decideHost({ host, path: "/_workspaces/lite/dashboard/products", baseDomain: B, user })).toEqual({
        action: "redirect",
        to: "/_workspaces/demo/dashboard/products",
        message: "Your account belongs to the demo workspace, not lite: here is the same page in yours.",
      });
    }
    expect(
      decideHost({ host: "localhost", path: "/_workspaces/demo/dashboard/products", baseDomain: B, user: demoSales }),
    ).toEqual({ action: "allow" });
    // Signed out, the address stands (the sign-in that follows applies the rule).
    expect(decideHost({ host: "localhost", path: "/_workspaces/lite/dashboard", baseDomain: B, user: null })).toEqual({
      action: "allow",
    });
  });

  it("sends the root of a sub-domain host to login when signed out", () => {
    expect(decideHost({ host: "demo.localhost", path: "/", baseDomain: B, user: null })).toEqual({
      action: "redirect",
      to: "/auth/login",
    });
    expect(decideHost({ host: "localhost", path: "/", baseDomain: B, user: null })).toEqual({ action: "allow" });
    expect(decideHost({ host: "www.localhost", path: "/", baseDomain: B, user: null })).toEqual({ action: "allow" });
  });

  it("signs a non-owner out of the platform host and sends them to their workspace", () => {
    expect(decideHost({ host: "app.localhost", path: "/", baseDomain: B, user: demoSales })).toEqual({
      action: "signOut",
      toHost: "demo.localhost",
      path: "/auth/login",
      message: "app.localhost is the platform's address. Your workspace has its own: sign in here to continue.",
    });
    expect(
      decideHost({ host: "app.localhost", path: "/", baseDomain: B, user: { ...demoSales, isOwner: true } }),
    ).toEqual({ action: "allow" });
  });

  it("sends a user on another workspace's host to their own; owners are exempt", () => {
    expect(decideHost({ host: "pro.localhost", path: "/dashboard", baseDomain: B, user: demoSales })).toEqual({
      action: "signOut",
      toHost: "demo.localhost",
      path: "/dashboard",
      message: "Your account belongs to the demo workspace, not pro.localhost: sign in here to continue.",
    });
    expect(
      decideHost({ host: "pro.localhost", path: "/dashboard", baseDomain: B, user: { ...demoSales, isOwner: true } }),
    ).toEqual({ action: "allow" });
  });

  it("lets only Premium POS staff or admins use the pos host", () => {
    const pos = { roleId: ROLE.PosStaff, workspaceSlug: "demo", tierId: TIER.Premium, isOwner: false };
    expect(decideHost({ host: "demo.pos.localhost", path: "/", baseDomain: B, user: pos })).toEqual({
      action: "allow",
    });
    const proPos = { ...pos, workspaceSlug: "pro", tierId: TIER.Pro };
    expect(decideHost({ host: "pro.pos.localhost", path: "/", baseDomain: B, user: proPos })).toMatchObject({
      action: "signOut",
      message: MESSAGES.premiumOnly,
    });
    expect(decideHost({ host: "demo.pos.localhost", path: "/", baseDomain: B, user: demoSales })).toMatchObject({
      message: MESSAGES.premiumOnly,
    });
  });

  it("keeps Lite workspaces off the driver and warehouse hosts", () => {
    const driver = { roleId: ROLE.Driver, workspaceSlug: "lite", tierId: TIER.Lite, isOwner: false };
    expect(decideHost({ host: "lite.driver.localhost", path: "/", baseDomain: B, user: driver })).toMatchObject({
      message: MESSAGES.liteNoAccess,
    });
    expect(decideHost({ host: "lite.warehouse.localhost", path: "/", baseDomain: B, user: driver })).toMatchObject({
      message: MESSAGES.liteNoAccess,
    });
    const proDriver = { ...driver, workspaceSlug: "pro", tierId: TIER.Pro };
    expect(decideHost({ host: "pro.driver.localhost", path: "/", baseDomain: B, user: proDriver })).toEqual({
      action: "allow",
    });
  });
});

// Issue 9 §3: every one of these must come out as a path of this site, never "//host" or "/\\host".
const NASTY_TARGETS = [
  "https://evil.example/x",
  "//evil.example/x",
  "/\\evil.example",
  "\\\\evil.example",
  "/.//evil.example",
  "/..//evil.example",
  "/a/..//evil.example",
  "/%2e//evil.example",
  "/./\\evil.example",
  "/\t/evil.example",
  "/\r\n/evil.example",
  "//%2fevil.example",
  "/%5c/evil.example",
  "/%5C%5Cevil.example",
  "javascript:alert(1)",
  "/x\r\nSet-Cookie: a=b",
];

describe("samePath (no open redirect)", () => {
  it("keeps ordinary paths with their query and fragment", () => {
    expect(samePath("/dashboard/invoices?status=draft#top")).toBe("/dashboard/invoices?status=draft#top");
    expect(samePath("/a/b/../c")).toBe("/a/c");
  });

  it.each(NASTY_TARGETS)("%j stays on this site", (input) => {
    const out = samePath(input);
    expect(out === "/" || /^\/[^/\\]/.test(out)).toBe(true);
    expect(samePath(out)).toBe(out); // stable: what comes out is already a plain path
    expect(out).not.toMatch(/[\r\n\t]/);
  });

  it("falls back for what is not a path at all", () => {
    for (const bad of [undefined, 42, "", "dashboard", "//evil.example"]) expect(samePath(bad, "/home")).toBe("/home");
  });
});
