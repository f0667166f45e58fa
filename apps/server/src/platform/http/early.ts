import { existsSync, readFileSync, statSync } from "node:fs";
import http from "node:http";
import path from "node:path";

// Issue 21 §5: `npm start` answers its first page before the app is up. main.ts listens with this handler first —
// having loaded nothing but Node's own modules — while the database opens, migrates (and on a new embedded
// database the demo is written, server.ts) and the app is built; Fastify then takes the same server over
// (serverFactory), so no connection is refused or dropped at the hand-over. Meanwhile the landing page and the web's
// files are served as the app serves them (registerSpa, registerSecurity: the same CSP and cache headers); every
// other address answers 503 with Retry-After — a page asked for in a browser says "starting" and reloads itself.

const TYPES: Record<string, string> = {
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".html": "text/html; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".json": "application/json; charset=utf-8",
  ".webmanifest": "application/manifest+json",
  ".woff2": "font/woff2",
  ".woff": "font/woff",
  ".txt": "text/plain; charset=utf-8",
};

// security.ts's policy, as helmet writes it (development: no upgrade-insecure-requests, no HSTS).
function securityHeaders(production: boolean): Record<string, string> {
  const csp = [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "connect-src 'self' ws: wss:",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    ...(production ? ["upgrade-insecure-requests"] : []),
  ].join(";");
  return {
    "content-security-policy": csp,
    "x-content-type-options": "nosniff",
    "x-frame-options": "SAMEORIGIN",
    "referrer-policy": "no-referrer",
    ...(production ? { "strict-transport-security": "max-age=31536000; includeSubDomains" } : {}),
  };
}

const STARTING_PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta http-equiv="refresh" content="1">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>Workmetrics is starting</title></head>
<body style="font-family:system-ui,sans-serif;display:grid;place-items:center;min-height:90vh;color:#333">
<p role="status">Workmetrics is starting — this page opens by itself in a moment.</p></body></html>`;

export type EarlyServer = {
  server: http.Server;
  // Fastify's serverFactory: keeps the app's handler, …
  factory: (handler: http.RequestListener) => http.Server;
  // … which takes every request from here on (once the app is ready).
  handOver(): void;
  close(): Promise<void>;
};

export function listenEarly(opts: {
  port: number;
  host: string;
  webDist: string;
  baseDomain: string;
  production: boolean;
}): Promise<EarlyServer> {
  const security = securityHeaders(opts.production);
  const indexFile = path.join(opts.webDist, "index.html");
  const indexHtml = existsSync(indexFile) ? readFileSync(indexFile) : null;
  const root = path.resolve(opts.webDist);
  let app: http.RequestListener | null = null;
  let pending: http.RequestListener | null = null;

  const early: http.RequestListener = (req, res) => {
    const url = (req.url ?? "/").split("?")[0];
    const page = req.method === "GET" || req.method === "HEAD";
    const hostname = (req.headers.host ?? "").replace(/:\d+$/, "");
    const ownHost = hostname === opts.baseDomain || hostname === "localhost" || /^[\d.]+$|^\[/.test(hostname);
    if (page && url === "/" && ownHost && indexHtml) {
      return send(res, 200, { ...security, "content-type": TYPES[".html"], "cache-control": "no-cache" }, indexHtml);
    }
    if (page && !url.includes("..") && url.lastIndexOf(".") > url.lastIndexOf("/")) {
      const file = path.join(root, decodeURIComponent(url));
      const type = TYPES[path.extname(file)];
      if (type && file.startsWith(root + path.sep) && existsSync(file) && statSync(file).isFile()) {
        const hashed = file.includes(`${path.sep}assets${path.sep}`);
        const cache = hashed ? "public, max-age=31536000, immutable" : "public, max-age=300";
        return send(res, 200, { ...security, "content-type": type, "cache-control": cache }, readFileSync(file));
      }
    }
    const wantsHtml = page && (req.headers.accept ?? "").includes("text/html");
    const headers = { ...security, "retry-after": "1", "cache-control": "no-store" };
    if (wantsHtml) return send(res, 503, { ...headers, "content-type": TYPES[".html"] }, Buffer.from(STARTING_PAGE));
    const body = { code: "starting", message: "Workmetrics is starting; try again in a moment" };
    return send(res, 503, { ...headers, "content-type": TYPES[".json"] }, Buffer.from(JSON.stringify(body)));
  };

  const server = http.createServer((req, res) => (app ?? early)(req, res));
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port, opts.host, () => {
      server.off("error", reject);
      resolve({
        server,
        factory: (handler) => {
          pending = handler;
          return server;
        },
        handOver: () => {
          app = pending;
        },
        close: () => new Promise((done) => server.close(() => done())),
      });
    });
  });
}

function send(res: http.ServerResponse, status: number, headers: Record<string, string>, body: Buffer): void {
  res.writeHead(status, { ...headers, "content-length": String(body.length) });
  res.end(res.req.method === "HEAD" ? undefined : body);
}
