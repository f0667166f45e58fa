// Foundation figures (issues 2 and 9): cold start to first answered request, warm restart, and the JavaScript the
// landing page loads (every script and module preload until the network is idle; gzip -9 and as sent).
// Needs `npm run build` first; runs the built server (apps/server/dist/main.js) as `npm start` does, or the
// TypeScript source through tsx with BENCH_SERVER=source. BENCH_VERBOSE=1 lists the landing page's files.
// Run: node --import tsx bench/startup.ts
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import type { Response } from "playwright-core";
import { openBrowser } from "../e2e/chromium.ts";

const root = path.resolve(import.meta.dirname, "..");
const port = 3900 + Math.floor(Math.random() * 50);
const fromSource = process.env.BENCH_SERVER === "source";
const serverArgs = fromSource ? ["--import", "tsx", "apps/server/src/main.ts"] : ["apps/server/dist/main.js"];
if (!fromSource && !existsSync(path.join(root, "apps/server/dist/main.js"))) {
  console.error("apps/server/dist/main.js is missing: run `npm run build` first");
  process.exit(1);
}

// Two times from the process's start: the first 200 on / (the landing page: `npm start` answers it while the app
// is still being built, platform/http/early.ts) and the first 200 on /api/health (the app and the database answer,
// the demo data written: health answers 503 "seeding" until then).
async function timeToFirstRequest(dataDir: string): Promise<{ ms: number; pageMs: number; stop(): Promise<void> }> {
  const started = performance.now();
  const child = spawn(process.execPath, serverArgs, {
    cwd: root,
    env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: "warn" },
    stdio: "ignore",
  });
  const firstOk = async (pathname: string) => {
    for (;;) {
      try {
        const res = await fetch(`http://127.0.0.1:${port}${pathname}`, { headers: { accept: "text/html" } });
        await res.arrayBuffer();
        if (res.ok) return performance.now() - started;
      } catch {
        // not listening yet
      }
      if (child.exitCode !== null) throw new Error("server exited during start");
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  const pageMs = await firstOk("/");
  const ms = await firstOk("/api/health");
  return {
    ms,
    pageMs,
    stop: () =>
      new Promise((resolve) => {
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}

type Script = { name: string; raw: number; gzip: number; wire: number };

// Every script the page fetched (entry, module preloads, lazy chunks), read once the network is idle: a body read
// inside the response handler could still be pending when the browser closes, and the file would go uncounted.
async function landingJs(url: string): Promise<Script[]> {
  const browser = await openBrowser();
  try {
    const page = await browser.context.newPage();
    const responses: Response[] = [];
    page.on("response", (res) => {
      const type = res.request().resourceType();
      if (type === "script" || new URL(res.url()).pathname.endsWith(".js")) responses.push(res);
    });
    // The page's own heading first: on a busy machine the network can fall idle while the entry still runs.
    await page.goto(url);
    await page.locator("h1").waitFor();
    await page.waitForLoadState("networkidle");
    return await Promise.all(
      responses.map(async (res) => {
        const body = await res.body();
        const sizes = await res.request().sizes();
        return {
          name: new URL(res.url()).pathname,
          raw: body.length,
          gzip: gzipSync(body, { level: 9 }).length,
          wire: sizes.responseBodySize,
        };
      }),
    );
  } finally {
    await browser.close();
  }
}

console.log(
  `load average at the start: ${os
    .loadavg()
    .map((n) => n.toFixed(2))
    .join(" ")} (${os.cpus().length} cores)`,
);
const dataDir = mkdtempSync(path.join(os.tmpdir(), "wm-bench-start-"));
const cold = await timeToFirstRequest(dataDir);
const scripts = await landingJs(`http://localhost:${port}/`);
await cold.stop();
const warm = await timeToFirstRequest(dataDir);
await warm.stop();
rmSync(dataDir, { recursive: true, force: true });

const kb = (n: number) => `${(n / 1024).toFixed(1)} KiB`;
const sum = (k: keyof Omit<Script, "name">) => scripts.reduce((n, s) => n + s[k], 0);
console.log(`server: ${fromSource ? "TypeScript source through tsx" : "built JavaScript (apps/server/dist)"}`);
console.log(
  `load average at the end: ${os
    .loadavg()
    .map((n) => n.toFixed(2))
    .join(" ")} (${os.cpus().length} cores)`,
);
console.log(`cold start (empty PGlite), first 200 on /:                 ${cold.pageMs.toFixed(0)} ms`);
console.log(`cold start (empty PGlite: migrate + seed) to /api/health:  ${cold.ms.toFixed(0)} ms`);
console.log(`warm restart (existing data), first 200 on /:              ${warm.pageMs.toFixed(0)} ms`);
console.log(`warm restart (existing data) to /api/health:               ${warm.ms.toFixed(0)} ms`);
console.log(
  `landing page JavaScript: ${scripts.length} files, ${kb(sum("raw"))} raw, ${kb(sum("gzip"))} gzip -9, ${kb(sum("wire"))} as sent`,
);
if (process.env.BENCH_VERBOSE) {
  for (const s of scripts.sort((a, b) => b.gzip - a.gzip)) {
    console.log(`  ${kb(s.gzip).padStart(10)} gzip  ${kb(s.raw).padStart(10)} raw  ${s.name}`);
  }
}
