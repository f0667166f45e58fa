import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { appUrl, hasChromium, openBrowser, screenshot, signIn, useFreshBrowser } from "../browser.ts";

// Issue 10 §3: document permissions live in the permission matrix, editable as before. An admin takes quotation
// approval away from sales managers; everything else they may do with quotations stays, and the server refuses the
// below-cost line at once.

type Answer = { status: number; body: unknown };

// A REST or RPC call with the signed-in page's session, as the web app makes it.
function call(page: Page, path: string, init: { method?: string; body?: unknown } = {}): Promise<Answer> {
  return page.evaluate(
    async ({ path, method, body }) => {
      const key = Object.keys(sessionStorage)
        .concat(Object.keys(localStorage))
        .find((k) => k.startsWith("sb-"));
      const raw = (key && (sessionStorage.getItem(key) ?? localStorage.getItem(key))) || "{}";
      const token = JSON.parse(raw).access_token;
      const cfg = await (await fetch("/api/config")).json();
      const res = await fetch(`/rest/v1/${path}`, {
        method: method ?? "GET",
        headers: { apikey: cfg.anonKey, authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : null };
    },
    { path, method: init.method, body: init.body },
  );
}

async function openRole(page: Page, title: string) {
  await page.goto(appUrl("/dashboard/permissions"));
  await page.getByRole("combobox", { name: "Role" }).click();
  await page.getByRole("option", { name: title, exact: true }).click();
  await page.getByRole("table", { name: `Permissions of ${title}` }).waitFor();
}

const QUOTATION_BOXES = ["read", "create", "update", "mark as sent", "cancel"].map((a) => `Quotations: ${a}`);

describe.skipIf(!hasChromium)("the permission matrix and document actions in Chromium", () => {
  const t = useFreshBrowser();

  it("unticking Approve for sales managers' quotations keeps their other quotation actions; the server then refuses a below-cost line", async () => {
    const page = t.page;
    await page.setViewportSize({ width: 1280, height: 900 });
    await signIn(page, "admin@demo.test");
    await openRole(page, "Sales Manager");
    const approve = page.getByRole("checkbox", { name: "Quotations: approve", exact: true });
    expect(await approve.isChecked()).toBe(true);
    for (const name of QUOTATION_BOXES)
      expect(await page.getByRole("checkbox", { name, exact: true }).isChecked(), name).toBe(true);
    expect(await page.getByRole("checkbox", { name: "Invoices: submit", exact: true }).isChecked()).toBe(true);
    await page.getByRole("row", { name: /^Quotations/ }).scrollIntoViewIfNeeded();
    await screenshot(page, "permissions-document-actions");

    await approve.uncheck();
    await page.getByRole("button", { name: "Save permissions" }).click();
    await page.getByText("Permissions of Sales Manager saved").waitFor();

    // After a reload the box is still clear and the rest of the quotation row still ticked.
    await page.reload();
    await openRole(page, "Sales Manager");
    expect(await page.getByRole("checkbox", { name: "Quotations: approve", exact: true }).isChecked()).toBe(false);
    for (const name of QUOTATION_BOXES)
      expect(await page.getByRole("checkbox", { name, exact: true }).isChecked(), name).toBe(true);
    expect(await page.getByRole("checkbox", { name: "Invoices: approve", exact: true }).isChecked()).toBe(true);
    // Saved as the role's own patterns plus one deny: the wildcard stays.
    const saved = await call(page, "workspace_role?slug=eq.sales_manager&select=permissions");
    const patterns = (saved.body as Array<{ permissions: string[] }>)[0].permissions;
    expect(patterns).toContain("quotation.*");
    expect(patterns).toContain("!quotation.approve");

    // The sales manager may no longer save a line below cost, but still quotes at cost and sends it.
    const manager = await openBrowser();
    try {
      const p2 = await manager.context.newPage();
      await signIn(p2, "manager@demo.test");
      const products = await call(p2, "product?select=id,cost&cost=gt.0&order=id&limit=1");
      const [product] = products.body as Array<{ id: number; cost: string }>;
      const companies = await call(p2, "company?select=id&is_customer=is.true&order=id&limit=1");
      const [company] = companies.body as Array<{ id: number }>;
      const cheap = { product_id: product.id, qty: "1", unit_price: (Number(product.cost) / 2).toFixed(2) };
      const refused = await call(p2, "rpc/document_save", {
        method: "POST",
        body: { type: "quotation", header: { company_id: company.id }, lines: [cheap] },
      });
      expect(refused.status).toBe(422);
      expect((refused.body as { message: string }).message).toMatch(
        /^Line 1 is priced below its cost of .+; someone who may approve quotations must save it$/,
      );
      const atCost = await call(p2, "rpc/document_save", {
        method: "POST",
        body: {
          type: "quotation",
          header: { company_id: company.id },
          lines: [{ ...cheap, unit_price: product.cost }],
        },
      });
      expect(atCost.status).toBe(200);
      const sent = await call(p2, "rpc/document_transition", {
        method: "POST",
        body: { type: "quotation", id: (atCost.body as { id: number }).id, action: "submit" },
      });
      expect(sent.status).toBe(200);
      expect((sent.body as { status: string }).status).toBe("sent");
    } finally {
      await manager.close();
    }

    // Ticking it again lifts the deny: the role is back to its patterns as they were.
    await page.getByRole("checkbox", { name: "Quotations: approve", exact: true }).check();
    await page.getByRole("button", { name: "Save permissions" }).click();
    await page.getByText("Permissions of Sales Manager saved").waitFor();
    const back = await call(page, "workspace_role?slug=eq.sales_manager&select=permissions");
    const after = (back.body as Array<{ permissions: string[] }>)[0].permissions;
    expect(after).toEqual(patterns.filter((p) => p !== "!quotation.approve"));
    expect(await page.getByTestId("unshown-patterns").count()).toBe(0);

    // A role holding patterns no box shows (one kept from before a resource existed) is told so.
    const buyer = await call(page, "workspace_role?slug=eq.procurement_officer&select=id,permissions");
    const [role] = buyer.body as Array<{ id: number; permissions: string[] }>;
    const patched = await call(page, `workspace_role?id=eq.${role.id}`, {
      method: "PATCH",
      body: { permissions: [...role.permissions, "fleet_vehicle.*"] },
    });
    expect(patched.status).toBeLessThan(300);
    await openRole(page, "Procurement Officer");
    await page.getByTestId("unshown-patterns").filter({ hasText: "fleet_vehicle.*" }).waitFor();
    await screenshot(page, "permissions-unshown-patterns");
    expect(t.errors).toEqual([]);
  }, 120_000); // three sign-ins and two saves: room for a busy machine

  it("the other actions stay readable on a phone: the card scrolls sideways, never the page", async () => {
    const page = t.page;
    await page.setViewportSize({ width: 390, height: 844 });
    await signIn(page, "admin@demo.test");
    await openRole(page, "Sales Manager");
    const matrix = page.getByRole("table", { name: "Permissions of Sales Manager" });
    const send = matrix.getByRole("checkbox", { name: "Quotations: mark as sent" });
    await send.scrollIntoViewIfNeeded();
    const box = await send.boundingBox();
    expect(box && box.x >= 0 && box.x + box.width <= 390).toBe(true);
    const area = await matrix.getByRole("rowheader", { name: "Quotations", exact: true }).boundingBox();
    expect(area?.x).toBeGreaterThanOrEqual(0);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(390);
    await screenshot(page, "permissions-document-actions-phone");
    expect(t.errors).toEqual([]);
  });
});
