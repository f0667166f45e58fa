import { DEFAULT_BUCKET } from "@workmetrics/domain";
import { FAILURE_REASON_LABELS } from "@workmetrics/domain/commands/driver";
import { dec } from "@workmetrics/domain/documents/decimal";
import { computeTotals, TAX_CODES, type TaxCode } from "@workmetrics/domain/documents/totals";
import { type FieldDef, findResource } from "@workmetrics/domain/resources";
import { getTableName, type SQL, sql } from "drizzle-orm";
import { isUuid, type Tx } from "../../../platform/db/database.ts";
import { notFound } from "../../../platform/documents/refusals.ts";
import { type DocumentSpec, documentSpec } from "../../../platform/documents/registry.ts";
import { loadLines, type Row } from "../../../platform/documents/store.ts";
import type { Caller } from "../../../platform/rest/access.ts";
import { runRead } from "../../../platform/rest/engine.ts";
import { parsePrefer, parseQuery } from "../../../platform/rest/query-parse.ts";
import { metaOf } from "../../../platform/rest/resource-meta.ts";
import { RestError } from "../../../platform/rest/rest-error.ts";
import type { FileStore } from "../../../platform/storage/disk.ts";
import { amount, day, heading, isZero, minus, moneyOf, percent, price, quantity } from "./format.ts";
import type { Block, Cell, Column, Printable, TotalRow } from "./layout.ts";
import { loadWorkspace, type Workspace } from "./letterhead.ts";
import { type PrintOptions, printOptions } from "./print-types.ts";
import { renderPdf } from "./render.ts";

// GET /api/documents/{type}/{id}/pdf and document_email (issue 10 §3): any registered document type prints from
// its declaration — the machine's title and statuses, the header resource's fields (a type's own dates, codes and
// references become facts beside the customer, its own money fields rows under the total) and the shared line
// columns. print-types.ts adds what a type needs beyond that (a tax invoice's title, a delivery's signature block).

// The header columns every type shares (document-columns.ts); the rest of a type's fields are its own.
const SHARED = new Set([
  "id",
  "workspace_id",
  "number",
  "status",
  "doc_date",
  "company_id",
  "contact_id",
  "project_id",
  "currency",
  "rate",
  "notes",
  "terms",
  "subtotal",
  "discount_percent",
  "discount_amount",
  "net_total",
  "tax_total",
  "total",
  "base_total",
  "source_type",
  "source_id",
  "amended_from",
  "created_by",
  "created_at",
  "updated_at",
]);

const TAX_NAMES: Record<string, string> = {
  SR: "GST",
  ZR: "Zero-rated",
  ES: "Exempt",
  OS: "Out of scope",
};

export type PrintedDocument = {
  pdf: Buffer;
  filename: string;
  title: string;
  number: string | null;
  header: Row;
  workspace: Workspace;
};

const id = (name: string) => sql.identifier(name);
const str = (v: unknown): string => (v === null || v === undefined ? "" : String(v).trim());
// An enum value as words: "bank_transfer" → "Bank transfer".
const words = (v: string) => (v ? v.charAt(0).toUpperCase() + v.slice(1).replaceAll("_", " ") : v);

// The document as the caller may read it: the same read scope /rest/v1 applies (permission, tier, own rows), and
// another workspace's document is simply not there.
async function readHeader(tx: Tx, caller: Caller, spec: DocumentSpec, docId: number): Promise<Row> {
  const res = await runRead(tx, {
    meta: metaOf(spec.header),
    caller,
    query: parseQuery([
      ["select", "*"],
      ["id", `eq.${docId}`],
    ]),
    prefer: parsePrefer(undefined),
    single: false,
    range: null,
    head: false,
  });
  const rows = JSON.parse(res.body ?? "[]") as Row[];
  if (!rows[0]) throw notFound(spec, docId);
  return rows[0];
}

// A row's key as SQL: ids are bigints, users' are uuids; anything else finds nothing (never a failed statement,
// which would end the request's transaction).
function key(rowId: unknown): SQL | null {
  const v = str(rowId);
  if (/^\d{1,18}$/.test(v)) return sql`${Number(v)}`;
  if (isUuid(v)) return sql`${v}::uuid`;
  return null;
}

