import { createHash } from "node:crypto";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EMPTY_SHA256, signRequest } from "../src/platform/storage/sigv4.ts";
import { type FakeS3, startFakeS3 } from "./fake-s3.ts";
import { ownServer } from "./own-server-helpers.ts";
import { type Signed, signedIn, unique } from "./storage-helpers.ts";

// Issue 25: the file store behind its interface — with S3_BUCKET set, /storage/v1 keeps the bytes in an
// S3-compatible store (here a fake of ours that checks every request's SigV4 signature, fake-s3.ts) and nothing on
// the instance's disk: uploads, overwrites, downloads, moves and copies across buckets, removals, an emptied and
// deleted bucket, each reaching the store as the S3 API's PUT, GET, copy, DELETE and ListObjectsV2. A store that
// refuses the server's signature fails the upload with a clear 503 and keeps no row.

const S3 = {
  bucket: "workmetrics-files",
  accessKeyId: "AKIDWORKMETRICSTEST",
  secretAccessKey: "s3-test-secret",
  region: "ap-southeast-1",
};
const env: Record<string, string> = {
  S3_BUCKET: S3.bucket,
  S3_REGION: S3.region,
  S3_ACCESS_KEY_ID: S3.accessKeyId,
  S3_SECRET_ACCESS_KEY: S3.secretAccessKey,
  S3_FORCE_PATH_STYLE: "true",
};
let fake: FakeS3;
beforeAll(async () => {
  fake = await startFakeS3(S3);
  env.S3_ENDPOINT = fake.url;
});
const own = ownServer(env, 240_000);
afterAll(() => fake?.close());

let owner: Signed;
let rival: Signed;
beforeAll(async () => {
  [owner, rival] = await Promise.all([signedIn("owner@demo.test"), signedIn("owner@pro.test")]);
});

const md5 = (s: string) => createHash("md5").update(s).digest("hex");
// The store's keys of a workspace's bucket, and their contents.
const keysOf = (bucket: string) => [...fake.objects.keys()].filter((k) => k.startsWith(`${own.ws}/${bucket}/`)).sort();
const versionOf = async (bucket: string, name: string) =>
  (
    await own.q<{ version: string }>(sql`select o.version::text as version from storage_object o
      join storage_bucket b on b.workspace_id = o.workspace_id and b.id = o.bucket_id
      where b.name = ${bucket} and o.name = ${name}`)
  )[0]?.version;

