import { findCommand } from "@workmetrics/domain/commands";
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { ok, rpc } from "./documents-helpers.ts";
import { baseUrl } from "./http.ts";
import { ownServer } from "./own-server-helpers.ts";
import { getAnonKey, restFetch, tokenFor } from "./rest-helpers.ts";

// Issue 23: a listing's own photos. The seller uploads up to six (JPEG, PNG or WebP, at most 5 MB each) or takes one
// of the workspace's files, reorders and removes them; each is a file of the seller's files bucket (in its quota).
// Any Premium buyer reads a photo of a published listing through marketplace_listing_photo, never its place in
// storage; an unpublished listing's photo is read by no one but the seller; another workspace adds none.

const SELLER = "owner@demo.test";
const BUYER = "procurement@orchard.test";
const BUYER_OWNER = "owner@orchard.test"; // may list products of orchard's own
const THIRD = "admin@lite.test"; // Premium here
const PRO = "admin@pro.test";

const own = ownServer({ SEED: "demo" }, 600_000);

type Photo = { id: string; name: string; mime: string; size: number };
type Listing = { id: number; published: boolean; photos: Photo[] };

const call = async <T>(email: string, fn: string, args: unknown): Promise<T> => {
  const body = await ok(email, fn, args);
  expect(findCommand(fn)?.result.safeParse(body).error, fn).toBeUndefined();
  return body as unknown as T;
};

const png = Buffer.from(
  "89504e470d0a1a0a0000000d4948445200000001000000010806000000" +
    "1f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082",
  "hex",
);
const pngUrl = `data:image/png;base64,${png.toString("base64")}`;
const jpeg = Buffer.from("ffd8ffe000104a46494600010100000100010000ffd9", "hex");
const jpegUrl = `data:image/jpeg;base64,${jpeg.toString("base64")}`;

let published: Listing;
let hidden: Listing;

const objects = () =>
  own.q<{ name: string; size: number }>(sql`select o.name, o.size from storage_object o
    where o.workspace_id = ${own.ws}::uuid and o.name like 'marketplace/listings/%' order by o.id`);

beforeAll(async () => {
  await own.db.execute(sql`update workspace set tier_id = 12 where slug = 'lite'`);
  const mine = await call<{ rows: Listing[] }>(SELLER, "marketplace_search", { mine: true, limit: 200 });
  published = mine.rows.find((l) => l.published) as Listing;
  expect(published).toBeTruthy();
  const free = await own.q<{ id: number }>(sql`select p.id from product p where p.workspace_id = ${own.ws}::uuid
    and p.active and not exists (select 1 from marketplace_product l where l.workspace_id = p.workspace_id
      and l.product_id = p.id) order by p.id limit 1`);
  hidden = await call<Listing>(SELLER, "marketplace_listing_save", {
    product_id: Number(free[0].id),
    title: "Photos not yet for sale",
    price: "5.00",
    published: false,
  });
}, 120_000);

