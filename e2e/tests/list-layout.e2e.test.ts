import { describe, expect, it } from "vitest";
import {
  appUrl,
  fillDate,
  hasChromium,
  openBrowser,
  screenshot,
  signIn,
  useFreshBrowser,
  watchErrors,
} from "../browser.ts";

// The generic list's paging and its layout on a phone (found by a new-user pass over the master-data screens).
const footer = ".MuiTablePagination-displayedRows";

describe.skipIf(!hasChromium)("the generic list's paging and narrow layout", () => {
  const fresh = useFreshBrowser();

  it("a new page size starts again at the first page", async () => {
    const { page, errors } = fresh;
    await signIn(page, "admin@demo.test");
    await page.goto(appUrl("/dashboard/products"));
    await page.locator(footer, { hasText: /^1–50 of / }).waitFor();
    await page.getByRole("button", { name: "Go to next page" }).click();
    await page.locator(footer, { hasText: /^51–100 of / }).waitFor();
    await page.getByRole("combobox", { name: /Rows per page/ }).click();
    await page.getByRole("option", { name: "100" }).click();
    await page.locator(footer, { hasText: /^1–100 of / }).waitFor();
    expect(new URL(page.url()).searchParams.get("page") ?? "1").toBe("1");
    expect(errors).toEqual([]);
  });

  it("keeps the name column readable at 390 px", async () => {
    const browser = await openBrowser({ width: 390, height: 844 });
    try {
      const page = await browser.context.newPage();
      const errors = watchErrors(page);
      await signIn(page, "admin@demo.test");
      await page.goto(appUrl("/dashboard/products"));
      const header = page.getByRole("columnheader", { name: "Name" });
      await header.waitFor();
      expect((await header.boundingBox())?.width ?? 0).toBeGreaterThanOrEqual(180);
      await screenshot(page, "list-narrow");
      // A document list's filters fold behind one button on a phone (issue 21 §1): the rows are on the first screen.
      await page.goto(appUrl("/dashboard/invoices"));
      const fold = page.locator("button", { hasText: /^Filters$/ });
      await fold.waitFor();
      expect(await page.getByRole("group", { name: "From" }).count()).toBe(0);
      await fold.click();
      await fillDate(page.getByRole("group", { name: "From" }), "2026-01-01");
      await page.waitForURL(/from=2026-01-01/);
      await page.getByRole("button", { name: "Hide filters" }).click();
      await page.locator("button", { hasText: /^Filters \(1\)$/ }).waitFor();
      await screenshot(page, "list-narrow-filters");
      expect(errors).toEqual([]);
    } finally {
      await browser.close();
    }
  });
});
