import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { Locator, Page } from "playwright-core";
import { afterAll, afterEach, beforeEach, expect } from "vitest";
import { baseUrl } from "../apps/server/test/http.ts";
import { type Browser, hasChromium as chromiumFound, sharedChromium } from "./chromium.ts";

export { type Browser, CHROME_PATH } from "./chromium.ts";

// CI's two lanes draw their journeys from one queue (E2E_QUEUE_DIR, .ci/run): each lane is given every file, a file
// runs in the lane that claims it first (an atomic mkdir named after it) and is skipped in the other. The lane whose
// API run ends first takes more of the journeys, whatever the machine's speed — no shares to tune.
export const hasChromium = chromiumFound && claimed(expect.getState().testPath);

function claimed(file: string | undefined): boolean {
  const queue = process.env.E2E_QUEUE_DIR;
  if (!queue || !file) return true;
  const claim = path.join(queue, path.basename(file));
  try {
    mkdirSync(claim);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw err;
  }
  writeFileSync(path.join(claim, "lane"), process.env.E2E_LANE ?? "");
  return true;
}

// The journeys' browsers: each a new profile (a browser context) in one Chromium process per test file, which ends
// with the file's tests (chromium.ts, sharedChromium).
const chromium = sharedChromium();
export const openBrowser = chromium.openBrowser;
afterAll(() => chromium.close());

export const SCREENSHOTS = path.join(import.meta.dirname, "screenshots");

// The app's URL on a given host, e.g. host("demo") → http://demo.localhost:PORT (DESIGN §3.3), on the suite's server
// or on the one a journey started for itself (useServer).
export function appUrl(pathname = "/", sub?: string): string {
  const base = new URL(baseUrl());
  if (sub) base.hostname = `${sub}.localhost`;
  return new URL(pathname, base).toString();
}

// Collects console errors and failed requests so a test can assert a page is clean.
export function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on("console", (m) => {
    // Failed requests are recorded below with their address, which the console message lacks.
    if (m.type() === "error" && !m.text().startsWith("Failed to load resource")) errors.push(m.text());
  });
  page.on("response", (r) => {
    if (r.status() >= 400) errors.push(`${r.status()} ${r.request().method()} ${new URL(r.url()).pathname}`);
  });
  page.on("pageerror", (e) => errors.push(e.message));
  return errors;
}

export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true });
}

export const DEMO_PASSWORD = "demo-pass-2026";

// Signs in through the login form, as a person would, and waits for the dashboard.
export async function signIn(page: Page, email: string, opts: { sub?: string; password?: string } = {}): Promise<void> {
  await page.goto(appUrl("/auth/login", opts.sub));
  await page.getByLabel("E-mail or phone").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(opts.password ?? DEMO_PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL(/\/dashboard/);
}

// Opens the newest mail to `to` in the dev mailbox and returns the first link of its text that matches.
export async function linkFromMailbox(page: Page, to: string, match: RegExp): Promise<string> {
  await page.goto(appUrl("/dev/mailbox"));
  await page.locator("li", { hasText: to }).first().getByRole("link").click();
  const text = (await page.locator("pre").textContent()) ?? "";
  const link = text.match(/https?:\/\/\S+/g)?.find((l) => match.test(l));
  if (!link) throw new Error(`No link matching ${match} in the mail to ${to}:\n${text}`);
  return link;
}

export type FreshBrowser = { readonly browser: Browser; readonly page: Page; readonly errors: string[] };

// A new Chromium profile and page for every test of the calling describe block, closed after it.
export function useFreshBrowser(): FreshBrowser {
  let current: { browser: Browser; page: Page; errors: string[] } | null = null;
  beforeEach(async () => {
    const browser = await openBrowser();
    const page = await browser.context.newPage();
    current = { browser, page, errors: watchErrors(page) };
  });
  afterEach(async () => {
    await current?.browser.close();
    current = null;
  });
  const get = () => {
    if (!current) throw new Error("useFreshBrowser: no browser outside a test");
    return current;
  };
  return {
    get browser() {
      return get().browser;
    },
    get page() {
      return get().page;
    },
    get errors() {
      return get().errors;
    },
  };
}

// Types an ISO date ("YYYY-MM-DD") into one of the app's date fields (the MUI picker: a row of Day / Month / Year
// spinbuttons in the workspace's order, DD/MM/YYYY in an SGD workspace). `field` is the picker's group — e.g.
// page.getByRole("group", { name: /^Date/ }) — or anything around it (its test id). Each section is clicked and
// typed on its own, so the order of the sections and what was in them before do not matter.
export async function fillDate(field: Locator, iso: string): Promise<void> {
  const [year, month, day] = iso.split("-");
  const parts: Record<string, string | undefined> = { Day: day, Month: month, Year: year };
  const sections = field.getByRole("spinbutton");
  await sections.first().waitFor();
  const labels = await sections.evaluateAll((els) => els.map((e) => e.getAttribute("aria-label") ?? ""));
  for (const [i, label] of labels.entries()) {
    const value = parts[label];
    if (value === undefined) throw new Error(`fillDate: a date section named "${label}"`);
    const section = sections.nth(i);
    await section.click();
    await section.press("Backspace");
    await section.pressSequentially(value);
  }
  await field.page().keyboard.press("Tab");
}
