import { sql } from "drizzle-orm";
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { openingStock, ownServer } from "../../apps/server/test/own-server-helpers.ts";
import { restFetch } from "../../apps/server/test/rest-helpers.ts";
import { appUrl, hasChromium, screenshot, signIn, useFreshBrowser, watchErrors } from "../browser.ts";

// Issue 21 §1 "Locations": the admin gives a product its usual location on the product's form (In transit is not
// offered); a delivery order made from a sales order whose order names no location takes it for that product's
// line; the other line has none, and Submit says so at that line's location field (not only in a toast), where In
// transit is not offered either; a warehouse chosen there, the delivery is submitted.

const ADMIN = "admin@demo.test";

const call = async (fn: string, args: unknown) => {
  const res = await restFetch(ADMIN, `rpc/${fn}`, { method: "POST", body: JSON.stringify(args) });
  expect(res.status, res.text).toBe(200);
  return res.body as { id: number; number: string; lines: Array<{ id: number; location_id: number | null }> };
};

const choices = (page: Page) => page.locator(".MuiAutocomplete-popper").getByRole("option");

// What a location picker offers for `text` (its options' names once the search has answered).
async function offered(page: Page, input: ReturnType<Page["getByRole"]>, text: string): Promise<string[]> {
  await input.click();
  await input.fill(text);
  await page.locator(".MuiAutocomplete-popper").waitFor();
  await page.waitForLoadState("networkidle");
  await page.waitForTimeout(600); // the search waits for typing to pause
  await page.waitForLoadState("networkidle");
  const names = await choices(page).allTextContents();
  await input.press("Escape");
  return names;
}

let items: Array<{ id: number; name: string }> = [];
let tuas = { id: 0, name: "" };
let ubi = { id: 0, name: "" };
let company = 0;

describe.skipIf(!hasChromium)("locations of a delivery in Chromium", () => {
  const own = ownServer({}, 600_000);
  const fresh = useFreshBrowser();

  beforeAll(async () => {
    items = (await restFetch(ADMIN, "product?select=id,name&cost=gt.0&order=id&limit=2")).body as typeof items;
    const locs = (await restFetch(ADMIN, "location?select=id,code,name&order=code")).body as Array<
      typeof tuas & { code: string }
    >;
    tuas = locs.find((l) => l.code === "WH-TUAS") ?? tuas;
    ubi = locs.find((l) => l.code === "WH-UBI") ?? ubi;
    company = (
      (await restFetch(ADMIN, "company?select=id&is_customer=is.true&order=id&limit=1")).body as [{ id: number }]
    )[0].id;
    await openingStock(own, items, tuas.id, 50);
    await openingStock(own, items, ubi.id, 50);
    // The workspace's In transit location (made by its first transfer's dispatch; made here if the demo has none).
    const [made] = await own.q<{ id: string }>(sql`insert into location (workspace_id, code, name)
      values (${own.ws}::uuid, 'TRANSIT-J', 'In transit') returning id`);
    await own.q(sql`insert into system_location (workspace_id, kind, location_id)
      values (${own.ws}::uuid, 'transit', ${made.id}) on conflict do nothing`);
  }, 600_000);

  it("the usual location on the product, then the delivery's lines and the refusal at the line's field", async () => {
    const { page } = fresh;
    const errors = watchErrors(page);
    try {
      await page.setViewportSize({ width: 1440, height: 900 });
      await signIn(page, ADMIN, { sub: "demo" });

      await page.goto(appUrl(`/dashboard/products/${items[0].id}/edit`, "demo"));
      const usual = page.getByRole("combobox", { name: "Usual location" });
      await usual.waitFor();
      // The same search finds an ordinary location (the check below sees the choices), never In transit.
      expect(await offered(page, usual, tuas.name)).toContain(tuas.name);
      expect(await offered(page, usual, "In transit")).toEqual([]);
      await usual.click();
      await usual.fill(ubi.name);
      await choices(page).filter({ hasText: ubi.name }).first().click();
      await screenshot(page, "locations-product-usual");
      await page.getByRole("button", { name: "Save changes" }).click();
      await page.getByText("Product saved").waitFor();

      const so = await call("document_save", {
        type: "sales_order",
        header: { company_id: company },
        lines: items.map((p) => ({ product_id: p.id, qty: "1" })),
      });
      await call("document_transition", { type: "sales_order", id: so.id, action: "submit" });
      const d = await call("document_convert", { type: "sales_order", id: so.id, to: "delivery_order" });
      expect(d.lines.map((l) => l.location_id)).toEqual([ubi.id, null]);

      await page.goto(appUrl(`/dashboard/delivery-orders/${d.id}`, "demo"));
      const first = page.getByRole("combobox", { name: "Location, line 1", exact: true });
      await expect.poll(() => first.inputValue(), { timeout: 20_000 }).toBe(ubi.name);
      await page.getByTestId("doc-actions").getByRole("button", { name: "Submit", exact: true }).click();
      const line2 = page.getByTestId("line-1");
      await line2.getByText("Choose the location line 2 leaves from").waitFor();
      await screenshot(page, "locations-refused-at-line");
      const second = page.getByRole("combobox", { name: "Location, line 2", exact: true });
      expect(await offered(page, second, ubi.name)).toContain(ubi.name);
      expect(await offered(page, second, "In transit")).toEqual([]);
      await second.click();
      await second.fill(tuas.name);
      await choices(page).filter({ hasText: tuas.name }).first().click();
      await page.getByTestId("doc-actions").getByRole("button", { name: "Submit", exact: true }).click();
      await page.locator("h1 + [data-status]", { hasText: "To Bill" }).waitFor();
      await screenshot(page, "locations-delivered");
      // The refused submit answered 422 (shown at the field); nothing else failed.
      expect(errors.filter((e) => !e.startsWith("422 POST"))).toEqual([]);
    } catch (err) {
      await screenshot(page, "locations-failed");
      throw err;
    }
  });
});