describe("marketplace listing photos", () => {
  it("the seller uploads photos; each is a file of the seller's files bucket, in its quota, its place unsaid", async () => {
    const one = await call<Listing>(SELLER, "marketplace_listing_photo_add", {
      marketplace_product_id: Number(published.id),
      name: "front.png",
      data: pngUrl,
    });
    expect(one.photos).toEqual([{ id: expect.any(String), name: "front.png", mime: "image/png", size: png.length }]);
    const two = await call<Listing>(SELLER, "marketplace_listing_photo_add", {
      marketplace_product_id: Number(published.id),
      data: jpegUrl,
    });
    expect(two.photos.map((p) => p.mime)).toEqual(["image/png", "image/jpeg"]);
    const kept = await objects();
    expect(kept.map((o) => o.name)).toEqual(two.photos.map((p) => expect.stringContaining(p.id)));
    expect(kept.map((o) => Number(o.size))).toEqual([png.length, jpeg.length]);
    // Buyers' search shows the photos (ids, names, sizes) and nothing of where they are kept.
    const found = await call<{ rows: Listing[] }>(BUYER, "marketplace_search", { limit: 200 });
    const seen = found.rows.find((l) => Number(l.id) === Number(published.id)) as Listing;
    expect(seen.photos).toEqual(two.photos);
    expect(JSON.stringify(seen)).not.toContain("marketplace/listings");
  });

  it("refuses a file that is no JPEG, PNG or WebP, or larger than 5 MB, with a clear message; nothing is kept", async () => {
    const count = (await objects()).length;
    const text = await rpc(SELLER, "marketplace_listing_photo_add", {
      marketplace_product_id: Number(published.id),
      data: `data:text/plain;base64,${Buffer.from("hello").toString("base64")}`,
    });
    expect(text.status).toBe(422);
    expect(text.text).toContain("A listing photo must be a JPEG, PNG or WebP image");
    const big = Buffer.alloc(5 * 1024 * 1024 + 1, 7);
    const tooBig = await rpc(SELLER, "marketplace_listing_photo_add", {
      marketplace_product_id: Number(published.id),
      data: `data:image/jpeg;base64,${big.toString("base64")}`,
    });
    expect(tooBig.status).toBe(422);
    expect(tooBig.text).toContain("larger than 5 MB");
    const notData = await rpc(SELLER, "marketplace_listing_photo_add", {
      marketplace_product_id: Number(published.id),
      data: "not a file",
    });
    expect(notData.status).toBe(422);
    expect(notData.text).toContain("base64 data URL");
    expect((await objects()).length).toBe(count);
  });

  it("another workspace cannot add, remove or reorder a photo of the seller's listing", async () => {
    const count = (await objects()).length;
    const photos = (
      await call<{ rows: Listing[] }>(SELLER, "marketplace_search", { mine: true, limit: 200 })
    ).rows.find((l) => Number(l.id) === Number(published.id))?.photos as Photo[];
    for (const email of [BUYER_OWNER, THIRD]) {
      const add = await rpc(email, "marketplace_listing_photo_add", {
        marketplace_product_id: Number(published.id),
        data: pngUrl,
      });
      expect(add.status).toBe(404);
      const remove = await rpc(email, "marketplace_listing_photo_remove", {
        marketplace_product_id: Number(published.id),
        photo_id: photos[0].id,
      });
      expect(remove.status).toBe(404);
      const order = await rpc(email, "marketplace_listing_photo_order", {
        marketplace_product_id: Number(published.id),
        photo_ids: photos.map((p) => p.id).reverse(),
      });
      expect(order.status).toBe(404);
    }
    expect((await rpc(PRO, "marketplace_listing_photo_add", { marketplace_product_id: 1, data: pngUrl })).status).toBe(
      403,
    );
    expect((await objects()).length).toBe(count);
  });

  it("a buyer reads a published listing's photo; an unpublished listing's photo is read by its seller only", async () => {
    const shown = (await call<{ rows: Listing[] }>(BUYER, "marketplace_search", { limit: 200 })).rows.find(
      (l) => Number(l.id) === Number(published.id),
    ) as Listing;
    const first = shown.photos[0];
    for (const reader of [BUYER, THIRD, SELLER]) {
      const got = await call<{ mime: string; data_url: string }>(reader, "marketplace_listing_photo", {
        marketplace_product_id: Number(published.id),
        photo_id: first.id,
      });
      expect(got).toMatchObject({ mime: "image/png", data_url: pngUrl });
    }
    expect(
      (
        await rpc(PRO, "marketplace_listing_photo", {
          marketplace_product_id: Number(published.id),
          photo_id: first.id,
        })
      ).status,
    ).toBe(403);
    const anonymous = await restFetch(null, "rpc/marketplace_listing_photo", {
      method: "POST",
      body: JSON.stringify({ marketplace_product_id: Number(published.id), photo_id: first.id }),
    });
    expect([401, 403]).toContain(anonymous.status);

    const withPhoto = await call<Listing>(SELLER, "marketplace_listing_photo_add", {
      marketplace_product_id: Number(hidden.id),
      data: pngUrl,
    });
    const secret = withPhoto.photos[0];
    const asSeller = await call<{ data_url: string }>(SELLER, "marketplace_listing_photo", {
      marketplace_product_id: Number(hidden.id),
      photo_id: secret.id,
    });
    expect(asSeller.data_url).toBe(pngUrl);
    for (const email of [BUYER, THIRD]) {
      const res = await rpc(email, "marketplace_listing_photo", {
        marketplace_product_id: Number(hidden.id),
        photo_id: secret.id,
      });
      expect(res.status).toBe(404);
      expect(res.text).not.toContain(png.toString("base64"));
    }
    // Nor through the buyer's own files: the seller's bucket is not theirs.
    const headers = { apikey: await getAnonKey(), authorization: `Bearer ${await tokenFor(BUYER)}` };
    const name = (await objects()).find((o) => o.name.includes(secret.id))?.name as string;
    const direct = await fetch(`${baseUrl()}/storage/v1/object/authenticated/files/${name}`, { headers });
    expect(direct.status).toBeGreaterThanOrEqual(400);
  });

  it("reorders and removes photos (the file's room freed), keeps at most six, and takes one of the seller's files", async () => {
    const listing = (
      await call<{ rows: Listing[] }>(SELLER, "marketplace_search", { mine: true, limit: 200 })
    ).rows.find((l) => Number(l.id) === Number(published.id)) as Listing;
    const ids = listing.photos.map((p) => p.id);
    const reordered = await call<Listing>(SELLER, "marketplace_listing_photo_order", {
      marketplace_product_id: Number(published.id),
      photo_ids: [...ids].reverse(),
    });
    expect(reordered.photos.map((p) => p.id)).toEqual([...ids].reverse());
    const partial = await rpc(SELLER, "marketplace_listing_photo_order", {
      marketplace_product_id: Number(published.id),
      photo_ids: [ids[0]],
    });
    expect(partial.status).toBe(422);
    expect(partial.text).toContain("Name every photo of the listing once");

    const removed = await call<Listing>(SELLER, "marketplace_listing_photo_remove", {
      marketplace_product_id: Number(published.id),
      photo_id: ids[1],
    });
    expect(removed.photos.map((p) => p.id)).toEqual([ids[0]]);
    expect((await objects()).some((o) => o.name.includes(ids[1]))).toBe(false);

    // A picture the seller already keeps in Files (the product's), taken as a listing photo.
    const headers = { apikey: await getAnonKey(), authorization: `Bearer ${await tokenFor(SELLER)}` };
    await fetch(`${baseUrl()}/storage/v1/bucket`, {
      method: "POST",
      headers: { ...headers, "content-type": "application/json" },
      body: JSON.stringify({ name: "files", public: false }),
    });
    const up = await fetch(`${baseUrl()}/storage/v1/object/files/products/bolt.jpg`, {
      method: "POST",
      headers: { ...headers, "content-type": "image/jpeg", "x-upsert": "true" },
      body: new Uint8Array(jpeg),
    });
    expect(up.status, await up.clone().text()).toBe(200);
    const picked = await call<Listing>(SELLER, "marketplace_listing_photo_add", {
      marketplace_product_id: Number(published.id),
      file_path: "products/bolt.jpg",
    });
    expect(picked.photos.at(-1)).toMatchObject({ name: "bolt.jpg", mime: "image/jpeg", size: jpeg.length });
    const missing = await rpc(SELLER, "marketplace_listing_photo_add", {
      marketplace_product_id: Number(published.id),
      file_path: "products/none.jpg",
    });
    expect(missing.status).toBe(404);

    for (let i = picked.photos.length; i < 6; i++) {
      await call(SELLER, "marketplace_listing_photo_add", {
        marketplace_product_id: Number(published.id),
        data: pngUrl,
      });
    }
    const seventh = await rpc(SELLER, "marketplace_listing_photo_add", {
      marketplace_product_id: Number(published.id),
      data: pngUrl,
    });
    expect(seventh.status).toBe(422);
    expect(seventh.text).toContain("at most 6 photos");
  });
});
