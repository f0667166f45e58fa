import { StorageClient } from "@supabase/storage-js";
import { beforeAll, describe, expect, it } from "vitest";
import { api, baseUrl } from "./http.ts";
import { bytes, type Signed, signedIn, unique } from "./storage-helpers.ts";

// /storage/v1 with @supabase/storage-js as the client, signed in as demo users (issue 5 item 6).
const PNG = Uint8Array.from(
  atob("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="),
  (c) => c.charCodeAt(0),
);

let owner: Signed; // owner@demo.test
let sales: Signed; // sales@demo.test, same workspace, not an admin
let rival: Signed; // owner@pro.test, another workspace

beforeAll(async () => {
  [owner, sales, rival] = await Promise.all([
    signedIn("owner@demo.test"),
    signedIn("sales@demo.test"),
    signedIn("owner@pro.test"),
  ]);
});

async function newBucket(who: Signed, options?: { fileSizeLimit?: string; allowedMimeTypes?: string[] }) {
  const name = unique("b");
  const { error } = await who.storage.createBucket(name, { public: false, ...options });
  expect(error).toBeNull();
  return name;
}

describe("without a session", () => {
  it("answers 401 not_authenticated for buckets, uploads and downloads", async () => {
    const anon = new StorageClient(`${baseUrl()}/storage/v1`, { apikey: owner.anonKey });
    const list = await anon.listBuckets();
    expect(list.error).toMatchObject({ status: 401, statusCode: "401" });
    const up = await anon.from("files").upload("x.txt", "hello");
    expect(up.error).toMatchObject({ status: 401 });
    const raw = await api("/storage/v1/object/files/x.txt");
    expect(raw.status).toBe(401);
    expect(raw.body).toMatchObject({ statusCode: "401", error: "not_authenticated" });
  });
});

describe("outside a workspace", () => {
  it("a platform operator, who belongs to no workspace, is refused with 403", async () => {
    const operator = await signedIn("platform@workmetrics.test");
    const res = await operator.storage.listBuckets();
    expect(res.error).toMatchObject({ status: 403 });
    expect(res.error?.message).toBe("Files belong to a workspace, and this account is not in one.");
  });
});

describe("buckets", () => {
  it("creates, reads, lists, refuses duplicates, bad names and public buckets", async () => {
    const name = await newBucket(owner, { fileSizeLimit: "2MB", allowedMimeTypes: ["image/*", "application/pdf"] });
    const got = await owner.storage.getBucket(name);
    expect(got.data).toMatchObject({
      id: name,
      name,
      public: false,
      file_size_limit: 2 * 1024 * 1024,
      allowed_mime_types: ["image/*", "application/pdf"],
    });
    expect((await owner.storage.listBuckets()).data?.map((b) => b.name)).toContain(name);
    expect((await owner.storage.listBuckets({ search: name })).data?.map((b) => b.name)).toEqual([name]);
    expect((await owner.storage.createBucket(name)).error).toMatchObject({
      status: 409,
      statusCode: "409",
      message: "A bucket with that name already exists",
    });
    expect((await owner.storage.createBucket("../etc")).error).toMatchObject({
      status: 400,
      statusCode: "400",
    });
    expect((await owner.storage.createBucket(unique("p"), { public: true })).error?.message).toMatch(
      /Public buckets are not offered/,
    );
    expect((await owner.storage.getBucket(unique("missing"))).error).toMatchObject({ status: 404 });
  });

  it("lets owners and admins update, empty and delete; a salesperson may not", async () => {
    const name = await newBucket(owner);
    expect((await sales.storage.updateBucket(name, { public: false, fileSizeLimit: 1000 })).error).toMatchObject({
      status: 403,
    });
    expect((await owner.storage.updateBucket(name, { public: false, fileSizeLimit: 1000 })).data).toEqual({
      message: "Successfully updated",
    });
    expect((await owner.storage.getBucket(name)).data?.file_size_limit).toBe(1000);
    await owner.storage.from(name).upload("a.txt", "a");
    expect((await owner.storage.deleteBucket(name)).error).toMatchObject({ status: 409 });
    expect((await sales.storage.emptyBucket(name)).error).toMatchObject({ status: 403 });
    expect((await owner.storage.emptyBucket(name)).error).toBeNull();
    expect((await owner.storage.from(name).list()).data).toEqual([]);
    expect((await owner.storage.deleteBucket(name)).error).toBeNull();
    expect((await owner.storage.getBucket(name)).error).toMatchObject({ status: 404 });
  });
});