async function rowOf(tx: Tx, table: string, ws: string, rowId: unknown): Promise<Record<string, unknown> | null> {
  const k = key(rowId);
  if (!k) return null;
  const res = await tx.execute(sql`select to_jsonb(r) as row from ${id(table)} r
    where r.workspace_id = ${ws}::uuid and r.id = ${k}`);
  return (res.rows[0] as { row: Record<string, unknown> } | undefined)?.row ?? null;
}

// A referenced record's label (a delivery order's location, a delivery instruction's driver), as the list shows it;
// null when the reference is not a workspace's record with that label column.
async function label(tx: Tx, ws: string, field: FieldDef, value: unknown): Promise<string | null> {
  const target = field.reference ? findResource(field.reference.resource) : undefined;
  if (!field.reference || !target || target.scope !== "tenant") return null;
  if (!metaOf(target).columns.has(field.reference.display)) return null;
  const row = await rowOf(tx, getTableName(target.table), ws, value);
  return str(row?.[field.reference.display]) || null;
}

async function facts(
  tx: Tx,
  ws: string,
  spec: DocumentSpec,
  header: Row,
  base: string,
  prices: boolean,
  skip: ReadonlySet<string>,
): Promise<[string, string][]> {
  const out: [string, string][] = [];
  const title = spec.machine.title;
  out.push([`${title} no.`, str(header.number) || "Not yet numbered"]);
  out.push(["Date", day(str(header.doc_date))]);
  for (const field of spec.header.fields) {
    if (SHARED.has(field.name) || skip.has(field.name) || field.kind === "money" || field.kind === "textarea") continue;
    const value = header[field.name];
    if (value === null || value === undefined || value === "") continue;
    if (field.kind === "date") out.push([field.label, day(str(value))]);
    else if (field.kind === "reference") {
      const name = await label(tx, ws, field, value);
      if (name) out.push([field.label, name]);
    } else if (field.kind === "boolean") out.push([field.label, value ? "Yes" : "No"]);
    else if (field.kind === "datetime") out.push([field.label, day(str(value))]);
    else if (field.kind === "enum") out.push([field.label, words(str(value))]);
    else if (field.kind !== "status") out.push([field.label, str(value)]);
  }
  if (header.amended_from != null) {
    // An amendment names the cancelled document it replaces (ERPNext's amended_from).
    const amended = await rowOf(tx, spec.header.name, ws, header.amended_from);
    if (amended?.number) out.push(["Amends", str(amended.number)]);
  }
  if (header.project_id != null) {
    const project = await rowOf(tx, "project", ws, header.project_id);
    if (project) out.push(["Project", [str(project.code), str(project.name)].filter(Boolean).join(" ")]);
  }
  if (header.source_type && header.source_id != null) {
    // "Sales order SO-2026-00004": the document it was made from, by its number.
    try {
      const source = documentSpec(String(header.source_type));
      const row = await rowOf(tx, source.header.name, ws, header.source_id);
      // …unless a field of the type already names it (a credit note's invoice).
      if (row?.number && !out.some(([, v]) => v === str(row.number))) out.push([source.machine.title, str(row.number)]);
    } catch {
      // a source that is not a registered document type prints nothing
    }
  }
  const currency = str(header.currency) || base;
  if (!prices) return out; // a delivery note shows no money
  out.push(["Currency", currency]);
  if (currency !== base && !isZero(str(header.rate)))
    out.push(["Exchange rate", `1 ${currency} = ${quantity(str(header.rate))} ${base}`]);
  return out;
}

