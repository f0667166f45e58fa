import { createHash } from "node:crypto";
import { request } from "node:http";
import { ean13, validGtin } from "@workmetrics/domain/barcode";
import { COMMANDS } from "@workmetrics/domain/commands";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { rpc } from "./documents-helpers.ts";
import { ownServer } from "./own-server-helpers.ts";
import { getAnonKey, restFetch, tokenFor } from "./rest-helpers.ts";

// Issue 22 "One app shell": each host's manifest and service worker, signing in once across a workspace's hosts
// (single-use 60 s codes, kept hashed, the host rules applied on both sides) and the offline conflicts a role app
// reports for a manager — per workspace.

const ADMIN = "admin@demo.test";
const SALES = "sales@demo.test";
const MANAGER = "manager@demo.test";
const DRIVER = "driver@demo.test";
const POS = "pos@demo.test";
const PRO_ADMIN = "admin@pro.test";
const LITE_ADMIN = "admin@lite.test";

const own = ownServer();
const port = () => new URL(own.server.url).port;
const at = (host: string) => `${host}:${port()}`;

// fetch cannot name another Host; node:http can (the server reads the app from it, as browsers send it).
function onHost(
  host: string,
  path: string,
  init: { method?: string; headers?: Record<string, string>; body?: string } = {},
) {
  const url = new URL(own.server.url);
  return new Promise<{ status: number; headers: Headers; body: Record<string, unknown>; text: string }>(
    (resolve, reject) => {
      const req = request(
        {
          host: url.hostname,
          port: url.port,
          path,
          method: init.method ?? "GET",
          headers: {
            ...init.headers,
            host: at(host),
            ...(init.body ? { "content-type": "application/json" } : {}),
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (c: Buffer) => chunks.push(c));
          res.on("end", () => {
            const text = Buffer.concat(chunks).toString("utf8");
            let body: unknown = text;
            try {
              body = text ? JSON.parse(text) : null;
            } catch {
              // keep the text
            }
            const headers = new Headers();
            for (const [k, v] of Object.entries(res.headers)) if (typeof v === "string") headers.set(k, v);
            resolve({ status: res.statusCode ?? 0, headers, body: body as Record<string, unknown>, text });
          });
        },
      );
      req.on("error", reject);
      req.end(init.body);
    },
  );
}

async function askCode(email: string, app: string) {
  return onHost("demo.localhost", "/api/auth/handoff", {
    method: "POST",
    headers: { authorization: `Bearer ${await tokenFor(email)}` },
    body: JSON.stringify({ app }),
  });
}

const exchange = (host: string, code: string) =>
  onHost(host, "/api/auth/handoff/exchange", { method: "POST", body: JSON.stringify({ code }) });

describe("installable apps", () => {
  it("answers each host's manifest: its name, start page, standalone display, icons and the workspace's colour", async () => {
    for (const [host, name, short] of [
      ["demo.driver.localhost", "Driver · Harbourline Trading Pte Ltd", "Driver"],
      ["demo.warehouse.localhost", "Warehouse · Harbourline Trading Pte Ltd", "Warehouse"],
      ["demo.pos.localhost", "Point of sale · Harbourline Trading Pte Ltd", "POS"],
    ] as const) {
      const res = await onHost(host, "/manifest.webmanifest");
      expect(res.status, res.text).toBe(200);
      expect(res.headers.get("content-type")).toMatch(/^application\/manifest\+json/);
      expect(res.body).toMatchObject({
        name,
        short_name: short,
        start_url: "/dashboard",
        scope: "/",
        display: "standalone",
        theme_color: "#1976d2", // the demo workspace's primary colour, Blue
      });
      const icons = res.body.icons as Array<{ sizes: string; type: string; purpose: string }>;
      expect(icons.map((i) => i.sizes)).toEqual(expect.arrayContaining(["192x192", "512x512"]));
      expect(icons.every((i) => i.type === "image/png")).toBe(true);
    }
    const lite = await onHost("lite.driver.localhost", "/manifest.webmanifest");
    expect(lite.body.theme_color).toBe("#36a1cf"); // no colour named: the brand's
    const bare = await onHost("localhost", "/manifest.webmanifest");
    expect(bare.body).toMatchObject({ name: "Workmetrics", start_url: "/" });
  });

  it("serves a service worker with scope / that never caches the API", async () => {
    const res = await onHost("demo.warehouse.localhost", "/sw.js");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/javascript/);
    expect(res.headers.get("service-worker-allowed")).toBe("/");
    expect(res.text).toContain('"/index.html"');
    expect(res.text).toContain('const NEVER = ["/rest/", "/auth/", "/api/", "/storage/"');
  });
});

