import { createHash, randomBytes } from "node:crypto";
import { decide, memberRequirement } from "@workmetrics/domain";
import type { COMMANDS } from "@workmetrics/domain/commands";
import { DISCOUNT_LINK_DAYS } from "@workmetrics/domain/commands/partners";
import {
  DiscountAnswer,
  type DiscountAnswerInput,
  supplierDiscountFormItemResource,
  supplierDiscountFormResource,
} from "@workmetrics/domain/resources/partners";
import { sql } from "drizzle-orm";
import type { z } from "zod";
import type { Db, Tx } from "../../platform/db/database.ts";
import { parse, type Shape } from "../../platform/documents/save.ts";
import { insertRows, type Row, updateRow, writeEvent } from "../../platform/documents/store.ts";
import type { CommandDeps } from "../../platform/jobs/deps.ts";
import { type Caller, memberOf, refusalError } from "../../platform/rest/access.ts";
import { RestError } from "../../platform/rest/rest-error.ts";
import { sendPartnerMail, workspaceUrl } from "./mail.ts";

// Issue 11 "Supplier discount forms": staff draft a request (products or a category, % off or a price, minimum
// quantity, valid from/to), send it (a fresh link token, only its SHA-256 kept, expiring), revoke it; the supplier
// confirms or rejects it on the public page or, as a supplier user of the workspace, signed in. A sent form whose
// link has passed its expiry is Expired (settled when it is read, answered or swept).

const TYPE = "supplier_discount_form";
export const LINK_DAYS = DISCOUNT_LINK_DAYS;

const fail = (status: number, message: string, field?: string) =>
  new RestError(
    status,
    status === 422 ? "validation_failed" : status === 409 ? "PGRST409" : "PGRST116",
    message,
    field ? [{ field, message }] : null,
  );

export function need(caller: Caller, permission: string, does: string): void {
  const d = decide(memberOf(caller), memberRequirement(permission, does, "supplier_discount"));
  if (!d.allowed) throw refusalError(d);
}

export const hashToken = (token: string) => createHash("sha256").update(Buffer.from(token, "hex")).digest("hex");

// ---- staff: save, send, revoke -----------------------------------------------------------------------------------

type SaveArgs = z.output<typeof COMMANDS.supplier_discount_form_save.args>;

async function lockForm(tx: Tx, ws: string, id: number): Promise<Row> {
  const res = await tx.execute(sql`select * from supplier_discount_form
    where workspace_id = ${ws}::uuid and id = ${id} for update`);
  const form = res.rows[0] as Row | undefined;
  if (!form) throw fail(404, `There is no supplier discount form ${id} in this workspace`);
  return form;
}