function party(
  heading: string,
  company: Record<string, unknown> | null,
  contact: Record<string, unknown> | null,
  address: "billing" | "shipping",
  guest: { header: Row; fields: NonNullable<PrintOptions["guest"]> } | null,
) {
  if (!company && guest) {
    const values = (names: string[]) => names.map((n) => str(guest.header[n])).filter(Boolean);
    const name = values(guest.fields.name)[0] ?? "Customer";
    const lines = values(guest.fields.lines)
      .filter((v) => v !== name)
      .flatMap((v) => v.split("\n").map((l) => l.trim()))
      .filter(Boolean);
    return { heading, name, lines };
  }
  const billing = str(company?.billing_address);
  const shipping = str(company?.shipping_address);
  const where = address === "shipping" ? shipping || billing : billing || shipping;
  const lines = where
    .split("\n")
    .map((l) => l.trim())
    .filter(Boolean);
  if (str(company?.uen)) lines.push(`UEN ${str(company?.uen)}`);
  if (contact) {
    lines.push(`Attn: ${str(contact.name)}`);
    const reach = [str(contact.phone), str(contact.email)].filter(Boolean).join(" · ");
    if (reach) lines.push(reach);
  } else {
    const reach = [str(company?.phone), str(company?.email)].filter(Boolean).join(" · ");
    if (reach) lines.push(reach);
  }
  return { heading, name: str(company?.name) || "Customer", lines };
}

function lineTable(lines: Row[], prices: boolean, currency: string): Block {
  if (!prices) {
    const columns: Column[] = [
      { label: "#", width: 5 },
      { label: "SKU", width: 16 },
      { label: "Description", width: 55, wrap: true },
      { label: "Unit", width: 10 },
      { label: "Qty", width: 14, align: "right" },
    ];
    const rows: Cell[][] = lines.map((l) => [
      str(l.line_no),
      str(l.sku),
      str(l.description),
      str(l.unit),
      quantity(str(l.qty)),
    ]);
    return { kind: "table", columns, rows, empty: "No lines" };
  }
  const discounts = lines.some((l) => !isZero(str(l.discount_percent)));
  const columns: Column[] = [
    { label: "#", width: 4 },
    { label: "Description", width: discounts ? 40 : 47, wrap: true },
    { label: "Qty", width: 10, align: "right" },
    { label: "Unit price", width: 13, align: "right" },
    ...(discounts ? [{ label: "Disc.", width: 7, align: "right" as const }] : []),
    { label: "Tax", width: 6, align: "center" },
    { label: `Amount (${currency})`, width: 16, align: "right" },
  ];
  const rows: Cell[][] = lines.map((l) => [
    str(l.line_no),
    { text: str(l.description), note: str(l.sku) || undefined },
    [quantity(str(l.qty)), str(l.unit)].filter(Boolean).join(" "),
    price(str(l.unit_price)),
    ...(discounts ? [isZero(str(l.discount_percent)) ? "" : percent(str(l.discount_percent))] : []),
    str(l.tax_code),
    amount(str(l.line_total)),
  ]);
  return { kind: "table", columns, rows, empty: "No lines" };
}

// GST per tax code on the amount after discounts (DOCUMENTS.md §3), from the one totals function; a document whose
// figures it cannot reproduce (a tax code it does not know) prints its stored tax total as one row.
function taxRows(header: Row, lines: Row[], currency: string): TotalRow[] {
  const single = [{ label: "GST", value: moneyOf(str(header.tax_total), currency) }];
  if (!lines.every((l) => (TAX_CODES as readonly string[]).includes(str(l.tax_code)))) return single;
  try {
    const discountPercent = str(header.discount_percent);
    const discount = discountPercent
      ? { percent: discountPercent }
      : isZero(str(header.discount_amount))
        ? null
        : { amount: dec(str(header.discount_amount)).abs().toFixed() };
    const totals = computeTotals({
      lines: lines.map((l) => ({
        qty: str(l.qty),
        unit_price: str(l.unit_price),
        discount_percent: str(l.discount_percent) || null,
        tax_code: str(l.tax_code) as TaxCode,
      })),
      discount,
    });
    if (!dec(totals.tax_total).equals(dec(str(header.tax_total) || "0"))) return single;
    return totals.taxes.map((t) => {
      const rate = dec(t.rate).times(100).toFixed();
      const name = t.tax_code === "SR" ? `GST ${rate}%` : TAX_NAMES[t.tax_code];
      return { label: `${name} (${t.tax_code}) on ${amount(t.net)}`, value: moneyOf(t.tax, currency) };
    });
  } catch {
    return single;
  }
}