describe("signing in once across hosts", () => {
  it("hands a session to the other host once, keeping only the code's hash", async () => {
    const asked = await askCode(ADMIN, "pos");
    expect(asked.status, asked.text).toBe(200);
    const code = String(asked.body.code);
    expect(asked.body).toMatchObject({ slug: "demo", app: "pos", expires_in: 60 });
    const rows = await own.db.execute(sql`select code_hash from auth_handoff where code_hash = ${code}`);
    expect(rows.rows).toHaveLength(0);
    const hashed = createHash("sha256").update(code).digest("hex");
    expect((await own.db.execute(sql`select 1 from auth_handoff where code_hash = ${hashed}`)).rows).toHaveLength(1);

    const first = await exchange("demo.pos.localhost", code);
    expect(first.status, first.text).toBe(200);
    const token = String(first.body.access_token);
    expect(first.body.refresh_token).toBeTruthy();
    const me = await onHost("demo.pos.localhost", "/api/auth/user", { headers: { authorization: `Bearer ${token}` } });
    expect(me.status).toBe(200);
    expect((me.body.user as { email: string }).email).toBe(ADMIN);
    // The session works against the data too.
    const anon = await getAnonKey();
    const products = await fetch(`${own.server.url}/rest/v1/product?select=id&limit=1`, {
      headers: { apikey: anon, authorization: `Bearer ${token}` },
    });
    expect(products.status).toBe(200);

    const again = await exchange("demo.pos.localhost", code);
    expect(again.status).toBe(401);
    expect(again.body).toMatchObject({ code: "handoff_invalid" });
  });

  it("refuses an expired code, a code for another host and a made-up one", async () => {
    const expired = String((await askCode(ADMIN, "driver")).body.code);
    await own.db.execute(sql`update auth_handoff set expires_at = now() - interval '1 second'
      where code_hash = ${createHash("sha256").update(expired).digest("hex")}`);
    const late = await exchange("demo.driver.localhost", expired);
    expect(late.status).toBe(401);
    expect(late.body).toMatchObject({
      code: "handoff_expired",
      message: "This sign-in link has expired: sign in again",
    });

    const forMain = String((await askCode(SALES, "main")).body.code);
    const elsewhere = await exchange("demo.pos.localhost", forMain);
    expect(elsewhere.status).toBe(403);
    expect(elsewhere.body).toMatchObject({ code: "handoff_wrong_host" });
    // Spent by the refused try: it cannot be replayed on the right host either.
    expect((await exchange("demo.localhost", forMain)).status).toBe(401);

    const madeUp = await exchange("demo.localhost", "x".repeat(43));
    expect(madeUp.status).toBe(401);
    const short = await exchange("demo.localhost", "abc");
    expect(short.status).toBe(422);
    expect(short.body).toMatchObject({ details: [{ field: "code" }] });
  });

  it("applies the host rules: no POS for a salesperson, no driver app on Lite, none without a session", async () => {
    const sales = await askCode(SALES, "pos");
    expect(sales.status).toBe(403);
    expect(sales.body).toMatchObject({
      code: "host_refused",
      message: "Only the premium users have permission to access the website!",
    });
    const liteAsk = await onHost("lite.localhost", "/api/auth/handoff", {
      method: "POST",
      headers: { authorization: `Bearer ${await tokenFor(LITE_ADMIN)}` },
      body: JSON.stringify({ app: "driver" }),
    });
    expect(liteAsk.status).toBe(403);
    expect(liteAsk.body.message).toBe("The lite tier has no permission to access the website!");
    const pos = await askCode(POS, "pos");
    expect(pos.status).toBe(200);
    const driverToMain = await askCode(DRIVER, "main");
    expect(driverToMain.status).toBe(200);
    expect((await exchange("demo.localhost", String(driverToMain.body.code))).status).toBe(200);
    const nobody = await onHost("demo.localhost", "/api/auth/handoff", {
      method: "POST",
      body: JSON.stringify({ app: "pos" }),
    });
    expect(nobody.status).toBe(401);
    const bad = await askCode(ADMIN, "kitchen");
    expect(bad.status).toBe(422);
  });
});

