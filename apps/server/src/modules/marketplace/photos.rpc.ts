import { randomUUID } from "node:crypto";
import { DEFAULT_BUCKET, decide, STORAGE_ACTIONS } from "@workmetrics/domain";
import { COMMANDS } from "@workmetrics/domain/commands";
import {
  LISTING_PHOTO_TYPES,
  type ListingPhotoView,
  MAX_LISTING_PHOTO_BYTES,
  MAX_LISTING_PHOTOS,
} from "@workmetrics/domain/commands/marketplace";
import { sql } from "drizzle-orm";
import type { Tx } from "../../platform/db/database.ts";
import { asWorkspace } from "../../platform/documents/as-workspace.ts";
import type { CommandDeps } from "../../platform/jobs/deps.ts";
import { type Caller, memberOf } from "../../platform/rest/access.ts";
import { RestError } from "../../platform/rest/rest-error.ts";
import { implement } from "../../platform/rest/rpc/command.ts";
import { keepObject } from "../../platform/storage/objects.ts";
import { fail, wsOf } from "./parties.ts";
import { listingView } from "./shop.rpc.ts";

// Issue 23: a listing's own photos. The seller uploads them (or takes one of the workspace's files); each is kept as
// a file of the seller's files bucket under marketplace/listings/<listing id>/ — so it counts in the seller's storage
// quota and shows in their Files — and the listing keeps their order (marketplace_product.photos: id, name, mime,
// size). Buyers read a photo through marketplace_listing_photo while the listing and its seller are published; the
// file's place in storage is the server's only (a buyer cannot reach another workspace's files bucket anyway).

const FOLDER = "marketplace/listings";
const EXT: Record<string, string> = { "image/jpeg": "jpg", "image/png": "png", "image/webp": "webp" };
const objectName = (listingId: number, photo: Pick<ListingPhotoView, "id" | "mime">) =>
  `${FOLDER}/${listingId}/${photo.id}.${EXT[photo.mime] ?? "img"}`;

const unavailable = () =>
  new RestError(503, "storage_unavailable", "This server keeps no files: the photo cannot be stored");

type Listing = { id: number; photos: ListingPhotoView[] };

// One of the caller's listings, locked (two uploads at once still keep at most six photos).
async function myListing(tx: Tx, ws: string, id: number): Promise<Listing> {
  const row = (
    await tx.execute(sql`select id, photos from marketplace_product where workspace_id = ${ws}::uuid and id = ${id}
      for update`)
  ).rows[0] as { id: number; photos: ListingPhotoView[] | string } | undefined;
  if (!row) throw fail(404, `There is no listing ${id} of yours`, "marketplace_product_id");
  const photos = typeof row.photos === "string" ? (JSON.parse(row.photos) as ListingPhotoView[]) : row.photos;
  return { id: Number(row.id), photos };
}

async function savePhotos(tx: Tx, ws: string, id: number, photos: ListingPhotoView[]): Promise<void> {
  await tx.execute(sql`update marketplace_product set photos = ${JSON.stringify(photos)}::jsonb, updated_at = now()
    where workspace_id = ${ws}::uuid and id = ${id}`);
}

async function filesBucket(tx: Tx, caller: Caller): Promise<number> {
  const ws = wsOf(caller);
  // The files bucket, made on first use as the web's files page does.
  await tx.execute(sql`insert into storage_bucket (workspace_id, name, public, owner)
    values (${ws}::uuid, ${DEFAULT_BUCKET}, false, ${caller.userId}::uuid) on conflict do nothing`);
  const b = (
    await tx.execute(sql`select id from storage_bucket where workspace_id = ${ws}::uuid and name = ${DEFAULT_BUCKET}`)
  ).rows[0] as { id: number | string };
  return Number(b.id);
}

// The bytes of a kept object of a workspace's files bucket (null when its row or its bytes are gone).
async function bytesOf(tx: Tx, deps: CommandDeps, ws: string, name: string) {
  const obj = (
    await tx.execute(sql`select o.version, o.mime_type from storage_object o
      join storage_bucket b on b.workspace_id = o.workspace_id and b.id = o.bucket_id
      where o.workspace_id = ${ws}::uuid and b.name = ${DEFAULT_BUCKET} and o.name collate "C" = ${name}`)
  ).rows[0] as { version: string; mime_type: string | null } | undefined;
  if (!obj || !deps.disk) return null;
  const bytes = await deps.disk.get(deps.disk.key(ws, DEFAULT_BUCKET, obj.version));
  return bytes ? { bytes, mime: (obj.mime_type ?? "").toLowerCase(), version: obj.version } : null;
}

const typeRefused = (field: string) => fail(422, "A listing photo must be a JPEG, PNG or WebP image", field);

