import { describe, expect, it } from "vitest";
import { MESSAGES } from "./errors.ts";
import { decideHost, parseHost, workspaceHost } from "./hosts.ts";
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
