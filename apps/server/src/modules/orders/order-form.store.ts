import { Dec } from "@workmetrics/domain/documents/decimal";
import {
  belowMinimum,
  type OrderSubmission,
  type PublicOrderForm,
  type SubmittedOrder,
} from "@workmetrics/domain/schemas/order-submission";
import { sql } from "drizzle-orm";
import { type Db, inRequest, type Tx } from "../../platform/db/database.ts";
import { priceDraft } from "../../platform/documents/pricing.ts";
import { documentSpec } from "../../platform/documents/registry.ts";
import { insertLines } from "../../platform/documents/save.ts";
import { insertRows, takeNumber, today, writeEvent } from "../../platform/documents/store.ts";
import { HttpError } from "../../platform/http/errors.ts";
import type { Caller } from "../../platform/rest/access.ts";

// The public order form's reads and its one write (issue 10 §2). The form is found by the SHA-256 of the token
// (order_form.token_hash) across workspaces, the only read before the workspace is known; everything after runs in
// that workspace's request transaction, under its row-level security, like any request of the workspace.

export type FoundForm = {
  workspace_id: string;
  id: number;
  title: string;
  intro: string | null;
  company_id: number | null;
  active: boolean;
  workspace_name: string;
  logo: string | null;
  primary_color: string | null;
  currency: string;
  suspended: boolean;
};

const TOKEN = /^[0-9a-f]{64}$/;

export const unavailable = (status: 404 | 410) =>
  new HttpError(status, "order_form_unavailable", "This order form is no longer available");

export async function findForm(db: Db, token: string): Promise<FoundForm> {
  if (!TOKEN.test(token)) throw unavailable(404);
  const res = await db.execute(sql`select f.workspace_id::text as workspace_id, f.id, f.title, f.intro, f.company_id,
      f.active, w.name as workspace_name, w.logo, w.primary_color, w.base_currency as currency,
      (w.suspended_at is not null) as suspended
    from order_form f join workspace w on w.id = f.workspace_id
    where f.token_hash = encode(sha256(decode(${token}, 'hex')), 'hex')`);
  const form = res.rows[0] as FoundForm | undefined;
  if (!form) throw unavailable(404);
  if (!form.active || form.suspended) throw unavailable(410);
  return { ...form, id: Number(form.id), company_id: form.company_id == null ? null : Number(form.company_id) };
}

type Item = PublicOrderForm["products"][number] & { tax_code: string; cost: string | null };

const guest = (workspaceId: string): Caller => ({
  kind: "anon",
  userId: null,
  workspaceId,
  permissions: [],
  features: [],
  isOperator: false,
});

const inWorkspace = <T>(db: Db, form: FoundForm, fn: Parameters<typeof inRequest<T>>[2]) =>
  inRequest(db, { workspaceId: form.workspace_id, userId: null, role: "anon" }, fn);

async function formItems(tx: Tx, form: FoundForm): Promise<Item[]> {
  const res = await tx.execute(sql`select p.id as product_id, p.name, p.sku, p.unit, p.description,
      p.image_urls[1] as image, i.price::text as price, i.min_qty::text as min_qty, p.tax_code, p.cost::text as cost
    from order_form_item i join product p on p.workspace_id = i.workspace_id and p.id = i.product_id
    where i.workspace_id = ${form.workspace_id}::uuid and i.order_form_id = ${form.id} and p.active
    order by i.sort_order, i.id`);
  return (res.rows as Item[]).map((r) => ({ ...r, product_id: Number(r.product_id) }));
}

export async function publicForm(db: Db, form: FoundForm): Promise<PublicOrderForm> {
  return inWorkspace(db, form, async (tx) => {
    const items = await formItems(tx, form);
    let customer: string | null = null;
    if (form.company_id != null) {
      const res = await tx.execute(sql`select name from company
        where workspace_id = ${form.workspace_id}::uuid and id = ${form.company_id}`);
      customer = (res.rows[0] as { name: string } | undefined)?.name ?? null;
    }
    return {
      workspace: {
        name: form.workspace_name,
        logo: form.logo,
        primary_color: form.primary_color,
        currency: form.currency,
      },
      title: form.title,
      intro: form.intro,
      customer,
      products: items.map(({ tax_code: _t, cost: _c, ...p }) => p),
    };
  });
}

