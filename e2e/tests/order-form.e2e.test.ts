import { describe, expect, it } from "vitest";
import { restFetch } from "../../apps/server/test/rest-helpers.ts";
import { appUrl, hasChromium, screenshot, signIn, useFreshBrowser } from "../browser.ts";

// Issue 10 §2 and §5: the public order form takes an order that staff confirm. A guest opens the workspace's link
// (no sign-in), sends it with a bad input first and is told on the fields, then sends it; the sales manager finds
// it in Orders, Received, and confirms it into a sales order. Also at 390 px.

const MANAGER = "manager@demo.test";

type Product = { id: number; name: string; price: string; cost: string };

async function setUpForm(title: string): Promise<{ token: string; products: Product[] }> {
  const list = await restFetch(
    MANAGER,
    "product?select=id,name,price,cost&active=is.true&price=gt.0&order=id&limit=20",
  );
  const products = (list.body as Product[]).filter((p) => Number(p.price) >= Number(p.cost)).slice(0, 2);
  const company = (
    (await restFetch(MANAGER, "company?select=id&is_customer=is.true&order=id&limit=1")).body as Array<{ id: number }>
  )[0].id;
  const saved = await restFetch(MANAGER, "rpc/order_form_save", {
    method: "POST",
    body: JSON.stringify({
      form: { title, intro: "Order by noon for delivery the next working day.", company_id: company, active: true },
      items: products.map((p, i) => ({ product_id: p.id, price: p.price, min_qty: i === 1 ? "5" : "1" })),
    }),
  });
  expect(saved.status, saved.text).toBe(200);
  return { token: (saved.body as { token: string }).token, products };
}

describe.skipIf(!hasChromium)("order form in Chromium", () => {
  const fresh = useFreshBrowser();

  it("a guest orders through the public link; the manager confirms it into a sales order", async () => {
    const { page, errors } = fresh;
    await page.setViewportSize({ width: 1280, height: 900 });
    const { token, products } = await setUpForm("Weekly restock");

    // The guest, not signed in, on the workspace's own host.
    await page.goto(appUrl(`/auth/order-forms/${token}`, "demo"));
    await page.getByRole("heading", { name: "Weekly restock" }).waitFor();
    // First without a name: the form says so on the field and sends nothing.
    await page.getByLabel(`Quantity of ${products[0].name}`).fill("3");
    await page.getByLabel("E-mail").fill("mei.ling@tan-trading.example");
    await page.getByLabel("Delivery address").fill("10 Anson Road, #12-01, Singapore 079903");
    await page.getByRole("button", { name: "Send order" }).click();
    await page.getByText("Your name is required").waitFor();
    // Then below a product's minimum.
    await page.getByLabel("Your name").fill("Mei Ling Tan");
    await page.getByLabel("Company").fill("Tan Trading");
    await page.getByLabel("Phone").fill("+65 6123 4567");
    await page.getByLabel(`Quantity of ${products[1].name}`).fill("2");
    await page.getByRole("button", { name: "Send order" }).click();
    await page.getByText(`The minimum for ${products[1].name} is 5`).waitFor();
    await screenshot(page, "order-form-1-errors");
    await page.getByLabel(`Quantity of ${products[1].name}`).fill("5");
    const estimate = (Number(products[0].price) * 3 + Number(products[1].price) * 5).toFixed(2);
    await expect
      .poll(async () => (await page.getByTestId("order-estimate").textContent())?.replace(/[^\d.]/g, ""))
      .toBe(estimate);
    await page.getByRole("button", { name: "Send order" }).click();
    const thanks = page.getByRole("status").getByRole("heading");
    await thanks.waitFor();
    const number = /ORD-\d{4}-\d{5}/.exec((await thanks.textContent()) ?? "")?.[0];
    expect(number).toBeTruthy();
    await screenshot(page, "order-form-2-sent");

    // The manager finds it in Orders and confirms it into a sales order.
    await signIn(page, MANAGER, { sub: "demo" });
    await page.goto(appUrl("/dashboard/orders", "demo"));
    await page
      .getByText(number as string)
      .first()
      .click();
    await page.waitForURL(/\/dashboard\/orders\/\d+$/);
    await page.locator("h1 + [data-status]", { hasText: "Received" }).waitFor();
    await screenshot(page, "order-form-3-received");
    const orderUrl = page.url();
    await page.getByRole("button", { name: "Create sales order" }).click();
    await page.waitForURL(/\/dashboard\/sales-orders\/\d+$/);
    await page.getByLabel("Quantity, line 2").waitFor();
    expect(await page.getByLabel("Quantity, line 1").inputValue()).toBe("3");
    expect(await page.getByLabel("Quantity, line 2").inputValue()).toBe("5");
    await screenshot(page, "order-form-4-sales-order");
    await page.goto(orderUrl);
    await page.locator("h1 + [data-status]", { hasText: "Confirmed" }).waitFor();

    // The form among the workspace's order forms, with its link to copy.
    await page.goto(appUrl("/dashboard/order-forms", "demo"));
    const row = page.getByTestId("order-form-row").filter({ hasText: "Weekly restock" });
    await row.getByRole("button", { name: "Copy link" }).waitFor();
    expect(await row.textContent()).toContain("2 products");
    await screenshot(page, "order-form-7-forms");
    await row.getByRole("button", { name: "Edit Weekly restock" }).click();
    await page.getByRole("dialog").getByLabel("Title").waitFor();
    await screenshot(page, "order-form-8-edit");
    await page.getByRole("dialog").getByRole("button", { name: "Cancel" }).click();
    expect(errors).toEqual([]);
  });

  it("fits a phone, and a closed link says so plainly", async () => {
    const { page } = fresh;
    await page.setViewportSize({ width: 390, height: 844 });
    const { token, products } = await setUpForm("Phone restock");
    await page.goto(appUrl(`/auth/order-forms/${token}`, "demo"));
    await page.getByRole("heading", { name: "Phone restock" }).waitFor();
    await page.getByLabel(`Quantity of ${products[0].name}`).fill("1");
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await screenshot(page, "order-form-5-phone");

    await page.goto(appUrl(`/auth/order-forms/${"0".repeat(64)}`, "demo"));
    await page.getByText("This order form is no longer available").waitFor();
    await screenshot(page, "order-form-6-closed");
  });
});
