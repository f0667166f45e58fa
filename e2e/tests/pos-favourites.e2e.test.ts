import { randomUUID } from "node:crypto";
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { locationsByCode, ownServer } from "../../apps/server/test/own-server-helpers.ts";
import { restFetch } from "../../apps/server/test/rest-helpers.ts";
import { hasChromium, openBrowser, screenshot, signIn } from "../browser.ts";

// Issue 22 "Point of sale" at 390×844 on demo.pos.localhost: the admin chooses the sale screen's favourites —
// three products added, the last moved to the top with the keyboard — and saves them; the cashier's grid shows them
// in that order with no "Edit favourites" button, and still shows them after a reload with the network gone.

const POS = "pos@demo.test";
const ADMIN = "admin@demo.test";

type Item = { id: number; sku: string; name: string };

const tiles = (page: Page) =>
  page
    .getByRole("group", { name: "Favourites" })
    .getByRole("button")
    .evaluateAll((els) => els.map((e) => e.getAttribute("aria-label") ?? ""));

describe.skipIf(!hasChromium)("the POS favourites grid chosen by an admin (390×844)", () => {
  ownServer({}, 600_000);
  const items: Item[] = [];

  beforeAll(async () => {
    const location = Object.values(await locationsByCode(ADMIN))[0];
    // Three of the last products by name, no name within another: never the twelve the grid shows when none are
    // chosen, and each told apart by its name.
    const res = await restFetch(ADMIN, "product?select=id,sku,name&active=is.true&order=name.desc&limit=40");
    for (const p of res.body as Item[]) {
      if (items.length < 3 && !items.some((i) => i.name.includes(p.name) || p.name.includes(i.name))) items.push(p);
    }
    expect(items).toHaveLength(3);
    // Both open a till, so the sale screen (and its grid) is what each signs in to.
    for (const email of [ADMIN, POS]) {
      const open = await restFetch(email, "rpc/pos_session_open", {
        method: "POST",
        body: JSON.stringify({ location_id: location, opening_float: "100.00" }),
        headers: { "idempotency-key": randomUUID() },
      });
      expect(open.status, open.text).toBe(200);
    }
  }, 120_000);

  it("the admin orders them, the cashier sells from them (offline too) and cannot edit them", async () => {
    const admin = await openBrowser({ width: 390, height: 844 });
    const page = await admin.context.newPage();
    try {
      await signIn(page, ADMIN, { sub: "demo.pos" });
      await page.getByRole("group", { name: "Favourites" }).waitFor();
      await page.getByRole("button", { name: "Edit favourites" }).click();
      const dialog = page.getByRole("dialog", { name: "Favourites" });
      for (const item of items) {
        await dialog.getByLabel("Add a product").fill(item.sku);
        await page
          .getByRole("option", { name: new RegExp(item.sku) })
          .first()
          .click();
        await dialog.getByRole("listitem").filter({ hasText: item.sku }).waitFor();
      }
      // The keyboard moves the third to the top: focus stays on the product moved.
      await dialog.getByRole("button", { name: `Move ${items[2].name} up` }).focus();
      await page.keyboard.press("Enter");
      await page.keyboard.press("Enter");
      const order = [items[2], items[0], items[1]];
      expect(await dialog.getByRole("listitem").allTextContents()).toEqual(
        order.map((i, n) => expect.stringContaining(`${n + 1}${i.name}`)),
      );
      await screenshot(page, "pos-favourites-editor");
      await dialog.getByRole("button", { name: "Save favourites" }).click();
      await dialog.waitFor({ state: "detached" });
      await expect.poll(() => tiles(page)).toEqual(order.map((i) => expect.stringContaining(`Add ${i.name},`)));
    } finally {
      await admin.close();
    }

    const cashier = await openBrowser({ width: 390, height: 844 });
    const till = await cashier.context.newPage();
    try {
      await signIn(till, POS, { sub: "demo.pos" });
      await till.getByRole("group", { name: "Favourites" }).waitFor();
      const order = [items[2], items[0], items[1]];
      await expect.poll(() => tiles(till)).toEqual(order.map((i) => expect.stringContaining(`Add ${i.name},`)));
      expect(await till.getByRole("button", { name: "Edit favourites" }).count()).toBe(0);
      await screenshot(till, "pos-favourites-cashier");
      // Once the app's worker controls the page, a reload with no network shows the kept favourites.
      await till.waitForFunction(() => navigator.serviceWorker.ready.then(() => true));
      await till.reload();
      await till.waitForFunction(() => navigator.serviceWorker.controller !== null);
      await till.getByRole("group", { name: "Favourites" }).waitFor();
      await cashier.context.setOffline(true);
      await till.reload();
      await expect
        .poll(() => tiles(till), { timeout: 20_000 })
        .toEqual(order.map((i) => expect.stringContaining(`Add ${i.name},`)));
      await till.getByRole("button", { name: `Add ${items[2].name},`, exact: false }).click();
      await till.getByRole("listitem").filter({ hasText: items[2].name }).first().waitFor();
      await screenshot(till, "pos-favourites-offline");
      await cashier.context.setOffline(false);
    } catch (err) {
      await screenshot(till, "pos-favourites-failed");
      throw err;
    } finally {
      await cashier.close();
    }
  });
});
