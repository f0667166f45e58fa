import { existsSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { type BrowserContext, chromium } from "playwright-core";

// Debian's Chromium with a fresh profile and no background networking (the machine has no internet). Used by the
// journeys (browser.ts) and the benchmarks alike; imports nothing of vitest, so plain scripts can use it.
export const CHROME_PATH = process.env.CHROME_PATH ?? "/usr/bin/chromium";
export const hasChromium = existsSync(CHROME_PATH);

const FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

export type Browser = { context: BrowserContext; close(): Promise<void> };

export async function openBrowser(opts: { width?: number; height?: number } = {}): Promise<Browser> {
  const profile = mkdtempSync(path.join(os.tmpdir(), "workmetrics-chromium-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROME_PATH,
    headless: true,
    args: FLAGS,
    viewport: { width: opts.width ?? 1280, height: opts.height ?? 800 },
  });
  return {
    context,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
