import type { FastifyReply, FastifyRequest } from "fastify";
import type { OpenedFile } from "./disk.ts";
import type { ObjectRow } from "./json.ts";
import { contentDisposition, safeInline } from "./names.ts";

// What a file response may do in a browser: show itself (images, PDFs, media) inside our own pages, nothing else.
const FILE_CSP =
  "default-src 'none'; img-src 'self' data:; media-src 'self'; style-src 'unsafe-inline'; frame-ancestors 'self'";

// Streams an object with the headers storage clients and browsers expect: type, length, ETag, Last-Modified and
// the object's Cache-Control (max-age=3600 unless it was uploaded with another; spec §9).
export async function sendObject(
  req: FastifyRequest,
  reply: FastifyReply,
  row: ObjectRow,
  file: OpenedFile | null,
): Promise<FastifyReply> {
  const etag = `"${row.etag}"`;
  const fileName = row.name.split("/").pop() ?? row.name;
  const query = req.query as { download?: string };
  const download = query.download !== undefined;
  const kind = download || !safeInline(row.mimeType) ? "attachment" : "inline";
  reply
    .header("content-type", row.mimeType)
    .header("cache-control", row.cacheControl)
    .header("etag", etag)
    .header("last-modified", new Date(row.updatedAt).toUTCString())
    .header("content-disposition", contentDisposition(kind, download && query.download ? query.download : fileName))
    .header("x-content-type-options", "nosniff")
    .header("content-security-policy", FILE_CSP);
  if (!file || req.headers["if-none-match"] === etag) {
    await file?.close();
    if (file) return reply.code(304).send();
    return reply.header("content-length", String(row.size)).send();
  }
  reply.header("content-length", String(row.size));
  return reply.send(file.createReadStream());
}
