import { describe, expect, it } from "vitest";
import { restFetch } from "../../apps/server/test/rest-helpers.ts";
import { appUrl, hasChromium, screenshot, signIn, useFreshBrowser } from "../browser.ts";

// Issue 20 §1 in Chromium: an e-mailed invoice says it is queued, and its history shows the mail's state moving to
// Sent once the server's outbox has handed it over; the platform operator's Failed jobs page lists what failed (the
// suite's server keeps mail in its own mailbox, which does not fail: the list is empty; jobs.api.test.ts makes one
// dead and retries it).

const FINANCE = "finance@demo.test";

async function rpc<T = { id: number; number: string }>(fn: string, args: unknown): Promise<T> {
  const res = await restFetch(FINANCE, `rpc/${fn}`, { method: "POST", body: JSON.stringify(args) });
  expect(res.status, res.text).toBe(200);
  return res.body as T;
}

describe.skipIf(!hasChromium)("the outbox in Chromium", () => {
  const t = useFreshBrowser();

  it("an invoice e-mailed from its page is queued, then its history says Sent", async () => {
    const company = await restFetch("manager@demo.test", "company", {
      method: "POST",
      body: JSON.stringify({ name: `Outbox ${Date.now()}`, is_customer: true, email: "ap@outbox.example" }),
      headers: { prefer: "return=representation" },
    });
    expect(company.status, company.text).toBe(201);
    const companyId = (company.body as Array<{ id: number }>)[0].id;
    const draft = await rpc("document_save", {
      type: "invoice",
      header: { company_id: companyId },
      lines: [{ description: "Installation", qty: "1", unit_price: "500" }],
    });
    const invoice = await rpc("document_transition", { type: "invoice", id: draft.id, action: "submit" });

    const page = t.page;
    await signIn(page, FINANCE);
    await page.goto(appUrl(`/dashboard/invoices/${invoice.id}`));
    await page.getByTestId("doc-actions").getByRole("button", { name: "E-mail" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByRole("button", { name: "Send" }).click();
    await page.getByText(`${invoice.number} is queued to send`).waitFor();
    await page.getByRole("tab", { name: "History" }).click();
    const row = page.getByRole("table", { name: "History" }).getByRole("row", { name: /E-mail to ap@outbox\.example/ });
    await row.getByText("Sent", { exact: true }).waitFor({ timeout: 20_000 });
    await screenshot(page, "document-history-mail-sent");
    expect(t.errors).toEqual([]);
  });

  it("the operator's Failed jobs page lists nothing failed", async () => {
    const page = t.page;
    await signIn(page, "platform@workmetrics.test");
    await page.goto(appUrl("/dashboard/failed-jobs"));
    await page.getByRole("heading", { name: "Failed jobs" }).waitFor();
    await page.getByText("No failed jobs.").waitFor();
    await screenshot(page, "platform-failed-jobs");
    expect(t.errors).toEqual([]);
  });
});
