import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { openingStock, ownServer } from "../../apps/server/test/own-server-helpers.ts";
import { restFetch } from "../../apps/server/test/rest-helpers.ts";
import { appUrl, hasChromium, screenshot, signIn, useFreshBrowser } from "../browser.ts";

// Issue 11: the warehouse moves stock from Tuas to Ubi on a goods transfer form made on the page — dispatched, then
// received with two short and the reason given, the lines showing what arrived and what is short; a sales manager
// lends two units to a customer, takes one back on the loan's page (Partly Returned), and the loan list shows an
// overdue loan in red. Screenshots of each step.

const WAREHOUSE = "warehouse@demo.test";
const MANAGER = "manager@demo.test";

const call = async (email: string, fn: string, args: unknown) => {
  const res = await restFetch(email, `rpc/${fn}`, { method: "POST", body: JSON.stringify(args) });
  expect(res.status, res.text).toBe(200);
  return res.body as { id: number; number: string; lines: Array<{ id: number }> };
};

const choices = (page: Page) => page.locator(".MuiAutocomplete-popper").getByRole("option");

async function pick(page: Page, label: string, text: string) {
  await page.waitForLoadState("networkidle");
  const input = page.getByRole("combobox", { name: label, exact: true });
  await input.click();
  await input.fill(text);
  await choices(page).first().filter({ hasText: text }).waitFor();
  await input.press("Enter");
  await expect.poll(() => input.inputValue()).toBe(text);
}

const expectStatus = (page: Page, label: string) => page.locator("h1 + [data-status]", { hasText: label }).waitFor();
const act = (page: Page, name: string) =>
  page.getByTestId("doc-actions").getByRole("button", { name, exact: true }).click();

let product = { id: 0, name: "" };
let tuas = { id: 0, name: "" };
let ubi = { id: 0, name: "" };
let company = 0;

describe.skipIf(!hasChromium)("goods transfers and loans in Chromium", () => {
  const own = ownServer({}, 600_000);
  const fresh = useFreshBrowser();

  beforeAll(async () => {
    product = (
      (await restFetch(WAREHOUSE, "product?select=id,name&cost=gt.0&order=id&limit=1")).body as [typeof product]
    )[0];
    const locs = (await restFetch(WAREHOUSE, "location?select=id,code,name&order=code")).body as Array<
      typeof tuas & { code: string }
    >;
    tuas = locs.find((l) => l.code === "WH-TUAS") ?? tuas;
    ubi = locs.find((l) => l.code === "WH-UBI") ?? ubi;
    company = (
      (await restFetch(MANAGER, "company?select=id&is_customer=is.true&order=id&limit=1")).body as [{ id: number }]
    )[0].id;
    await openingStock(own, [product], tuas.id, 50);
  }, 600_000);

  it("a transfer made on the page is dispatched and received two short, with the reason", async () => {
    const { page } = fresh;
    try {
      await page.setViewportSize({ width: 1400, height: 900 });
      await signIn(page, WAREHOUSE, { sub: "demo" });
      await page.goto(appUrl("/dashboard/goods-transfer-forms", "demo"));
      await page.getByRole("button", { name: "New goods transfer form" }).click();
      await page.getByRole("button", { name: "Save draft" }).waitFor();
      expect(await page.getByRole("combobox", { name: "Customer" }).count()).toBe(0);
      await pick(page, "From location", tuas.name);
      await pick(page, "To location", ubi.name);
      await pick(page, "Product, line 1", product.name);
      await page.getByLabel("Quantity, line 1").fill("10");
      await page.getByRole("button", { name: "Save draft" }).click();
      await page.waitForURL(/\/goods-transfer-forms\/\d+$/);
      await expectStatus(page, "Draft");
      await screenshot(page, "transfer-draft");
      await act(page, "Dispatch");
      await expectStatus(page, "In Transit");
      await act(page, "Receive");
      const dialog = page.getByRole("dialog");
      const received = dialog.getByLabel("Received, line 1");
      await expect.poll(() => received.inputValue()).toBe("10");
      await received.fill("8");
      await dialog.getByLabel("Reason for a shortfall").fill("Two cartons crushed in the lorry");
      await screenshot(page, "transfer-receive-dialog");
      await dialog.getByRole("button", { name: "Receive", exact: true }).click();
      await expectStatus(page, "Received");
      const line = page.getByTestId("line-0");
      await line.getByText("8", { exact: true }).waitFor();
      await line.getByText("2", { exact: true }).waitFor();
      await page.getByText("Two cartons crushed in the lorry").waitFor();
      await screenshot(page, "transfer-received");
    } catch (err) {
      await screenshot(page, "transfer-failed");
      throw err;
    }
  });

  it("a loan is lent, one unit comes back on its page, and an overdue loan shows in the list", async () => {
    const { page } = fresh;
    try {
      await page.setViewportSize({ width: 1400, height: 900 });
      const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
      const loan = await call(MANAGER, "document_save", {
        type: "loan_form",
        header: { company_id: company, location_id: tuas.id, due_date: day(14), deposit: "300" },
        lines: [{ product_id: product.id, qty: "2" }],
      });
      const late = await call(MANAGER, "document_save", {
        type: "loan_form",
        header: { company_id: company, location_id: tuas.id, doc_date: day(-30), due_date: day(-2) },
        lines: [{ product_id: product.id, qty: "1" }],
      });
      await call(MANAGER, "document_transition", { type: "loan_form", id: late.id, action: "submit" });
      await signIn(page, MANAGER, { sub: "demo" });
      await page.goto(appUrl(`/dashboard/loan-forms/${loan.id}`, "demo"));
      await expectStatus(page, "Draft");
      await act(page, "Lend");
      await expectStatus(page, "Out");
      await act(page, "Return");
      const dialog = page.getByRole("dialog");
      const back = dialog.getByLabel("Returned, line 1");
      await expect.poll(() => back.inputValue()).toBe("2");
      await back.fill("1");
      await screenshot(page, "loan-return-dialog");
      await dialog.getByRole("button", { name: "Return", exact: true }).click();
      await expectStatus(page, "Partly Returned");
      await screenshot(page, "loan-partly-returned");
      await page.goto(appUrl("/dashboard/loan-forms", "demo"));
      await page.getByText("Overdue").first().waitFor();
      await page.getByText("Partly Returned").first().waitFor();
      await screenshot(page, "loan-list");
    } catch (err) {
      await screenshot(page, "loan-failed");
      throw err;
    }
  });
});