const fieldError = (details: { field: string; message: string }[]) =>
  new HttpError(422, "validation_failed", details[0].message, details);

// A received order with its ORD number, priced from the form; the customer is the form's, or none yet.
// `then` runs in the same transaction once the order is written (the staff's notice, queued in the outbox: both or
// neither).
export async function submitOrder(
  db: Db,
  form: FoundForm,
  input: OrderSubmission,
  then?: (tx: Tx, order: SubmittedOrder & { id: number }) => Promise<void>,
): Promise<SubmittedOrder & { id: number }> {
  return inWorkspace(db, form, async (tx) => {
    const order = await receiveOrder(tx, form, input);
    await then?.(tx, order);
    return order;
  });
}

// The order written in a transaction that already runs as the form's workspace's guest (submitOrder's; the demo
// seed's, under the same role, for the demo's orders from its forms).
export async function receiveOrder(
  tx: Tx,
  form: FoundForm,
  input: OrderSubmission,
): Promise<SubmittedOrder & { id: number }> {
  const items = new Map((await formItems(tx, form)).map((i) => [i.product_id, i]));
  const problems: { field: string; message: string }[] = [];
  const seen = new Set<number>();
  const lines: Record<string, unknown>[] = [];
  input.items.forEach((wanted, i) => {
    const item = items.get(wanted.product_id);
    if (!item) {
      problems.push({ field: `items.${i}.product_id`, message: "This product is not on the order form" });
      return;
    }
    if (seen.has(wanted.product_id)) {
      problems.push({ field: `items.${i}.product_id`, message: `${item.name} is listed twice` });
      return;
    }
    seen.add(wanted.product_id);
    if (belowMinimum(wanted.qty, item.min_qty)) {
      const min = new Dec(item.min_qty).toString();
      problems.push({ field: `items.${i}.qty`, message: `The minimum for ${item.name} is ${min}` });
      return;
    }
    if (!new Dec(wanted.qty).greaterThan(0)) return;
    lines.push({
      product_id: item.product_id,
      sku: item.sku,
      description: item.name,
      unit: item.unit,
      qty: wanted.qty,
      unit_price: item.price, // the form's price: whatever the request says is not read
      unit_cost: item.cost,
      discount_percent: "0",
      tax_code: item.tax_code,
    });
  });
  if (problems.length) throw fieldError(problems);
  const spec = documentSpec("customer_order");
  const header = {
    company_id: form.company_id,
    order_form_id: form.id,
    currency: form.currency,
    customer_name: input.name,
    customer_company: input.company,
    customer_email: input.email,
    customer_phone: input.phone,
    delivery_address: input.delivery_address,
    notes: input.note,
  };
  const priced = priceDraft(header, lines);
  const date = await today(tx);
  const number = await takeNumber(tx, form.workspace_id, "customer_order", date);
  const [row] = await insertRows(
    tx,
    spec.header,
    [{ ...priced.header, workspace_id: form.workspace_id, status: spec.machine.initial, number, doc_date: date }],
    true,
  );
  const id = Number(row.id);
  await insertLines(tx, spec, form.workspace_id, id, priced.lines);
  await writeEvent(tx, guest(form.workspace_id), {
    type: spec.machine.type,
    docId: id,
    action: "create",
    from: null,
    to: spec.machine.initial,
    changes: { order_form: { id: form.id, title: form.title }, number: [null, number] },
  });
  return {
    id,
    number,
    status: spec.machine.initial,
    total: String(priced.header.total),
    currency: form.currency,
  };
}

// Who hears of a new order: the workspace's owner and its sales managers (role 2), by e-mail.
export async function orderRecipients(db: Db, workspaceId: string): Promise<string[]> {
  const res = await db.execute(sql`select distinct a.email from auth_user a
    where a.email is not null and (a.id = (select user_id from workspace where id = ${workspaceId}::uuid)
      or a.id in (select u.id from "user" u where u.workspace_id = ${workspaceId}::uuid and u.role_id = 2))`);
  return (res.rows as { email: string }[]).map((r) => r.email);
}
