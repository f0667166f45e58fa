import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import fastifyStatic from "@fastify/static";
import { decideHost, isGuestPath, isProtectedPath } from "@workmetrics/domain";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";

const API_PREFIXES = ["/api/", "/auth/v1/", "/rest/v1/", "/storage/v1/", "/realtime/", "/webhooks/"];

// The built SPA: hashed assets cached for a year, every other GET that accepts HTML gets index.html.
export async function registerSpa(app: FastifyInstance, webDist: string, baseDomain: string): Promise<void> {
  const indexFile = path.join(webDist, "index.html");
  const built = existsSync(indexFile);
  if (built) {
    await app.register(fastifyStatic, {
      root: webDist,
      index: false,
      wildcard: false,
      setHeaders(reply, filePath) {
        const hashed = filePath.includes(`${path.sep}assets${path.sep}`);
        reply.header("cache-control", hashed ? "public, max-age=31536000, immutable" : "public, max-age=300");
      },
    });
  } else {
    app.log.warn({ webDist }, "web app not built; run `npm run build` to serve the UI");
  }
  const indexHtml = built ? readFileSync(indexFile, "utf8") : null;

  app.setNotFoundHandler(async (req, reply) => {
    const url = req.url.split("?")[0];
    // Browsers ask for text/html; a bare client (curl, a health probe) that accepts anything gets the page too.
    // HEAD answers as GET does, without the body (Node drops it), so link checkers and probes see the page.
    const accept = req.headers.accept ?? "*/*";
    const pageMethod = req.method === "GET" || req.method === "HEAD";
    const wantsHtml = pageMethod && (accept.includes("text/html") || accept.trim() === "*/*");
    const isApi = API_PREFIXES.some((p) => url.startsWith(p)) || url.startsWith("/dev/");
    if (wantsHtml && !isApi) {
      // DESIGN §3.3: the root of a sub-domain host is the login page (the query, e.g. redirectedFrom, goes along).
      const rule = decideHost({ host: req.headers.host ?? "", path: url, baseDomain, user: null });
      if (rule.action === "redirect") {
        const query = req.url.slice(url.length);
        return reply.header("cache-control", "no-store").redirect(`${rule.to}${query}`, 302);
      }
      if (await redirectedToSignIn(req, reply, url)) return reply;
    }
    if (indexHtml && wantsHtml && !isApi) {
      return reply.header("cache-control", "no-cache").type("text/html; charset=utf-8").send(indexHtml);
    }
    return reply.code(404).send({ code: "not_found", message: `No route for ${req.method} ${url}` });
  });
}

// Spec §2 / issue 3 item 8: a protected page requested without a session goes to the configured path (default /)
// with ?redirectedFrom=<the page>, before any HTML is sent. An address that is no page gets the app, which says so.
async function redirectedToSignIn(req: FastifyRequest, reply: FastifyReply, path: string): Promise<boolean> {
  if (isGuestPath(path) || !isProtectedPath(path) || (await req.server.authGuard.hasPageSession(req))) return false;
  const target = req.server.authGuard.redirectPath;
  const from = req.url.length > 2048 ? path : req.url;
  const sep = target.includes("?") ? "&" : "?";
  await reply
    .header("cache-control", "no-store")
    .redirect(`${target}${sep}redirectedFrom=${encodeURIComponent(from)}`, 302);
  return true;
}
