import { gzipSync } from "node:zlib";
import type { Response } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appUrl, type Browser, hasChromium, openBrowser, screenshot, watchErrors } from "../browser.ts";

// Issue 21 §5: the landing page's JavaScript within 150 KiB of gzip (every script it fetched until the network was
// idle, each gzipped at level 9 as bench/startup.ts counts), and its first link opening the app in place.
const BUDGET_KIB = 150;

describe.skipIf(!hasChromium)("the landing page's weight in Chromium", () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await openBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it("loads at most 150 KiB of gzipped JavaScript, and its links open the app's pages in place", async () => {
    const page = await browser.context.newPage();
    const errors = watchErrors(page);
    const scripts: Response[] = [];
    page.on("response", (res) => {
      if (res.request().resourceType() === "script" || new URL(res.url()).pathname.endsWith(".js")) scripts.push(res);
    });
    await page.goto(appUrl("/"));
    await page.getByRole("heading", { level: 1 }).waitFor();
    await page.getByTestId("price-pro").waitFor();
    await page.waitForLoadState("networkidle");
    const sizes = await Promise.all(scripts.map(async (r) => gzipSync(await r.body(), { level: 9 }).length));
    const kib = sizes.reduce((a, b) => a + b, 0) / 1024;
    expect(kib, `landing JavaScript ${kib.toFixed(1)} KiB gzip`).toBeLessThanOrEqual(BUDGET_KIB);
    expect(kib).toBeGreaterThan(0);

    // The first link followed loads the router and draws the page without reloading the document.
    await page.evaluate(() => {
      (window as unknown as { stayed: boolean }).stayed = true;
    });
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Pricing" }).click();
    await page.getByRole("button", { name: "Yearly" }).waitFor();
    expect(new URL(page.url()).pathname).toBe("/pricing");
    expect(await page.evaluate(() => (window as unknown as { stayed?: boolean }).stayed)).toBe(true);
    // Back to the landing page, now under the router; its links go on working.
    await page.goBack();
    await page.getByTestId("case-study").first().waitFor();
    await page.getByRole("navigation", { name: "Footer" }).getByRole("link", { name: "Privacy" }).click();
    await page.waitForURL((u) => u.pathname === "/privacy");
    await page.getByRole("heading", { level: 1 }).waitFor();
    await screenshot(page, "landing-then-privacy");
    expect(errors).toEqual([]);
    await page.close();
  });

  it("a signed-out visit to a dashboard address lands here and signs in back to it", async () => {
    const page = await browser.context.newPage();
    await page.goto(appUrl("/?redirectedFrom=%2Fdashboard%2Fsales"));
    const region = page.getByRole("region", { name: "Sign in to continue" });
    await region.waitFor();
    await region.getByRole("link", { name: "Sign in" }).click();
    await page.waitForURL((u) => u.pathname === "/auth/login");
    expect(new URL(page.url()).searchParams.get("redirectedFrom")).toBe("/dashboard/sales");
    await page.close();
  });
});
