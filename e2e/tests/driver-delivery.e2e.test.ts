import { describe, expect, it } from "vitest";
import { assignedDelivery } from "../../apps/server/test/documents-helpers.ts";
import { ownServer } from "../../apps/server/test/own-server-helpers.ts";
import { appUrl, hasChromium, screenshot, signIn, useFreshBrowser } from "../browser.ts";

// Issue 10 §2–§3: a driver opens a delivery order assigned to them, presses Mark delivered (the action `complete`),
// gives who received the goods (the time defaults to now) and the page shows it; the delivery order's header names
// the driver.

const ADMIN = "admin@demo.test";
const DRIVER = "driver@demo.test";

describe.skipIf(!hasChromium)("a driver completes a delivery in Chromium", () => {
  ownServer({}, 600_000);
  const fresh = useFreshBrowser();

  it("Mark delivered asks who received the goods; the page then shows it", async () => {
    const { page } = fresh;
    try {
      const { delivery: d } = await assignedDelivery(
        ADMIN,
        DRIVER,
        { sku: `E2E-DRV-${Date.now()}`, name: "Pallet wrap", price: "9", cost: "4" },
        "2",
      );
      await signIn(page, DRIVER);
      await page.goto(appUrl(`/dashboard/delivery-orders/${d.id}`));
      await page.getByRole("heading", { name: new RegExp(d.number) }).waitFor();
      await page.getByText("Driver").first().waitFor();
      await page.getByTestId("doc-actions").getByRole("button", { name: "Mark delivered", exact: true }).click();
      const dialog = page.getByRole("dialog");
      await dialog.getByLabel("Received at").waitFor();
      const confirm = dialog.getByRole("button", { name: "Mark delivered", exact: true });
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
