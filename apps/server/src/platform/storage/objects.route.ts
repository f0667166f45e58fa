import type { Readable } from "node:stream";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import type { Db } from "../db/database.ts";
import { findBucket } from "./buckets.route.ts";
import { asCaller, type Caller, member, signedLinkCaller } from "./caller.ts";
import { type FileStore, tooLarge } from "./disk.ts";
import { fileObjectJson, infoJson } from "./json.ts";
import { ListInput, listObjects } from "./list.ts";
import { bucketName, MAX_UPLOAD_BYTES, mimeAllowed, objectName } from "./names.ts";
import type { ObjectStore } from "./objects.ts";
import { storageFull } from "./quota.ts";
import { sendObject } from "./serve.ts";
import { MAX_SIGNED_SECONDS, type UrlSigner } from "./signed-url.ts";
import { invalid, StorageError } from "./storage-error.ts";
import { receiveUpload } from "./upload.ts";

type Deps = { db: Db; disk: FileStore; objects: ObjectStore; signer: UrlSigner };
type PathParams = { bucket: string; "*": string };

const MoveInput = z.object({
  bucketId: z.string({ message: "bucketId is required" }),
  sourceKey: z.string({ message: "sourceKey is required" }),
  destinationKey: z.string({ message: "destinationKey is required" }),
  destinationBucket: z.string().nullish(),
});
const ExpiresIn = z.coerce
  .number({ message: "expiresIn is a number of seconds" })
  .int("expiresIn is a whole number of seconds")
  .min(1, "expiresIn is at least 1 second")
  .max(MAX_SIGNED_SECONDS, "expiresIn is at most one year");
const SignInput = z.object({ expiresIn: ExpiresIn });
const SignManyInput = z.object({ expiresIn: ExpiresIn, paths: z.array(z.string()).min(1).max(1000) });
const RemoveInput = z.object({
  prefixes: z.array(z.string(), { message: "prefixes lists the paths to remove" }).max(1000, "1000 paths at most"),
});

const target = (p: PathParams) => ({ bucket: bucketName(p.bucket), name: objectName(p["*"]) });
const upsertHeader = (req: FastifyRequest) => String(req.headers["x-upsert"] ?? "").toLowerCase() === "true";

// JSON routes under /object: list, move, copy, remove, sign, info, and downloads.
export async function objectRoutes(app: FastifyInstance, deps: Deps): Promise<void> {
  const { db, objects, signer } = deps;

  app.post<{ Params: { bucket: string } }>("/object/list/:bucket", async (req) => {
    const caller = await member(req, db, "file.read");
    const input = ListInput.parse(req.body ?? {});
    return asCaller(db, caller, async (tx) => {
      const bucket = await findBucket(tx, caller.workspaceId, req.params.bucket);
      return listObjects(tx, caller.workspaceId, bucket.id, input);
    });
  });

  app.post("/object/move", async (req) => {
    const caller = await member(req, db, "file.update");
    const input = MoveInput.parse(req.body ?? {});
    await objects.move(caller, ...endpoints(input));
    return { message: "Successfully moved" };
  });

  // Reads the source; adding or replacing the destination is checked by the store, which knows which it is.
  app.post("/object/copy", async (req) => {
    const caller = await member(req, db, "file.read");
    const input = MoveInput.parse(req.body ?? {});
    const [from, to] = endpoints(input);
    const row = await objects.copy(caller, from, to, upsertHeader(req));
    return { Id: row.uid, Key: `${to.bucket}/${to.name}` };
  });

  app.delete<{ Params: { bucket: string } }>("/object/:bucket", async (req) => {
    const caller = await member(req, db, "file.delete");
    const { prefixes } = RemoveInput.parse(req.body ?? {});
    const { bucket, rows } = await objects.remove(caller, bucketName(req.params.bucket), prefixes);
    return rows.map((r) => ({ ...fileObjectJson(r.name, r), bucket_id: bucket.name, owner: r.owner }));
  });

  app.delete<{ Params: PathParams }>("/object/:bucket/*", async (req) => {
    const caller = await member(req, db, "file.delete");
    const { bucket, name } = target(req.params);
    const { rows } = await objects.remove(caller, bucket, [name]);
    if (rows.length === 0) throw new StorageError(404, "not_found", "Object not found");
    return { message: "Successfully deleted" };
  });

  app.post<{ Params: PathParams }>("/object/sign/:bucket/*", async (req) => {
    const caller = await member(req, db, "file.read");
    const { bucket, name } = target(req.params);
    const { expiresIn } = SignInput.parse(req.body ?? {});
    const oid = (await objects.ids(caller, bucket, [name])).get(name);
    if (!oid) throw new StorageError(404, "not_found", "Object not found");
    return { signedURL: await signedPath(caller, bucket, name, oid, expiresIn) };
  });

  app.post<{ Params: { bucket: string } }>("/object/sign/:bucket", async (req) => {
    const caller = await member(req, db, "file.read");
    const bucket = bucketName(req.params.bucket);
    const { expiresIn, paths } = SignManyInput.parse(req.body ?? {});
    const found = await objects.ids(caller, bucket, paths);
    return Promise.all(
      paths.map(async (path) => {
        const oid = found.get(path);
        return oid
          ? { error: null, path, signedURL: await signedPath(caller, bucket, path, oid, expiresIn) }
          : { error: "Either the object does not exist or you do not have access to it", path, signedURL: null };
      }),
    );
  });

  // The path is left unencoded: storage-js runs encodeURI over the whole signed URL itself.
  async function signedPath(caller: Caller, bucket: string, name: string, oid: string, expiresIn: number) {
    const token = await signer.sign({ url: `${bucket}/${name}`, ws: caller.workspaceId, oid }, expiresIn);
    return `/object/sign/${bucket}/${name}?token=${token}`;
  }

  app.get<{ Params: PathParams }>("/object/info/:bucket/*", async (req, reply) => {
    const caller = await member(req, db, "file.read");
    const { bucket, name } = target(req.params);
    const { row } = await objects.open(caller, bucket, name, false);
    reply.header("cache-control", "no-store");
    return infoJson(bucket, row);
  });

  // Downloads for a signed-in member; /object/authenticated/… is the same thing under Supabase's other name.
  const download = (headOnly: boolean) => async (req: FastifyRequest<{ Params: PathParams }>, reply: FastifyReply) => {
    const caller = await member(req, db, "file.read");
    const { bucket, name } = target(req.params);
    const { row, file } = await objects.open(caller, bucket, name, !headOnly);
    return sendObject(req, reply, row, file);
  };
  for (const path of ["/object/:bucket/*", "/object/authenticated/:bucket/*"]) {
    app.get(path, { exposeHeadRoute: false }, download(false));
    app.head(path, download(true));
  }

  // A signed URL needs no session: the token names the workspace and the object, and expires.
  const signedDownload =
    (headOnly: boolean) => async (req: FastifyRequest<{ Params: PathParams }>, reply: FastifyReply) => {
      const { bucket, name } = target(req.params);
      const claims = await signer.verify((req.query as { token?: string }).token);
      if (claims.url !== `${bucket}/${name}`) throw new StorageError(400, "InvalidJWT", "This link is not valid.");
      const caller = signedLinkCaller(claims.ws);
      const { row, file } = await objects.open(caller, bucket, name, !headOnly);
      if (row.uid !== claims.oid) {
        await file?.close();
        throw new StorageError(404, "not_found", "Object not found");
      }
      return sendObject(req, reply, row, file);
    };
  app.get("/object/sign/:bucket/*", { exposeHeadRoute: false }, signedDownload(false));
  app.head("/object/sign/:bucket/*", signedDownload(true));

  app.get("/object/public/*", async () => {
    throw invalid("Public buckets are not offered: every file is private to its workspace. Use a signed link.");
  });
}