function totalsBlock(spec: DocumentSpec, header: Row, lines: Row[], base: string, amountDue?: string): Block {
  const currency = str(header.currency) || base;
  const rows: TotalRow[] = [{ label: "Subtotal", value: moneyOf(str(header.subtotal), currency) }];
  if (!isZero(str(header.discount_amount))) {
    const p = str(header.discount_percent);
    rows.push({
      label: p ? `Discount (${percent(p)})` : "Discount",
      value: moneyOf(dec(str(header.discount_amount)).negated().toFixed(2), currency),
    });
    rows.push({ label: "Net total", value: moneyOf(str(header.net_total), currency) });
  }
  rows.push(...taxRows(header, lines, currency));
  rows.push({ label: "Total", value: moneyOf(str(header.total), currency), strong: true });
  if (currency !== base) {
    const rate = dec(str(header.rate) || "1");
    rows.push({ label: `GST in ${base}`, value: moneyOf(dec(str(header.tax_total)).times(rate).toFixed(2), base) });
    rows.push({ label: `Total in ${base}`, value: moneyOf(str(header.base_total), base) });
  }
  // The type's own money fields (a claim's retention …) under the total; what is still owed last.
  for (const field of spec.header.fields) {
    if (SHARED.has(field.name) || field.kind !== "money" || field.name === amountDue) continue;
    if (header[field.name] === null || header[field.name] === undefined || isZero(str(header[field.name]))) continue;
    rows.push({ label: field.label, value: moneyOf(str(header[field.name]), currency) });
  }
  if (amountDue && header[amountDue] !== undefined) {
    const draft = !str(header.number); // numbered when it leaves draft (an order from the form comes numbered)
    const due = draft ? str(header.total) : str(header[amountDue]);
    const paid = minus(str(header.total), due);
    if (!isZero(paid) && header.status !== "cancelled") {
      rows.push({ label: "Paid and credited", value: moneyOf(dec(paid).negated().toFixed(2), currency) });
    }
    rows.push({
      label: "Amount due",
      value: moneyOf(header.status === "cancelled" ? "0" : due, currency),
      strong: true,
    });
  }
  return { kind: "totals", rows };
}

// `disk`: where the workspace's files are, for what prints a stored file (a delivery's signature); without it the
// signature box is left for a hand.
export async function printDocument(
  tx: Tx,
  caller: Caller,
  type: string,
  docId: number,
  disk?: FileStore,
): Promise<PrintedDocument> {
  const spec = documentSpec(type);
  const header = await readHeader(tx, caller, spec, docId);
  const ws = caller.workspaceId as string;
  const [lines, workspace, company, contact] = [
    await loadLines(tx, spec, ws, docId),
    await loadWorkspace(tx, ws),
    await rowOf(tx, "company", ws, header.company_id),
    await rowOf(tx, "contact", ws, header.contact_id),
  ];
  const options = printOptions(type);
  const title = options.title ?? heading(spec.machine.title);
  const status = str(header.status);
  const draft = !str(header.number);
  const finalLabel = spec.machine.statuses[status]?.label ?? status;
  const prices = options.prices !== false;
  const base = workspace.baseCurrency;
  const body: Block[] = [lineTable(lines, prices, str(header.currency) || base)];
  if (prices) body.push(totalsBlock(spec, header, lines, base, options.amountDue));
  if (str(header.notes)) body.push({ kind: "text", heading: "Notes", text: str(header.notes) });
  if (str(header.terms)) body.push({ kind: "text", heading: "Terms and conditions", text: str(header.terms) });
  if (options.signature) {
    const block = signatureBlock(options.signature, header);
    // Issue 22: the signature drawn on the driver's phone, in the signature box.
    if (block.kind === "signature" && str(header.pod_signature) && disk) {
      block.image = await storedFile(tx, ws, str(header.pod_signature), disk);
      block.imageAt = 1;
    }
    body.push(block);
  }
  const proof = type === "delivery_order" ? deliveryProof(header) : null;
  if (proof) body.push(proof);
  const number = str(header.number) || null;
  const reference = number ?? "Draft";
  const page: Printable = {
    title,
    reference,
    status: draft || status === "cancelled" ? finalLabel : null,
    watermark: draft ? "DRAFT" : status === "cancelled" ? "CANCELLED" : null,
    party: party(
      options.party ?? "Customer",
      company,
      contact,
      options.address ?? "billing",
      options.guest ? { header, fields: options.guest } : null,
    ),
    facts: await facts(
      tx,
      ws,
      spec,
      header,
      base,
      prices,
      new Set([
        ...(options.guest?.name ?? []),
        ...(options.guest?.lines ?? []),
        ...(options.signature?.values ?? []).filter((v): v is string => v != null), // printed in the boxes
      ]),
    ),
    body,
    filename: `${number ?? `${spec.machine.type}-${docId}-draft`}.pdf`,
  };
  const pdf = await renderPdf(workspace.head, page);
  return { pdf, filename: page.filename, title, number, header, workspace };
}

