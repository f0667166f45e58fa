import { describe, expect, it } from "vitest";
import { restFetch } from "../../apps/server/test/rest-helpers.ts";
import { appUrl, hasChromium, screenshot, signIn, useFreshBrowser } from "../browser.ts";

// Issue 11 "Stock": a buyer finds a product below its reorder level on the stock levels page, drafts its purchase
// order from there and opens it; the product's stock card lists its moves; on a sales order short of stock,
// "Purchase what is short" drafts the purchase order for the rest. Screenshots of each.

const BUYER = "procurement@demo.test";
const WAREHOUSE = "warehouse@demo.test";

async function post(email: string, path: string, body: unknown) {
  const res = await restFetch(email, path, {
    method: "POST",
    headers: { prefer: "return=representation" },
    body: JSON.stringify(body),
  });
  expect(res.status, res.text).toBeLessThan(300);
  return res.body as Array<{ id: number }> & { id: number; lines: Array<{ id: number }> };
}

async function command(email: string, fn: string, args: unknown): Promise<{ id: number }> {
  const res = await restFetch(email, `rpc/${fn}`, { method: "POST", body: JSON.stringify(args) });
  expect(res.status, `${fn}: ${res.text}`).toBe(200);
  return res.body as { id: number };
}

// A product of its own with no stock, a reorder level at the first location bought from the first supplier.
async function shortProduct(): Promise<{ id: number; name: string; supplier: string }> {
  const stamp = Date.now().toString(36);
  const name = `Reorder valve ${stamp}`;
  const [product] = await post("admin@demo.test", "product", {
    sku: `E2E-RO-${stamp}`,
    name,
    cost: "7.5",
    price: "15",
  });
  const location = (await restFetch(WAREHOUSE, "location?select=id&order=id&limit=1")).body as Array<{ id: number }>;
  const supplier = (await restFetch(BUYER, "company?select=id,name&is_supplier=is.true&order=id&limit=1"))
    .body as Array<{
    id: number;
    name: string;
  }>;
  await post(WAREHOUSE, "reorder_level", {
    product_id: product.id,
    location_id: location[0].id,
    min_qty: "20",
    reorder_qty: "60",
    supplier_id: supplier[0].id,
  });
  return { id: product.id, name, supplier: supplier[0].name };
}

describe.skipIf(!hasChromium)("stock in Chromium", () => {
  const t = useFreshBrowser();

  it("a buyer drafts a purchase order for what fell below its reorder level, and reads the stock card", async () => {
    const product = await shortProduct();
    const page = t.page;
    await signIn(page, BUYER);
    await page.goto(appUrl("/dashboard/stock-levels"));
    await page.getByRole("heading", { name: "Stock levels" }).waitFor();
    await page.getByTestId("stock-level-row").first().waitFor();
    await screenshot(page, "stock-levels");

    // The switch writes the filter into the address; the page follows the address.
    await page.getByLabel("To reorder").click();
    await page.waitForURL(/reorder=1/);
    await page.getByLabel("Search products").fill(product.name);
    const row = page.getByTestId("stock-level-row").filter({ hasText: product.name });
    await row.waitFor();
    await expect(page.getByTestId("stock-level-row").count()).resolves.toBe(1);
    await screenshot(page, "stock-to-reorder");

    await page.getByRole("button", { name: "Draft purchase orders" }).click();
    const drafted = page.getByTestId("drafted-purchase-orders");
    await drafted.waitFor();
    await expect(drafted.textContent()).resolves.toContain(product.supplier);
    await screenshot(page, "stock-drafted-purchase-orders");
    // The order's id from the link itself: the page's address may carry more by the time it is read.
    const href = (await drafted.getByRole("link").first().getAttribute("href")) ?? "";
    const poId = Number(/(\d+)(?:[?#].*)?$/.exec(href)?.[1]);
    expect(poId).toBeGreaterThan(0);
    await drafted.getByRole("link").first().click();
    await page.waitForURL(/\/dashboard\/purchase-orders\/\d+$/);
    await page.getByTestId("doc-title").filter({ hasText: "Purchase order" }).waitFor();
    await page.getByText(product.name).first().waitFor();
    await screenshot(page, "stock-drafted-purchase-order");

    // The order goes out and the goods come in (through the purchasing commands), so the stock card has a move.
    await command("admin@demo.test", "document_transition", { type: "purchase_order", id: poId, action: "submit" });
    const receipt = await command(BUYER, "document_convert", {
      type: "purchase_order",
      id: poId,
      to: "supplier_delivery_order",
    });
    await command(BUYER, "document_transition", {
      type: "supplier_delivery_order",
      id: receipt.id,
      action: "submit",
    });

    await page.goto(appUrl("/dashboard/stock-levels"));
    await page.getByLabel("Search products").fill(product.name);
    await page
      .getByTestId("stock-level-row")
      .filter({ hasText: "60" })
      .getByRole("link", { name: product.name })
      .click();
    const card = page.getByTestId("stock-card-table");
    await card.waitFor();
    const move = card.getByRole("row").nth(1);
    await expect(move.textContent()).resolves.toMatch(/Supplier delivery order .*60.*60.*7\.50/);
    await move.getByRole("link").click();
    await page.waitForURL(new RegExp(`/dashboard/supplier-delivery-orders/${receipt.id}$`));
    await page.goBack();
    await card.waitFor();
    await screenshot(page, "stock-card");
    expect(t.errors).toEqual([]);
  });

  it("purchases what a sales order is short of from the sales order page", async () => {
    const product = await shortProduct();
    const customer = (await restFetch(BUYER, "company?select=id&is_customer=is.true&order=id&limit=1")).body as Array<{
      id: number;
    }>;
    const save = await restFetch("admin@demo.test", "rpc/document_save", {
      method: "POST",
      body: JSON.stringify({
        type: "sales_order",
        header: { company_id: customer[0].id },
        lines: [{ product_id: product.id, qty: "25" }],
      }),
    });
    expect(save.status, save.text).toBe(200);
    const id = (save.body as { id: number }).id;
    const submit = await restFetch("admin@demo.test", "rpc/document_transition", {
      method: "POST",
      body: JSON.stringify({ type: "sales_order", id, action: "submit" }),
    });
    expect(submit.status, submit.text).toBe(200);

    const page = t.page;
    await signIn(page, BUYER);
    await page.goto(appUrl(`/dashboard/sales-orders/${id}`));
    await page.getByRole("button", { name: "Purchase what is short" }).click();
    const dialog = page.getByRole("dialog", { name: "Purchase orders drafted" });
    await dialog.waitFor();
    await expect(dialog.textContent()).resolves.toContain(`${product.name} 25`);
    await screenshot(page, "stock-purchase-what-is-short");
    expect(t.errors).toEqual([]);
  });
});