function endpoints(input: z.infer<typeof MoveInput>) {
  const from = { bucket: bucketName(input.bucketId), name: objectName(input.sourceKey) };
  const to = { bucket: bucketName(input.destinationBucket || input.bucketId), name: objectName(input.destinationKey) };
  return [from, to] as const;
}

// Uploads: POST creates (x-upsert: true overwrites), PUT overwrites. Bodies stream to disk, never into memory, so
// this context takes every content type as a raw stream.
export async function uploadRoutes(app: FastifyInstance, deps: Deps): Promise<void> {
  const { db, disk, objects } = deps;
  app.removeAllContentTypeParsers();
  app.addContentTypeParser("*", (_req, payload, done) => done(null, payload));

  const upload = (method: "POST" | "PUT") => async (req: FastifyRequest<{ Params: PathParams }>) => {
    const caller = await member(req, db);
    const { bucket, name } = target(req.params);
    const upsert = method === "PUT" || upsertHeader(req);
    const { bucket: bucketRow, room, usage } = await objects.prepareUpload(caller, bucket, name, upsert);
    const limit = Math.min(MAX_UPLOAD_BYTES, bucketRow.fileSizeLimit ?? MAX_UPLOAD_BYTES);
    // A declared length past the limit or the quota's room is refused before a byte is read (forms carry a
    // little overhead); the quota is checked exactly once the file is in.
    const declared = Number(req.headers["content-length"]);
    if (Number.isFinite(declared) && declared > limit + 64 * 1024) throw tooLarge(limit);
    if (Number.isFinite(declared) && declared > room + 64 * 1024) throw storageFull(usage);
    const body = isStream(req.body) ? req.body : req.raw;
    const file = await receiveUpload(body, req.headers, limit, disk);
    if (!mimeAllowed(file.mimeType, bucketRow.allowedMimeTypes)) {
      await disk.discardTemporary(file.tmpPath);
      throw new StorageError(415, "InvalidMimeType", `Files of type ${file.mimeType} are not allowed in this bucket.`);
    }
    const row = await objects.saveUpload(caller, bucketRow, name, upsert, file);
    return { Id: row.uid, Key: `${bucket}/${name}` };
  };
  const bodyLimit = MAX_UPLOAD_BYTES + 1024 * 1024;
  app.post("/object/:bucket/*", { bodyLimit }, upload("POST"));
  app.put("/object/:bucket/*", { bodyLimit }, upload("PUT"));
}

const isStream = (v: unknown): v is Readable =>
  !!v && typeof v === "object" && typeof (v as Readable).pipe === "function";