// Issue 22: the proof of delivery the driver's phone recorded, or why it failed, under the signature block.
function deliveryProof(header: Row): Block | null {
  const parts: string[] = [];
  if (str(header.failure_reason) && !str(header.received_by)) {
    const why = FAILURE_REASON_LABELS[str(header.failure_reason) as keyof typeof FAILURE_REASON_LABELS];
    parts.push(
      `Delivery failed: ${why ?? str(header.failure_reason)}${str(header.failure_note) ? ` — ${str(header.failure_note)}` : ""}.`,
    );
  }
  if (!str(header.pod_server_time))
    return parts.length ? { kind: "text", heading: "Delivery", text: parts.join("\n") } : null;
  const at = (v: unknown) => singaporeTime(new Date(str(v)));
  if (str(header.pod_device_time))
    parts.push(
      `Device time ${at(header.pod_device_time)}; recorded by the server ${at(header.pod_server_time)} (Singapore time).`,
    );
  const lat = str(header.pod_lat);
  const lng = str(header.pod_lng);
  if (lat && lng) {
    const acc = str(header.pod_accuracy_m);
    parts.push(
      `Place: ${Number(lat).toFixed(5)}, ${Number(lng).toFixed(5)}${acc ? ` (within ${Math.round(Number(acc))} m)` : ""} — https://maps.google.com/?q=${lat},${lng}`,
    );
  } else {
    parts.push("Place: no GPS fix was given.");
  }
  const photos = Array.isArray(header.pod_photos) ? header.pod_photos.length : 0;
  if (photos) parts.push(`${photos} photo${photos === 1 ? "" : "s"} of the goods kept with the delivery order.`);
  return { kind: "text", heading: str(header.received_by) ? "Proof of delivery" : "Delivery", text: parts.join("\n") };
}

// A file of the workspace's files bucket, by its path; null when it is gone.
async function storedFile(tx: Tx, ws: string, name: string, disk: FileStore): Promise<Buffer | null> {
  const res = await tx.execute(sql`select o.version::text as version from storage_object o
    join storage_bucket b on b.workspace_id = o.workspace_id and b.id = o.bucket_id and b.name = ${DEFAULT_BUCKET}
    where o.workspace_id = ${ws}::uuid and o.name collate "C" = ${name}`);
  const row = res.rows[0] as { version: string } | undefined;
  if (!row) return null;
  return disk.get(disk.key(ws, DEFAULT_BUCKET, row.version)).catch(() => null);
}

// The signature block, its boxes filled in from what the document recorded (a delivery's received by and at): a
// date and time as the clerk reads it in Singapore, where the workspaces trade (there is no workspace time zone).
function signatureBlock(signature: NonNullable<PrintOptions["signature"]>, header: Row): Block {
  const values = signature.values?.map((column) => {
    const v = column ? str(header[column]) : "";
    if (!v) return null;
    const at = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}/.test(v) ? new Date(v) : null;
    return at && !Number.isNaN(at.getTime()) ? singaporeTime(at) : v;
  });
  return { kind: "signature", heading: signature.heading, fields: signature.fields, values };
}

const singaporeTime = (at: Date): string => {
  const local = new Date(at.getTime() + 8 * 3600_000).toISOString(); // SGT is UTC+8 all year
  return `${day(local)} ${local.slice(11, 16)}`;
};

// The type named in a URL: unknown is "not found" there, not a validation error.
export function specForPath(type: string): DocumentSpec {
  try {
    return documentSpec(type);
  } catch (err) {
    if (err instanceof RestError) throw new RestError(404, "PGRST116", err.message);
    throw err;
  }
}
