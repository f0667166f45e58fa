// Foundation figures (issue 2): cold start to first answered request, warm restart, and the gzip size of the
// JavaScript the landing page loads. Needs `npm run build` first. Run: node --import tsx bench/startup.ts
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { openBrowser } from "../e2e/chromium.ts";

const root = path.resolve(import.meta.dirname, "..");
const port = 3900 + Math.floor(Math.random() * 50);

async function timeToFirstRequest(dataDir: string): Promise<{ ms: number; stop(): Promise<void> }> {
  const started = performance.now();
  const child = spawn(process.execPath, ["--import", "tsx", "apps/server/src/main.ts"], {
    cwd: root,
    env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: "warn" },
    stdio: "ignore",
  });
  for (;;) {
    try {
      const res = await fetch(`http://127.0.0.1:${port}/api/health`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (child.exitCode !== null) throw new Error("server exited during start");
    await new Promise((r) => setTimeout(r, 20));
  }
  const ms = performance.now() - started;
  return {
    ms,
    stop: () =>
      new Promise((resolve) => {
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}

async function landingJs(url: string): Promise<{ files: number; raw: number; gzip: number }> {
  const browser = await openBrowser();
  const ctx = browser.context;
  const bodies: Buffer[] = [];
  const page = await ctx.newPage();
  page.on("response", async (res) => {
    if (res.url().endsWith(".js")) bodies.push(await res.body());
  });
  await page.goto(url, { waitUntil: "networkidle" });
  await browser.close();
  return {
    files: bodies.length,
    raw: bodies.reduce((n, b) => n + b.length, 0),
    gzip: bodies.reduce((n, b) => n + gzipSync(b, { level: 9 }).length, 0),
  };
}

const dataDir = mkdtempSync(path.join(os.tmpdir(), "wm-bench-start-"));
const cold = await timeToFirstRequest(dataDir);
const js = await landingJs(`http://localhost:${port}/`);
await cold.stop();
const warm = await timeToFirstRequest(dataDir);
await warm.stop();
rmSync(dataDir, { recursive: true, force: true });

const kb = (n: number) => `${(n / 1024).toFixed(1)} KiB`;
console.log(`cold start (empty PGlite: migrate + seed) to first request: ${cold.ms.toFixed(0)} ms`);
console.log(`warm restart (existing data) to first request:            ${warm.ms.toFixed(0)} ms`);
console.log(`landing page JavaScript: ${js.files} files, ${kb(js.raw)} raw, ${kb(js.gzip)} gzip`);