export const marketplaceListingPhotoAdd = implement(COMMANDS.marketplace_listing_photo_add, {
  run: async (tx, args, caller, deps) => {
    const ws = wsOf(caller);
    const disk = deps.disk;
    if (!disk) throw unavailable();
    const listing = await myListing(tx, ws, args.marketplace_product_id);
    if (listing.photos.length >= MAX_LISTING_PHOTOS) {
      throw fail(422, `A listing has at most ${MAX_LISTING_PHOTOS} photos: remove one first`, "data");
    }
    let file: { bytes: Buffer; mime: string; name: string };
    if (args.data !== undefined) {
      const m = /^data:([\w.+-]+\/[\w.+-]+);base64,(.*)$/s.exec(args.data) as RegExpExecArray;
      const mime = m[1].toLowerCase();
      if (!(LISTING_PHOTO_TYPES as readonly string[]).includes(mime)) throw typeRefused("data");
      const bytes = Buffer.from(m[2], "base64");
      if (bytes.length === 0) throw fail(422, "The photo is empty", "data");
      file = { bytes, mime, name: args.name ?? `photo.${EXT[mime]}` };
    } else {
      // One of the workspace's own files (the product's pictures kept in Files): the caller must be able to read it.
      const d = decide(memberOf(caller), STORAGE_ACTIONS["file.read"]);
      if (!d.allowed) throw fail(403, d.message, "file_path");
      const path = args.file_path as string;
      const found = await bytesOf(tx, deps, ws, path);
      if (!found) throw fail(404, `There is no file ${path} in your files`, "file_path");
      if (!(LISTING_PHOTO_TYPES as readonly string[]).includes(found.mime)) throw typeRefused("file_path");
      file = { bytes: found.bytes, mime: found.mime, name: args.name ?? path.split("/").pop() ?? path };
    }
    if (file.bytes.length > MAX_LISTING_PHOTO_BYTES) throw fail(422, "The photo is larger than 5 MB", "data");
    const photo: ListingPhotoView = { id: randomUUID(), name: file.name, mime: file.mime, size: file.bytes.length };
    // keepObject checks the seller's storage quota first (413 with the quota's message), then writes the bytes before
    // the rows commit: a refusal after this leaves an unreferenced file behind, which costs disk, never correctness.
    await keepObject(tx, disk, {
      workspaceId: ws,
      bucket: DEFAULT_BUCKET,
      bucketId: await filesBucket(tx, caller),
      name: objectName(listing.id, photo),
      bytes: file.bytes,
      mimeType: file.mime,
      owner: caller.userId,
    });
    await savePhotos(tx, ws, listing.id, [...listing.photos, photo]);
    return listingView(tx, ws, listing.id);
  },
});

export const marketplaceListingPhotoRemove = implement(COMMANDS.marketplace_listing_photo_remove, {
  run: async (tx, args, caller) => {
    const ws = wsOf(caller);
    const listing = await myListing(tx, ws, args.marketplace_product_id);
    const photo = listing.photos.find((p) => p.id === args.photo_id);
    if (!photo) throw fail(404, "This listing has no such photo", "photo_id");
    // The file's row goes with the photo, so the quota frees its room at once; its bytes stay on the store
    // unreferenced (disk, never correctness: a rolled-back removal still finds them).
    await tx.execute(sql`delete from storage_object o using storage_bucket b
      where o.workspace_id = ${ws}::uuid and b.workspace_id = o.workspace_id and b.id = o.bucket_id
        and b.name = ${DEFAULT_BUCKET} and o.name collate "C" = ${objectName(listing.id, photo)}`);
    await savePhotos(
      tx,
      ws,
      listing.id,
      listing.photos.filter((p) => p.id !== photo.id),
    );
    return listingView(tx, ws, listing.id);
  },
});

export const marketplaceListingPhotoOrder = implement(COMMANDS.marketplace_listing_photo_order, {
  run: async (tx, args, caller) => {
    const ws = wsOf(caller);
    const listing = await myListing(tx, ws, args.marketplace_product_id);
    const byId = new Map(listing.photos.map((p) => [p.id, p]));
    const same =
      args.photo_ids.length === listing.photos.length &&
      new Set(args.photo_ids).size === args.photo_ids.length &&
      args.photo_ids.every((id) => byId.has(id));
    if (!same) throw fail(422, "Name every photo of the listing once, in the new order", "photo_ids");
    await savePhotos(
      tx,
      ws,
      listing.id,
      args.photo_ids.map((id) => byId.get(id) as ListingPhotoView),
    );
    return listingView(tx, ws, listing.id);
  },
});

export const marketplaceListingPhoto = implement(COMMANDS.marketplace_listing_photo, {
  run: async (tx, args, caller, deps) => {
    const ws = wsOf(caller);
    // Row-level security gives the caller their own listings and others' published ones (with a published seller).
    const row = (
      await tx.execute(sql`select workspace_id::text as seller, photos from marketplace_product
        where id = ${args.marketplace_product_id}
          and (workspace_id = ${ws}::uuid or (published and seller_published))`)
    ).rows[0] as { seller: string; photos: ListingPhotoView[] | string } | undefined;
    if (!row) throw fail(404, "This listing is not on the marketplace", "marketplace_product_id");
    const photos = typeof row.photos === "string" ? (JSON.parse(row.photos) as ListingPhotoView[]) : row.photos;
    const photo = photos.find((p) => p.id === args.photo_id);
    if (!photo) throw fail(404, "This listing has no such photo", "photo_id");
    const name = objectName(Number(args.marketplace_product_id), photo);
    // The seller's file, read in the seller's workspace through the one audited path (a read writes no event).
    const found = await asWorkspace(tx, row.seller, caller, () => bytesOf(tx, deps, row.seller, name));
    if (!found) throw fail(404, "The photo's file is no longer kept", "photo_id");
    return {
      name: photo.name,
      mime: photo.mime,
      size: found.bytes.length,
      data_url: `data:${photo.mime};base64,${found.bytes.toString("base64")}`,
    };
  },
});
