import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { appUrl, hasChromium, screenshot, signIn, useFreshBrowser } from "../browser.ts";

// Issue 9: every demo role is a user. Each walks the sidebar: what it offers is what the role may use (tier-locked
// items carry a lock), and a page it does not offer, opened by its address, says so plainly with nothing to act on.

type Walk = {
  email: string;
  offered: string[]; // sidebar entries that must be there
  hidden: string[]; // sidebar entries that must not
  locked?: string[]; // entries shown with a lock (a higher plan has them)
  forbidden: string; // a dashboard path the role may not open
  reason: RegExp; // what that page says
};

const WALKS: Walk[] = [
  {
    email: "owner@demo.test",
    offered: ["Companies", "Products", "Projects", "Users", "Roles", "Permissions", "Workspace settings", "My files"],
    hidden: ["Tiers", "Coupons", "Credits", "Workspaces"],
    forbidden: "coupons",
    reason: /Only platform operators may do this/,
  },
  {
    email: "admin@demo.test",
    offered: ["Companies", "Users", "Permissions", "Workspace settings"],
    hidden: ["Tiers", "Banners", "Demo requests"],
    forbidden: "tiers",
    reason: /Only platform operators may do this/,
  },
  {
    email: "manager@demo.test",
    offered: ["Companies", "Contacts", "Memos", "Products", "Users", "Roles"],
    hidden: ["Permissions", "Workspace settings", "Coupons"],
    forbidden: "permissions",
    reason: /You do not have permission to change role permissions/,
  },
  {
    email: "sales@demo.test",
    offered: ["Companies", "Contacts", "Products", "Feedbacks"],
    hidden: ["Permissions", "Workspace settings", "Tiers", "Coupons"],
    forbidden: "settings/workspace",
    reason: /You do not have permission to change the workspace settings/,
  },
  {
    email: "driver@demo.test",
    offered: ["Companies", "Contacts", "Products", "Feedbacks", "My account"],
    hidden: ["Users", "Roles", "Permissions", "Categories", "Memos", "Workspace settings", "Coupons"],
    forbidden: "users",
    reason: /You do not have permission to read users/,
  },
  {
    email: "warehouse@demo.test",
    // Companies too (issue 11): the warehouse lends goods to customers on loan forms.
    offered: ["Products", "Categories", "Brands", "Locations", "Companies", "Stock levels"],
    hidden: ["Users", "Permissions", "Workspace settings", "Accounts payable"],
    forbidden: "users",
    reason: /You do not have permission to read users/,
  },
  {
    email: "pos@demo.test",
    offered: ["Products", "Services", "Companies"],
    hidden: ["Users", "Categories", "Permissions", "Contacts"],
    forbidden: "categorys",
    reason: /You do not have permission to read categories/,
  },
  {
    email: "finance@demo.test",
    offered: ["Companies", "Products", "Users", "Roles"],
    hidden: ["Permissions", "Workspace settings", "Credits"],
    forbidden: "permissions",
    reason: /You do not have permission to change role permissions/,
  },
  {
    email: "procurement@demo.test",
    offered: ["Companies", "Contacts", "Products"],
    hidden: ["Permissions", "Workspace settings", "Tiers"],
    forbidden: "settings/workspace",
    reason: /You do not have permission to change the workspace settings/,
  },
  {
    email: "accounts@demo.test",
    offered: ["Companies", "Products", "Users"],
    hidden: ["Permissions", "Workspace settings", "Coupons"],
    forbidden: "permissions",
    reason: /You do not have permission to change role permissions/,
  },
  {
    email: "supplier@demo.test",
    offered: ["Products", "Feedbacks", "My account"],
    hidden: ["Companies", "Contacts", "Users", "Permissions", "Projects"],
    forbidden: "companies",
    reason: /You do not have permission to read companies/,
  },
  {
    email: "admin@lite.test",
    offered: ["Companies", "Products", "Users", "Roles"],
    hidden: ["Coupons", "Tiers"],
    locked: ["Projects", "Permissions"],
    forbidden: "credits",
    reason: /Only platform operators may do this/,
  },
  {
    email: "platform@workmetrics.test",
    offered: ["Workspaces", "Tiers", "Coupons", "Banners", "Credits", "Case studies", "Demo requests", "My account"],
    hidden: ["Companies", "Products", "Users", "Permissions", "Workspace settings", "My files"],
    forbidden: "products",
    reason: /platform operators do not work inside one\. Platform operators look after workspaces/,
  },
];

