import { describe, expect, it } from "vitest";
import { restFetch } from "../../apps/server/test/rest-helpers.ts";
import { appUrl, hasChromium, screenshot, signIn, useFreshBrowser } from "../browser.ts";

// Issue 21 §1 (looks): at 390 px the document line editor cut the product to "Find a pro…" and hid the tax and the
// line total off the screen. On a phone each line is a card: product, quantity, price, discount, tax and the line's
// total all in view and editable. At 1440 px it is still the table.

const ADMIN = "admin@demo.test";

describe.skipIf(!hasChromium)("the line editor on a phone", () => {
  const fresh = useFreshBrowser();

  it("a quotation's line at 390 px shows every figure, in view, and the table is back at 1440 px", async () => {
    const { page, errors } = fresh;
    const customer = (
      (await restFetch(ADMIN, "company?select=name&is_customer=is.true&order=id&limit=1")).body as Array<{
        name: string;
      }>
    )[0].name;
    const product = (
      (await restFetch(ADMIN, "product?select=name,price&active=is.true&price=gt.0&order=id&limit=1")).body as Array<{
        name: string;
        price: string;
      }>
    )[0];
    await page.setViewportSize({ width: 390, height: 844 });
    await signIn(page, ADMIN);
    await page.goto(appUrl("/dashboard/quotations/new"));
    await page.getByRole("button", { name: "Save draft" }).waitFor();
    await page.waitForLoadState("networkidle");
    const company = page.getByRole("combobox", { name: "Customer", exact: true });
    await company.fill(customer);
    await page.getByRole("option").filter({ hasText: customer }).first().waitFor();
    await company.press("Enter");

    const item = page.getByRole("combobox", { name: "Product, line 1", exact: true });
    await item.fill(product.name);
    await page.getByRole("option").filter({ hasText: product.name }).first().waitFor();
    await item.press("Enter");
    await expect.poll(() => item.inputValue()).toBe(product.name);
    await page.getByLabel("Quantity, line 1").fill("3");
    await page.getByLabel("Discount %, line 1").fill("10");

    const line = page.getByTestId("line-0");
    const total = line.locator('td[data-cell="total"]');
    await expect.poll(async () => (await total.textContent())?.trim() ?? "").toMatch(/\d/);
    // Every figure of the line is on the screen, none cut or scrolled away: inside 390 px, and wide enough to read.
    const within = async (name: string, min: number) => {
      const box = await page.getByLabel(name).boundingBox();
      expect(box, name).not.toBeNull();
      expect((box?.x ?? -1) >= 0 && (box?.x ?? 0) + (box?.width ?? 0) <= 390, name).toBe(true);
      expect(box?.width ?? 0, name).toBeGreaterThanOrEqual(min);
    };
    await within("Product, line 1", 200);
    await within("Quantity, line 1", 60);
    await within("Unit price, line 1", 60);
    await within("Discount %, line 1", 60);
    await within("Tax code, line 1", 60);
    const totalBox = await total.boundingBox();
    expect((totalBox?.x ?? 0) + (totalBox?.width ?? 0)).toBeLessThanOrEqual(390);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    // The labels say which figure is which.
    for (const label of ["Qty", "Unit price", "Disc %", "Tax", "Line total"]) {
      await expect(line.locator(`td[data-label="${label}"]`).isVisible()).resolves.toBe(true);
    }
    // Still editable: the tax code changes the total's tax.
    await page.getByLabel("Tax code, line 1").selectOption("ZR");
    await line.scrollIntoViewIfNeeded();
    await screenshot(page, "lines-phone-390");

    // Back at a desk the lines are the table with its header row.
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.getByRole("columnheader", { name: "Line total" }).waitFor();
    expect(await page.getByRole("columnheader", { name: "Qty" }).isVisible()).toBe(true);
    await screenshot(page, "lines-phone-1440");
    expect(errors).toEqual([]);
  });
});
