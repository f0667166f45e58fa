import { describe, expect, it } from "vitest";
import { ownServer } from "../../apps/server/test/own-server-helpers.ts";
import { restFetch } from "../../apps/server/test/rest-helpers.ts";
import { appUrl, hasChromium, screenshot, signIn, useFreshBrowser } from "../browser.ts";

// Issue 10 §2–§3: a driver opens a delivery order assigned to them, presses Complete, gives who received the goods
// (the time defaults to now) and the page shows it; the delivery order's header names the driver.

const ADMIN = "admin@demo.test";
const DRIVER = "driver@demo.test";

const call = async (fn: string, args: unknown) => {
  const res = await restFetch(ADMIN, `rpc/${fn}`, { method: "POST", body: JSON.stringify(args) });
  expect(res.status, res.text).toBe(200);
  return res.body as { id: number; number: string };
};

// A submitted delivery order of one non-stock product, assigned to the demo driver.
async function assignedDelivery(): Promise<{ id: number; number: string }> {
  const made = await restFetch(ADMIN, "product", {
    method: "POST",
    headers: { prefer: "return=representation" },
    body: JSON.stringify({
      sku: `E2E-DRV-${Date.now()}`,
      name: "Pallet wrap",
      price: "9",
      cost: "4",
      is_stock_tracked: false,
    }),
  });
  const product = (made.body as Array<{ id: number }>)[0].id;
  const company = (
    (await restFetch(ADMIN, "company?select=id&is_customer=is.true&order=id&limit=1")).body as Array<{ id: number }>
  )[0].id;
  const location = ((await restFetch(ADMIN, "location?select=id&order=id&limit=1")).body as Array<{ id: number }>)[0]
    .id;
  const driver = (
    (await restFetch(ADMIN, `user?select=id&email=eq.${encodeURIComponent(DRIVER)}`)).body as Array<{ id: string }>
  )[0].id;
  const so = await call("document_save", {
    type: "sales_order",
    header: { company_id: company },
    lines: [{ product_id: product, qty: "2" }],
  });
  await call("document_transition", { type: "sales_order", id: so.id, action: "submit" });
  const d = await call("document_convert", {
    type: "sales_order",
    id: so.id,
    to: "delivery_order",
    header: { location_id: location, driver_id: driver },
  });
  return call("document_transition", { type: "delivery_order", id: d.id, action: "submit" });
}

describe.skipIf(!hasChromium)("a driver completes a delivery in Chromium", () => {
  ownServer({}, 600_000);
  const fresh = useFreshBrowser();

  it("Complete asks who received the goods; the page then shows it", async () => {
    const { page } = fresh;
    try {
      const d = await assignedDelivery();
      await signIn(page, DRIVER);
      await page.goto(appUrl(`/dashboard/delivery-orders/${d.id}`));
      await page.getByRole("heading", { name: new RegExp(d.number) }).waitFor();
      await page.getByText("Driver").first().waitFor();
      await page.getByTestId("doc-actions").getByRole("button", { name: "Complete", exact: true }).click();
      const dialog = page.getByRole("dialog");
      await dialog.getByLabel("Received at").waitFor();
      const confirm = dialog.getByRole("button", { name: "Complete", exact: true });
      expect(await confirm.isDisabled()).toBe(true); // the name is required
      await dialog.getByLabel("Received by").fill("Tan Ah Kow");
      await screenshot(page, "driver-complete-dialog");
      await confirm.click();
      await page.getByTestId("doc-received").filter({ hasText: "Tan Ah Kow" }).waitFor();
      await screenshot(page, "driver-completed");
    } catch (err) {
      await screenshot(page, "driver-delivery-failed");
      throw err;
    }
  });
});
