import type { Locator, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { act, draft, ok, read } from "../../apps/server/test/documents-helpers.ts";
import { ownServer } from "../../apps/server/test/own-server-helpers.ts";
import { appUrl, fillDate, hasChromium, screenshot, signIn, useFreshBrowser } from "../browser.ts";

// Issue 12 "Books", the finance manager's year: opening balances by CSV (a bad row shown per row, the file corrected
// and posted, the trial balance carrying its figures), a year of trading, the year-end close (next year's P&L
// accounts start at zero, retained earnings hold the profit, a posting before the lock date refused naming it) and
// its reopening; then a debit note paid from its own page. A server of its own: the close locks the books.

const FINANCE = "finance@demo.test";
// The last ended year is closed, so the journey holds whatever year it runs in.
const Y = new Date().getFullYear() - 1;
const P = Y - 1;
const N = Y + 1;
const OPENING = `${P}-12-31`;

const csv = (name: string, text: string) => ({ name, mimeType: "text/csv", buffer: Buffer.from(text) });

// A report row's cells as shown, money without its thousands separators: ["3100", "Retained Earnings", …].
async function cells(row: Locator): Promise<string[]> {
  return (await row.getByRole("cell").allTextContents()).map((c) => c.replaceAll(",", "").trim());
}

async function reportRow(page: Page, path: string, code: string): Promise<string[]> {
  await page.goto(appUrl(path));
  const table = page.getByTestId("report-table");
  await table.waitFor();
  return cells(table.getByRole("row").filter({ has: page.getByRole("cell", { name: code, exact: true }) }));
}

async function journal(date: string, memo: string, lines: Array<[string, string, string]>) {
  return ok(FINANCE, "journal_post", {
    date,
    memo,
    lines: lines.map(([account_code, debit, credit]) => ({ account_code, debit, credit })),
  });
}

describe.skipIf(!hasChromium)("opening balances and the year-end close in Chromium", () => {
  ownServer({ SEED: "basic" }, 300_000);
  const t = useFreshBrowser();

  it("finance uploads opening balances: a bad file is refused per row, the corrected one posts once", async () => {
    const page = t.page;
    page.setDefaultTimeout(30_000);
    await signIn(page, FINANCE);
    await page.goto(appUrl("/dashboard/period-close"));
    await page.getByRole("heading", { name: "Opening balances" }).waitFor();
    const file = page.locator('input[type=file][aria-label="Opening balances CSV"]');
    const preview = page.getByRole("button", { name: "Preview" });
    await fillDate(page.getByRole("group", { name: /^As of/ }), OPENING);

    // Not a file of balances at all: its header is refused before anything is sent.
    await file.setInputFiles(csv("contacts.csv", "name,email\nTan,tan@example.com\n"));
    await page
      .getByText("The first line names the columns: account_code,debit,credit or account_code,balance")
      .waitFor();
    await expect(preview.isDisabled()).resolves.toBe(true);

    // One bad row (an account the chart lacks): the preview names it on its row, and nothing can be posted.
    const bad = [
      "account_code,debit,credit",
      "1010,50000.00,",
      "1200,12000,",
      "9999,250,",
      "2000,,8000",
      "3000,,54000",
    ];
    await file.setInputFiles(csv("opening.csv", `${bad.join("\n")}\n`));
    await preview.click();
    const table = page.getByRole("table", { name: "Opening balances preview" });
    const badRow = table.getByRole("row").filter({ hasText: "9999" });
    await badRow.waitFor(); // the preview is the server's answer: its table is not there at the click
    await expect(cells(badRow)).resolves.toEqual(["4", "9999", "250.00", "", "There is no account 9999 in the chart"]);
    await page.getByText("1 row has an error; correct the file and upload it again").waitFor();
    await expect(page.getByRole("button", { name: "Post opening balances" }).count()).resolves.toBe(0);
    await screenshot(page, "books-opening-row-error");

    // Corrected, but not balanced (the 250 gone): the difference is named until a balancing account takes it.
    const fixed = bad.filter((l) => !l.startsWith("9999"));
    await file.setInputFiles(csv("opening.csv", `${[...fixed, "1100,250,"].join("\n")}\n`));
    await preview.click();
    await page
      .getByText(/^Debits 62250.00 and credits 62000.00 differ by 250.00; choose a balancing account/)
      .waitFor();
    await page.getByLabel("Balancing account").click();
    await page.getByRole("option", { name: "3100 Retained Earnings" }).click();
    await preview.click();
    await page.getByText(/^Ready: one entry dated .+ with 6 lines\.$/).waitFor();
    await screenshot(page, "books-opening-ready");
    await page.getByRole("button", { name: "Post opening balances" }).click();
    await page.getByText(new RegExp(`^Opening balances posted as JE-${P}-\\d{5}$`)).waitFor();
    await page
      .getByTestId("opening-posted")
      .getByText(
        new RegExp(`^Opening balances were posted as JE-${P}-\\d{5} on .+ To post them again, reverse that entry`),
      )
      .waitFor();

    // The trial balance at the end of the year before (P) carries the file's figures, and its two columns agree.
    const tb = `/dashboard/reports/trial_balance?from=${P}-01-01&to=${P}-12-31`;
    await expect(reportRow(page, tb, "1010")).resolves.toEqual(
      expect.arrayContaining(["1010", "Bank SGD", "50000.00"]),
    );
    const retained = await cells(
      page.getByTestId("report-table").getByRole("row").filter({ hasText: "Retained Earnings" }),
    );
    expect(retained.slice(0, 2)).toEqual(["3100", "Retained Earnings"]);
    expect(retained.at(-1)).toBe("250.00");
    const totals = await cells(page.getByTestId("report-totals"));
    expect(totals.at(-1)).toBe("62250.00");
    expect(totals.at(-2)).toBe("62250.00");
    await screenshot(page, "books-opening-trial-balance");
  }, 180_000);

  it(`closes ${Y}: the profit moves to retained earnings, ${N} starts at zero, the locked year refuses a posting`, async () => {
    const page = t.page;
    page.setDefaultTimeout(30_000);
    // A year of trading, in two journals: 12,000 of sales and 1,500 of bank charges, a profit of 10,500.
    await journal(`${Y}-03-15`, "Consulting sales", [
      ["1100", "12000.00", "0"],
      ["4010", "0", "12000.00"],
    ]);
    await journal(`${Y}-06-30`, "Bank charges for the year", [
      ["6100", "1500.00", "0"],
      ["1010", "0", "1500.00"],
    ]);
    await signIn(page, FINANCE);
    const pl = await reportRow(page, `/dashboard/reports/profit_and_loss?from=${Y}-01-01&to=${Y}-12-31`, "4010");
    expect(pl).toContain("12000.00");
    await page.getByText("Net profit").first().waitFor();

    await page.goto(appUrl("/dashboard/period-close"));
    await page.getByRole("heading", { name: "Year-end close" }).waitFor();
    await page.getByTestId("closes-empty").waitFor();
    // The date picker (dd/mm/yyyy in the demo's en-SG), offered at the last year's end.
    const lastDay = page.getByRole("group", { name: /^Year's last day/ });
    await expect.poll(async () => (await lastDay.textContent())?.replace(/\s/g, "")).toContain(`31/12/${Y}`);
    const confirm = async () => {
      await page.getByRole("button", { name: "Close the year" }).click();
      await page.getByRole("dialog").getByRole("button", { name: "Close the year" }).click();
    };

    // Not a year's last day: refused in words, nothing closed.
    await fillDate(lastDay, `${Y}-06-30`);
    await confirm();
    await page
      .getByText(`30 Jun ${Y} is not the last day of a financial year: the year holding it ends 31 Dec ${Y}`)
      .waitFor();
    await screenshot(page, "books-close-not-year-end");
    // A year that has not ended yet.
    await fillDate(lastDay, `${N}-12-31`);
    await confirm();
    await page.getByText(`The financial year ending 31 Dec ${N} has not ended yet`).waitFor();

    await fillDate(lastDay, `${Y}-12-31`);
    await confirm();
    await page.getByText(new RegExp(`^Year closed by JE-${Y}-\\d{5}: 10,500.00 to retained earnings$`)).waitFor();
    const closes = page.getByRole("table", { name: "Year-end closes" });
    await closes.getByRole("row").nth(1).getByText("10,500.00").waitFor();
    await expect(page.getByTestId("lock-date-summary").textContent()).resolves.toMatch(
      new RegExp(`^The books are locked up to 31 Dec ${Y}`),
    );
    await screenshot(page, "books-close-closed");

    // The next year (N) opens with nothing on the income and expense accounts; retained earnings hold the 250 of the opening
    // balances plus the year's profit.
    const tbNext = `/dashboard/reports/trial_balance?from=${N}-01-01&to=${N}-01-31`;
    const retained = await reportRow(page, tbNext, "3100");
    expect([...retained.slice(0, 2), retained[3]]).toEqual(["3100", "Retained Earnings", "10750.00"]);
    const table = page.getByTestId("report-table");
    for (const code of ["4010", "6100"]) {
      await expect(table.getByRole("cell", { name: code, exact: true }).count(), code).resolves.toBe(0);
    }
    await screenshot(page, `books-close-trial-balance-${N}`);
    // The closed year's own P&L still shows what it earned (the close entry is left out of it).
    await expect(
      reportRow(page, `/dashboard/reports/profit_and_loss?from=${Y}-01-01&to=${Y}-12-31`, "4010"),
    ).resolves.toContain("12000.00");

    // A journal dated in the closed year is refused, naming the lock date.
    await page.goto(appUrl("/dashboard/journal"));
    await page.getByRole("button", { name: "New journal" }).click();
    const form = page.getByRole("dialog", { name: "New journal entry" });
    await fillDate(form.getByRole("group", { name: /^Date/ }), `${Y}-12-15`);
    await form.getByLabel(/^Memo/).fill("Late bank charge");
    await form.getByLabel("Line 1 account").fill("6100");
    await page.getByRole("option", { name: /^6100 Bank Charges/ }).click();
    await form.getByLabel("Line 1 debit").fill("25");
    await form.getByLabel("Line 2 account").fill("1010");
    await page.getByRole("option", { name: /^1010 Bank SGD/ }).click();
    await form.getByLabel("Line 2 credit").fill("25");
    await form.getByRole("button", { name: "Post entry" }).click();
    await expect(form.getByRole("alert").textContent()).resolves.toBe(
      `The books are locked up to 31 Dec ${Y}: nothing can be posted on or before that date.`,
    );
    await screenshot(page, "books-close-journal-locked");
    await form.getByRole("button", { name: "Cancel" }).click();

    // Reopened (with a reason): the close is reversed, the year Y is open again, the lock falls back to the end of P.
    await page.goto(appUrl("/dashboard/period-close"));
    await closes.getByRole("button", { name: "Reopen" }).click();
    const reopen = page.getByRole("dialog");
    await reopen.getByLabel("Reason").fill("A late bank charge for December");
    await reopen.getByRole("button", { name: "Reopen" }).click();
    await page.getByText("Year reopened").waitFor();
    await expect
      .poll(() => page.getByTestId("lock-date-summary").textContent())
      .toMatch(new RegExp(`^The books are locked up to 31 Dec ${P}`));
    await closes.getByText(/A late bank charge for December/).waitFor();
    await expect(closes.getByRole("button", { name: "Reopen" }).count()).resolves.toBe(0);
    await screenshot(page, "books-close-reopened");
    const after = await reportRow(page, tbNext, "3100");
    expect([...after.slice(0, 2), after[3]]).toEqual(["3100", "Retained Earnings", "250.00"]);
    await journal(`${Y}-12-15`, "Late bank charge", [
      ["6100", "25.00", "0"],
      ["1010", "0", "25.00"],
    ]);
  }, 240_000);

  it("a debit note still owed offers Record payment, prefilled with its outstanding, and is paid", async () => {
    const page = t.page;
    page.setDefaultTimeout(30_000);
    const invoice = await draft(FINANCE, "invoice", {}, [
      { description: "Site survey", qty: "1", unit_price: "1000", tax_code: "SR" },
    ]);
    expect((await act(FINANCE, "invoice", invoice.id, "submit")).status).toBe(200);
    const note = await draft(FINANCE, "debit_note", { invoice_id: invoice.id }, [
      { description: "Second visit", qty: "1", unit_price: "200", tax_code: "SR" },
    ]);
    expect((await act(FINANCE, "debit_note", note.id, "submit")).status).toBe(200);
    const owed = await read(FINANCE, "debit_note", note.id);
    expect(owed.outstanding).toBe("218.00");

    await signIn(page, FINANCE);
    await page.goto(appUrl(`/dashboard/debit-notes/${note.id}`));
    await page.getByTestId("doc-title").getByText(String(owed.number)).waitFor();
    await page.getByRole("button", { name: "Record payment" }).click();
    const dialog = page.getByRole("dialog", { name: `Record a payment on ${owed.number}` });
    await expect(dialog.getByLabel(/^Amount/).inputValue()).resolves.toBe("218.00");
    // More than is owed is refused before it is sent.
    await dialog.getByLabel(/^Amount/).fill("300");
    await dialog.getByText(/^Only .*218\.00 is outstanding on /).waitFor();
    await expect(dialog.getByRole("button", { name: "Record payment" }).isDisabled()).resolves.toBe(true);
    await dialog.getByLabel(/^Amount/).fill("218.00");
    await screenshot(page, "books-debit-note-payment");
    await dialog.getByRole("button", { name: "Record payment" }).click();
    await page.getByText(new RegExp(`^RCT-\\d{4}-\\d{5} recorded: .*218\\.00 on ${owed.number}$`)).waitFor();
    await expect.poll(async () => (await read(FINANCE, "debit_note", note.id)).status).toBe("paid");
    await expect(page.getByRole("button", { name: "Record payment" }).count()).resolves.toBe(0);
    await screenshot(page, "books-debit-note-paid");
  }, 120_000);
});
