import { describe, expect, it } from "vitest";
import { restFetch } from "../../apps/server/test/rest-helpers.ts";
import { appUrl, fillDate, hasChromium, openBrowser, screenshot, signIn, useFreshBrowser } from "../browser.ts";

// Issue 12 "Books": an accountant posts a manual journal — while it does not balance the form shows by how much and
// Post waits, saying why; a line added from the keyboard balances it — and a finance manager sets a lock date, after
// which a journal dated in the locked period is refused naming the date. The lock date is far in the past (and
// cleared after), so the other journeys sharing this server still post.

const ACCOUNTS = "accounts@demo.test";
const FINANCE = "finance@demo.test";
const LOCK = "2001-12-31";

const setLock = (lock_date: string | null) =>
  restFetch(FINANCE, "rpc/books_settings_set", { method: "POST", body: JSON.stringify({ lock_date }) });

describe.skipIf(!hasChromium)("the books in Chromium", () => {
  const t = useFreshBrowser();

  it("an accountant posts a manual journal once the form shows it balances; finance sets a lock date", async () => {
    const page = t.page;
    const memo = `Bank charges ${Date.now()}`;
    await signIn(page, ACCOUNTS);
    await page.goto(appUrl("/dashboard/journal"));
    await page.getByRole("heading", { name: "Journal" }).waitFor();
    await page.getByRole("button", { name: "New journal" }).click();
    const form = page.getByRole("dialog", { name: "New journal entry" });
    await form.getByLabel(/^Memo/).fill(memo);
    await form.getByLabel("Line 1 account").fill("6100");
    await page.getByRole("option", { name: /^6100 Bank Charges/ }).click();
    await form.getByLabel("Line 1 debit").fill("120");
    await form.getByLabel("Line 2 account").fill("Bank SGD");
    await page.getByRole("option", { name: /^1010 Bank SGD/ }).click();
    await form.getByLabel("Line 2 credit").fill("100");
    // The running totals say by how much it is out, and Post waits, saying why (the domain's check, as the server's).
    await expect(form.getByTestId("out-of-balance").textContent()).resolves.toBe("Out of balance by 20.00");
    await expect(form.getByTestId("journal-debits").textContent()).resolves.toBe("120.00");
    const postEntry = form.getByRole("button", { name: "Post entry" });
    await expect(postEntry.isDisabled()).resolves.toBe(true);
    await expect(form.getByTestId("post-blocker").textContent()).resolves.toBe(
      "The entry does not balance: debits 120.00 and credits 100.00 differ by 20.00",
    );
    await screenshot(page, "books-journal-unbalanced");
    // From the keyboard: Enter in the last credit adds a line with its account focused; pick, Tab, Tab, type.
    await form.getByLabel("Line 2 credit").press("Enter");
    await page.keyboard.type("1000 Cash");
    await page.getByRole("option", { name: /^1000 Cash/ }).waitFor();
    await page.keyboard.press("Enter");
    await page.keyboard.press("Tab");
    await page.keyboard.press("Tab");
    await page.keyboard.type("20");
    await expect(form.getByLabel("Line 3 credit").inputValue()).resolves.toBe("20");
    await form.getByText("Balanced", { exact: true }).waitFor();
    await expect(form.getByTestId("post-blocker").count()).resolves.toBe(0);
    await postEntry.click();
    const toast = page.getByText(/^JE-\d{4}-\d{5} posted$/);
    await toast.waitFor();
    const number = ((await toast.textContent()) ?? "").slice(0, 13);
    // The new entry is listed, opened on its lines.
    await page
      .getByRole("table", { name: `Lines of ${number}` })
      .getByText("6100 Bank Charges")
      .waitFor();
    await expect(
      page
        .getByRole("row", { name: new RegExp(number) })
        .first()
        .textContent(),
    ).resolves.toMatch(memo);
    await screenshot(page, "books-journal-posted");

    const other = await openBrowser();
    try {
      const finance = await other.context.newPage();
      await signIn(finance, FINANCE);
      await finance.goto(appUrl("/dashboard/period-close"));
      await finance.getByRole("heading", { name: "Lock date" }).waitFor();
      await fillDate(finance.getByRole("group", { name: "Lock date" }), LOCK);
      await finance.getByRole("button", { name: "Save" }).click();
      // The page spells the date as the workspace's locale does (en-SG, issue 21 §1), as the server's refusal does.
      await expect
        .poll(() => finance.getByTestId("lock-date-summary").textContent(), { timeout: 30_000 })
        .toMatch(/^The books are locked up to 31 Dec 2001: nothing can be posted on or before/);
      await screenshot(finance, "books-period-close");

      // The accountant's journal dated in the locked period is refused, naming the date.
      await page.getByRole("button", { name: "New journal" }).click();
      const again = page.getByRole("dialog", { name: "New journal entry" });
      await fillDate(again.getByRole("group", { name: /^Date/ }), "2001-06-30");
      await again.getByLabel(/^Memo/).fill("Back-dated");
      await again.getByLabel("Line 1 account").fill("6100");
      await page.getByRole("option", { name: /^6100 Bank Charges/ }).click();
      await again.getByLabel("Line 1 debit").fill("5");
      await again.getByLabel("Line 2 account").fill("1010");
      await page.getByRole("option", { name: /^1010 Bank SGD/ }).click();
      await again.getByLabel("Line 2 credit").fill("5");
      await again.getByRole("button", { name: "Post entry" }).click();
      await expect(again.getByRole("alert").textContent()).resolves.toBe(
        "The books are locked up to 31 Dec 2001: nothing can be posted on or before that date.",
      );
      await screenshot(page, "books-journal-locked");
    } finally {
      await other.close();
      expect((await setLock(null)).status).toBe(200);
    }
  }, 300_000);
});
