import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type EarlyServer, listenEarly } from "./early.ts";

// Issue 21 §5: what `npm start` answers before the app is up, and the app taking the same server over.
describe("the server listened on before the app is built", () => {
  let dist: string;
  let early: EarlyServer;
  let base: string;

  beforeAll(async () => {
    dist = mkdtempSync(path.join(os.tmpdir(), "wm-early-"));
    mkdirSync(path.join(dist, "assets"));
    writeFileSync(path.join(dist, "index.html"), "<!doctype html><title>Workmetrics</title>");
    writeFileSync(path.join(dist, "assets", "index-abc.js"), "console.log(1)");
    writeFileSync(path.join(dist, "favicon.svg"), "<svg/>");
    early = await listenEarly({
      port: 0,
      host: "127.0.0.1",
      webDist: dist,
      baseDomain: "localhost",
      production: false,
    });
    const address = early.server.address();
    base = `http://localhost:${typeof address === "object" && address ? address.port : 0}`;
  });
  afterAll(async () => {
    await early?.close();
    rmSync(dist, { recursive: true, force: true });
  });

  it("serves the landing page and the web's files with the app's headers", async () => {
    const page = await fetch(`${base}/`);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toContain("text/html");
    expect(page.headers.get("content-security-policy")).toContain("script-src 'self'");
    expect(await page.text()).toContain("<title>Workmetrics</title>");
    const js = await fetch(`${base}/assets/index-abc.js`);
    expect(js.status).toBe(200);
    expect(js.headers.get("content-type")).toContain("text/javascript");
    expect(js.headers.get("cache-control")).toContain("immutable");
    expect((await fetch(`${base}/favicon.svg`)).headers.get("cache-control")).toBe("public, max-age=300");
  });

  it("answers everything else 503 with Retry-After, and never a file outside the build", async () => {
    const api = await fetch(`${base}/api/health`);
    expect(api.status).toBe(503);
    expect(api.headers.get("retry-after")).toBe("1");
    expect(await api.json()).toMatchObject({ code: "starting" });
    const page = await fetch(`${base}/dashboard`, { headers: { accept: "text/html" } });
    expect(page.status).toBe(503);
    expect(await page.text()).toContain('http-equiv="refresh"');
    expect((await fetch(`${base}/assets/missing.js`)).status).toBe(503);
    expect((await fetch(`${base}/assets/%2e%2e/%2e%2e/etc/passwd.txt`)).status).toBe(503);
    // A workspace's root is the app's to decide (its login page); fetch cannot set Host, http.get can.
    const workspaceRoot = await new Promise<number>((resolve, reject) => {
      http
        .get(`${base}/`, { headers: { host: "acme.localhost" } }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        })
        .on("error", reject);
    });
    expect(workspaceRoot).toBe(503);
    expect((await fetch(`${base}/`, { method: "POST" })).status).toBe(503);
  });

  it("hands every request to the app's handler once told", async () => {
    early.factory((_req, res) => {
      res.writeHead(200, { "content-type": "text/plain" }).end("app");
    });
    expect((await fetch(`${base}/api/health`)).status).toBe(503); // not before the app is ready
    early.handOver();
    const res = await fetch(`${base}/api/health`);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe("app");
  });
});