export async function saveForm(tx: Tx, caller: Caller, args: SaveArgs) {
  need(caller, `${TYPE}.${args.id ? "update" : "create"}`, `${args.id ? "change" : "create"} supplier discount forms`);
  const ws = caller.workspaceId as string;
  const form = parse(supplierDiscountFormResource.insert as unknown as Shape, args.form, "form");
  const itemShape = (supplierDiscountFormItemResource.insert as unknown as Shape).omit({
    supplier_discount_form_id: true,
  });
  const items = args.items.map((item, i) => parse(itemShape as Shape, item, `items.${i}`));
  const seen = new Set<number>();
  items.forEach((item, i) => {
    if (seen.has(Number(item.product_id)))
      throw fail(422, "This product is already on the form", `items.${i}.product_id`);
    seen.add(Number(item.product_id));
  });
  const byPrice = form.discount_kind === "price";
  if (!byPrice && form.discount_percent == null) throw fail(422, "Give the discount %", "form.discount_percent");
  if (byPrice) {
    if (form.category_id != null) {
      throw fail(422, "A price is asked per product: list the products instead of a category", "form.category_id");
    }
    const missing = items.findIndex((i) => i.price == null);
    if (missing >= 0) throw fail(422, "Give the price asked for this product", `items.${missing}.price`);
  }
  if (items.length === 0 && form.category_id == null) {
    throw fail(422, "Choose a category or add at least one product", "items");
  }
  const supplier = await tx.execute(sql`select is_supplier from company
    where workspace_id = ${ws}::uuid and id = ${Number(form.company_id)}`);
  if (supplier.rows.length === 0) throw fail(422, "Choose a company of this workspace", "form.company_id");
  const values = { ...form, discount_percent: byPrice ? null : form.discount_percent };
  let id = args.id;
  if (id) {
    const before = await lockForm(tx, ws, id);
    if (before.status !== "draft") throw fail(409, `Only a draft can be changed; this form is ${before.status}`);
    await updateRow(tx, supplierDiscountFormResource, ws, id, values);
    await tx.execute(sql`delete from supplier_discount_form_item
      where workspace_id = ${ws}::uuid and supplier_discount_form_id = ${id}`);
  } else {
    const [created] = await insertRows(
      tx,
      supplierDiscountFormResource,
      [{ ...values, workspace_id: ws, created_by: caller.userId }],
      true,
    );
    id = Number(created.id);
  }
  await insertRows(
    tx,
    supplierDiscountFormItemResource,
    items.map((item, i) => ({
      workspace_id: ws,
      supplier_discount_form_id: id,
      product_id: item.product_id,
      price: byPrice ? item.price : null,
      sort_order: i,
    })),
  );
  await event(tx, caller, id, args.id ? "save" : "create", args.id ? "draft" : null, "draft");
  return { id, status: "draft" };
}

const event = (tx: Tx, caller: Caller, id: number, action: string, from: string | null, to: string, more?: Row) =>
  writeEvent(tx, caller, { type: TYPE, docId: id, action, from, to, changes: more });

async function workspaceOf(tx: Tx, ws: string): Promise<{ name: string; slug: string }> {
  const res = await tx.execute(sql`select name, slug from workspace where id = ${ws}::uuid`);
  return res.rows[0] as { name: string; slug: string };
}

// A new token each time (an earlier link stops working); answered with the link, shown once to the sender.
export async function sendForm(
  tx: Tx,
  caller: Caller,
  args: { id: number; link_days?: number },
  deps: Pick<CommandDeps, "jobs" | "links">,
) {
  const ws = caller.workspaceId as string;
  const form = await lockForm(tx, ws, args.id);
  await settleExpiry(tx, ws, args.id);
  const status = (await lockForm(tx, ws, args.id)).status as string;
  if (!["draft", "sent", "expired"].includes(status)) {
    throw fail(409, `A ${status} discount form cannot be sent again; make a new one`);
  }
  const token = randomBytes(32).toString("hex");
  const days = args.link_days ?? LINK_DAYS.default;
  const set = await tx.execute(sql`update supplier_discount_form set status = 'sent', token_hash = ${hashToken(token)},
      sent_at = now(), link_expires_at = now() + make_interval(days => ${days}), updated_at = now()
    where workspace_id = ${ws}::uuid and id = ${args.id} returning link_expires_at`);
  const expires = (set.rows[0] as { link_expires_at: Date | string }).link_expires_at;
  const workspace = await workspaceOf(tx, ws);
  const supplier = await tx.execute(sql`select name from company
    where workspace_id = ${ws}::uuid and id = ${Number(form.company_id)}`);
  const link = workspaceUrl(deps.links, workspace.slug, `/auth/supplier-discount-forms/${token}`);
  await event(tx, caller, args.id, "send", status, "sent", { to: form.contact_email });
  const until = new Date(expires).toISOString().slice(0, 10);
  await sendPartnerMail(deps, tx, ws, {
    to: String(form.contact_email),
    fromName: workspace.name,
    subject: `${workspace.name} asks you to confirm a discount`,
    paragraphs: [
      `Dear ${(supplier.rows[0] as { name: string }).name},`,
      ...(form.message ? [String(form.message)] : []),
      `${workspace.name} asks you to confirm the discount described on the page below. You can confirm or reject it there without an account; the link works until ${until}.`,
      `Regards,\n${workspace.name}`,
    ],
    link: { href: link, label: "Review the discount" },
  });
  return { id: args.id, status: "sent", link, link_expires_at: expires };
}

