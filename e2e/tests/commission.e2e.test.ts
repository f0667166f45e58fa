import { periodOf } from "@workmetrics/domain/commission";
import { describe, expect, it } from "vitest";
import { restFetch } from "../../apps/server/test/rest-helpers.ts";
import { appUrl, hasChromium, openBrowser, screenshot, signIn, useFreshBrowser } from "../browser.ts";

// Issue 12 "Commission": the finance manager opens last month's commission (left open by the demo), reads the
// salesperson's statement with its documents, approves it and marks it paid; a salesperson sees only their own.

const FINANCE = "finance@demo.test";
const SALES = "sales@demo.test";

const lastMonth = () => {
  const now = new Date();
  return periodOf(
    "monthly",
    new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 15)).toISOString().slice(0, 10),
  );
};

describe.skipIf(!hasChromium)("commission in Chromium", () => {
  const t = useFreshBrowser();

  it("the finance manager approves a salesperson's month and marks it paid", async () => {
    const page = t.page;
    const users = (await restFetch(FINANCE, "user?select=id,name,email&email=eq.sales%40demo.test")).body as Array<{
      id: string;
      name: string;
    }>;
    const [sales] = users;
    const p = lastMonth();
    await signIn(page, FINANCE);
    await page.goto(appUrl(`/dashboard/reports/commission?from=${p.from}&to=${p.to}`));
    const all = page.getByRole("table", { name: "Commission by salesperson" });
    await all.getByRole("row", { name: new RegExp(sales.name) }).waitFor();
    await screenshot(page, "commission-summary");
    await all.getByRole("row", { name: new RegExp(sales.name) }).click();
    const docs = page.getByRole("table", { name: "Documents behind the commission" });
    await docs.getByRole("link", { name: /^INV-/ }).first().waitFor();
    await page.getByRole("button", { name: "Approve" }).click();
    const confirm = page.getByRole("dialog", { name: "Approve this commission?" });
    await confirm.getByRole("button", { name: "Approve" }).click();
    await page.getByText(`Commission of ${sales.name} approved`).waitFor();
    const approved = page.getByRole("table", { name: "Approved statements" });
    const row = approved.getByRole("row", { name: new RegExp(`${sales.name}.*Approved`) }).first();
    await row.waitFor();
    await screenshot(page, "commission-approved");
    await row.getByRole("button", { name: "Mark paid" }).click();
    const pay = page.getByRole("dialog", { name: "Mark commission paid" });
    await pay.getByRole("button", { name: "Mark paid" }).click();
    await page.getByText(`Commission of ${sales.name} marked paid`).waitFor();
    await expect(
      approved.getByRole("row", { name: new RegExp(`${p.from.slice(0, 4)}.*${sales.name}.*Paid`) }).count(),
    ).resolves.toBeGreaterThan(0);
    expect(t.errors).toEqual([]);

    // The salesperson, in a browser of their own, reads their own statement, with no Approve and no one else's.
    const other = await openBrowser();
    try {
      const mine = await other.context.newPage();
      await signIn(mine, SALES);
      await mine.goto(appUrl(`/dashboard/reports/commission?from=${p.from}&to=${p.to}`));
      await mine.getByRole("table", { name: "Documents behind the commission" }).waitFor();
      await expect(mine.getByRole("button", { name: "Approve" }).count()).resolves.toBe(0);
      await expect(mine.getByLabel("Salesperson").count()).resolves.toBe(0);
      await screenshot(mine, "commission-salesperson");
    } finally {
      await other.close();
    }
  }, 240_000);
});