describe("offline conflicts", () => {
  const key = `sale-${Date.now()}`;
  type Answer = { status: number; text: string; body: Record<string, unknown> & { id: number } };
  const call = async (email: string, fn: string, args: unknown) => (await rpc(email, fn, args)) as unknown as Answer;
  const report = (email: string, k = key) =>
    call(email, "offline_conflict_report", {
      app: "driver",
      command: "delivery_deliver",
      label: "Delivered DO-2026-00042",
      args_summary: '{"id":42}',
      code: "P0001",
      message: "DO-2026-00042 was cancelled: do not deliver it (ask dispatch)",
      key: k,
      acted_at: "2026-03-04T10:15:00+08:00",
    });

  it("keeps one report per refused action and shows it to managers only, in their workspace", async () => {
    const first = await report(DRIVER);
    expect(first.status, first.text).toBe(200);
    // Each answer is what the command's declaration promises the typed client.
    expect(COMMANDS.offline_conflict_report.result.safeParse(first.body).success).toBe(true);
    expect(first.body).toMatchObject({ app: "driver", user_name: "Dinesh Kumar", resolved_at: null });
    const again = await report(DRIVER);
    expect(again.status).toBe(200);
    expect(again.body.id).toBe(first.body.id);

    const list = await rpc(ADMIN, "offline_conflict_list", {});
    expect(list.status, list.text).toBe(200);
    expect(COMMANDS.offline_conflict_list.result.safeParse(list.body).success).toBe(true);
    const rows = (list.body as { rows: Array<{ id: number; key: string }>; open: number }).rows;
    expect(rows.filter((r) => r.key === key)).toHaveLength(1);
    expect((list.body as { open: number }).open).toBeGreaterThanOrEqual(1);

    for (const who of [DRIVER, MANAGER, SALES]) {
      const refused = await rpc(who, "offline_conflict_list", {});
      expect(refused.status, who).toBe(403);
    }
    const other = await rpc(PRO_ADMIN, "offline_conflict_list", { status: "all" });
    expect(other.status).toBe(200);
    expect((other.body as { rows: Array<{ key: string }> }).rows.some((r) => r.key === key)).toBe(false);
    const theirs = await call(PRO_ADMIN, "offline_conflict_resolve", { id: first.body.id });
    expect(theirs.status).toBe(404);
    // The table is behind the second wall too: the pro workspace's rows hold none of demo's.
    const walls = await restFetch(PRO_ADMIN, "offline_conflict?select=id");
    expect(walls.status === 404 || (walls.status === 200 && (walls.body as unknown[]).length === 0)).toBe(true);
  });

  it("resolves once, with who and when", async () => {
    const mine = await report(DRIVER, `${key}-2`);
    const resolved = await call(ADMIN, "offline_conflict_resolve", { id: mine.body.id, note: "Redone by phone" });
    expect(resolved.status, resolved.text).toBe(200);
    expect(COMMANDS.offline_conflict_resolve.result.safeParse(resolved.body).success).toBe(true);
    expect(resolved.body).toMatchObject({ resolved_by_name: "Aaron Lim", resolution_note: "Redone by phone" });
    expect(resolved.body.resolved_at).toBeTruthy();
    const twice = await call(ADMIN, "offline_conflict_resolve", { id: mine.body.id });
    expect(twice.status).toBe(409);
    expect(twice.body.message).toBe("This conflict was already resolved by Aaron Lim");
    const open = await rpc(ADMIN, "offline_conflict_list", { status: "open" });
    expect((open.body as { rows: Array<{ id: number }> }).rows.some((r) => r.id === mine.body.id)).toBe(false);
    const bad = await rpc(DRIVER, "offline_conflict_report", { app: "kitchen", key: "k" });
    expect(bad.status).toBe(422);
  });
});

describe("barcodes", () => {
  it("gives every demo product a valid EAN-13, found by the scanner's exact match", async () => {
    const res = await restFetch(ADMIN, "product?select=id,sku,barcode&order=id&limit=1000");
    expect(res.status).toBe(200);
    const rows = res.body as Array<{ id: number; sku: string; barcode: string | null }>;
    expect(rows.length).toBeGreaterThan(10);
    expect(rows.every((r) => r.barcode !== null && validGtin(r.barcode) && r.barcode.length === 13)).toBe(true);
    expect(new Set(rows.map((r) => r.barcode)).size).toBe(rows.length);
    const found = await restFetch(POS, `product?select=id,sku&barcode=eq.${rows[3].barcode}`);
    expect(found.body).toEqual([{ id: rows[3].id, sku: rows[3].sku }]);
  });

  it("keeps a barcode unique in the workspace, from the form and from a CSV import", async () => {
    const tag = `BC${Date.now().toString(36).toUpperCase()}`;
    const code = ean13(`2${String(Date.now()).slice(-11)}`);
    const made = await restFetch(ADMIN, "product", {
      method: "POST",
      headers: { prefer: "return=representation" },
      body: JSON.stringify({ sku: `${tag}-1`, name: "Scanned thing", barcode: code }),
    });
    expect(made.status, made.text).toBe(201);
    const twice = await restFetch(ADMIN, "product", {
      method: "POST",
      body: JSON.stringify({ sku: `${tag}-2`, name: "Same code", barcode: code }),
    });
    expect(twice.status).toBe(409);
    expect(twice.text).toContain("barcode");
    // Another workspace may use the same code for its own product.
    const theirs = await restFetch(PRO_ADMIN, "product", {
      method: "POST",
      body: JSON.stringify({ sku: `${tag}-1`, name: "Their scanned thing", barcode: code }),
    });
    expect(theirs.status, theirs.text).toBe(201);
    const csvCode = ean13(`3${String(Date.now()).slice(-11)}`);
    const imported = await rpc(ADMIN, "csv_import", {
      resource: "product",
      rows: [{ SKU: `${tag}-3`, Name: "From the file", Barcode: csvCode }],
    });
    expect(imported.status, imported.text).toBe(200);
    expect(imported.body).toMatchObject({ committed: true, imported: 1 });
    const back = await restFetch(ADMIN, `product?select=sku&barcode=eq.${csvCode}`);
    expect(back.body).toEqual([{ sku: `${tag}-3` }]);
    const clash = await rpc(ADMIN, "csv_import", {
      resource: "product",
      rows: [{ SKU: `${tag}-4`, Name: "Clash", Barcode: csvCode }],
    });
    expect((clash.body as { committed: boolean }).committed).toBe(false);
  });
});
