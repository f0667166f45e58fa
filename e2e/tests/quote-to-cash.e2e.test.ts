import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../apps/server/test/harness.ts";
import { useServer } from "../../apps/server/test/http.ts";
import { restFetch } from "../../apps/server/test/rest-helpers.ts";
import { DEMO_PASSWORD, hasChromium, screenshot, useFreshBrowser } from "../browser.ts";

// Issue 10 §3 and §5: quote to cash through the document pages. A salesperson quotes two products by keyboard and
// sends the quotation; the sales manager makes the order, delivers it in two parts, invoices it and records a
// partial payment; the order's flow shows what was delivered and billed, the invoice is Partly paid. And a
// quotation without lines cannot be sent: the page says why, and nothing changes. A server of its own with the
// demo's year of trading, so there is stock to deliver from.

let server: TestServer;

const appUrl = (pathname: string) => {
  const u = new URL(pathname, server.url);
  u.hostname = "localhost";
  return u.toString();
};

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

const SALES = "sales@demo.test";
const MANAGER = "manager@demo.test";

type OnHand = { product_id: number; location_id: number; qty: string };
type Product = { id: number; sku: string; name: string; price: string; cost: string };

// Two active products priced at or above cost with at least 10 in stock at one location, and that location.
async function stockedPair(): Promise<{ products: Product[]; location: { id: number; name: string } }> {
  const stock = (await restFetch(MANAGER, "rpc/stock_on_hand", { method: "POST", body: "{}" })).body as OnHand[];
  const byLocation = new Map<number, number[]>();
  for (const s of stock) {
    if (Number(s.qty) >= 10) byLocation.set(s.location_id, [...(byLocation.get(s.location_id) ?? []), s.product_id]);
  }
  for (const [locationId, ids] of byLocation) {
    const res = await restFetch(
      MANAGER,
      `product?select=id,sku,name,price,cost&active=is.true&id=in.(${ids.join(",")})&order=id`,
    );
    const fit = (res.body as Product[]).filter((p) => Number(p.price) >= Number(p.cost) && Number(p.price) > 0);
    // Names that are not part of each other, so typing one finds only it first.
    const pair = fit.filter((p, _, all) => !all.some((o) => o.id !== p.id && o.name.includes(p.name))).slice(0, 2);
    if (pair.length === 2) {
      const loc = (await restFetch(MANAGER, `location?select=id,name&id=eq.${locationId}`)).body as Array<{
        id: number;
        name: string;
      }>;
      return { products: pair, location: loc[0] };
    }
  }
  throw new Error("The demo data has no two products with stock at one location");
}

async function customerName(): Promise<string> {
  const res = await restFetch(SALES, "company?select=name&is_customer=is.true&order=id&limit=1");
  return (res.body as Array<{ name: string }>)[0].name;
}

// The open autocomplete's choices (the lines' tax code selects have options too).
const choices = (page: Page) => page.locator(".MuiAutocomplete-popper").getByRole("option");

// Types into an autocomplete and takes the option that appears first for it, by keyboard.
async function pick(page: Page, label: string, text: string, expected = text) {
  await page.waitForLoadState("networkidle");
  const input = page.getByRole("combobox", { name: label, exact: true });
  await input.click();
  await input.fill(text);
  await choices(page).first().filter({ hasText: expected }).waitFor();
  await input.press("Enter");
  await expect.poll(() => input.inputValue()).toBe(expected);
}

const status = (page: Page) => page.locator("h1 + [data-status]");

async function expectStatus(page: Page, label: string) {
  await page.locator("h1 + [data-status]", { hasText: label }).waitFor();
}

async function act(page: Page, name: string) {
  await page.getByTestId("doc-actions").getByRole("button", { name, exact: true }).click();
}