describe("files in an S3-compatible store (S3_BUCKET)", () => {
  it("the fake store refuses what is not signed right", async () => {
    const url = new URL(`${fake.url}/${S3.bucket}/probe.txt`);
    const unsigned = await fetch(url);
    expect(unsigned.status).toBe(403);
    const wrong = signRequest(
      { method: "GET", url, payloadHash: EMPTY_SHA256 },
      { ...S3, secretAccessKey: "not-the-secret" },
    );
    const refused = await fetch(url, { headers: wrong });
    expect(refused.status).toBe(403);
    expect(await refused.text()).toContain("<Code>SignatureDoesNotMatch</Code>");
    const right = signRequest({ method: "GET", url, payloadHash: EMPTY_SHA256 }, S3);
    const missing = await fetch(url, { headers: right });
    expect(missing.status).toBe(404);
    expect(await missing.text()).toContain("<Code>NoSuchKey</Code>");
  });

  it("keeps uploads in the store under workspace/bucket/version keys and serves them back", async () => {
    const bucket = unique("s3");
    expect((await owner.storage.createBucket(bucket, { public: false })).error).toBeNull();
    const files = owner.storage.from(bucket);
    const before = fake.requests.length;
    expect((await files.upload("notes/hello.txt", "hello s3", { contentType: "text/plain" })).error).toBeNull();
    const version = await versionOf(bucket, "notes/hello.txt");
    const key = `${own.ws}/${bucket}/${version.slice(0, 2)}/${version}`;
    expect(keysOf(bucket)).toEqual([key]);
    expect(fake.objects.get(key)?.toString()).toBe("hello s3");
    expect(fake.requests.slice(before).some((r) => r.method === "PUT" && r.key === key)).toBe(true);

    const down = await files.download("notes/hello.txt");
    expect(await down.data?.text()).toBe("hello s3");
    const res = await fetch(`${own.server.url}/storage/v1/object/authenticated/${bucket}/notes/hello.txt`, {
      headers: { authorization: `Bearer ${owner.token}` },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("etag")).toBe(`"${md5("hello s3")}"`);
    expect(await res.text()).toBe("hello s3");

    // An overwrite is a new key; the old one is removed from the store.
    expect((await files.upload("notes/hello.txt", "hello again", { upsert: true })).error).toBeNull();
    const next = await versionOf(bucket, "notes/hello.txt");
    expect(next).not.toBe(version);
    expect(keysOf(bucket)).toEqual([`${own.ws}/${bucket}/${next.slice(0, 2)}/${next}`]);
    expect(await (await files.download("notes/hello.txt")).data?.text()).toBe("hello again");

    // Another workspace reaches none of it.
    expect((await rival.storage.from(bucket).download("notes/hello.txt")).error).toMatchObject({ status: 404 });
  });

  it("moves and copies across buckets with the store's copy, and removes what is deleted", async () => {
    const a = unique("s3a");
    const b = unique("s3b");
    for (const name of [a, b]) expect((await owner.storage.createBucket(name, { public: false })).error).toBeNull();
    const files = owner.storage.from(a);
    await files.upload("m/src.txt", "move me");
    expect((await files.move("m/src.txt", "moved.txt", { destinationBucket: b })).error).toBeNull();
    expect(keysOf(a)).toEqual([]);
    expect(keysOf(b)).toHaveLength(1);
    expect(await (await owner.storage.from(b).download("moved.txt")).data?.text()).toBe("move me");
    expect(fake.requests.some((r) => r.method === "PUT" && r.key.startsWith(`${own.ws}/${b}/`))).toBe(true);

    expect((await owner.storage.from(b).copy("moved.txt", "copied.txt", { destinationBucket: a })).error).toBeNull();
    expect(await (await files.download("copied.txt")).data?.text()).toBe("move me");
    expect(keysOf(a)).toHaveLength(1);

    const removed = await files.remove(["copied.txt"]);
    expect(removed.data?.map((f) => f.name)).toEqual(["copied.txt"]);
    expect(keysOf(a)).toEqual([]);
    expect((await files.download("copied.txt")).error).toMatchObject({ status: 404 });
  });

  it("empties and deletes a bucket through the store's listing", async () => {
    const name = unique("s3e");
    expect((await owner.storage.createBucket(name, { public: false })).error).toBeNull();
    for (const f of ["a.txt", "b/c.txt", "b/d.txt"]) await owner.storage.from(name).upload(f, f);
    expect(keysOf(name)).toHaveLength(3);
    expect((await owner.storage.emptyBucket(name)).error).toBeNull();
    expect(keysOf(name)).toEqual([]);
    await owner.storage.from(name).upload("e.txt", "e");
    expect((await owner.storage.deleteBucket(name)).error).toMatchObject({ status: 409 }); // not empty
    expect((await owner.storage.emptyBucket(name)).error).toBeNull();
    expect((await owner.storage.deleteBucket(name)).error).toBeNull();
    expect(keysOf(name)).toEqual([]);
  });

  it("fails an upload with a clear 503 when the store refuses, and keeps no row", async () => {
    const bucket = unique("s3x");
    expect((await owner.storage.createBucket(bucket, { public: false })).error).toBeNull();
    expect((await owner.storage.from(bucket).upload("kept.txt", "kept")).error).toBeNull();
    const refusedBefore = fake.refused;
    fake.secret = "rotated-elsewhere";
    try {
      const up = await fetch(`${own.server.url}/storage/v1/object/${bucket}/x.txt`, {
        method: "POST",
        headers: { authorization: `Bearer ${owner.token}`, apikey: owner.anonKey, "content-type": "text/plain" },
        body: "nope",
      });
      expect(up.status).toBe(503);
      expect(await up.json()).toMatchObject({
        error: "StorageUnavailable",
        message: expect.stringMatching(/file store could not store a file \(403 SignatureDoesNotMatch\)/),
      });
      // A download meanwhile says the store is unavailable, not that the file is gone.
      const down = await fetch(`${own.server.url}/storage/v1/object/authenticated/${bucket}/kept.txt`, {
        headers: { authorization: `Bearer ${owner.token}` },
      });
      expect(down.status).toBe(503);
      expect(await down.json()).toMatchObject({ error: "StorageUnavailable" });
    } finally {
      fake.secret = S3.secretAccessKey;
    }
    expect(fake.refused).toBeGreaterThan(refusedBefore);
    expect(await versionOf(bucket, "x.txt")).toBeUndefined();
    expect(keysOf(bucket)).toHaveLength(1); // kept.txt only
    // And works again once the store accepts.
    expect((await owner.storage.from(bucket).upload("x.txt", "yes")).error).toBeNull();
    expect(await (await owner.storage.from(bucket).download("x.txt")).data?.text()).toBe("yes");
  });
});
