import type { Page } from "playwright-core";
import { afterAll, describe, expect, it } from "vitest";
import { type Doc, ok } from "../../apps/server/test/documents-helpers.ts";
import { ownServer } from "../../apps/server/test/own-server-helpers.ts";
import { restFetch } from "../../apps/server/test/rest-helpers.ts";
import { appUrl, type Browser, hasChromium, openBrowser, screenshot, signIn, watchErrors } from "../browser.ts";

// Issue 23: a buyer in `orchard` finds a listing of `demo`'s on the marketplace, orders it and asks the seller about
// it in the chat; the seller in `demo` reads the message and accepts the order (its sales order and orchard's
// purchase order are made); delivering, invoicing, receiving and paying run through the document commands here; both
// see the order fulfilled and the buyer rates the seller — at 1440 px, and the buyer's pages on a 390 px phone.

const BUYER = "procurement@orchard.test";
const BUYER_OWNER = "owner@orchard.test";
const SELLER = "manager@demo.test";

// Each side's later documents, as their clerks would make them (the document commands over the API).
async function fulfil(orderId: number): Promise<void> {
  const [order] = (await ok(SELLER, "marketplace_orders", { id: orderId })) as unknown as Array<{
    sales_order_id: number;
  }>;
  const delivery = await ok(SELLER, "document_convert", {
    type: "sales_order",
    id: order.sales_order_id,
    to: "delivery_order",
  });
  const loc = (await restFetch(SELLER, "location?select=id&order=id&limit=1")).body as Array<{ id: number }>;
  await ok(SELLER, "document_save", {
    type: "delivery_order",
    id: delivery.id,
    header: { company_id: delivery.company_id, location_id: loc[0].id },
    lines: delivery.lines.map((l) => ({
      product_id: l.product_id,
      description: l.description,
      qty: l.qty,
      unit_price: l.unit_price,
      source_line_id: l.source_line_id,
    })),
  });
  await ok(SELLER, "document_transition", { type: "delivery_order", id: delivery.id, action: "submit" });
  const invoice = await ok("owner@demo.test", "document_convert", {
    type: "delivery_order",
    id: delivery.id,
    to: "invoice",
  });
  await ok("owner@demo.test", "document_transition", { type: "invoice", id: invoice.id, action: "submit" });
  const [mine] = (await ok(BUYER_OWNER, "marketplace_orders", { id: orderId })) as unknown as Array<{
    purchase_order_id: number;
  }>;
  const store = (await restFetch(BUYER_OWNER, "location?select=id&order=id&limit=1")).body as Array<{ id: number }>;
  const receipt = await ok(BUYER_OWNER, "document_convert", {
    type: "purchase_order",
    id: mine.purchase_order_id,
    to: "supplier_delivery_order",
    header: { supplier_do_number: `J-${orderId}`, location_id: store[0].id },
  });
  await ok(BUYER_OWNER, "document_transition", { type: "supplier_delivery_order", id: receipt.id, action: "submit" });
  const bills = await restFetch(
    BUYER_OWNER,
    "supplier_invoice?select=id,company_id,total&status=eq.draft&order=id.desc&limit=1",
  );
  const bill = (bills.body as Array<Doc & { company_id: number; total: string }>)[0];
  await ok(BUYER_OWNER, "document_transition", { type: "supplier_invoice", id: bill.id, action: "submit" });
  await ok(BUYER_OWNER, "record_payment", {
    type: "supplier_payment",
    company_id: bill.company_id,
    amount: bill.total,
    method: "bank_transfer",
    allocations: [{ document_type: "supplier_invoice", document_id: bill.id, amount: bill.total }],
  });
}

const orderCard = (page: Page, number: string) => page.locator(`[data-order="${number}"]`);