describe("objects", () => {
  let bucket: string;
  beforeAll(async () => {
    bucket = await newBucket(owner);
  });

  it("uploads raw bytes and forms, downloads them with cache-control max-age=3600 (spec §9)", async () => {
    const files = owner.storage.from(bucket);
    const up = await files.upload("notes/hello.txt", "hello world", { contentType: "text/plain" });
    expect(up.error).toBeNull();
    expect(up.data).toMatchObject({ path: "notes/hello.txt", fullPath: `${bucket}/notes/hello.txt` });
    expect(up.data?.id).toMatch(/^[0-9a-f-]{36}$/);
    const image = await files.upload("pics/dot.png", new Blob([PNG], { type: "image/png" }));
    expect(image.error).toBeNull();

    const text = await files.download("notes/hello.txt");
    expect(await text.data?.text()).toBe("hello world");
    const png = await files.download("pics/dot.png");
    expect(png.data?.type).toBe("image/png");
    expect(new Uint8Array((await png.data?.arrayBuffer()) ?? new ArrayBuffer(0))).toEqual(PNG);

    const res = await fetch(`${baseUrl()}/storage/v1/object/authenticated/${bucket}/pics/dot.png`, {
      headers: { authorization: `Bearer ${owner.token}` },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("max-age=3600");
    expect(res.headers.get("content-type")).toBe("image/png");
    expect(res.headers.get("content-length")).toBe(String(PNG.length));
    const etag = res.headers.get("etag");
    expect(etag).toMatch(/^"[0-9a-f]{32}"$/);
    const again = await fetch(res.url, {
      headers: { authorization: `Bearer ${owner.token}`, "if-none-match": etag ?? "" },
    });
    expect(again.status).toBe(304);

    const info = await files.info("notes/hello.txt");
    expect(info.data).toMatchObject({ name: "notes/hello.txt", size: 11, contentType: "text/plain", bucketId: bucket });
    expect((await files.exists("notes/hello.txt")).data).toBe(true);
    expect((await files.exists("notes/nope.txt")).data).toBe(false);
  });

  it("refuses to overwrite without upsert, overwrites with x-upsert or update()", async () => {
    const files = owner.storage.from(bucket);
    await files.upload("v.txt", "one");
    expect((await files.upload("v.txt", "two")).error).toMatchObject({ status: 409, statusCode: "409" });
    expect((await files.upload("v.txt", "two", { upsert: true })).error).toBeNull();
    expect(await (await files.download("v.txt")).data?.text()).toBe("two");
    expect((await files.update("v.txt", "three")).error).toBeNull();
    expect(await (await files.download("v.txt")).data?.text()).toBe("three");
  });

  it("keeps unicode names and spaces", async () => {
    const files = owner.storage.from(bucket);
    expect((await files.upload("Reçus/Q1 été.txt", "ok")).error).toBeNull();
    expect(await (await files.download("Reçus/Q1 été.txt")).data?.text()).toBe("ok");
    expect((await files.list("Reçus")).data?.map((f) => f.name)).toEqual(["Q1 été.txt"]);
  });

  it("refuses bad names: traversal, absolute paths, URL characters", async () => {
    const auth = { authorization: `Bearer ${owner.token}`, "content-type": "text/plain" };
    for (const path of ["a%2F..%2Fb.txt", "%2Fetc%2Fpasswd", "a%2F%2Fb", "100%25.txt", "x%3Fy"]) {
      const res = await api(`/storage/v1/object/${bucket}/${path}`, { method: "POST", headers: auth, body: "x" });
      expect(res.status, path).toBe(400);
      expect(res.body, path).toMatchObject({ statusCode: "400", error: "InvalidKey" });
    }
    const files = owner.storage.from(bucket);
    await files.upload("safe.txt", "x");
    const move = await files.move("safe.txt", "../../outside.txt");
    expect(move.error).toMatchObject({ status: 400, statusCode: "400" });
    expect(move.error?.message).toMatch(/"\." or "\.\."/);
    expect((await files.copy("safe.txt", "/abs.txt")).error).toMatchObject({ status: 400 });
  });

  it("lists one folder level: folders and files by name, limit/offset, sortBy and search", async () => {
    const files = owner.storage.from(bucket);
    const folder = unique("list");
    for (const n of ["b.txt", "a.txt", "C.txt", "sub/x.txt", "sub/deeper/y.txt", "other/z.txt"]) {
      expect((await files.upload(`${folder}/${n}`, n)).error).toBeNull();
    }
    const all = await files.list(folder);
    // Byte order, as Supabase sorts (COLLATE "C"): upper case before lower case.
    expect(all.data?.map((f) => f.name)).toEqual(["C.txt", "a.txt", "b.txt", "other", "sub"]);
    const sub = all.data?.find((f) => f.name === "sub");
    expect(sub).toMatchObject({ id: null, metadata: null });
    const a = all.data?.find((f) => f.name === "a.txt");
    expect(a?.metadata).toMatchObject({ size: 5, mimetype: "text/plain;charset=UTF-8", cacheControl: "max-age=3600" });

    expect((await files.list(folder, { limit: 2 })).data?.map((f) => f.name)).toEqual(["C.txt", "a.txt"]);
    expect((await files.list(folder, { limit: 2, offset: 2 })).data?.map((f) => f.name)).toEqual(["b.txt", "other"]);
    expect((await files.list(folder, { sortBy: { column: "name", order: "desc" } })).data?.map((f) => f.name)).toEqual([
      "sub",
      "other",
      "b.txt",
      "a.txt",
      "C.txt",
    ]);
    const byDate = await files.list(folder, { sortBy: { column: "created_at", order: "desc" } });
    expect(byDate.data?.map((f) => f.name)).toEqual(["other", "sub", "C.txt", "a.txt", "b.txt"]);
    expect((await files.list(folder, { search: "s" })).data?.map((f) => f.name)).toEqual(["sub"]);
    expect((await files.list(`${folder}/sub`)).data?.map((f) => f.name)).toEqual(["deeper", "x.txt"]);
    expect((await files.list(`${folder}/nothing-here`)).data).toEqual([]);
  });

  it("returns 100 entries by default (spec §9)", async () => {
    const files = owner.storage.from(bucket);
    const folder = unique("many");
    for (let i = 0; i < 105; i += 15) {
      await Promise.all(
        Array.from({ length: Math.min(15, 105 - i) }, (_, k) =>
          files.upload(`${folder}/f${String(i + k).padStart(3, "0")}.txt`, "x"),
        ),
      );
    }
    const first = await files.list(folder);
    expect(first.data).toHaveLength(100);
    expect(first.data?.[0].name).toBe("f000.txt");
    expect((await files.list(folder, { offset: 100 })).data?.map((f) => f.name)).toEqual([
      "f100.txt",
      "f101.txt",
      "f102.txt",
      "f103.txt",
      "f104.txt",
    ]);
    expect((await files.list(folder, { limit: 5000 })).error).toMatchObject({ status: 400 });
  });

  it("moves and copies within a bucket and across buckets", async () => {
    const files = owner.storage.from(bucket);
    const other = await newBucket(owner);
    await files.upload("m/src.txt", "move me");
    expect((await files.move("m/src.txt", "m/renamed.txt")).data).toEqual({ message: "Successfully moved" });
    expect((await files.download("m/src.txt")).error).toMatchObject({ status: 404 });
    expect(await (await files.download("m/renamed.txt")).data?.text()).toBe("move me");

    expect((await files.copy("m/renamed.txt", "m/copy.txt")).data).toEqual({ path: `${bucket}/m/copy.txt` });
    expect((await files.copy("m/renamed.txt", "m/copy.txt")).error).toMatchObject({ status: 409 });
    expect((await files.move("m/copy.txt", "m/renamed.txt")).error).toMatchObject({ status: 409 });
    expect((await files.move("m/ghost.txt", "m/x.txt")).error).toMatchObject({ status: 404 });

    expect((await files.move("m/copy.txt", "moved.txt", { destinationBucket: other })).error).toBeNull();
    expect(await (await owner.storage.from(other).download("moved.txt")).data?.text()).toBe("move me");
    expect((await files.copy("m/renamed.txt", "copied.txt", { destinationBucket: other })).error).toBeNull();
    expect(await (await owner.storage.from(other).download("copied.txt")).data?.text()).toBe("move me");
    // The original is untouched by the copy.
    expect(await (await files.download("m/renamed.txt")).data?.text()).toBe("move me");
  });

  it("removes the named objects and returns them", async () => {
    const files = owner.storage.from(bucket);
    await files.upload("r/one.txt", "1");
    await files.upload("r/two.txt", "2");
    const removed = await files.remove(["r/one.txt", "r/two.txt", "r/never.txt"]);
    expect(removed.data?.map((f) => f.name).sort()).toEqual(["r/one.txt", "r/two.txt"]);
    expect((await files.list("r")).data).toEqual([]);
    expect((await files.download("r/one.txt")).error).toMatchObject({ status: 404 });
  });

  it("signs URLs that work without a session until they expire, and only for their object", async () => {
    const files = owner.storage.from(bucket);
    await files.upload("share/report.pdf", new Blob(["%PDF-1.4 test"], { type: "application/pdf" }));
    await files.upload("share/secret.txt", "not shared");
    const signed = await files.createSignedUrl("share/report.pdf", 60);
    expect(signed.error).toBeNull();
    const url = signed.data?.signedUrl ?? "";
    expect(url).toContain(`/storage/v1/object/sign/${bucket}/share/report.pdf?token=`);

    const ok = await fetch(url);
    expect(ok.status).toBe(200);
    expect(await ok.text()).toBe("%PDF-1.4 test");
    expect(ok.headers.get("cache-control")).toBe("max-age=3600");
    expect(ok.headers.get("content-disposition")).toMatch(/^inline; filename="report.pdf"/);
    const asDownload = await fetch(`${url}&download=Q1.pdf`);
    expect(asDownload.headers.get("content-disposition")).toMatch(/^attachment; filename="Q1.pdf"/);

    // The same token on another path, or a token with a changed signature or payload, is refused.
    const token = new URL(url).searchParams.get("token") ?? "";
    const other = await api(`/storage/v1/object/sign/${bucket}/share/secret.txt?token=${token}`);
    expect(other.status).toBe(400);
    expect(other.body).toMatchObject({ error: "InvalidJWT", message: "This link is not valid." });
    const [h, p, s] = token.split(".");
    const flipped = `${h}.${p}.${s.slice(0, -2)}${s.endsWith("AA") ? "BB" : "AA"}`;
    expect((await api(`/storage/v1/object/sign/${bucket}/share/report.pdf?token=${flipped}`)).status).toBe(400);
    const payload = JSON.parse(Buffer.from(p, "base64url").toString());
    const forged = Buffer.from(JSON.stringify({ ...payload, url: `${bucket}/share/secret.txt` })).toString("base64url");
    const res = await api(`/storage/v1/object/sign/${bucket}/share/secret.txt?token=${h}.${forged}.${s}`);
    expect(res.status).toBe(400);
    expect((await api(`/storage/v1/object/sign/${bucket}/share/report.pdf`)).status).toBe(400);

    const short = await files.createSignedUrl("share/report.pdf", 1);
    await new Promise((r) => setTimeout(r, 2100));
    const expired = await api(
      new URL(short.data?.signedUrl ?? "").pathname + new URL(short.data?.signedUrl ?? "").search,
    );
    expect(expired.status).toBe(400);
    expect(expired.body).toMatchObject({ error: "InvalidJWT", message: "This link has expired. Ask for a new one." });

    // A link dies with its file: a new file later uploaded under the same name is not reachable through it.
    await files.remove(["share/report.pdf"]);
    expect((await fetch(url)).status).toBe(404);
    await files.upload("share/report.pdf", "a different file");
    expect((await fetch(url)).status).toBe(404);
    const fresh = await files.createSignedUrl("share/report.pdf", 60);
    expect(await (await fetch(fresh.data?.signedUrl ?? "")).text()).toBe("a different file");

    expect((await files.createSignedUrl("share/missing.pdf", 60)).error).toMatchObject({ status: 404 });
    expect((await files.createSignedUrl("share/report.pdf", 0)).error).toMatchObject({ status: 400 });
    const many = await files.createSignedUrls(["share/report.pdf", "share/missing.pdf"], 60);
    expect(many.data?.map((m) => [m.path, m.signedUrl !== null, m.error])).toEqual([
      ["share/report.pdf", true, null],
      ["share/missing.pdf", false, "Either the object does not exist or you do not have access to it"],
    ]);
  });

  it("downloads HTML and SVG as attachments, never inline", async () => {
    const files = owner.storage.from(bucket);
    await files.upload("x/page.html", "<script>alert(1)</script>", { contentType: "text/html" });
    const res = await fetch(`${baseUrl()}/storage/v1/object/${bucket}/x/page.html`, {
      headers: { authorization: `Bearer ${owner.token}` },
    });
    expect(res.headers.get("content-disposition")).toMatch(/^attachment;/);
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
  });
});

describe("limits", () => {
  it("refuses files over the bucket's limit and over 50 MB, declared or streamed", async () => {
    const small = await newBucket(owner, { fileSizeLimit: "1KB" });
    const files = owner.storage.from(small);
    expect((await files.upload("ok.bin", bytes(1024))).error).toBeNull();
    const big = await files.upload("big.bin", bytes(1025));
    expect(big.error).toMatchObject({ status: 413, statusCode: "413" });
    expect(big.error?.message).toBe("The file is larger than the 1 KB limit.");
    // Chunked, with no Content-Length: stopped while streaming.
    const stream = new ReadableStream<Uint8Array>({
      start(c) {
        for (let i = 0; i < 4; i++) c.enqueue(bytes(512));
        c.close();
      },
    });
    expect((await files.upload("streamed.bin", stream)).error).toMatchObject({ status: 413 });
    expect((await files.list()).data?.map((f) => f.name)).toEqual(["ok.bin"]);

    const general = await newBucket(owner);
    const huge = await owner.storage.from(general).upload("huge.bin", bytes(50 * 1024 * 1024 + 1));
    expect(huge.error).toMatchObject({ status: 413 });
    expect(huge.error?.message).toBe("The file is larger than the 50 MB limit.");
  });

  it("refuses types the bucket does not allow", async () => {
    const images = await newBucket(owner, { allowedMimeTypes: ["image/*"] });
    const files = owner.storage.from(images);
    expect((await files.upload("a.png", new Blob([PNG], { type: "image/png" }))).error).toBeNull();
    expect((await files.upload("a.txt", "text")).error).toMatchObject({ status: 415, statusCode: "415" });
  });
});

describe("workspace isolation", () => {
  let bucket: string;
  beforeAll(async () => {
    bucket = await newBucket(owner);
    await owner.storage.from(bucket).upload("private/plan.txt", "demo's plan");
  });

  it("another workspace cannot see, read, sign, move, copy or remove demo's objects by any path", async () => {
    expect((await rival.storage.listBuckets()).data?.map((b) => b.name)).not.toContain(bucket);
    expect((await rival.storage.getBucket(bucket)).error).toMatchObject({ status: 404 });
    const theirs = rival.storage.from(bucket);
    expect((await theirs.list("private")).error).toMatchObject({ status: 404 });
    expect((await theirs.download("private/plan.txt")).error).toMatchObject({ status: 404 });
    expect((await theirs.info("private/plan.txt")).error).toMatchObject({ status: 404 });
    expect((await theirs.createSignedUrl("private/plan.txt", 60)).error).toMatchObject({ status: 404 });
    expect((await theirs.move("private/plan.txt", "stolen.txt")).error).toMatchObject({ status: 404 });
    expect((await theirs.copy("private/plan.txt", "stolen.txt")).error).toMatchObject({ status: 404 });
    expect((await theirs.remove(["private/plan.txt"])).error).toMatchObject({ status: 404 });
    expect((await rival.storage.emptyBucket(bucket)).error).toMatchObject({ status: 404 });
    expect((await rival.storage.deleteBucket(bucket)).error).toMatchObject({ status: 404 });

    // A bucket of the same name in pro is pro's own: it starts empty and demo's object is not in it.
    expect((await rival.storage.createBucket(bucket)).error).toBeNull();
    expect((await theirs.list("private")).data).toEqual([]);
    expect((await theirs.download("private/plan.txt")).error).toMatchObject({ status: 404 });
    expect((await theirs.remove(["private/plan.txt"])).data).toEqual([]);
    expect((await theirs.move("private/plan.txt", "stolen.txt")).error).toMatchObject({ status: 404 });
    await theirs.upload("private/plan.txt", "pro's plan");

    // Paths that try to climb out of the bucket are refused before any lookup.
    const auth = { authorization: `Bearer ${rival.token}` };
    for (const path of [`..%2F${bucket}/private/plan.txt`, `${bucket}/..%2F..%2Fprivate/plan.txt`]) {
      expect((await api(`/storage/v1/object/${path}`, { headers: auth })).status).toBe(400);
    }

    // Demo still has its own object, unchanged.
    expect(await (await owner.storage.from(bucket).download("private/plan.txt")).data?.text()).toBe("demo's plan");
    expect(await (await theirs.download("private/plan.txt")).data?.text()).toBe("pro's plan");
  });

  it("a signed URL cannot be turned into another workspace's object", async () => {
    const mine = await rival.storage.from(bucket).createSignedUrl("private/plan.txt", 60);
    const res = await fetch(mine.data?.signedUrl ?? "");
    expect(await res.text()).toBe("pro's plan");
  });
});
