import { sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import QRCode from "qrcode";
import { clientMeta } from "../../platform/auth/request.ts";
import { type Db, inRequest } from "../../platform/db/database.ts";
import { limit } from "../orders/rate-limit.ts";
import { setReceiptBase } from "./pos.module.ts";
import { orderView } from "./pos.views.ts";
import { receiptHtml, receiptPdf, receiptUrl } from "./receipt.ts";

// Issue 22 "Point of sale": the public e-receipt a receipt's QR code opens, GET /r/{token} (HTML) and
// /r/{token}/pdf, with no sign-in. The token (24 random URL-safe characters) finds the order across workspaces — the
// only read before its workspace is known; the receipt is then read in that workspace's transaction under its
// row-level security. It shows that one receipt and nothing else.

const TOKEN = /^[A-Za-z0-9_-]{24}$/;
const VIEW_LIMIT = { max: 300, windowSeconds: 600 };

const missing = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>Receipt not found</title></head><body style="font-family:system-ui;padding:24px"><h1>Receipt not found</h1><p>This receipt link is not valid. Ask the shop for a new copy.</p></body></html>`;

export async function posPublicRoutes(app: FastifyInstance, opts: { db: Db }): Promise<void> {
  const { db } = opts;
  setReceiptBase(app.deps.links.publicUrl);

  async function find(token: string) {
    if (!TOKEN.test(token)) return null;
    const res = await db.execute(sql`select workspace_id::text as ws from pos_order where receipt_token = ${token}`);
    const row = res.rows[0] as { ws: string } | undefined;
    if (!row) return null;
    return inRequest(db, { workspaceId: row.ws, userId: null, role: "anon" }, (tx) => orderView(tx, { token }));
  }

  app.get<{ Params: { token: string } }>("/r/:token", async (req, reply) => {
    await limit(db, reply, `pos_receipt:${clientMeta(req).ip}`, VIEW_LIMIT, "Too many requests from your network.");
    const order = await find(req.params.token);
    reply.header("cache-control", "private, no-store").header("x-robots-tag", "noindex").type("text/html");
    if (!order) return reply.code(404).send(missing);
    return reply.send(await receiptHtml(order, receiptUrl(app.deps.links.publicUrl, order.receipt_token)));
  });

  // The e-receipt's QR code as SVG, for the receipt the app shows and prints.
  app.get<{ Params: { token: string } }>("/r/:token/qr.svg", async (req, reply) => {
    if (!TOKEN.test(req.params.token)) return reply.code(404).send();
    const svg = await QRCode.toString(receiptUrl(app.deps.links.publicUrl, req.params.token), {
      type: "svg",
      margin: 1,
      errorCorrectionLevel: "M",
    });
    return reply.header("cache-control", "public, max-age=86400").type("image/svg+xml").send(svg);
  });

  app.get<{ Params: { token: string } }>("/r/:token/pdf", async (req, reply) => {
    await limit(db, reply, `pos_receipt:${clientMeta(req).ip}`, VIEW_LIMIT, "Too many requests from your network.");
    const order = await find(req.params.token);
    if (!order) return reply.code(404).type("text/html").send(missing);
    const pdf = await receiptPdf(order, receiptUrl(app.deps.links.publicUrl, order.receipt_token));
    return reply
      .header("cache-control", "private, no-store")
      .header("content-disposition", `inline; filename="${order.number}.pdf"`)
      .type("application/pdf")
      .send(pdf);
  });
}
