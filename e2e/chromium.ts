import { existsSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { type BrowserContext, type Browser as Chromium, chromium } from "playwright-core";

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

// One Chromium process whose every openBrowser is a new browser context: a fresh, in-memory profile of its own
// (cookies, storage and cache apart from every other context), at a fraction of a launch's cost. The journeys use it
// (browser.ts): a launch per test cost ~4–5 s against ~1 s for a context, with the machine under load. close() ends the
// process; until then it keeps a script alive.
export function sharedChromium(): { openBrowser: typeof openBrowser; close(): Promise<void> } {
  let launched: Promise<Chromium> | null = null;
  return {
    async openBrowser(opts = {}) {
      launched ??= chromium.launch({ executablePath: CHROME_PATH, headless: true, args: FLAGS });
      const context = await (await launched).newContext({
        viewport: { width: opts.width ?? 1280, height: opts.height ?? 800 },
      });
      return { context, close: () => context.close() };
    },
    async close() {
      const running = launched;
      launched = null;
      if (running) await (await running).close();
    },
  };
}
