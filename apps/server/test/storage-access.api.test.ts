import type { StorageClient } from "@supabase/storage-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api } from "./http.ts";
import { bytes, type Signed, signedIn, unique } from "./storage-helpers.ts";

// Issue 9 §3: inside a workspace, files follow the permission matrix (file.* and bucket.*), and all of a
// workspace's files together stay within its tier's quota.
const KB = 1024;
const MB = 1024 * KB;

const NO_READ = "You do not have permission to open the workspace's files";
const NO_UPLOAD = "You do not have permission to upload files";
const NO_CHANGE = "You do not have permission to replace, rename or move files";
const NO_DELETE = "You do not have permission to delete files";
const NO_BUCKETS = "You do not have permission to create buckets";

const refused = (message: string) => ({ error: expect.objectContaining({ status: 403, message }) });
const ok = { error: null };

describe("who may do what with files", () => {
  let owner: Signed;
  let bucket: string;
  const text = async (storage: StorageClient, path: string) => (await storage.from(bucket).download(path)).data?.text();

  beforeAll(async () => {
    owner = await signedIn("owner@demo.test");
    bucket = unique("team");
    expect((await owner.storage.createBucket(bucket)).error).toBeNull();
    expect((await owner.storage.from(bucket).upload("plan.txt", "the plan")).error).toBeNull();
  });

  it.each(["driver@demo.test", "pos@demo.test", "supplier@demo.test"])(
    "%s can neither see, read, add, change, remove files nor create buckets",
    async (email) => {
      const { storage } = await signedIn(email);
      const files = storage.from(bucket);
      expect(await storage.listBuckets()).toMatchObject(refused(NO_READ));
      expect(await storage.getBucket(bucket)).toMatchObject(refused(NO_READ));
      expect(await files.list()).toMatchObject(refused(NO_READ));
      expect(await files.download("plan.txt")).toMatchObject(refused(NO_READ));
      expect(await files.info("plan.txt")).toMatchObject(refused(NO_READ));
      expect(await files.createSignedUrl("plan.txt", 60)).toMatchObject(refused(NO_READ));
      expect(await files.upload("new.txt", "mine")).toMatchObject(refused(NO_UPLOAD));
      expect(await files.upload("plan.txt", "overwritten", { upsert: true })).toMatchObject(refused(NO_UPLOAD));
      expect(await files.update("plan.txt", "overwritten")).toMatchObject(refused(NO_UPLOAD));
      expect(await files.move("plan.txt", "moved.txt")).toMatchObject(refused(NO_CHANGE));
      expect(await files.copy("plan.txt", "copied.txt")).toMatchObject(refused(NO_READ));
      expect(await files.remove(["plan.txt"])).toMatchObject(refused(NO_DELETE));
      expect(await storage.createBucket(unique("mine"))).toMatchObject(refused(NO_BUCKETS));
      expect(await storage.emptyBucket(bucket)).toMatchObject({ error: expect.objectContaining({ status: 403 }) });

      // Nothing changed; a share link is how a file reaches them, and it needs no permission.
      expect((await owner.storage.from(bucket).list()).data?.map((f) => f.name)).toEqual(["plan.txt"]);
      expect(await text(owner.storage, "plan.txt")).toBe("the plan");
      const link = await owner.storage.from(bucket).createSignedUrl("plan.txt", 60);
      expect(await (await fetch(link.data?.signedUrl ?? "")).text()).toBe("the plan");
    },
  );

  it("office staff read and upload, but replacing, moving and deleting is for managers and finance", async () => {
    const [sales, warehouse, manager, finance] = await Promise.all(
      ["sales@demo.test", "warehouse@demo.test", "manager@demo.test", "finance@demo.test"].map(signedIn),
    );
    for (const [who, name] of [
      [sales, "sales.txt"],
      [warehouse, "warehouse.txt"],
    ] as const) {
      const files = who.storage.from(bucket);
      expect((await files.list()).data?.map((f) => f.name)).toContain("plan.txt");
      expect(await text(who.storage, "plan.txt")).toBe("the plan");
      expect(await files.upload(name, "added")).toMatchObject(ok);
      expect(await files.copy("plan.txt", `copy-of-${name}`)).toMatchObject(ok);
      expect(await files.upload("plan.txt", "overwritten", { upsert: true })).toMatchObject(refused(NO_CHANGE));
      expect(await files.update("plan.txt", "overwritten")).toMatchObject(refused(NO_CHANGE));
      expect(await files.copy(name, "plan.txt")).toMatchObject({ error: expect.objectContaining({ status: 409 }) });
      expect(await files.move(name, `moved-${name}`)).toMatchObject(refused(NO_CHANGE));
      expect(await files.remove([name])).toMatchObject(refused(NO_DELETE));
      expect(await who.storage.createBucket(unique("mine"))).toMatchObject(refused(NO_BUCKETS));
    }
    expect(await text(owner.storage, "plan.txt")).toBe("the plan");

    const managed = manager.storage.from(bucket);
    expect(await managed.update("sales.txt", "edited by the manager")).toMatchObject(ok);
    expect(await managed.move("sales.txt", "archive/sales.txt")).toMatchObject(ok);
    expect(await finance.storage.from(bucket).remove(["archive/sales.txt", "warehouse.txt"])).toMatchObject(ok);
    expect(await manager.storage.createBucket(unique("mine"))).toMatchObject(refused(NO_BUCKETS));
    expect((await owner.storage.from(bucket).list()).data?.map((f) => f.name)).toEqual([
      "copy-of-sales.txt",
      "copy-of-warehouse.txt",
      "plan.txt",
    ]);
  });
});

