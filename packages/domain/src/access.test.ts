import { describe, expect, it } from "vitest";
import { type AccessDef, decideResource, type Member, offersList, type ResourceAction } from "./access.ts";
import { DEFAULT_ROLE_PERMISSIONS } from "./permissions.ts";
import { ROLE } from "./roles.ts";
import { TIERS } from "./tiers.ts";

const features = (slug: string) => TIERS.find((t) => t.slug === slug)?.features ?? [];
const member = (roleId: number, tier = "premium"): Member => ({
  kind: "member",
  permissions: DEFAULT_ROLE_PERMISSIONS[roleId] ?? [],
  features: features(tier),
});

const product: AccessDef = { name: "product", plural: "Products", scope: "tenant", feature: "erp" };
const project: AccessDef = { name: "project", plural: "Projects", scope: "tenant", feature: "projects" };
const user: AccessDef = {
  name: "user",
  plural: "Users",
  scope: "tenant",
  actions: ["read", "update"],
  ownerColumn: "id",
};
const feedback: AccessDef = { name: "feedback", plural: "Feedbacks", scope: "tenant", ownerColumn: "user_id" };
const roles: AccessDef = {
  name: "workspace_role",
  plural: "Roles",
  scope: "tenant",
  feature: "roles",
  featureActions: ["create", "update", "delete"],
};
const credit: AccessDef = {
  name: "credit_entry",
  plural: "Credits",
  scope: "tenant",
  actions: ["read", "create"],
  writers: "platform",
};
const coupon: AccessDef = { name: "coupon", plural: "Coupons", scope: "platform" };
const workspace: AccessDef = {
  name: "workspace",
  plural: "Workspaces",
  scope: "platform",
  workspaceColumn: "id",
  actions: ["read", "update"],
};
const banner: AccessDef = { name: "banner", plural: "Banners", scope: "public" };

const anon: Member = { kind: "anon" };
const operator: Member = { kind: "operator" };

type Row = [string, Member, AccessDef, ResourceAction, string];
// who × what → "all", "own" or the refusal's reason (and message where it matters)
const table: Row[] = [
  ["owner creates products", member(ROLE.Owner), product, "create", "all"],
  ["salesperson reads products", member(ROLE.Salesperson), product, "read", "all"],
  ["salesperson may not delete products", member(ROLE.Salesperson), product, "delete", "permission"],
  ["driver reads products", member(ROLE.Driver), product, "read", "all"],
  ["driver may not create products", member(ROLE.Driver), product, "create", "permission"],
  ["warehouse creates products", member(ROLE.WarehouseStaff), product, "create", "all"],
  ["lite owner reads products", member(ROLE.Owner, "lite"), product, "read", "all"],
  ["lite owner: projects need Pro", member(ROLE.Owner, "lite"), project, "read", "tier"],
  ["pro owner reads projects", member(ROLE.Owner, "pro"), project, "read", "all"],
  ["lite admin reads roles (every tier)", member(ROLE.Admin, "lite"), roles, "read", "all"],
  ["lite admin: custom roles need Pro", member(ROLE.Admin, "lite"), roles, "create", "tier"],
  ["users cannot be created through the API", member(ROLE.Owner), user, "create", "not_offered"],
  ["salesperson reads all users (*.read)", member(ROLE.Salesperson), user, "read", "all"],
  ["driver reads only own user row", member(ROLE.Driver), user, "read", "own"],
  ["driver may not change users", member(ROLE.Driver), user, "update", "permission"],
  ["driver reads own feedback", member(ROLE.Driver), feedback, "read", "own"],
  ["driver sends feedback", member(ROLE.Driver), feedback, "create", "all"],
  ["owner reads credits", member(ROLE.Owner), credit, "read", "all"],
  ["owner may not grant credits", member(ROLE.Owner), credit, "create", "platform_only"],
  ["operator grants credits", operator, credit, "create", "all"],
  ["operator reads credits", operator, credit, "read", "all"],
  ["owner may not read coupons", member(ROLE.Owner), coupon, "read", "platform_only"],
  ["operator reads coupons", operator, coupon, "read", "all"],
  ["anon may not read coupons", anon, coupon, "read", "sign_in"],
  ["driver reads own workspace", member(ROLE.Driver), workspace, "read", "all"],
  ["driver may not rename the workspace", member(ROLE.Driver), workspace, "update", "permission"],
  ["owner renames the workspace", member(ROLE.Owner), workspace, "update", "all"],
  ["workspaces are not created through the API", operator, workspace, "create", "not_offered"],
  ["anon reads banners", anon, banner, "read", "all"],
  ["owner may not write banners", member(ROLE.Owner), banner, "create", "platform_only"],
  ["operator writes banners", operator, banner, "update", "all"],
  ["operator does not work in products", operator, product, "read", "workspace_only"],
  ["anon may not read products", anon, product, "read", "sign_in"],
  [
    "supplier may not read companies",
    member(43),
    { ...product, name: "company", plural: "Companies" },
    "read",
    "permission",
  ],
];