const nav = (page: Page) => page.locator("nav[aria-label=Dashboard]:visible");
const entry = (page: Page, title: string) => nav(page).getByRole("link", { name: title, exact: true });

describe.skipIf(!hasChromium)("what each demo role is offered", () => {
  const t = useFreshBrowser();

  it.each(WALKS)("$email", async (walk) => {
    await signIn(t.page, walk.email);
    await nav(t.page).getByRole("link", { name: "Dashboard", exact: true }).waitFor();
    for (const title of walk.offered) expect(await entry(t.page, title).count(), `${title} offered`).toBe(1);
    for (const title of walk.hidden) expect(await entry(t.page, title).count(), `${title} hidden`).toBe(0);
    for (const title of walk.locked ?? []) {
      expect(await entry(t.page, `${title} — needs the pro plan`).count(), `${title} locked`).toBe(1);
    }
    await screenshot(t.page, `access-${walk.email.replace(/[@.]/g, "-")}-home`);

    await t.page.goto(appUrl(`/dashboard/${walk.forbidden}`));
    await t.page.getByRole("heading", { name: "You don't have access to this page" }).waitFor();
    await t.page.getByText(walk.reason).waitFor();
    // Nothing to act on: no create, import or export, and the page is not an empty list.
    for (const action of [/^New /, /Import CSV/, /Export CSV/]) {
      expect(await t.page.getByRole("button", { name: action }).count()).toBe(0);
    }
    expect(await t.page.getByText(/ yet$/).count()).toBe(0);
    expect(t.errors).toEqual([]);
  });

  it("a driver's product list shows every product with its category's name and no create or delete", async () => {
    await signIn(t.page, "driver@demo.test");
    await t.page.goto(appUrl("/dashboard/products"));
    await t.page.getByRole("grid", { name: "Products" }).waitFor();
    await expect.poll(() => t.page.getByTestId("list-total").textContent()).toMatch(/^\d[\d,]* products$/);
    const firstCategory = t.page.getByRole("row").nth(1).getByRole("gridcell").nth(2);
    expect((await firstCategory.textContent())?.trim()).not.toBe("");
    // The category is a label, not a link to a page the driver may not open.
    expect(await firstCategory.getByRole("link").count()).toBe(0);
    expect(await t.page.getByRole("button", { name: /New product|Import CSV/ }).count()).toBe(0);
    expect(await t.page.getByRole("checkbox").count()).toBe(0);
    // A form the driver may not use, opened by its address, is the same plain refusal as a page.
    await t.page.goto(appUrl("/dashboard/products/new"));
    await t.page.getByRole("heading", { name: "You don't have access to this page" }).waitFor();
    await t.page.getByText(/You do not have permission to create products/).waitFor();
    expect(await t.page.getByRole("button", { name: /Create|Save/ }).count()).toBe(0);
    expect(t.errors).toEqual([]);
  });

  it("a buyer reads supplier invoices but is offered none to make; the new-invoice address says why", async () => {
    await signIn(t.page, "procurement@demo.test");
    await t.page.goto(appUrl("/dashboard/supplier-invoices"));
    await t.page.getByRole("grid", { name: "Supplier invoices" }).waitFor();
    expect(await t.page.getByRole("button", { name: /New supplier invoice/ }).count()).toBe(0);
    // A document form the buyer may not use, opened by its address, is the same plain refusal as a page.
    await t.page.goto(appUrl("/dashboard/supplier-invoices/new"));
    await t.page.getByRole("heading", { name: "You don't have access to this page" }).waitFor();
    await t.page.getByText(/You do not have permission to create supplier invoices/).waitFor();
    expect(await t.page.getByRole("button", { name: /Save draft|Submit/ }).count()).toBe(0);
    await screenshot(t.page, "access-buyer-new-supplier-invoice");
    expect(t.errors).toEqual([]);
  });

  it("a list address shared with a filter and sort on cost opens the list for a supplier, without them", async () => {
    await signIn(t.page, "supplier@demo.test");
    const f = JSON.stringify({ items: [{ id: 1, field: "cost", operator: ">", value: "100" }] });
    await t.page.goto(appUrl(`/dashboard/products?f=${encodeURIComponent(f)}&sort=cost.desc`));
    await t.page.getByRole("grid", { name: "Products" }).waitFor();
    await expect.poll(() => t.page.getByTestId("list-total").textContent()).toMatch(/^\d[\d,]* products$/);
    expect(await t.page.getByText(/permission to read the cost/).count()).toBe(0);
    await screenshot(t.page, "access-supplier-products-shared-cost-filter");
    expect(t.errors).toEqual([]);
  });

  it("the operator's home shows the platform's figures and a credit is granted to a named workspace", async () => {
    await signIn(t.page, "platform@workmetrics.test");
    await t.page.getByTestId("tier-premium").filter({ hasText: /^\d+$/ }).waitFor();
    await t.page.getByRole("heading", { name: /Demo requests to answer/ }).waitFor();
    await t.page.getByRole("link", { name: /Tampines Tiles Pte Ltd/ }).waitFor();
    expect(await t.page.getByTestId("dashboard-banner").count()).toBe(0);
    await screenshot(t.page, "access-platform-home");
    await t.page.goto(appUrl("/dashboard/credits/new"));
    await t.page.getByLabel("Amount").fill("25.00");
    await t.page.getByLabel("Reason").fill("Goodwill for the outage");
    await t.page.getByRole("button", { name: /Create|Save/ }).click();
    await t.page.getByText("Workspace is required").waitFor();
    await t.page.getByLabel("Workspace").fill("Pro");
    await t.page.getByRole("option").first().click();
    await t.page.getByRole("button", { name: /Create|Save/ }).click();
    await t.page.getByText("Credit created").waitFor();
    await t.page.goto(appUrl("/dashboard/credits"));
    await t.page.getByRole("gridcell", { name: "Goodwill for the outage" }).waitFor();
    // Which workspace got it is part of the record (the operator's list spans every workspace).
    await t.page.getByRole("columnheader", { name: "Workspace" }).waitFor();
    expect(t.errors).toEqual([]);
  });

  it("the driver's host opens the driver app, not the back office (issue 22)", async () => {
    await signIn(t.page, "driver@demo.test", { sub: "demo.driver" });
    await t.page.getByRole("heading", { name: "Deliveries" }).waitFor();
    await t.page.getByRole("navigation", { name: "Deliveries sections" }).waitFor();
    expect(await t.page.locator("nav[aria-label=Dashboard]").count()).toBe(0);
    await screenshot(t.page, "access-driver-host");
    expect(t.errors).toEqual([]);
  });
});

describe.skipIf(!hasChromium)("signed out", () => {
  const t = useFreshBrowser();

  it("a dashboard address asks to sign in and returns there after signing in", async () => {
    // On a workspace host the root is the login page itself; the bare host shows the landing page with the hint.
    await t.page.goto(appUrl("/dashboard/products"));
    await t.page.waitForURL(/\/\?redirectedFrom=/);
    const region = t.page.getByRole("region", { name: "Sign in to continue" });
    await region.waitFor();
    await screenshot(t.page, "access-sign-in-to-continue");
    await region.getByRole("link", { name: "Sign in" }).click();
    await t.page.getByLabel("E-mail or phone").fill("sales@demo.test");
    await t.page.getByLabel("Password", { exact: true }).fill("demo-pass-2026");
    await t.page.getByRole("button", { name: "Sign in" }).click();
    await t.page.waitForURL(/\/dashboard\/products$/);
    await t.page.getByRole("grid", { name: "Products" }).waitFor();
    expect(t.errors).toEqual([]);
  });
});
