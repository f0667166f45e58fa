import { readFile } from "node:fs/promises";
import { Readable } from "node:stream";
import type { ReadableStream as WebReadableStream } from "node:stream/web";
import type { FileStore, Staging } from "./disk.ts";
import { EMPTY_SHA256, sha256Hex, signRequest, uriEncode } from "./sigv4.ts";
import { StorageError } from "./storage-error.ts";

// Issue 25: the file store in an S3-compatible object store (AWS S3, MinIO, Ceph RGW, Cloudflare R2, …), so that
// instances on several machines reach the same files without a shared disk. Set by S3_ENDPOINT, S3_BUCKET, S3_REGION,
// S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY and S3_FORCE_PATH_STYLE (config.ts). Plain HTTP requests signed with SigV4
// (sigv4.ts): PUT, GET, DELETE, a server-side copy (PUT with x-amz-copy-source) and ListObjectsV2 for removing a
// bucket's or a workspace's files. Keys are <workspace_id>/<bucket>/<xx>/<version>, as the directory store's paths.

export type S3Settings = {
  endpoint: string; // https://s3.eu-west-1.amazonaws.com, http://127.0.0.1:9000, …
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  forcePathStyle: boolean; // endpoint/bucket/key rather than bucket.endpoint/key (MinIO and most self-hosted stores)
};

const unavailable = (what: string, detail: string) =>
  new StorageError(503, "StorageUnavailable", `The file store could not ${what} (${detail}); try again in a moment.`);

const encodeKey = (key: string) => key.split("/").map(uriEncode).join("/");
const xmlText = (s: string) =>
  s
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, "&");

export function createS3Store(s: S3Settings, staging: Staging): FileStore {
  const endpoint = new URL(s.endpoint);
  const keys = { accessKeyId: s.accessKeyId, secretAccessKey: s.secretAccessKey, region: s.region };

  const urlOf = (key: string, query = "") => {
    const base = s.forcePathStyle
      ? `${endpoint.origin}${endpoint.pathname.replace(/\/$/, "")}/${uriEncode(s.bucket)}`
      : `${endpoint.protocol}//${s.bucket}.${endpoint.host}${endpoint.pathname.replace(/\/$/, "")}`;
    return new URL(`${base}/${encodeKey(key)}${query}`);
  };

  async function send(
    what: string,
    method: string,
    url: URL,
    opts: { body?: Buffer; headers?: Record<string, string> } = {},
  ): Promise<Response> {
    const payloadHash = opts.body ? sha256Hex(opts.body) : EMPTY_SHA256;
    const headers = signRequest({ method, url, headers: opts.headers, payloadHash }, keys);
    try {
      const body = opts.body ? new Uint8Array(opts.body) : undefined; // a copy, as fetch's BodyInit
      return await fetch(url, { method, headers, body, signal: AbortSignal.timeout(60_000) });
    } catch (err) {
      throw unavailable(what, (err as Error).cause ? String((err as { cause: Error }).cause.message) : String(err));
    }
  }
  async function expectOk(what: string, res: Response): Promise<string> {
    const text = await res.text();
    // A copy answers 200 with an <Error> when it fails half-way.
    if (!res.ok || /<Error>/.test(text)) {
      const code = /<Code>([^<]*)<\/Code>/.exec(text)?.[1] ?? String(res.status);
      throw unavailable(what, `${res.status} ${code}`);
    }
    return text;
  }

  async function listKeys(prefix: string): Promise<string[]> {
    const found: string[] = [];
    let token: string | null = null;
    do {
      const q = new URLSearchParams({ "list-type": "2", prefix });
      if (token) q.set("continuation-token", token);
      const res = await send("list files", "GET", urlOf("", `?${q}`));
      const text = await expectOk("list files", res);
      for (const m of text.matchAll(/<Key>([^<]*)<\/Key>/g)) found.push(xmlText(m[1]));
      token = /<IsTruncated>true<\/IsTruncated>/.test(text)
        ? xmlText(/<NextContinuationToken>([^<]*)<\/NextContinuationToken>/.exec(text)?.[1] ?? "")
        : null;
    } while (token);
    return found;
  }
  const discard = async (...k: string[]) => {
    await Promise.all(
      k.map(async (key) => {
        const res = await send("remove a file", "DELETE", urlOf(key)).catch(() => null);
        await res?.body?.cancel();
      }),
    );
  };
  const copy = async (from: string, to: string) => {
    const source = `/${uriEncode(s.bucket)}/${encodeKey(from)}`;
    await expectOk(
      "copy a file",
      await send("copy a file", "PUT", urlOf(to), { headers: { "x-amz-copy-source": source } }),
    );
  };
  const put = async (key: string, bytes: Buffer) => {
    await expectOk("store a file", await send("store a file", "PUT", urlOf(key), { body: bytes }));
  };

  return {
    kind: "s3",
    key: (workspaceId, bucket, version) => `${workspaceId}/${bucket}/${version.slice(0, 2)}/${version}`,
    write: staging.write,
    // Uploads are at most the upload limit (50 MB): sent in one signed PUT.
    async place(tmpPath, key) {
      await put(key, await readFile(tmpPath));
      await staging.discard(tmpPath);
    },
    put,
    async get(key) {
      const res = await send("read a file", "GET", urlOf(key));
      if (res.status === 404) {
        await res.body?.cancel();
        return null;
      }
      if (!res.ok) await expectOk("read a file", res);
      return Buffer.from(await res.arrayBuffer());
    },
    // The GET's answer is the held file: its body streams the bytes as they were when it was opened.
    async open(key) {
      const res = await send("read a file", "GET", urlOf(key));
      if (!res.ok || !res.body) {
        await res.body?.cancel();
        if (res.status === 404) throw Object.assign(new Error("no such file"), { code: "ENOENT" });
        throw unavailable("read a file", String(res.status));
      }
      const body = res.body as WebReadableStream<Uint8Array>;
      return {
        createReadStream: () => Readable.fromWeb(body),
        close: async () => {
          await body.cancel().catch(() => undefined);
        },
      };
    },
    hardLink: copy,
    copy,
    discard,
    discardTemporary: staging.discard,
    sweepTemporary: staging.sweep,
    async removeBucket(workspaceId, bucket) {
      await discard(...(await listKeys(`${workspaceId}/${bucket}/`)));
    },
    async removeWorkspace(workspaceId) {
      await discard(...(await listKeys(`${workspaceId}/`)));
    },
  };
}
