import type { PublicDiscountForm } from "@workmetrics/domain/resources/partners";
import { sql } from "drizzle-orm";
import type { Db, Tx } from "../../platform/db/database.ts";
import { HttpError } from "../../platform/http/errors.ts";
import type { Caller } from "../../platform/rest/access.ts";
import { hashToken, settleExpiry } from "./discount-form.store.ts";

// Issue 11: what a supplier sees of a discount request, on the public page (found by its link's token) and, for a
// supplier user of the workspace, signed in (the forms addressed to their company).

export type FoundLink = { workspace_id: string; id: number; workspace_name: string; suspended: boolean };

const TOKEN = /^[0-9a-f]{64}$/;
export const notValid = () =>
  new HttpError(404, "link_not_valid", "This link is not valid. Check that it was copied whole.");

// The only read before the workspace is known: by the SHA-256 of the token, across workspaces.
export async function findLink(db: Db, token: string): Promise<FoundLink> {
  if (!TOKEN.test(token)) throw notValid();
  const res = await db.execute(sql`select f.workspace_id::text as workspace_id, f.id, w.name as workspace_name,
      (w.suspended_at is not null) as suspended
    from supplier_discount_form f join workspace w on w.id = f.workspace_id
    where f.token_hash = ${hashToken(token)}`);
  const found = res.rows[0] as FoundLink | undefined;
  if (!found) throw notValid();
  if (found.suspended) throw new HttpError(410, "link_revoked", "This discount request is no longer available.");
  return { ...found, id: Number(found.id) };
}

export type DiscountView = PublicDiscountForm & { id: number };

const text = (v: unknown) => (v == null ? null : v instanceof Date ? v.toISOString() : String(v));

// Forms in the caller's workspace by id, settled for expiry first.
export async function viewForms(tx: Tx, ws: string, ids: readonly number[]): Promise<DiscountView[]> {
  if (ids.length === 0) return [];
  for (const id of ids) await settleExpiry(tx, ws, id);
  const idList = sql.join(
    ids.map((id) => sql`${id}`),
    sql`, `,
  );
  const res = await tx.execute(sql`select f.*, c.name as supplier, cat.name as category_name, w.name as workspace_name,
      w.logo, w.primary_color, w.base_currency
    from supplier_discount_form f
    join workspace w on w.id = f.workspace_id
    join company c on c.workspace_id = f.workspace_id and c.id = f.company_id
    left join category cat on cat.workspace_id = f.workspace_id and cat.id = f.category_id
    where f.workspace_id = ${ws}::uuid and f.id in (${idList}) order by f.id desc`);
  const items = await tx.execute(sql`select i.supplier_discount_form_id as form_id, p.id as product_id, p.name, p.sku,
      p.unit, i.price::text as price
    from supplier_discount_form_item i join product p on p.workspace_id = i.workspace_id and p.id = i.product_id
    where i.workspace_id = ${ws}::uuid and i.supplier_discount_form_id in (${idList})
    order by i.sort_order, i.id`);
  const byForm = new Map<number, DiscountView["products"]>();
  for (const r of items.rows as Array<Record<string, unknown>>) {
    const list = byForm.get(Number(r.form_id)) ?? [];
    list.push({
      product_id: Number(r.product_id),
      name: String(r.name),
      sku: text(r.sku),
      unit: text(r.unit),
      price: text(r.price),
    });
    byForm.set(Number(r.form_id), list);
  }
  return (res.rows as Array<Record<string, unknown>>).map((f) => ({
    id: Number(f.id),
    workspace: {
      name: String(f.workspace_name),
      logo: text(f.logo),
      primary_color: text(f.primary_color),
      currency: String(f.base_currency),
    },
    supplier: String(f.supplier),
    status: String(f.status),
    discount_kind: f.discount_kind as "percent" | "price",
    discount_percent: text(f.discount_percent),
    min_qty: String(f.min_qty),
    valid_from: String(text(f.valid_from)).slice(0, 10),
    valid_to: String(text(f.valid_to)).slice(0, 10),
    message: text(f.message),
    category: text(f.category_name),
    products: byForm.get(Number(f.id)) ?? [],
    link_expires_at: text(f.link_expires_at),
    responded_at: text(f.responded_at),
    responder_name: text(f.responder_name),
    responder_note: text(f.responder_note),
  }));
}

// A supplier user's company (users carry no company): the supplier companies of the workspace with a contact of
// the user's e-mail address. A form is theirs when it is addressed to one of them or to their address itself.
export async function supplierFormIds(tx: Tx, caller: Caller, id?: number): Promise<number[]> {
  const ws = caller.workspaceId as string;
  const res = await tx.execute(sql`select f.id from supplier_discount_form f, "user" a
    where a.workspace_id = ${ws}::uuid and a.id = ${caller.userId}::uuid and f.workspace_id = ${ws}::uuid and f.status <> 'draft'
      and ${id == null ? sql`true` : sql`f.id = ${id}`}
      and (lower(f.contact_email) = lower(a.email) or f.company_id in (select k.company_id from contact k
        where k.workspace_id = ${ws}::uuid and lower(k.email) = lower(a.email)))
    order by f.id desc limit 200`);
  return (res.rows as Array<{ id: number }>).map((r) => Number(r.id));
}