describe.skipIf(!hasChromium)("the marketplace in Chromium", () => {
  ownServer({ SEED: "demo" }, 600_000); // the demo data: demo's seller profile and listings, orchard's orders
  const browsers: Browser[] = [];
  afterAll(async () => {
    for (const b of browsers) await b.close();
  });

  it("orchard finds a listing, orders and chats; demo accepts; both see it fulfilled; orchard rates", async () => {
    // A listing of the seller's made for this journey (a product not listed yet).
    const title = `Journey crate ${Date.now()}`;
    // At the catalogue's price, which is above its cost (a sale below cost needs someone who may approve it).
    const products = (
      await restFetch("owner@demo.test", "product?select=id,price,cost&is_stock_tracked=is.true&order=id.desc&limit=60")
    ).body as Array<{ id: number; price: string; cost: string }>;
    const listed = (await restFetch("owner@demo.test", "marketplace_product?select=product_id")).body as Array<{
      product_id: number;
    }>;
    const free = products.find(
      (p) => Number(p.price) > Number(p.cost) && !listed.some((l) => Number(l.product_id) === Number(p.id)),
    );
    expect(free).toBeDefined();
    await ok("owner@demo.test", "marketplace_listing_save", {
      product_id: Number(free?.id),
      title,
      category: "Journeys",
      price: Number(free?.price).toFixed(2),
      moq: "2",
      lead_time_days: 2,
    });

    const buying = await openBrowser();
    const selling = await openBrowser();
    browsers.push(buying, selling);
    const buyer = await buying.context.newPage();
    const seller = await selling.context.newPage();
    const errors = watchErrors(buyer);
    const sellerErrors = watchErrors(seller);
    await buyer.setViewportSize({ width: 1440, height: 900 });
    await signIn(buyer, BUYER);
    // The seller is at work elsewhere in the app: the chat's unread count in the navigation moves live.
    await seller.setViewportSize({ width: 1440, height: 900 });
    await signIn(seller, SELLER);
    await seller.goto(appUrl("/dashboard/marketplace-sales-order"));
    const chatEntry = seller.getByRole("navigation", { name: "Dashboard" }).getByRole("link", {
      name: /Marketplace chat/,
    });
    await chatEntry.waitFor();
    const unreadBefore = Number(
      (await chatEntry
        .getByTestId("marketplace-unread")
        .textContent({ timeout: 3000 })
        .catch(() => "0")) || 0,
    );

    await buyer.goto(appUrl("/dashboard/marketplace"));
    await buyer.getByRole("heading", { name: "Marketplace", level: 1 }).waitFor();
    await buyer.getByLabel("Search listings or sellers").fill("Journey crate");
    const card = buyer.locator(`[data-listing="${title}"]`);
    await card.waitFor();
    await screenshot(buyer, "marketplace-browse-1440");

    // Ask the seller first: the chat opens on the new thread.
    await card.getByRole("button", { name: "Ask the seller" }).click();
    await buyer.getByLabel("Message").fill("Can you deliver to Orchard Road by Friday?");
    await buyer.getByRole("button", { name: "Send" }).click();
    await buyer.waitForURL(/marketplace-chat\?thread=/);
    await buyer
      .getByRole("log", { name: "Messages" })
      .getByText("Can you deliver to Orchard Road by Friday?")
      .waitFor();

    await chatEntry
      .getByTestId("marketplace-unread")
      .getByText(String(unreadBefore + 1))
      .waitFor({ timeout: 15_000 });
    await screenshot(seller, "marketplace-unread-badge-1440");

    // The seller reads it, and answers; the buyer sees the answer arrive without reloading.
    await chatEntry.click();
    await seller.getByRole("list", { name: "Chats" }).getByText("Orchard Retail Group").first().click();
    await seller
      .getByRole("log", { name: "Messages" })
      .getByText("Can you deliver to Orchard Road by Friday?")
      .waitFor();
    await seller.getByLabel("Your message").fill("Yes, Friday morning works.");
    await seller.getByRole("button", { name: "Send" }).click();
    await buyer
      .getByRole("log", { name: "Messages" })
      .getByText("Yes, Friday morning works.")
      .waitFor({ timeout: 10_000 });
    await screenshot(buyer, "marketplace-chat-1440");

    // The buyer orders: the cart, then one order for this seller.
    await buyer.goto(appUrl("/dashboard/marketplace"));
    await buyer.getByLabel("Search listings or sellers").fill("Journey crate");
    await buyer.locator(`[data-listing="${title}"]`).getByRole("button", { name: "Add to cart" }).click();
    await buyer.getByRole("button", { name: /^Cart, 1 listings/ }).click();
    await buyer.getByRole("dialog", { name: "Cart" }).getByLabel("Qty").fill("5");
    await buyer.getByRole("button", { name: "Place order" }).click();
    await buyer.waitForURL(/marketplace-sales-order/);
    const placed = buyer.locator("[data-order]", { hasText: "Journey crate" }).first();
    await placed.locator('[data-status="placed"]').waitFor();
    const number = (await placed.getAttribute("data-order")) as string;
    expect(number).toMatch(/^MKT-\d{4}-\d{5}$/);

    // The seller accepts.
    await seller.goto(appUrl("/dashboard/marketplace-sales-order"));
    const sold = orderCard(seller, number);
    await sold.getByText("sold to Orchard Retail Group").waitFor();
    await screenshot(seller, "marketplace-seller-orders-1440");
    await sold.getByRole("button", { name: "Accept" }).click();
    // Accepting writes in both sets of books: on a busy machine it takes a while.
    await sold.locator('[data-status="accepted"]').waitFor({ timeout: 90_000 });
    // The buyer's page hears of it over realtime.
    await orderCard(buyer, number).locator('[data-status="accepted"]').waitFor({ timeout: 30_000 });

    const id = Number(
      ((await ok(BUYER, "marketplace_orders", {})) as unknown as Array<{ id: number; number: string }>).find(
        (o) => o.number === number,
      )?.id,
    );
    await fulfil(id);

    await buyer.reload();
    const bought = orderCard(buyer, number);
    await bought.locator('[data-status="fulfilled"]').waitFor();
    await seller.reload();
    await orderCard(seller, number).locator('[data-status="fulfilled"]').waitFor();
    await bought.locator("label", { hasText: "4 Stars" }).click();
    await bought.getByLabel("Note").fill("Friday, as promised");
    await bought.getByRole("button", { name: "Rate" }).click();
    await buyer.getByText("Thank you for rating").waitFor();
    await bought.getByText("Rated 4 of 5").waitFor();
    await screenshot(buyer, "marketplace-buyer-orders-1440");

    // The buyer's pages on a phone.
    await buyer.setViewportSize({ width: 390, height: 844 });
    await buyer.goto(appUrl("/dashboard/marketplace"));
    await buyer.getByLabel("Search listings or sellers").fill("Journey crate");
    await buyer.locator(`[data-listing="${title}"]`).waitFor();
    await screenshot(buyer, "marketplace-browse-390");
    await buyer.goto(appUrl("/dashboard/marketplace-sales-order"));
    await orderCard(buyer, number).waitFor();
    await screenshot(buyer, "marketplace-orders-390");
    await buyer.goto(appUrl("/dashboard/marketplace-chat"));
    await buyer.getByRole("list", { name: "Chats" }).getByText("Harbourline Trading").first().click();
    await buyer.getByRole("log", { name: "Messages" }).getByText("Yes, Friday morning works.").waitFor();
    await screenshot(buyer, "marketplace-chat-390");
    expect(errors).toEqual([]);
    expect(sellerErrors).toEqual([]);
  }, 240_000);

  it("the seller adds a photo to a listing; a buyer sees it on the listing's card and in its gallery", async () => {
    const title = `Photo crate ${Date.now()}`;
    const products = (await restFetch("owner@demo.test", "product?select=id&active=is.true&order=id.desc&limit=80"))
      .body as Array<{ id: number }>;
    const listed = (await restFetch("owner@demo.test", "marketplace_product?select=product_id")).body as Array<{
      product_id: number;
    }>;
    const free = products.find((p) => !listed.some((l) => Number(l.product_id) === Number(p.id)));
    expect(free).toBeDefined();
    await ok("owner@demo.test", "marketplace_listing_save", {
      product_id: Number(free?.id),
      title,
      category: "Journeys",
      price: "9.90",
    });

    const selling = await openBrowser();
    const buying = await openBrowser();
    browsers.push(selling, buying);
    const seller = await selling.context.newPage();
    const buyer = await buying.context.newPage();
    const sellerErrors = watchErrors(seller);
    const buyerErrors = watchErrors(buyer);
    await seller.setViewportSize({ width: 1440, height: 900 });
    await signIn(seller, "owner@demo.test");
    await seller.goto(appUrl("/dashboard/marketplace-product"));
    await seller
      .getByRole("row", { name: new RegExp(title) })
      .getByRole("button", { name: "Edit" })
      .click();
    const dialog = seller.getByRole("dialog", { name: `Edit ${title}` });
    await dialog.getByText("Photos (0 of 6)").waitFor();
    // A real picture (a PNG drawn by the browser), chosen through the file input as a user's file dialog would.
    const png = await seller.evaluate(() => {
      const c = document.createElement("canvas");
      c.width = 320;
      c.height = 200;
      const g = c.getContext("2d") as CanvasRenderingContext2D;
      g.fillStyle = "#1e88e5";
      g.fillRect(0, 0, 320, 200);
      g.fillStyle = "#ffb300";
      g.fillRect(40, 40, 240, 120);
      return c.toDataURL("image/png").split(",")[1];
    });
    await dialog.getByTestId("listing-photo-input").setInputFiles({
      name: "crate.png",
      mimeType: "image/png",
      buffer: Buffer.from(png, "base64"),
    });
    await dialog.getByText("Photos (1 of 6)").waitFor({ timeout: 20_000 });
    await dialog.locator("img[data-photo]").first().waitFor();
    await screenshot(seller, "marketplace-listing-photos-1440");
    await dialog.getByRole("button", { name: "Cancel" }).click();

    await buyer.setViewportSize({ width: 1440, height: 900 });
    await signIn(buyer, BUYER);
    await buyer.goto(appUrl("/dashboard/marketplace"));
    await buyer.getByLabel("Search listings or sellers").fill(title);
    const card = buyer.locator(`[data-listing="${title}"]`);
    await card.locator("img[data-photo]").waitFor({ timeout: 20_000 });
    const shown = await card.locator("img[data-photo]").evaluate((img) => (img as HTMLImageElement).naturalWidth);
    expect(shown).toBe(320);
    await screenshot(buyer, "marketplace-browse-photo-1440");
    await card.getByRole("button", { name: `Photos of ${title}` }).click();
    const gallery = buyer.getByRole("dialog", { name: title });
    await gallery.locator("img[data-photo]").first().waitFor();
    await screenshot(buyer, "marketplace-gallery-1440");
    await buyer.setViewportSize({ width: 390, height: 844 });
    await screenshot(buyer, "marketplace-gallery-390");
    expect(sellerErrors).toEqual([]);
    expect(buyerErrors).toEqual([]);
  }, 180_000);

  it("shows the marketplace locked on a Pro workspace", async () => {
    const b = await openBrowser();
    browsers.push(b);
    const page = await b.context.newPage();
    await page.setViewportSize({ width: 1440, height: 900 });
    await signIn(page, "admin@pro.test");
    await page.goto(appUrl("/dashboard/marketplace"));
    await page
      .getByText(/Premium/)
      .first()
      .waitFor();
    await screenshot(page, "marketplace-locked-pro-1440");
  }, 120_000);
});
