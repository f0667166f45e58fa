import { describe, expect, it } from "vitest";
import { restFetch } from "../../apps/server/test/rest-helpers.ts";
import { appUrl, fillDate, hasChromium, screenshot, signIn, useFreshBrowser } from "../browser.ts";

// Issue 21 §1: an SGD workspace reads dates the Singapore way (en-SG: dd/mm/yyyy), whatever the browser's own
// language — headless Chromium's is US English, which wrote 12/31/2025 and "Dec 31, 2025" before.
describe.skipIf(!hasChromium)("the workspace's locale", () => {
  const fresh = useFreshBrowser();

  it("a list shows dd/mm/yyyy and the date picker types the day first", async () => {
    const { page, errors } = fresh;
    await signIn(page, "admin@demo.test");
    expect(await page.evaluate(() => navigator.language)).toMatch(/^en(-US)?$/);
    // A holiday of our own on a day past the 12th, so the day cannot pass for a month.
    let day = "";
    for (let i = 0; i < 5 && !day; i++) {
      const candidate = `2026-${String(1 + Math.floor(Math.random() * 12)).padStart(2, "0")}-${13 + Math.floor(Math.random() * 16)}`;
      const res = await restFetch("admin@demo.test", "public_holiday", {
        method: "POST",
        body: JSON.stringify({ date: candidate, name: `Locale day ${candidate}` }),
      });
      if (res.status === 201) day = candidate;
    }
    expect(day).not.toBe("");
    const shown = `${day.slice(8, 10)}/${day.slice(5, 7)}/${day.slice(0, 4)}`;
    await page.goto(appUrl("/dashboard/public-holidays"));
    const grid = page.getByRole("grid", { name: "Public holidays" });
    await grid.getByRole("row").nth(1).waitFor();
    await screenshot(page, "locale-holiday-list");
    // Every date in view is dd/mm/yyyy, none spelled month first.
    const cells = (await grid.getByRole("gridcell").allTextContents()).map((t) => t.trim());
    const dates = cells.filter((t) => /^\d{2}\/\d{2}\/\d{4}$/.test(t));
    expect(dates.length).toBeGreaterThan(0);
    for (const d of dates) expect(Number(d.slice(3, 5)), d).toBeLessThanOrEqual(12); // the month is second
    expect(cells.filter((t) => /^[A-Z][a-z]{2} \d{1,2}, \d{4}$/.test(t))).toEqual([]);
    // The grid renders only the rows in view: find ours by name.
    await page.getByPlaceholder("Search name").fill(`Locale day ${day}`);
    const row = grid.getByRole("row").filter({ hasText: `Locale day ${day}` });
    await row.waitFor();
    await expect(row.getByRole("gridcell").allTextContents()).resolves.toContain(shown);

    // The generic form's picker: its first section is the day.
    await page.goto(appUrl("/dashboard/public-holidays/new"));
    const field = page.getByRole("group", { name: /^Date/ }).first();
    await field.waitFor();
    const sections = await field
      .getByRole("spinbutton")
      .evaluateAll((els) => els.map((e) => e.getAttribute("aria-label")));
    expect(sections).toEqual(["Day", "Month", "Year"]);
    await screenshot(page, "locale-holiday-new");
    expect(errors).toEqual([]);
  });

  it("every screen's own date field is the same picker, day first — no browser date input left", async () => {
    const { page, errors } = fresh;
    await signIn(page, "admin@demo.test");
    const noNative = async () => expect(await page.locator('input[type="date"]').count()).toBe(0);
    const sections = async (group: ReturnType<typeof page.getByRole>) => {
      await group.getByRole("spinbutton").first().waitFor();
      return group.getByRole("spinbutton").evaluateAll((els) => els.map((e) => e.getAttribute("aria-label")));
    };
    // A document list's filter: typed day first, it filters by the day meant.
    await page.goto(appUrl("/dashboard/invoices"));
    const from = page.getByRole("group", { name: "From" });
    await expect(sections(from)).resolves.toEqual(["Day", "Month", "Year"]);
    await fillDate(from, "2026-11-13");
    await page.waitForURL(/from=2026-11-13/);
    await expect(from.textContent()).resolves.toContain("13/11/2026");
    await noNative();
    await screenshot(page, "locale-invoice-filter");
    // A document's header date.
    await page.goto(appUrl("/dashboard/invoices/new"));
    await expect(sections(page.getByRole("group", { name: /^Date/ }).first())).resolves.toEqual([
      "Day",
      "Month",
      "Year",
    ]);
    await noNative();
    // The books: the journal's filters and its new-entry dialog, the chart's "as of", the period close.
    await page.goto(appUrl("/dashboard/journal"));
    await expect(sections(page.getByRole("group", { name: "To" }))).resolves.toEqual(["Day", "Month", "Year"]);
    await page.getByRole("button", { name: "New journal" }).click();
    const dialog = page.getByRole("dialog", { name: "New journal entry" });
    await expect(sections(dialog.getByRole("group", { name: /^Date/ }))).resolves.toEqual(["Day", "Month", "Year"]);
    await noNative();
    await screenshot(page, "locale-journal-dialog");
    await page.keyboard.press("Escape");
    for (const path of ["/dashboard/chart-of-accounts", "/dashboard/period-close"]) {
      await page.goto(appUrl(path));
      await page.getByRole("spinbutton").first().waitFor();
      await noNative();
    }
    expect(errors).toEqual([]);
  });
});
