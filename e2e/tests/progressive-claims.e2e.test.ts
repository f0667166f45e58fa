import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { ownServer } from "../../apps/server/test/own-server-helpers.ts";
import { restFetch } from "../../apps/server/test/rest-helpers.ts";
import { appUrl, hasChromium, screenshot, signIn, useFreshBrowser } from "../browser.ts";

// Issue 12 "a project manager raises three claims and a release and prints one": the sales manager makes claims
// from a submitted contract on its page — 30%, 70%, 100% (with a variation on the second), each claimed; records the
// customer's payment response; releases the practical-completion half of the retention; prints a claim and reads the
// PDF back with pdftotext. Then a measured contract: a line claimed by quantity (340 of 500 m²), and the claim in
// accounts receivable, its number opening it. Screenshots of each step.

const MANAGER = "manager@demo.test";

const call = async (email: string, fn: string, args: unknown) => {
  const res = await restFetch(email, `rpc/${fn}`, { method: "POST", body: JSON.stringify(args) });
  expect(res.status, res.text).toBe(200);
  return res.body as { id: number; number: string };
};

const expectStatus = (page: Page, label: string) => page.locator("h1 + [data-status]", { hasText: label }).waitFor();
const act = (page: Page, name: string) =>
  page.getByTestId("doc-actions").getByRole("button", { name, exact: true }).click();

let contract = { id: 0, number: "" };
let projectId = 0;

// From the contract's page: make the next claim, type each line's work done to date, claim it.
async function raise(page: Page, percents: string[], variation?: { description: string; amount: string; pct: string }) {
  await page.goto(appUrl(`/dashboard/sales-orders/${contract.id}`, "demo"));
  await act(page, "Create progressive claim");
  await page.waitForURL(/\/progressive-claims\/\d+$/);
  await expectStatus(page, "Draft");
  for (const [i, p] of percents.entries()) await page.getByLabel(`Done to date %, line ${i + 1}`).fill(p);
  if (variation) {
    await page.getByRole("button", { name: "Add a variation" }).click();
    const n = percents.length + 1;
    await page.getByLabel(`Description, line ${n}`).fill(variation.description);
    await page.getByLabel(`Contract amount, line ${n}`).fill(variation.amount);
    await page.getByLabel(`Done to date %, line ${n}`).fill(variation.pct);
  }
  await page.getByRole("button", { name: "Save draft" }).click();
  await page.getByText("Draft saved").waitFor();
  await act(page, "Claim");
  await expectStatus(page, "Claimed");
}