describe("decideResource: member × action → allowed or the reason", () => {
  it.each(table)("%s", (_name, who, def, action, expected) => {
    const d = decideResource(who, def, action);
    expect(d.allowed ? d.scope : d.reason).toBe(expected);
  });

  it("names the permission and the action in words", () => {
    const d = decideResource(member(ROLE.Salesperson), product, "delete");
    expect(d).toMatchObject({ message: "You do not have permission to delete products", permission: "product.delete" });
  });

  it("names the cheapest tier that has the feature", () => {
    const d = decideResource(member(ROLE.Owner, "lite"), project, "read");
    expect(d).toMatchObject({
      tier: "pro",
      message: "Projects need the Pro tier. Upgrade to Pro to use projects.",
    });
  });

  it("reads a document's lines by the document's permission (permissionOf)", () => {
    const lines: AccessDef = {
      name: "quotation_line",
      plural: "Quotation lines",
      scope: "tenant",
      feature: "erp",
      actions: ["read"],
      permissionOf: "quotation",
    };
    expect(decideResource(member(ROLE.SalesManager), lines, "read").allowed).toBe(true);
    // Salespeople read their own quotations only (issue 10 §3): the lines of those, through their document's owner.
    expect(decideResource(member(ROLE.Salesperson), lines, "read").allowed).toBe(false);
    const owned: AccessDef = {
      ...lines,
      ownerColumn: "created_by",
      ownerHolds: true,
      ownerParent: { table: "quotation", column: "quotation_id" },
    };
    expect(decideResource(member(ROLE.Salesperson), owned, "read")).toEqual({ allowed: true, scope: "own" });
    // …and a driver, who holds no quotation permission, none.
    expect(decideResource(member(ROLE.Driver), owned, "read").allowed).toBe(false);
    // A driver's list of the delivery orders assigned to them is offered, though they create none.
    const deliveries: AccessDef = {
      name: "delivery_order",
      plural: "Delivery orders",
      scope: "tenant",
      feature: "erp",
      actions: ["read"],
      ownerColumn: "driver_id",
      ownerHolds: true,
    };
    expect(offersList(member(ROLE.Driver), deliveries)).toBe(true);
    expect(offersList(member(ROLE.PosStaff), deliveries)).toBe(false);
    expect(decideResource(member(ROLE.Driver), lines, "read")).toMatchObject({
      message: "You do not have permission to read quotation lines",
      permission: "quotation.read",
    });
  });

  // The role before the plan: an upgrade would not let a driver create projects, so they are not offered one; an
  // owner on Lite, whom the upgrade would let, is.
  it("checks the permission before the tier", () => {
    const d = decideResource(member(ROLE.Driver, "lite"), project, "create");
    expect(d.allowed ? "" : d.reason).toBe("permission");
    const owner = decideResource(member(ROLE.Owner, "lite"), project, "create");
    expect(owner.allowed ? "" : owner.reason).toBe("tier");
  });
});

describe("offersList", () => {
  it("offers a list read whole, or own rows one may add to", () => {
    expect(offersList(member(ROLE.Driver), product)).toBe(true);
    expect(offersList(member(ROLE.Driver), feedback)).toBe(true);
    expect(offersList(member(ROLE.Driver), user)).toBe(false);
    expect(offersList(member(ROLE.Owner), user)).toBe(true);
    expect(offersList(member(ROLE.Owner), coupon)).toBe(false);
    expect(offersList(operator, coupon)).toBe(true);
    expect(offersList(operator, product)).toBe(false);
  });
});
