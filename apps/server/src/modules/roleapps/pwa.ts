import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import type { RoleApp } from "@workmetrics/domain";

// Issue 22 "installable": each role app's manifest and the service worker that keeps its shell for offline use.

export const APP_NAMES: Record<RoleApp, { name: string; short: string; description: string }> = {
  main: { name: "Workmetrics", short: "Workmetrics", description: "Quote, sell, deliver, invoice, buy and pay" },
  driver: { name: "Driver", short: "Driver", description: "Today's deliveries, proof of delivery, offline" },
  warehouse: { name: "Warehouse", short: "Warehouse", description: "Receive, pick, move and count stock" },
  pos: { name: "Point of sale", short: "POS", description: "Counter sales with GST-inclusive prices" },
};

export function manifestFor(
  app: RoleApp,
  workspace: { name: string; color: string | null } | null,
  brand: string,
): Record<string, unknown> {
  const names = APP_NAMES[app];
  const name = workspace ? (app === "main" ? workspace.name : `${names.name} · ${workspace.name}`) : names.name;
  const icon = app === "main" ? "workmetrics" : app;
  return {
    id: app === "main" ? "/" : `/?app=${app}`,
    name,
    short_name: app === "main" ? (workspace?.name ?? names.short).slice(0, 12) : names.short,
    description: names.description,
    start_url: app === "main" && !workspace ? "/" : "/dashboard",
    scope: "/",
    display: "standalone",
    orientation: "any",
    background_color: "#fafafa",
    theme_color: workspace?.color ?? brand,
    icons: [
      { src: `/icons/${icon}-192.png`, sizes: "192x192", type: "image/png", purpose: "any" },
      { src: `/icons/${icon}-512.png`, sizes: "512x512", type: "image/png", purpose: "any" },
      { src: `/icons/${icon}-maskable-512.png`, sizes: "512x512", type: "image/png", purpose: "maskable" },
    ],
  };
}

type ManifestChunk = {
  file: string;
  src?: string;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
  assets?: string[];
};

// What the service worker keeps at install: index.html, what the entry loads, the signed-in root and this app's
// own code (with its shell and the WASM barcode reader), from the Vite build's manifest. What else the app loads
// later is kept as it is fetched.
export function precacheList(webDist: string, app: RoleApp): string[] {
  const out = new Set<string>(["/index.html", "/favicon.svg"]);
  const icon = app === "main" ? "workmetrics" : app;
  for (const f of [`/icons/${icon}-192.png`, `/icons/${icon}-512.png`]) {
    if (existsSync(path.join(webDist, f))) out.add(f);
  }
  const manifestFile = path.join(webDist, ".vite", "manifest.json");
  if (!existsSync(manifestFile)) {
    // No build manifest: the files index.html names.
    const html = readIndex(webDist) ?? "";
    for (const m of html.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)) out.add(m[1]);
    return [...out];
  }
  const manifest = JSON.parse(readFileSync(manifestFile, "utf8")) as Record<string, ManifestChunk>;
  // The way from the entry to the signed-in app: the session root, the dashboard's routes, the root that picks the
  // host's app, the toaster, and this app's folder with the shell's.
  const wanted = new RegExp(
    `src/app/(session/SessionRoot|dashboard-routes|shell/DashboardRoot|shell/ModuleScope|Toaster)\\.tsx|src/roleapps/(shell|${app === "main" ? "none" : app})/`,
  );
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    const chunk = manifest[key];
    if (!chunk) return;
    out.add(`/${chunk.file}`);
    for (const c of chunk.css ?? []) out.add(`/${c}`);
    // Fonts: the Latin faces only (the others load, and are kept, if a page ever needs them).
    for (const a of chunk.assets ?? [])
      if (!/\.woff2?$/.test(a) || /latin-\d+-normal.*\.woff2$/.test(a)) out.add(`/${a}`);
    for (const i of chunk.imports ?? []) visit(i);
    for (const d of chunk.dynamicImports ?? []) if (wanted.test(d)) visit(d);
  };
  visit("index.html");
  return [...out];
}

function readIndex(webDist: string): string | null {
  const f = path.join(webDist, "index.html");
  return existsSync(f) ? readFileSync(f, "utf8") : null;
}

// The service worker: the shell precached at install (a new build is a new version, and the old cache goes at
// activation); navigations network-first with the kept index.html when the network is gone; the app's hashed files
// cache-first. Never the API's answers: /rest, /auth, /api, /storage, /realtime are left to the network.
export function serviceWorker(webDist: string, app: RoleApp): string {
  const list = precacheList(webDist, app);
  const version = createHash("sha256")
    .update(readIndex(webDist) ?? "unbuilt")
    .update(list.join("\n"))
    .digest("hex")
    .slice(0, 16);
  return `// Workmetrics ${app} app service worker (issue 22), version ${version}.
const VERSION = ${JSON.stringify(version)};
const CACHE = "wm-shell-" + VERSION;
const RUNTIME = "wm-runtime-" + VERSION;
const PRECACHE = ${JSON.stringify(list)};
const NEVER = ["/rest/", "/auth/", "/api/", "/storage/", "/realtime", "/webhooks/", "/dev/", "/sw.js"];

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((c) => c.addAll(PRECACHE)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((keys) => Promise.all(keys.filter((k) => k.startsWith("wm-") && k !== CACHE && k !== RUNTIME).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener("fetch", (event) => {
  const req = event.request;
  if (req.method !== "GET") return;
  const url = new URL(req.url);
  if (url.origin !== self.location.origin) return;
  if (NEVER.some((p) => url.pathname.startsWith(p))) return;
  if (req.mode === "navigate") {
    event.respondWith(
      fetch(req).catch(() => caches.match("/index.html", { cacheName: CACHE }).then((r) => r || Response.error())),
    );
    return;
  }
  if (url.pathname.startsWith("/assets/") || url.pathname.startsWith("/icons/") || url.pathname === "/favicon.svg") {
    event.respondWith(
      caches.match(req).then(
        (hit) =>
          hit ||
          fetch(req).then((res) => {
            if (res.ok) {
              const copy = res.clone();
              caches.open(RUNTIME).then((c) => c.put(req, copy));
            }
            return res;
          }),
      ),
    );
  }
});
`;
}
