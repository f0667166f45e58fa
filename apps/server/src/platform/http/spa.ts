import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import fastifyStatic from "@fastify/static";
import type { FastifyInstance } from "fastify";

const API_PREFIXES = ["/api/", "/auth/v1/", "/rest/v1/", "/storage/v1/", "/realtime/", "/webhooks/"];

// The built SPA: hashed assets cached for a year, every other GET that accepts HTML gets index.html.
export async function registerSpa(app: FastifyInstance, webDist: string): Promise<void> {
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

  app.setNotFoundHandler((req, reply) => {
    const url = req.url.split("?")[0];
    const wantsHtml = req.method === "GET" && (req.headers.accept ?? "").includes("text/html");
    if (indexHtml && wantsHtml && !API_PREFIXES.some((p) => url.startsWith(p))) {
      return reply.header("cache-control", "no-cache").type("text/html; charset=utf-8").send(indexHtml);
    }
    return reply.code(404).send({ code: "not_found", message: `No route for ${req.method} ${url}` });
  });
}