export async function revokeForm(tx: Tx, caller: Caller, id: number) {
  const ws = caller.workspaceId as string;
  await lockForm(tx, ws, id);
  await settleExpiry(tx, ws, id);
  const form = await lockForm(tx, ws, id);
  if (form.status !== "sent" && form.status !== "draft") {
    throw fail(409, `A ${form.status} discount form cannot be revoked`);
  }
  await updateRow(tx, supplierDiscountFormResource, ws, id, { status: "revoked" });
  await event(tx, caller, id, "revoke", String(form.status), "revoked");
  return { id, status: "revoked" };
}

// ---- expiry --------------------------------------------------------------------------------------------------------

export async function settleExpiry(tx: Tx, ws: string, id: number): Promise<void> {
  await tx.execute(sql`update supplier_discount_form set status = 'expired', updated_at = now()
    where workspace_id = ${ws}::uuid and id = ${id} and status = 'sent' and link_expires_at <= now()`);
}

// Every workspace's sent forms past their link's expiry (the server's own connection, across workspaces).
// The sweep of links past their expiry: a scheduled job every ten minutes (app.ts), once across the instances.
export const LINK_EXPIRY_SWEEP = "sweep.discount_links";

export async function sweepExpired(db: Db): Promise<number> {
  const res = await db.execute(sql`update supplier_discount_form set status = 'expired', updated_at = now()
    where status = 'sent' and link_expires_at <= now()`);
  return res.rowCount ?? 0;
}

// ---- answering -----------------------------------------------------------------------------------------------------

export const Answer = DiscountAnswer;
export type AnswerInput = DiscountAnswerInput;

const day = (v: unknown) => (v instanceof Date ? v.toISOString() : String(v)).slice(0, 10);

// Why a form cannot be answered now, in words (410 for a dead link, 409 for one already answered).
export function unanswerable(form: Row, workspaceName: string): RestError | null {
  switch (form.status) {
    case "sent":
      return null;
    case "expired":
      return new RestError(
        410,
        "link_expired",
        `This link expired on ${day(form.link_expires_at)}. Ask ${workspaceName} to send a new one.`,
      );
    case "revoked":
      return new RestError(410, "link_revoked", `${workspaceName} withdrew this discount request.`);
    case "confirmed":
    case "rejected":
      return new RestError(
        409,
        "already_answered",
        `This request was already answered: ${form.status} by ${form.responder_name} on ${day(form.responded_at)}.`,
      );
    default:
      return new RestError(404, "PGRST116", "This link is not valid");
  }
}

export async function answerForm(tx: Tx, caller: Caller, id: number, input: AnswerInput, workspaceName: string) {
  const ws = caller.workspaceId as string;
  await lockForm(tx, ws, id);
  await settleExpiry(tx, ws, id);
  const form = await lockForm(tx, ws, id);
  const refusal = unanswerable(form, workspaceName);
  if (refusal) throw refusal;
  const to = input.decision === "confirm" ? "confirmed" : "rejected";
  await tx.execute(sql`update supplier_discount_form set status = ${to}, responded_at = now(),
      responder_name = ${input.name}, responder_note = ${input.note ?? null}, responded_by = ${caller.userId}::uuid,
      updated_at = now()
    where workspace_id = ${ws}::uuid and id = ${id}`);
  await writeEvent(tx, caller, {
    type: TYPE,
    docId: id,
    action: input.decision,
    from: "sent",
    to,
    reason: input.note ?? null,
    changes: { responder_name: [null, input.name] },
  });
  return { ...form, status: to, responder_name: input.name, responder_note: input.note ?? null };
}
