import { type SQL, sql } from "drizzle-orm";
import { z } from "zod";
import type { Tx } from "../db/database.ts";
import { fileObjectJson, folderJson } from "./json.ts";
import { listPrefix } from "./names.ts";

// storage-js's list(): one folder level. Defaults from spec §9: 100 entries, sorted by name ascending.
export const ListInput = z.object({
  prefix: z.string().max(1024).optional(),
  limit: z.coerce.number().int().min(1, "limit is at least 1").max(1000, "limit is at most 1000").default(100),
  offset: z.coerce.number().int().min(0, "offset cannot be negative").default(0),
  search: z.string().max(255).optional(),
  sortBy: z
    .object({
      column: z.enum(["name", "created_at", "updated_at", "last_accessed_at"]).default("name"),
      order: z.enum(["asc", "desc"]).default("asc"),
    })
    .default({ column: "name", order: "asc" }),
});

type Row = {
  name: string;
  is_folder: boolean;
  uid: string | null;
  size: number | string | null;
  mime_type: string | null;
  cache_control: string | null;
  etag: string | null;
  created_at: Date | string | null;
  updated_at: Date | string | null;
  last_accessed_at: Date | string | null;
};

const escapeLike = (s: string) => s.replace(/[\\%_]/g, "\\$&");

// Folders are the distinct next path segments below the prefix; files are the objects directly in it. Both come
// from one query so limit/offset page through them together, the way Supabase's list does.
export async function listObjects(
  tx: Tx,
  workspaceId: string,
  bucketId: number,
  input: z.infer<typeof ListInput>,
): Promise<Array<ReturnType<typeof fileObjectJson> | ReturnType<typeof folderJson>>> {
  const prefix = listPrefix(input.prefix);
  // Postgres counts characters (code points); so must we.
  const start = [...prefix].length + 1;
  const rest = sql`substr(o.name, ${start})`;
  const scope = sql`o.workspace_id = ${workspaceId} and o.bucket_id = ${bucketId}
    and o.name collate "C" like ${`${escapeLike(prefix)}%`}`;
  const search = input.search ? sql`and t.name ilike ${`${escapeLike(input.search)}%`}` : sql``;
  const dir = input.sortBy.order === "desc" ? sql`desc` : sql`asc`;
  const byName = sql`t.name collate "C" ${dir}`;
  // Folders have no dates: for date sorts they come first, then by name.
  const order: SQL =
    input.sortBy.column === "name"
      ? byName
      : sql`t.is_folder desc, ${sql.identifier(input.sortBy.column)} ${dir}, t.name collate "C" asc`;
  const result = await tx.execute<Row>(sql`
    select * from (
      select split_part(${rest}, '/', 1) as name, true as is_folder, null::uuid as uid, null::bigint as size,
             null::text as mime_type, null::text as cache_control, null::text as etag,
             null::timestamptz as created_at, null::timestamptz as updated_at, null::timestamptz as last_accessed_at
        from storage_object o
       where ${scope} and strpos(${rest}, '/') > 0
       group by 1
      union all
      select ${rest}, false, o.uid, o.size, o.mime_type, o.cache_control, o.etag,
             o.created_at, o.updated_at, o.last_accessed_at
        from storage_object o
       where ${scope} and strpos(${rest}, '/') = 0
    ) t
    where true ${search}
    order by ${order}
    limit ${input.limit} offset ${input.offset}`);
  return result.rows.map((r) =>
    r.is_folder
      ? folderJson(r.name)
      : fileObjectJson(r.name, {
          uid: r.uid ?? "",
          size: Number(r.size),
          mimeType: r.mime_type ?? "application/octet-stream",
          cacheControl: r.cache_control ?? "max-age=3600",
          etag: r.etag ?? "",
          createdAt: toDate(r.created_at),
          updatedAt: toDate(r.updated_at),
          lastAccessedAt: toDate(r.last_accessed_at),
        }),
  );
}

const toDate = (v: Date | string | null) => (v instanceof Date ? v : new Date(v ?? 0));
