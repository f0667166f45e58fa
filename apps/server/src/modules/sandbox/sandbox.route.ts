import { workspaceHost } from "@workmetrics/domain";
import type { FastifyInstance } from "fastify";
import type { Db } from "../../platform/db/database.ts";
import { HttpError } from "../../platform/http/errors.ts";
import type { FileStore } from "../../platform/storage/disk.ts";
import { limit, type Window } from "../orders/rate-limit.ts";
import { createSandbox, liveSandboxes, SANDBOX_CAP } from "./sandbox.ts";

// A visitor tries a sandbox or two; more than five an hour from one address is a script filling the database.
const SANDBOX_LIMIT: Window = { max: 5, windowSeconds: 3600 };

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

// GET /demo (DESIGN §2.3.2): a sandbox of one's own, then signed in as its owner on its own host. A browser that
// cannot have one (too many from its address, every sandbox taken) gets a page saying so in words, not JSON.
export async function sandboxRoutes(app: FastifyInstance, opts: { db: Db; files: FileStore }): Promise<void> {
  const { db } = opts;
  app.get("/demo", async (req, reply) => {
    try {
      await limit(db, reply, `sandbox:${req.ip}`, SANDBOX_LIMIT, "Too many sandboxes from your network.");
      if ((await liveSandboxes(db)) >= SANDBOX_CAP) {
        throw new HttpError(503, "sandbox_full", "Every sandbox is in use right now. Please try again in an hour.");
      }
      const sandbox = await createSandbox(db, { files: opts.files });
      const { config } = app.authDeps;
      const base = new URL(config.publicUrl);
      const port = /:(\d+)$/.exec(req.host ?? "")?.[1] ?? base.port;
      const protocol = req.host ? `${req.protocol}:` : base.protocol;
      const host = workspaceHost(sandbox.slug, config.baseDomain, "main", port || undefined);
      const params = new URLSearchParams({
        token: sandbox.signInToken,
        type: "magiclink",
        redirect_to: `${protocol}//${host}/auth/success?next=/dashboard`,
      });
      req.log.info({ sandbox: sandbox.slug }, "sandbox made");
      return reply.header("cache-control", "no-store").redirect(`/auth/v1/verify?${params.toString()}`, 303);
    } catch (err) {
      if (!(err instanceof HttpError) || !(req.headers.accept ?? "").includes("text/html")) throw err;
      return reply
        .code(err.statusCode)
        .type("text/html; charset=utf-8")
        .send(
          `<!doctype html><html lang="en"><meta charset="utf-8"><meta name="viewport" content="width=device-width">` +
            `<title>Try Workmetrics</title><body style="font-family:Roboto,Arial,sans-serif;max-width:36rem;margin:4rem auto;padding:0 1rem">` +
            `<h1>Your sandbox could not be made</h1><p>${escapeHtml(err.message)}</p>` +
            `<p><a href="/book-a-demo">Book a demo</a> or <a href="/">go back to the home page</a>.</p></body></html>`,
        );
    }
  });
}