describe.skipIf(!hasChromium)("quote to cash in Chromium", () => {
  const fresh = useFreshBrowser();

  beforeAll(async () => {
    server = await startTestServer({ SEED: "demo", LOG_LEVEL: "silent" });
    useServer(server.url);
  }, 600_000);
  afterAll(() => server?.close());

  it("quotation → order → two deliveries → invoice → partial payment, with the flow to show it", async () => {
    const { page } = fresh;
    try {
      await journey(page);
    } catch (err) {
      await screenshot(page, "quote-to-cash-failed");
      throw err;
    }
  });

  async function journey(page: Page) {
    await page.setViewportSize({ width: 1400, height: 900 });
    const { products, location } = await stockedPair();
    const customer = await customerName();

    // The salesperson quotes two products, by keyboard.
    await signIn(page, SALES);
    await page.goto(appUrl("/dashboard/quotations"));
    await page.getByRole("button", { name: "New quotation" }).click();
    await page.waitForURL(/\/dashboard\/quotations\/new$/);
    // The list (with its own Customer filter) stays until the document page's code has loaded.
    await page.getByRole("button", { name: "Save draft" }).waitFor();
    await pick(page, "Customer", customer);
    await pick(page, "Product, line 1", products[0].name);
    // Picking the product filled its price and moved on to the quantity.
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute("aria-label")))
      .toBe("Quantity, line 1");
    await page.keyboard.type("5");
    for (let i = 0; i < 4; i++) await page.keyboard.press("Enter"); // price, discount, tax, → a new line
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute("aria-label")))
      .toBe("Product, line 2");
    await page.keyboard.type(products[1].name);
    await choices(page).first().filter({ hasText: products[1].name }).waitFor();
    await page.keyboard.press("Enter");
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute("aria-label")))
      .toBe("Quantity, line 2");
    await page.keyboard.type("3");
    // The totals follow as they are typed.
    const expected = (Number(products[0].price) * 5 + Number(products[1].price) * 3).toFixed(2);
    await expect
      .poll(async () => (await page.getByTestId("totals-subtotal").textContent())?.replace(/[^\d.]/g, ""))
      .toBe(expected);
    await screenshot(page, "quote-to-cash-1-quotation-draft");
    await page.getByRole("button", { name: "Save draft" }).click();
    await page.waitForURL(/\/dashboard\/quotations\/\d+$/);
    await act(page, "Mark as sent");
    await expectStatus(page, "Sent");
    const quoteNumber = ((await page.getByTestId("doc-title").textContent()) ?? "").replace("Quotation", "").trim();
    expect(quoteNumber).toMatch(/^QT-\d{4}-\d{5}$/);
    await screenshot(page, "quote-to-cash-2-quotation-sent");
    const quoteUrl = page.url();

    // The customer accepts: the manager makes the sales order and submits it.
    await signIn(page, MANAGER);
    await page.goto(quoteUrl);
    await page.getByRole("button", { name: "Create sales order" }).click();
    await page.waitForURL(/\/dashboard\/sales-orders\/\d+$/);
    await act(page, "Submit");
    await expectStatus(page, "To Deliver and Bill");
    const orderUrl = page.url();

    // The first delivery: 2 of the 5, and all 3 of the second product.
    await page.getByRole("button", { name: "Create delivery order" }).click();
    await page.waitForURL(/\/dashboard\/delivery-orders\/\d+$/);
    await pick(page, "Location", location.name);
    await page.getByLabel("Quantity, line 1").fill("2");
    await act(page, "Submit");
    await expectStatus(page, "To Bill");
    await screenshot(page, "quote-to-cash-3-first-delivery");

    // The rest.
    await page.goto(orderUrl);
    await expectStatus(page, "To Deliver and Bill");
    await page.getByRole("button", { name: "Create delivery order" }).click();
    await page.waitForURL(/\/dashboard\/delivery-orders\/\d+$/);
    expect(await page.getByLabel("Quantity, line 1").inputValue()).toBe("3");
    await pick(page, "Location", location.name);
    await act(page, "Submit");
    await expectStatus(page, "To Bill");

    // The invoice, from the order.
    await page.goto(orderUrl);
    await expectStatus(page, "To Bill");
    await page.getByRole("button", { name: "Create invoice" }).click();
    await page.waitForURL(/\/dashboard\/invoices\/\d+$/);
    await act(page, "Submit");
    await expectStatus(page, "Unpaid");
    const total = Number(((await page.getByTestId("totals-total").textContent()) ?? "").replace(/[^\d.]/g, ""));

    // A partial payment.
    await page.getByRole("button", { name: "Record payment" }).click();
    const dialog = page.getByRole("dialog");
    const part = (Math.floor((total / 2) * 100) / 100).toFixed(2);
    await dialog.getByLabel(/^Amount/).fill(part);
    await dialog.getByRole("button", { name: "Record payment" }).click();
    await expectStatus(page, "Partly paid");
    await expect
      .poll(async () => (await page.getByTestId("totals-outstanding").textContent())?.replace(/[^\d.]/g, ""))
      .toBe((total - Number(part)).toFixed(2));
    await screenshot(page, "quote-to-cash-4-invoice-partly-paid");
    // The numbered invoice prints: its PDF button opens the PDF route with the session.
    const pdf = await page.getByRole("link", { name: "PDF" }).getAttribute("href");
    expect(pdf).toMatch(/^\/api\/documents\/invoice\/\d+\/pdf$/);
    const printed = await page.request.get(appUrl(pdf as string));
    expect(printed.status()).toBe(200);
    expect(printed.headers()["content-type"]).toContain("application/pdf");

    // The order's flow: both lines delivered and billed in full, each delivery a link.
    await page.goto(orderUrl);
    await expectStatus(page, "Completed");
    await page.getByRole("tab", { name: "Flow" }).click();
    const line1 = page.getByTestId("flow-line-1");
    await expect.poll(() => line1.getByTestId("flow-qty_delivered").textContent()).toBe("5");
    expect(await line1.getByTestId("flow-qty_billed").textContent()).toBe("5");
    expect(await line1.getByRole("link", { name: /^DO-\d{4}-\d{5}$/ }).count()).toBe(2);
    expect(await page.getByTestId("flow-line-2").getByTestId("flow-qty_delivered").textContent()).toBe("3");
    await page.getByRole("tab", { name: "History" }).click();
    await page.getByRole("table", { name: "History" }).getByText("Submit").first().waitFor();
    await page.getByRole("tab", { name: "Flow" }).click();
    await screenshot(page, "quote-to-cash-5-order-flow");

    // The invoice list: the chip, the filter by status, the totals under it.
    await page.goto(appUrl("/dashboard/invoices?status=partly_paid"));
    await page.getByTestId("list-totals").getByText("Outstanding").waitFor();
    await screenshot(page, "quote-to-cash-6-invoices-list");

    // A phone.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(orderUrl);
    await expectStatus(page, "Completed");
    await screenshot(page, "quote-to-cash-7-order-phone");
    await page.goto(appUrl("/dashboard/quotations"));
    await page.getByRole("grid", { name: "Quotations" }).waitFor();
    await screenshot(page, "quote-to-cash-8-quotations-phone");
  }

  it("a quotation without a customer is not saved, and one without lines cannot be sent; nothing changes", async () => {
    const { page } = fresh;
    await signIn(page, SALES);
    await page.goto(appUrl("/dashboard/quotations/new"));
    await page.getByRole("button", { name: "Save draft" }).waitFor();
    await page.getByRole("button", { name: "Save draft" }).click();
    await page
      .getByText(/customer/i)
      .first()
      .waitFor();
    expect(page.url()).toMatch(/\/quotations\/new$/);

    await pick(page, "Customer", await customerName());
    await page.getByRole("button", { name: "Save draft" }).click();
    await page.waitForURL(/\/dashboard\/quotations\/\d+$/);
    const blocked = page.getByTestId("blocked-submit");
    await blocked.waitFor();
    expect(await blocked.textContent()).toBe("Mark as sent: Add a line before sending the quotation");
    expect(await page.getByTestId("doc-actions").getByRole("button", { name: "Mark as sent" }).isDisabled()).toBe(true);
    expect(await status(page).textContent()).toBe("Draft");
    const id = page.url().split("/").pop();
    const stored = (await restFetch(SALES, `quotation?select=status,number&id=eq.${id}`)).body as Array<{
      status: string;
      number: string | null;
    }>;
    expect(stored).toEqual([{ status: "draft", number: null }]);
    await screenshot(page, "quote-to-cash-9-cannot-send-empty");
  });
});
