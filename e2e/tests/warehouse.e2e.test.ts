import { sql } from "drizzle-orm";
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { ok } from "../../apps/server/test/documents-helpers.ts";
import { locationsByCode, openingStock, ownServer } from "../../apps/server/test/own-server-helpers.ts";
import { restFetch } from "../../apps/server/test/rest-helpers.ts";
import { appUrl, hasChromium, openBrowser, screenshot, signIn, watchErrors } from "../browser.ts";

// Issue 22 "Warehouse" at 390×844 on demo.warehouse.localhost: a storekeeper receives a purchase order in two parts
// (scanning the product, a photo of the supplier's delivery order) and counts a location blind; the second part and
// a second count are made with the network cut, kept on the phone, and land exactly once when it is back.

const STORE = "warehouse@demo.test";
const ADMIN = "admin@demo.test";
const BUYER = "procurement@demo.test";
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
  "base64",
);

describe.skipIf(!hasChromium)("a storekeeper receives and counts in Chromium (390×844)", () => {
  const own = ownServer({}, 600_000);
  const stamp = Date.now();
  const name = `Shelf bracket ${stamp}`;
  const sku = `E2E-WH-${stamp}`;
  let product = 0;
  let ubi = 0;
  let po = { id: 0, number: "" };
  let so = { id: 0, number: "" };

  beforeAll(async () => {
    const made = await restFetch(ADMIN, "product", {
      method: "POST",
      headers: { prefer: "return=representation" },
      body: JSON.stringify({ sku, name, price: "20", cost: "8", unit: "pc" }),
    });
    expect(made.status, made.text).toBe(201);
    product = (made.body as Array<{ id: number }>)[0].id;
    const locs = await locationsByCode(ADMIN);
    ubi = locs["WH-UBI"];
    await openingStock(own, [{ id: product }], ubi, 10);
    const supplier = (
      (await restFetch(ADMIN, "company?select=id&is_supplier=is.true&order=id&limit=1")).body as Array<{ id: number }>
    )[0].id;
    const draft = await ok(BUYER, "document_save", {
      type: "purchase_order",
      header: { company_id: supplier, location_id: locs["WH-TUAS"], expected_date: "2031-01-02" },
      lines: [{ product_id: product, qty: "5", unit_price: "8" }],
    });
    const sent = await ok(BUYER, "document_transition", { type: "purchase_order", id: draft.id, action: "submit" });
    po = { id: sent.id, number: String(sent.number) };
    // A sales order of 2 to pick, the product kept on shelf B-02 at Tuas.
    const bin = await restFetch(STORE, "product_bin", {
      method: "POST",
      body: JSON.stringify({ product_id: product, location_id: locs["WH-TUAS"], bin: "B-02" }),
    });
    expect(bin.status, bin.text).toBe(201);
    const customer = (
      (await restFetch(ADMIN, "company?select=id&is_customer=is.true&order=id&limit=1")).body as Array<{ id: number }>
    )[0].id;
    const order = await ok(ADMIN, "document_save", {
      type: "sales_order",
      header: { company_id: customer },
      lines: [{ product_id: product, qty: "2" }],
    });
    const confirmed = await ok(ADMIN, "document_transition", { type: "sales_order", id: order.id, action: "submit" });
    so = { id: confirmed.id, number: String(confirmed.number) };
  }, 120_000);

  const receipts = () =>
    own.q<{ qty: string }>(sql`select l.qty::text as qty from supplier_delivery_order d
      join supplier_delivery_order_line l on l.workspace_id = d.workspace_id and l.supplier_delivery_order_id = d.id
      where d.source_type = 'purchase_order' and d.source_id = ${po.id} order by d.id`);
  const counts = () =>
    own.q<{ counted: string; system: string }>(sql`select l.counted_qty::text as counted, l.system_qty::text as system
      from stock_count_line l where l.product_id = ${product} order by l.id`);

  async function until<T>(read: () => Promise<T[]>, n: number): Promise<T[]> {
    for (let i = 0; i < 60; i++) {
      const rows = await read();
      if (rows.length >= n) return rows;
      await new Promise((r) => setTimeout(r, 500));
    }
    return read();
  }

  async function openOrder(page: Page) {
    await page.getByRole("link", { name: "Receive", exact: true }).click();
    await page.getByRole("link", { name: new RegExp(po.number) }).click();
    await page.getByRole("heading", { name: po.number }).waitFor();
  }

  it("receives a PO in two parts and counts a location — the second of each offline, landing once", async () => {
    const browser = await openBrowser({ width: 390, height: 844 });
    const page = await browser.context.newPage();
    const errors = watchErrors(page);
    try {
      await signIn(page, STORE, { sub: "demo.warehouse" });
      await page.getByRole("link", { name: new RegExp(po.number) }).waitFor();
      await screenshot(page, "warehouse-receive-list");

      // Part 1, online: a scan adds one, two taps make it three, a photo of their delivery order.
      await openOrder(page);
      const scanBox = page.getByLabel("Scan a product");
      await scanBox.fill(sku);
      await scanBox.press("Enter");
      const qty = page.getByLabel(`Received of ${name}`, { exact: true });
      await expect.poll(() => qty.inputValue()).toBe("1");
      await page.getByRole("button", { name: `One more Received of ${name}` }).click();
      await page.getByRole("button", { name: `One more Received of ${name}` }).click();
      await expect.poll(() => qty.inputValue()).toBe("3");
      await page.getByTestId("receipt-photo").setInputFiles({ name: "do.png", mimeType: "image/png", buffer: PNG });
      await page.getByRole("img", { name: "The supplier's delivery order" }).waitFor();
      await screenshot(page, "warehouse-receive-order");
      await page.getByRole("button", { name: /^Receive 1 line$/ }).click();
      await page.getByText(/Received — SDO-\d{4}-\d{5}/).waitFor();
      expect((await receipts()).map((r) => r.qty)).toEqual(["3.000"]);

      // Part 2, with the network cut: kept on the phone, shown pending, sent once when it is back.
      await openOrder(page);
      await page.getByText("2 of 5 pc left to receive").waitFor();
      await browser.context.setOffline(true);
      await page.getByLabel(`Received of ${name}`, { exact: true }).fill("2");
      await page.getByRole("button", { name: /^Receive 1 line$/ }).click();
      await page.getByText("Saved on this phone — it is sent when the network is back").waitFor();
      await page.getByText("1 pending").first().waitFor();
      await screenshot(page, "warehouse-receive-offline");
      expect(await receipts()).toHaveLength(1);
      await browser.context.setOffline(false);
      expect((await until(receipts, 2)).map((r) => r.qty)).toEqual(["3.000", "2.000"]);
      const received = await own.q<{ q: string }>(
        sql`select qty_received::text as q from purchase_order_line where purchase_order_id = ${po.id}`,
      );
      expect(received[0].q).toBe("5.000");

      // A blind count of WH-UBI: the storekeeper sees the product and its bin, never the 10 the books hold.
      await page.getByRole("link", { name: "Count", exact: true }).click();
      await page.getByLabel("Location code").fill("WH-UBI");
      await page.getByLabel("Location code").press("Enter");
      const line = page.getByTestId(`count-${product}`);
      await line.waitFor();
      expect(await page.getByText("10", { exact: true }).count()).toBe(0);
      await page.getByLabel(`Counted of ${name}`, { exact: true }).fill("8");
      await screenshot(page, "warehouse-count");
      await page.getByRole("button", { name: "Submit count" }).click();
      await page.getByRole("dialog").getByRole("button", { name: "Submit", exact: true }).click();
      await page.getByText(/Count SC-\d{4}-\d{5} sent for review/).waitFor();
      expect(await counts()).toEqual([{ counted: "8.000", system: "10.000" }]);

      // The same count again with the network cut: it lands once when the network is back.
      await browser.context.setOffline(true);
      await page.getByLabel(`Counted of ${name}`, { exact: true }).fill("9");
      await page.getByRole("button", { name: "Submit count" }).click();
      await page.getByRole("dialog").getByRole("button", { name: "Submit", exact: true }).click();
      await page.getByText("Saved on this phone — the count is sent when the network is back").waitFor();
      await screenshot(page, "warehouse-count-offline");
      expect(await counts()).toHaveLength(1);
      await browser.context.setOffline(false);
      expect(await until(counts, 2)).toEqual([
        { counted: "8.000", system: "10.000" },
        { counted: "9.000", system: "10.000" },
      ]);
      await new Promise((r) => setTimeout(r, 1500));
      expect(await counts()).toHaveLength(2);
      await screenshot(page, "warehouse-count-landed");
      // The other tabs, as the storekeeper finds them.
      // Pick the sales order from Tuas: the line shows its bin; a scan and a tap pick both; Finish makes the draft.
      await page.getByRole("link", { name: "Pick", exact: true }).click();
      await page.getByRole("heading", { name: "Orders to pick" }).waitFor();
      await page.getByLabel("Pick from").click();
      await page.getByRole("option", { name: /WH-TUAS/ }).click();
      await screenshot(page, "warehouse-pick");
      await page.locator(".MuiCard-root", { hasText: so.number }).getByRole("button", { name: "Pick" }).click();
      await page.getByRole("heading", { name: /PL-\d{4}-\d{5}/ }).waitFor();
      await page.getByTestId("pick-line-1").getByText("B-02").waitFor();
      const pickScan = page.getByLabel("Scan what you pick");
      await pickScan.fill(sku);
      await pickScan.press("Enter");
      const picked = page.getByLabel(`Picked of ${name}`, { exact: true });
      await expect.poll(() => picked.inputValue()).toBe("1");
      await page.getByRole("button", { name: `One more Picked of ${name}` }).click();
      await expect.poll(() => picked.inputValue()).toBe("2");
      await screenshot(page, "warehouse-pick-list");
      await page.getByRole("button", { name: "Finish picking" }).click();
      await page.getByRole("dialog").getByRole("button", { name: "Finish", exact: true }).click();
      await page.getByText("Picked — the delivery order draft is made").waitFor();
      const drafts = await own.q<{ qty: string; status: string }>(sql`select l.qty::text as qty, d.status
        from pick_list p join delivery_order d on d.workspace_id = p.workspace_id and d.id = p.delivery_order_id
        join delivery_order_line l on l.workspace_id = d.workspace_id and l.delivery_order_id = d.id
        where p.source_type = 'sales_order' and p.source_id = ${so.id} and p.status = 'done'`);
      expect(drafts).toEqual([{ qty: "2.000", status: "draft" }]);
      await page.getByRole("link", { name: "Move", exact: true }).click();
      await page.getByRole("button", { name: "Move", exact: true }).waitFor();
      await screenshot(page, "warehouse-move");
      expect(errors.filter((e) => !/ERR_INTERNET_DISCONNECTED|Failed to fetch|NetworkError/.test(e))).toEqual([]);
    } catch (err) {
      await screenshot(page, "warehouse-failed");
      throw err;
    } finally {
      await browser.close();
    }
  });

  it("a manager reviews the first count in the back office and applies it: the stock is what was counted", async () => {
    const browser = await openBrowser({ width: 1440, height: 900 });
    const page = await browser.context.newPage();
    try {
      const [first] = await own.q<{ id: string }>(sql`select stock_count_id::text as id from stock_count_line
        where product_id = ${product} order by id limit 1`);
      await signIn(page, ADMIN);
      await page.goto(appUrl(`/dashboard/stock-counts/${first.id}`));
      await page.getByRole("heading", { name: /SC-\d{4}-\d{5}/ }).waitFor();
      await page.getByText(name).first().waitFor();
      await screenshot(page, "warehouse-count-review");
      await page.getByTestId("doc-actions").getByRole("button", { name: "Apply differences", exact: true }).click();
      const dialog = page.getByRole("dialog");
      await dialog.getByLabel("Reason").fill("Cycle count");
      await dialog.getByRole("button", { name: "Apply differences" }).click();
      await expect
        .poll(
          async () =>
            (
              await own.q<{ n: string }>(sql`select sum(qty)::numeric(14,3)::text as n from stock_move
          where product_id = ${product} and location_id = ${ubi}`)
            )[0].n,
        )
        .toBe("8.000");
      await page.getByText("Applied").first().waitFor();
      await screenshot(page, "warehouse-count-applied");
    } catch (err) {
      await screenshot(page, "warehouse-failed");
      throw err;
    } finally {
      await browser.close();
    }
  });
});