describe.skipIf(!hasChromium)("progressive claims in Chromium", () => {
  const own = ownServer({}, 600_000);
  const fresh = useFreshBrowser();

  beforeAll(async () => {
    const company = (
      (await restFetch(MANAGER, "company?select=id&is_customer=is.true&order=id&limit=1")).body as [{ id: number }]
    )[0].id;
    const [project] = await own.q<{ id: number }>(sql`insert into project (workspace_id, code, name, company_id,
        practical_completion_date, defects_liability_end_date)
      values (${own.ws}::uuid, 'PRJ-E2E', 'Jurong warehouse extension', ${company}, null, current_date + 364)
      returning id`);
    projectId = Number(project.id);
    const so = await call(MANAGER, "document_save", {
      type: "sales_order",
      header: { company_id: company, project_id: projectId },
      lines: [
        { description: "Substructure and piling", qty: "1", unit_price: "40000", tax_code: "SR" },
        { description: "Steel frame and roofing", qty: "1", unit_price: "60000", tax_code: "SR" },
      ],
    });
    contract = await call(MANAGER, "document_transition", { type: "sales_order", id: so.id, action: "submit" });
  }, 600_000);

  it("raises three claims and a release, records a payment response and prints a claim", async () => {
    const { page } = fresh;
    try {
      await page.setViewportSize({ width: 1400, height: 1000 });
      await signIn(page, MANAGER, { sub: "demo" });

      await raise(page, ["30", "30"]);
      await expect.poll(() => page.getByTestId("claim-retention").textContent()).toContain("1,500.00");
      await screenshot(page, "claim-1-claimed");
      // No practical completion yet: Release retention is offered disabled, saying why.
      const releaseButton = page.getByRole("button", { name: "Release retention" });
      await expect.poll(() => releaseButton.isDisabled()).toBe(true);
      await releaseButton.locator("..").hover();
      await page.getByRole("tooltip", { name: /^Record the practical completion date of project PRJ-E2E/ }).waitFor();
      await screenshot(page, "claim-1-release-disabled");
      await own.q(sql`update project set practical_completion_date = current_date - 1
        where workspace_id = ${own.ws}::uuid and id = ${projectId}`);

      await raise(page, ["70", "70"], { description: "VO-01 Mezzanine floor", amount: "10000", pct: "50" });
      // 70,000 + 5,000 to date less 30,000 before; retention to date 3,750, this claim 2,250.
      await expect.poll(() => page.getByTestId("claim-gross").textContent()).toContain("45,000.00");
      await expect.poll(() => page.getByTestId("claim-retention").textContent()).toContain("2,250.00");
      await screenshot(page, "claim-2-variation");

      // The payment response: less than claimed needs reasons.
      await page.getByRole("button", { name: "Record payment response" }).click();
      const dialog = page.getByRole("dialog");
      await dialog.getByLabel("Certified amount").fill("40000");
      await dialog.getByRole("button", { name: "Record response" }).click();
      await dialog.getByText(/^Give the reasons for withholding/).waitFor();
      await dialog.getByLabel("Reasons for withholding").fill("Mezzanine handrails not installed");
      await screenshot(page, "claim-2-response");
      await dialog.getByRole("button", { name: "Record response" }).click();
      await expectStatus(page, "Certified");
      await page.getByTestId("claim-certified").waitFor();

      await raise(page, ["100", "100", "100"]);
      await expect.poll(() => page.getByTestId("claim-retention").textContent()).toContain("1,750.00");
      const finalUrl = page.url();
      await screenshot(page, "claim-3-final");

      // The release at practical completion: half of the 5,500 held.
      await page.getByRole("button", { name: "Release retention" }).click();
      await page.waitForURL((u) => u.toString() !== finalUrl && /\/progressive-claims\/\d+$/.test(u.pathname));
      await expectStatus(page, "Draft");
      await expect.poll(() => page.getByTestId("claim-retention").textContent()).toContain("2,750.00");
      await act(page, "Claim");
      await expectStatus(page, "Claimed");
      await screenshot(page, "claim-release");

      await page.getByRole("button", { name: "Retention schedule" }).click();
      const schedule = page.getByRole("table", { name: "Retention schedule" });
      await schedule.getByText("5,500.00").first().waitFor();
      await screenshot(page, "claim-retention-schedule");
      await page.getByRole("button", { name: "Close" }).click();

      // Print the final claim and read it back.
      await page.goto(finalUrl);
      await expectStatus(page, "Claimed");
      const href = await page.getByRole("link", { name: "PDF" }).getAttribute("href");
      // Fetched by the page itself (its session cookie, its host).
      const got = await page.evaluate(async (url) => {
        const r = await fetch(url);
        const bytes = new Uint8Array(await r.arrayBuffer());
        let s = "";
        for (const x of bytes) s += String.fromCharCode(x);
        return { status: r.status, body: btoa(s) };
      }, String(href));
      expect(got.status).toBe(200);
      const file = path.join(mkdtempSync(path.join(os.tmpdir(), "claim-e2e-")), "claim.pdf");
      writeFileSync(file, Buffer.from(got.body, "base64"));
      const text = execFileSync("pdftotext", ["-layout", file, "-"], { encoding: "utf8" }).replace(/\s+/g, " ");
      expect(text).toContain("Progress Payment Claim");
      expect(text).toMatch(/VO-01 Mezzanine floor 10,000\.00 50% 5,000\.00 100% 10,000\.00 5,000\.00/);
      expect(text).toContain("Security of Payment Act 2004");

      // The list: every claim of the contract with its figures and SOP dates.
      await page.goto(appUrl("/dashboard/progressive-claims", "demo"));
      await page
        .getByRole("grid")
        .getByText(/^PC-\d{4}-00004$/)
        .first()
        .waitFor();
      await screenshot(page, "claims-list");
    } catch (err) {
      await screenshot(page, "claims-failed");
      throw err;
    }
  }, 300_000);

  it("claims a line by quantity, and finds the claim in accounts receivable", async () => {
    const { page } = fresh;
    try {
      await page.setViewportSize({ width: 1400, height: 1000 });
      const created = await restFetch(MANAGER, "company", {
        method: "POST",
        body: JSON.stringify({ name: "Measured Works Pte Ltd", is_customer: true }),
        headers: { prefer: "return=representation" },
      });
      const company = (created.body as [{ id: number }])[0].id;
      const so = await call(MANAGER, "document_save", {
        type: "sales_order",
        header: { company_id: company },
        lines: [
          { description: "Floor tiling", unit: "m²", qty: "500", unit_price: "100", tax_code: "SR" },
          { description: "Preliminaries", qty: "1", unit_price: "10000", tax_code: "SR" },
        ],
      });
      const measured = await call(MANAGER, "document_transition", { type: "sales_order", id: so.id, action: "submit" });
      await signIn(page, MANAGER, { sub: "demo" });
      await page.goto(appUrl(`/dashboard/sales-orders/${measured.id}`, "demo"));
      await act(page, "Create progressive claim");
      await page.waitForURL(/\/progressive-claims\/\d+$/);
      await expectStatus(page, "Draft");
      // The tiling is measured; a lump sum (1, no unit) is claimed by percentage only.
      await page.getByRole("group", { name: "Claim line 1 by" }).getByRole("button", { name: "Qty" }).click();
      await expect(page.getByRole("group", { name: "Claim line 2 by" }).count()).resolves.toBe(0);
      // Past the contract's 500 m², unsaved: the banner and the Claim button follow the form, not the saved draft.
      await page.getByLabel("Quantity done to date, line 1").fill("600");
      await expect
        .poll(() => page.getByTestId("blocked-submit").textContent())
        .toMatch(/^Claim: Line 1 .*cannot be more than the contract's 500/);
      expect(await page.getByTestId("doc-actions").getByRole("button", { name: "Claim" }).isDisabled()).toBe(true);
      await page.getByLabel("Quantity done to date, line 1").fill("340");
      await expect.poll(() => page.getByTestId("claim-derived-1").textContent()).toBe("68%");
      await page.getByLabel("Done to date %, line 2").fill("50");
      await expect.poll(() => page.getByTestId("claim-gross").textContent()).toContain("39,000.00");
      await screenshot(page, "claim-measured-draft");
      await page.getByRole("button", { name: "Save draft" }).click();
      await page.getByText("Draft saved").waitFor();
      await act(page, "Claim");
      await expectStatus(page, "Claimed");
      const claimUrl = page.url();
      const claimId = Number(claimUrl.match(/(\d+)$/)?.[1]);
      const read = await restFetch(MANAGER, `progressive_claim?select=number&id=eq.${claimId}`);
      const claimNumber = (read.body as [{ number: string }])[0].number;
      await page.getByText("340 m²").first().waitFor();
      // One way to record a payment on the claim's page.
      await expect(page.getByRole("button", { name: "Record payment", exact: true }).count()).resolves.toBe(1);
      await screenshot(page, "claim-measured-claimed");
      // The Flow tab shows the contract line's 500 (m²) beside SO line 1, not a quantity of 1.
      await page.getByRole("tab", { name: "Flow" }).click();
      await expect.poll(() => page.getByTestId("flow-line-1").getByRole("cell").nth(2).textContent()).toBe("500");

      // 39,000 less 1,950 retention, with GST: 40,384.50 owed now.
      await page.goto(appUrl("/dashboard/accounts-receivable", "demo"));
      const row = page.getByTestId("ageing-table").getByRole("row", { name: /Measured Works Pte Ltd/ });
      await row.getByText("40,384.50").first().waitFor();
      await row.click();
      const drill = page.getByRole("table", { name: "Open receivables of Measured Works Pte Ltd" });
      await drill.getByRole("link", { name: claimNumber }).waitFor();
      await screenshot(page, "claim-in-receivables");
      await drill.getByRole("link", { name: claimNumber }).click();
      await page.waitForURL(claimUrl);
    } catch (err) {
      await screenshot(page, "claims-measured-failed");
      throw err;
    }
  }, 300_000);
});
