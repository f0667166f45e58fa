import { describe, expect, it } from "vitest";
import { appUrl, hasChromium, openBrowser, screenshot, signIn, useFreshBrowser, watchErrors } from "../browser.ts";

// Issue 21 §1 "Finding your way": the command palette (Ctrl/⌘-K or the top bar's search button) finds pages, makes
// documents, reopens what was opened lately and finds companies by name — only what the person may open; the
// sidebar's groups fold and stay folded.

// Slow shared machines: the palette's code and a page's code come over a busy server.
const poll = <T>(fn: () => Promise<T> | T) => expect.poll(fn, { timeout: 20_000 });

const palette = (page: import("playwright-core").Page) =>
  page.getByRole("dialog", { name: "Search pages, documents, companies and products" });

describe.skipIf(!hasChromium)("the command palette and the folding sidebar", () => {
  const fresh = useFreshBrowser();

  it("the owner opens a page and a new invoice from the keyboard, finds a company and reopens it from Recent", async () => {
    const { page, errors } = fresh;
    await page.setViewportSize({ width: 1440, height: 900 });
    await signIn(page, "owner@demo.test");
    await page.getByRole("navigation", { name: "Dashboard" }).waitFor();
    await page.keyboard.press("Control+k");
    const dialog = palette(page);
    await dialog.waitFor();
    const search = dialog.getByRole("combobox", { name: "Quick search" });
    await poll(() => search.evaluate((el) => el === document.activeElement)).toBe(true);
    await search.fill("inv");
    const options = dialog.getByRole("option");
    await poll(() => options.first().textContent()).toMatch(/^Invoices/);
    await dialog
      .getByRole("group", { name: "Create" })
      .getByRole("option", { name: /^New invoice/ })
      .waitFor();
    await screenshot(page, "command-palette-1440");
    await page.keyboard.press("Enter");
    await page.waitForURL(/\/dashboard\/invoices$/);
    await poll(() => dialog.isVisible()).toBe(false);

    // Down to "New invoice" with the arrow keys: the first Create entry after the pages that match.
    await page.keyboard.press("Control+k");
    await search.fill("new invoice");
    await poll(() => options.first().textContent()).toMatch(/^New invoice/);
    await page.keyboard.press("ArrowDown");
    await page.keyboard.press("ArrowUp");
    await page.keyboard.press("Enter");
    await page.waitForURL(/\/dashboard\/invoices\/new$/);

    // A company by name (the server's ilike search), then Esc closes without going anywhere.
    await page.keyboard.press("Control+k");
    await search.fill("marina b");
    const company = dialog.getByRole("group", { name: "Companies" }).getByRole("option", { name: /Marina Bay Hotels/ });
    await company.waitFor();
    await company.click();
    await page.waitForURL(/\/dashboard\/companies\/\d+$/);
    const companyUrl = page.url();
    // (the page itself, not the closing palette's option: the visit counts once the page is shown)
    await page.locator("main").getByText("Marina Bay Hotels Pte Ltd").first().waitFor();
    await page.goto(appUrl("/dashboard"));
    await page.getByRole("navigation", { name: "Dashboard" }).waitFor();
    await page.getByRole("heading", { name: /Welcome/ }).waitFor();
    await page.keyboard.press("Control+k");
    await search.fill("zzzz-nothing");
    await dialog.getByText("Nothing matches “zzzz-nothing”.").waitFor();
    await search.fill("");
    const recent = dialog
      .getByRole("group", { name: "Recently opened" })
      .getByRole("option", { name: /Marina Bay Hotels/ });
    await recent.waitFor();
    await page.keyboard.press("Escape");
    await poll(() => dialog.isVisible()).toBe(false);
    expect(page.url()).toMatch(/\/dashboard$/);
    await page.keyboard.press("Control+k");
    await recent.click();
    await page.waitForURL(companyUrl);
    expect(errors).toEqual([]);
  });

  it("a salesperson is not offered the pages or documents their role may not open", async () => {
    const { page, errors } = fresh;
    await signIn(page, "sales@demo.test");
    await page.getByRole("navigation", { name: "Dashboard" }).waitFor();
    await page.keyboard.press("Control+k");
    const dialog = palette(page);
    const search = dialog.getByRole("combobox", { name: "Quick search" });
    await search.fill("journal");
    await dialog.getByText("Nothing matches “journal”.").waitFor();
    await search.fill("permissions");
    await dialog.getByText("Nothing matches “permissions”.").waitFor();
    // They read invoices but do not make them; they make quotations.
    await search.fill("inv");
    await dialog.getByRole("option", { name: /^Invoices/ }).waitFor();
    expect(await dialog.getByRole("option", { name: /^New invoice/ }).count()).toBe(0);
    await search.fill("quot");
    await dialog.getByRole("option", { name: /^New quotation/ }).waitFor();
    expect(errors).toEqual([]);
  });

  it("a sidebar group folds and stays folded after a reload; the current page's group stays open", async () => {
    const { page, errors } = fresh;
    await page.setViewportSize({ width: 1440, height: 900 });
    await signIn(page, "owner@demo.test");
    const nav = page.getByRole("navigation", { name: "Dashboard" });
    const purchasing = nav.getByRole("button", { name: "Purchasing" });
    await purchasing.waitFor();
    expect(await purchasing.getAttribute("aria-expanded")).toBe("true");
    await nav.getByRole("link", { name: "Purchase orders" }).waitFor();
    await purchasing.click();
    expect(await purchasing.getAttribute("aria-expanded")).toBe("false");
    await poll(() => nav.getByRole("link", { name: "Purchase orders" }).count()).toBe(0);
    await page.reload();
    await nav.getByRole("button", { name: "Sales" }).waitFor();
    expect(await purchasing.getAttribute("aria-expanded")).toBe("false");
    expect(await nav.getByRole("link", { name: "Purchase orders" }).count()).toBe(0);
    await screenshot(page, "sidebar-folded-1440");
    // Reaching a page of the folded group (here from the palette) opens it.
    await page.keyboard.press("Control+k");
    await palette(page).getByRole("combobox", { name: "Quick search" }).fill("purchase orders");
    await page.keyboard.press("Enter");
    await page.waitForURL(/\/dashboard\/purchase-orders$/);
    // (the navigation is a transition: the sidebar follows once the page's code has come)
    await poll(() => purchasing.getAttribute("aria-expanded")).toBe("true");
    expect(errors).toEqual([]);
  });

  it("at 390×844 the palette opens from the top bar's search button", async () => {
    const browser = await openBrowser({ width: 390, height: 844 });
    try {
      const page = await browser.context.newPage();
      const errors = watchErrors(page);
      await signIn(page, "owner@demo.test");
      const button = page.getByRole("button", { name: "Quick search" });
      await button.click();
      const dialog = palette(page);
      await dialog.waitFor();
      const box = await dialog.boundingBox();
      expect(box?.width ?? 0).toBeLessThanOrEqual(390);
      await dialog.getByRole("combobox", { name: "Quick search" }).fill("prod");
      const products = dialog.getByRole("option", { name: /^Products/ });
      await products.waitFor();
      await screenshot(page, "command-palette-390");
      await products.click();
      await page.waitForURL(/\/dashboard\/products$/);
      expect(errors).toEqual([]);
    } finally {
      await browser.close();
    }
  });
});
