import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../apps/server/test/harness.ts";
import { useServer } from "../../apps/server/test/http.ts";
import { restFetch } from "../../apps/server/test/rest-helpers.ts";
import { DEMO_PASSWORD, hasChromium, screenshot, useFreshBrowser } from "../browser.ts";

// Issue 11 "Done when": procure to pay through the pages, each step by the role that does it. A sales order is short
// of a product; the buyer raises its purchase order with "Purchase what is short" and submits it; the warehouse
// receives it in two parts, attaching a photo of the supplier's DO to the first receipt, and is refused (with the
// words shown, nothing changed) when it tries to receive more than is left; accounts enters the supplier's invoice
// priced 8% above the order and finds it held in the three-way queue; the finance manager releases it with a reason
// and pays it from Accounts payable. A server of its own with the demo's year (its purchasing too), so the queue and
// the payables look like a working business around the new documents.

let server: TestServer;

const appUrl = (pathname: string) => {
  const u = new URL(pathname, server.url);
  u.hostname = "localhost";
  return u.toString();
};

const ADMIN = "admin@demo.test";
const BUYER = "procurement@demo.test";
const WAREHOUSE = "warehouse@demo.test";
const ACCOUNTS = "accounts@demo.test";
const FINANCE = "finance@demo.test";

// Signs in through the login form; whoever was signed in before is signed out first.
async function signIn(page: Page, email: string) {
  await page.context().clearCookies();
  if (page.url().startsWith("http")) await page.evaluate(() => [localStorage.clear(), sessionStorage.clear()]);
  await page.goto(appUrl("/auth/login"));
  await page.getByLabel("E-mail or phone").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(DEMO_PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL(/\/dashboard/);
}

async function post<T>(email: string, path: string, body: unknown): Promise<T> {
  const res = await restFetch(email, path, {
    method: "POST",
    headers: { prefer: "return=representation" },
    body: JSON.stringify(body),
  });
  expect(res.status, res.text).toBeLessThan(300);
  return res.body as T;
}

// A product of its own with no stock, bought from the first supplier into the first location (its reorder level),
// and a submitted sales order for 25 of it: short by all 25.
async function orderShortOfStock() {
  const stamp = Date.now().toString(36);
  const name = `Brass gate valve ${stamp}`;
  const [product] = await post<Array<{ id: number }>>(ADMIN, "product", {
    sku: `E2E-P2P-${stamp}`,
    name,
    cost: "7.5",
    price: "15",
  });
  const [location] = (await restFetch(WAREHOUSE, "location?select=id,name&order=id&limit=1")).body as Array<{
    id: number;
    name: string;
  }>;
  const [supplier] = (await restFetch(BUYER, "company?select=id,name&is_supplier=is.true&order=id&limit=1"))
    .body as Array<{ id: number; name: string }>;
  await post(WAREHOUSE, "reorder_level", {
    product_id: product.id,
    location_id: location.id,
    min_qty: "5",
    reorder_qty: "25",
    supplier_id: supplier.id,
  });
  const [customer] = (await restFetch(ADMIN, "company?select=id&is_customer=is.true&order=id&limit=1")).body as Array<{
    id: number;
  }>;
  const order = await post<{ id: number }>(ADMIN, "rpc/document_save", {
    type: "sales_order",
    header: { company_id: customer.id },
    lines: [{ product_id: product.id, qty: "25" }],
  });
  await post(ADMIN, "rpc/document_transition", { type: "sales_order", id: order.id, action: "submit" });
  return { orderId: order.id, product: { id: product.id, name }, supplier };
}

const status = (page: Page, label: string) => page.locator("h1 + [data-status]", { hasText: label }).waitFor();
const act = (page: Page, name: string) =>
  page.getByTestId("doc-actions").getByRole("button", { name, exact: true }).click();
const title = async (page: Page, type: string) =>
  ((await page.getByTestId("doc-title").textContent()) ?? "").replace(type, "").trim();

// A photo of the supplier's paper delivery order, as a phone would take it: the page itself, captured as a PNG.
async function photoOfDeliveryOrder(page: Page): Promise<Buffer> {
  return page.screenshot({ type: "png", clip: { x: 0, y: 0, width: 640, height: 360 } });
}

describe.skipIf(!hasChromium)("procure to pay in Chromium", () => {
  const fresh = useFreshBrowser();

  beforeAll(async () => {
    server = await startTestServer({ SEED: "demo", LOG_LEVEL: "silent" });
    useServer(server.url);
  }, 600_000);
  afterAll(() => server?.close());

  it("a PO from an order short of stock → two receipts with a DO photo → an invoice 8% over, held → released and paid", async () => {
    const { page } = fresh;
    // The refusals' own words, to tell why a step failed.
    const refusals: string[] = [];
    page.on("response", async (r) => {
      if (r.status() >= 400) refusals.push(`${r.status()} ${await r.text().catch(() => "")}`);
    });
    try {
      await journey(page);
    } catch (err) {
      await screenshot(page, "procure-to-pay-failed");
      console.error(refusals);
      throw err;
    }
    expect(fresh.errors.filter((e) => !/^(409|422) /.test(e))).toEqual([]);
  }, 300_000);

  async function journey(page: Page) {
    await page.setViewportSize({ width: 1400, height: 900 });
    const { orderId, product, supplier } = await orderShortOfStock();

    // The buyer drafts the purchase order from the sales order, opens it and submits it.
    await signIn(page, BUYER);
    await page.goto(appUrl(`/dashboard/sales-orders/${orderId}`));
    await page.getByRole("button", { name: "Purchase what is short" }).click();
    const drafted = page.getByRole("dialog", { name: "Purchase orders drafted" });
    await drafted.waitFor();
    expect(await drafted.textContent()).toContain(supplier.name);
    await screenshot(page, "procure-to-pay-1-purchase-what-is-short");
    await drafted.getByRole("link").first().click();
    await page.waitForURL(/\/dashboard\/purchase-orders\/\d+$/);
    await page.getByText(product.name).first().waitFor();
    expect(await page.getByLabel("Quantity, line 1").inputValue()).toBe("25");
    await act(page, "Submit");
    await status(page, "To Receive and Bill");
    const poNumber = await title(page, "Purchase order");
    expect(poNumber).toMatch(/^PO-\d{4}-\d{5}$/);
    await screenshot(page, "procure-to-pay-2-purchase-order-submitted");
    const poUrl = page.url();

    // The warehouse receives 10 now, with a photo of the supplier's DO attached to the receipt.
    await signIn(page, WAREHOUSE);
    await page.goto(poUrl);
    await status(page, "To Receive and Bill");
    await page.getByRole("button", { name: "Create supplier delivery order" }).click();
    await page.waitForURL(/\/dashboard\/supplier-delivery-orders\/\d+$/);
    await page.getByLabel("Quantity, line 1").fill("10");
    await page.getByLabel("Supplier's DO number").fill("PPL-DO-5521");
    await act(page, "Submit");
    await status(page, "To Bill");
    const photo = await photoOfDeliveryOrder(page);
    await page.getByRole("tab", { name: "Files" }).click();
    await page
      .getByLabel("Attach files")
      .setInputFiles({ name: "supplier-do-PPL-DO-5521.png", mimeType: "image/png", buffer: photo });
    await page.getByText("supplier-do-PPL-DO-5521.png").waitFor();
    await screenshot(page, "procure-to-pay-3-first-receipt-with-photo");

    // The rest: 20 is more than the 15 left — refused in words, and the receipt stays a draft.
    await page.goto(poUrl);
    await status(page, "To Receive and Bill");
    await page.getByRole("button", { name: "Create supplier delivery order" }).click();
    await page.waitForURL(/\/dashboard\/supplier-delivery-orders\/\d+$/);
    expect(await page.getByLabel("Quantity, line 1").inputValue()).toBe("15");
    await page.getByLabel("Quantity, line 1").fill("20");
    const refused = page.waitForResponse((r) => r.url().endsWith("/rpc/document_transition") && r.status() === 409);
    await act(page, "Submit");
    const said = "Only 15 of 25 are left to receive on line 1";
    expect(((await (await refused).json()) as { message: string }).message).toBe(said);
    await page
      .getByText(said)
      .first()
      .waitFor({ timeout: 10_000 })
      .catch(() => undefined);
    expect.soft((await page.getByRole("status").allTextContents()).join(" | ")).toContain(said);
    await status(page, "Draft");
    await screenshot(page, "procure-to-pay-4-over-receipt-refused");
    await page.getByLabel("Quantity, line 1").fill("15");
    await act(page, "Submit");
    await status(page, "To Bill");
    await page.goto(poUrl);
    await status(page, "To Bill");

    // Accounts enters the supplier's invoice from the order: 25 at 8.10, 8% above the order's 7.50.
    await signIn(page, ACCOUNTS);
    await page.goto(poUrl);
    await page.getByRole("button", { name: "Create supplier invoice" }).click();
    await page.waitForURL(/\/dashboard\/supplier-invoices\/\d+$/);
    await page.getByLabel("Supplier's number", { exact: true }).fill(`PPL-INV-${Date.now().toString(36)}`);
    await page.getByLabel("Unit price, line 1").fill("8.10");
    // Submit waits for the number to be saved (its guard reads the stored draft).
    await page.getByRole("button", { name: "Save draft" }).click();
    await page.getByRole("status").filter({ hasText: "Draft saved" }).waitFor();
    await act(page, "Submit");
    await status(page, "Unpaid");
    const total = ((await page.getByTestId("totals-total").textContent()) ?? "").replace(/[^\d.]/g, "");
    expect(Number(total)).toBeGreaterThan(202.5); // 25 × 8.10 and its GST
    const invoiceNumber = await title(page, "Supplier invoice");
    expect(invoiceNumber).toMatch(/^[A-Z]+-\d{4}-\d{5}$/);
    await screenshot(page, "procure-to-pay-5-supplier-invoice-held");
    const invoiceUrl = page.url();

    // The three-way queue holds it, for its price.
    await page.goto(appUrl("/dashboard/three-way-check"));
    const held = page.getByTestId("three-way-table").getByRole("row").filter({ hasText: invoiceNumber });
    await held.waitFor();
    expect(await held.textContent()).toMatch(/Price 8\.10 is above/);
    await screenshot(page, "procure-to-pay-6-three-way-queue");

    // The finance manager releases it with the reason, then pays it from Accounts payable.
    await signIn(page, FINANCE);
    await page.goto(invoiceUrl);
    await status(page, "Unpaid");
    await act(page, "Release to pay");
    const why = page.getByRole("dialog");
    await why.getByLabel("Reason").fill("Brass surcharge agreed with the supplier by e-mail");
    await why.getByRole("button", { name: "Release to pay" }).click();
    await why.waitFor({ state: "hidden" });
    await page
      .getByText(/released/i)
      .first()
      .waitFor();
    await screenshot(page, "procure-to-pay-7-released");

    await page.goto(appUrl("/dashboard/accounts-payable"));
    await page.getByRole("button", { name: `Show the open invoices of ${supplier.name}` }).click();
    const mine = page.getByRole("table", { name: `Open invoices of ${supplier.name}` });
    await mine.getByLabel(`Choose ${invoiceNumber}`).check();
    await page.getByRole("button", { name: "Pay 1 chosen" }).click();
    const pay = page.getByRole("dialog", { name: `Pay ${supplier.name}` });
    await expect.poll(() => pay.getByLabel(`Pay on ${invoiceNumber}`).inputValue()).toBe(total);
    await screenshot(page, "procure-to-pay-8-pay-dialog");
    await pay.getByRole("button", { name: "Record payment" }).click();
    await pay.waitFor({ state: "hidden" });
    await page.goto(invoiceUrl);
    await status(page, "Paid");
    await screenshot(page, "procure-to-pay-9-invoice-paid");
  }
});