describe("storage quota", () => {
  let operator: string;
  let lite: Signed; // owner@lite.test; only this file writes files in the lite workspace
  const setLiteQuota = async (mb: number) => {
    const res = await api("/rest/v1/tier?id=eq.10", {
      method: "PATCH",
      headers: { authorization: `Bearer ${operator}`, apikey: lite.anonKey },
      json: { storage_quota_mb: mb },
    });
    expect(res.status).toBeLessThan(300);
  };
  const usage = async () =>
    (await api("/api/workspace/overview", { headers: { authorization: `Bearer ${lite.token}` } })).body.storage;

  beforeAll(async () => {
    [lite, { token: operator }] = await Promise.all([
      signedIn("owner@lite.test"),
      signedIn("platform@workmetrics.test"),
    ]);
  });
  afterAll(() => setLiteQuota(1024));

  it("refuses the upload or copy that would pass the tier's quota and keeps what was there", async () => {
    expect(await usage()).toEqual({ used_bytes: 0, quota_bytes: 1024 * MB }); // Lite: 1 GB
    await setLiteQuota(1);
    const files = lite.storage.from("files"); // every workspace starts with "My files"' bucket
    expect(await files.upload("a.bin", bytes(400 * KB))).toMatchObject(ok);
    expect(await files.upload("b.bin", bytes(400 * KB))).toMatchObject(ok);

    const full = "This workspace's storage is full (1 MB on the Lite plan): delete files or upgrade";
    const tooMuch = { error: expect.objectContaining({ status: 413, message: full }) };
    expect(await files.upload("c.bin", bytes(400 * KB))).toMatchObject(tooMuch);
    // Streamed with no declared length: the same answer once the bytes are in, and nothing kept.
    const stream = new ReadableStream<Uint8Array>({
      start(c) {
        for (let i = 0; i < 4; i++) c.enqueue(bytes(100 * KB));
        c.close();
      },
    });
    expect(await files.upload("d.bin", stream)).toMatchObject(tooMuch);
    expect(await files.copy("a.bin", "e.bin")).toMatchObject(tooMuch);
    // Replacing a file counts only the difference.
    expect(await files.update("a.bin", bytes(500 * KB))).toMatchObject(ok);
    expect((await files.list()).data?.map((f) => [f.name, f.metadata?.size])).toEqual([
      ["a.bin", 500 * KB],
      ["b.bin", 400 * KB],
    ]);
    expect(await usage()).toEqual({ used_bytes: 900 * KB, quota_bytes: MB });

    // Deleting makes room again.
    expect(await files.remove(["b.bin"])).toMatchObject(ok);
    expect(await files.upload("c.bin", bytes(400 * KB))).toMatchObject(ok);
    expect(await usage()).toEqual({ used_bytes: 900 * KB, quota_bytes: MB });
  });
});
