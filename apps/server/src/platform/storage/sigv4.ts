import { createHash, createHmac } from "node:crypto";

// AWS Signature Version 4 for S3 requests (the Authorization header, a payload in one piece): what every
// S3-compatible store (AWS S3, MinIO, Ceph, Cloudflare R2, Backblaze B2, …) checks. A few lines instead of the AWS
// SDK; sigv4.test.ts checks it against the examples of AWS's documentation.

export type SigningKeys = { accessKeyId: string; secretAccessKey: string; region: string; service?: string };

export const EMPTY_SHA256 = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
export const sha256Hex = (data: string | Buffer) => createHash("sha256").update(data).digest("hex");
const hmac = (key: string | Buffer, data: string) => createHmac("sha256", key).update(data).digest();

// RFC 3986 encoding as SigV4 wants it: unreserved characters kept, everything else %XX (upper case).
export const uriEncode = (s: string) =>
  encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

// The path as S3 canonicalises it: each segment encoded once, the slashes kept.
export const canonicalPath = (pathname: string) =>
  pathname
    .split("/")
    .map((seg) => uriEncode(decodeURIComponent(seg)))
    .join("/") || "/";

export const canonicalQuery = (params: URLSearchParams) =>
  [...params.entries()]
    .map(([k, v]) => [uriEncode(k), uriEncode(v)])
    .sort(([a, x], [b, y]) => (a < b ? -1 : a > b ? 1 : x < y ? -1 : x > y ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`)
    .join("&");

export const amzDate = (at: Date) =>
  at
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d{3}/, "");

export function signingKey(secret: string, day: string, region: string, service: string): Buffer {
  return hmac(hmac(hmac(hmac(`AWS4${secret}`, day), region), service), "aws4_request");
}

// The string a request's signature is the HMAC of, from its parts (shared with the test's fake S3, which checks it).
export function stringToSign(
  req: { method: string; url: URL; headers: Record<string, string>; signedHeaders: string[]; payloadHash: string },
  scope: string,
  date: string,
): string {
  const canonicalHeaders = req.signedHeaders
    .map(
      (h) =>
        `${h}:${String(req.headers[h] ?? "")
          .trim()
          .replace(/\s+/g, " ")}\n`,
    )
    .join("");
  const canonicalRequest = [
    req.method,
    canonicalPath(req.url.pathname),
    canonicalQuery(req.url.searchParams),
    canonicalHeaders,
    req.signedHeaders.join(";"),
    req.payloadHash,
  ].join("\n");
  return ["AWS4-HMAC-SHA256", date, scope, sha256Hex(canonicalRequest)].join("\n");
}

// The headers to send: the given ones, x-amz-date, x-amz-content-sha256 and Authorization. Every given header is
// signed, and the host.
export function signRequest(
  req: { method: string; url: URL; headers?: Record<string, string>; payloadHash: string },
  keys: SigningKeys,
  at = new Date(),
): Record<string, string> {
  const service = keys.service ?? "s3";
  const date = amzDate(at);
  const day = date.slice(0, 8);
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(req.headers ?? {})) headers[k.toLowerCase()] = v;
  headers.host = req.url.host;
  headers["x-amz-date"] = date;
  headers["x-amz-content-sha256"] = req.payloadHash;
  const signedHeaders = Object.keys(headers).sort();
  const scope = `${day}/${keys.region}/${service}/aws4_request`;
  const toSign = stringToSign({ ...req, headers, signedHeaders }, scope, date);
  const signature = hmac(signingKey(keys.secretAccessKey, day, keys.region, service), toSign).toString("hex");
  headers.authorization = `AWS4-HMAC-SHA256 Credential=${keys.accessKeyId}/${scope}, SignedHeaders=${signedHeaders.join(";")}, Signature=${signature}`;
  delete headers.host; // fetch sets it from the URL
  return headers;
}
