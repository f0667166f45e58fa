import { createHash, createHmac } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { signingKey, stringToSign } from "../src/platform/storage/sigv4.ts";

// A small S3-compatible store of ours for the tests (issue 25): the calls of the S3 API the file store makes —
// PutObject (and CopyObject: a PUT with x-amz-copy-source), GetObject, HeadObject, DeleteObject and ListObjectsV2 —
// path-style (/bucket/key), in memory. Every request must carry a valid AWS Signature Version 4 (Authorization
// header): the access key known, the scope's region and service right, x-amz-date within 15 minutes, the host and
// x-amz-* headers signed, the body's SHA-256 as x-amz-content-sha256, and the signature recomputed from the request
// as received. Anything else is answered as S3 does (403 SignatureDoesNotMatch, 404 NoSuchKey, …) and changes nothing.

export type FakeS3 = {
  url: string;
  bucket: string;
  objects: Map<string, Buffer>; // key → bytes (the one bucket's)
  requests: Array<{ method: string; key: string; query: string }>;
  // The secret the store checks against (change it to make the server's signatures fail).
  secret: string;
  refused: number;
  close(): Promise<void>;
};

const xml = (res: http.ServerResponse, status: number, body: string) => {
  res.writeHead(status, { "content-type": "application/xml" });
  res.end(`<?xml version="1.0" encoding="UTF-8"?>\n${body}`);
};
const error = (res: http.ServerResponse, status: number, code: string, message: string) =>
  xml(res, status, `<Error><Code>${code}</Code><Message>${message}</Message></Error>`);
const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
const md5 = (b: Buffer) => createHash("md5").update(b).digest("hex");

export async function startFakeS3(opts: {
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  region: string;
}): Promise<FakeS3> {
  const fake: FakeS3 = {
    url: "",
    bucket: opts.bucket,
    objects: new Map(),
    requests: [],
    secret: opts.secretAccessKey,
    refused: 0,
    close: async () => undefined,
  };

  // The signature check: null when the request is signed right, else S3's error code.
  function checkSignature(req: http.IncomingMessage, url: URL, body: Buffer): string | null {
    const auth = req.headers.authorization ?? "";
    const m =
      /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request, ?SignedHeaders=([a-z0-9;-]+), ?Signature=([0-9a-f]{64})$/.exec(
        auth,
      );
    if (!m) return "AccessDenied";
    const [, accessKey, day, region, service, signed, signature] = m;
    if (accessKey !== opts.accessKeyId) return "InvalidAccessKeyId";
    if (region !== opts.region || service !== "s3") return "AuthorizationHeaderMalformed";
    const date = String(req.headers["x-amz-date"] ?? "");
    const when = Date.parse(date.replace(/^(\d{4})(\d\d)(\d\d)T(\d\d)(\d\d)(\d\d)Z$/, "$1-$2-$3T$4:$5:$6Z"));
    if (!date.startsWith(day) || !Number.isFinite(when) || Math.abs(Date.now() - when) > 15 * 60_000) {
      return "RequestTimeTooSkewed";
    }
    const signedHeaders = signed.split(";");
    const mustSign = [
      "host",
      "x-amz-date",
      "x-amz-content-sha256",
      ...Object.keys(req.headers).filter((h) => h.startsWith("x-amz-")),
    ];
    if (mustSign.some((h) => !signedHeaders.includes(h))) return "AccessDenied";
    const payloadHash = String(req.headers["x-amz-content-sha256"] ?? "");
    if (payloadHash !== createHash("sha256").update(body).digest("hex")) return "XAmzContentSHA256Mismatch";
    const headers = Object.fromEntries(signedHeaders.map((h) => [h, String(req.headers[h] ?? "")]));
    const toSign = stringToSign(
      { method: req.method ?? "GET", url, headers, signedHeaders, payloadHash },
      `${day}/${region}/s3/aws4_request`,
      date,
    );
    const expected = createHmac("sha256", signingKey(fake.secret, day, region, "s3"))
      .update(toSign)
      .digest("hex");
    return expected === signature ? null : "SignatureDoesNotMatch";
  }

  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks);
    const url = new URL(req.url ?? "/", `http://${req.headers.host}`);
    const [, bucket = "", ...rest] = url.pathname.split("/");
    const key = rest.map(decodeURIComponent).join("/");
    fake.requests.push({ method: req.method ?? "", key, query: url.search });
    const refusal = checkSignature(req, url, body);
    if (refusal) {
      fake.refused++;
      return error(
        res,
        refusal === "InvalidAccessKeyId" ? 403 : refusal === "XAmzContentSHA256Mismatch" ? 400 : 403,
        refusal,
        "refused",
      );
    }
    if (decodeURIComponent(bucket) !== opts.bucket) return error(res, 404, "NoSuchBucket", "The bucket does not exist");

    if (!key && req.method === "GET" && url.searchParams.get("list-type") === "2") {
      const prefix = url.searchParams.get("prefix") ?? "";
      const max = Math.min(1000, Number(url.searchParams.get("max-keys") ?? 1000));
      const after = url.searchParams.get("continuation-token") ?? "";
      const keys = [...fake.objects.keys()].filter((k) => k.startsWith(prefix) && k > after).sort();
      const page = keys.slice(0, max);
      const truncated = keys.length > max;
      return xml(
        res,
        200,
        `<ListBucketResult><Name>${esc(opts.bucket)}</Name><Prefix>${esc(prefix)}</Prefix><KeyCount>${page.length}</KeyCount>` +
          `<MaxKeys>${max}</MaxKeys><IsTruncated>${truncated}</IsTruncated>` +
          page
            .map((k) => `<Contents><Key>${esc(k)}</Key><Size>${fake.objects.get(k)?.length}</Size></Contents>`)
            .join("") +
          (truncated ? `<NextContinuationToken>${esc(page[page.length - 1])}</NextContinuationToken>` : "") +
          "</ListBucketResult>",
      );
    }
    if (!key) return error(res, 400, "InvalidRequest", "No key");
    switch (req.method) {
      case "PUT": {
        const source = req.headers["x-amz-copy-source"];
        if (typeof source === "string") {
          const [, srcBucket, ...srcKey] = decodeURIComponent(source).split("/");
          const bytes = srcBucket === opts.bucket ? fake.objects.get(srcKey.join("/")) : undefined;
          if (!bytes) return error(res, 404, "NoSuchKey", "The copy's source does not exist");
          fake.objects.set(key, Buffer.from(bytes));
          return xml(res, 200, `<CopyObjectResult><ETag>"${md5(bytes)}"</ETag></CopyObjectResult>`);
        }
        fake.objects.set(key, body);
        res.writeHead(200, { etag: `"${md5(body)}"` });
        return res.end();
      }
      case "GET":
      case "HEAD": {
        const bytes = fake.objects.get(key);
        if (!bytes && req.method === "HEAD") {
          res.writeHead(404);
          return res.end();
        }
        if (!bytes) return error(res, 404, "NoSuchKey", "No such key");
        res.writeHead(200, { "content-length": String(bytes.length), etag: `"${md5(bytes)}"` });
        return res.end(req.method === "HEAD" ? undefined : bytes);
      }
      case "DELETE":
        fake.objects.delete(key);
        res.writeHead(204);
        return res.end();
      default:
        return error(res, 405, "MethodNotAllowed", "Not supported here");
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fake.close = () =>
    new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return fake;
}
