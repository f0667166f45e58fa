import { decide, type Member } from "@workmetrics/domain";
import type { FieldDef } from "@workmetrics/domain/resources/types";
import { DataError } from "../../platform/data-access/errors.ts";
import type { Row } from "../../platform/data-access/provider.ts";
import { formFields, showsWorkspace } from "../../platform/resource/definition.ts";
import type { DocRow } from "./api.ts";
import { emptyLine, isBlank, type LineDraft, lineFromRow } from "./lines.ts";
import { headerMessages } from "./saveErrors.ts";
import type { WebDocType } from "./types.ts";

// The document page's form (DocumentPage.tsx): what it lays out itself, its state from the stored document, when it
// differs from it, and who may do what with the type's documents.

// Header fields the page lays out itself; any other writable field is the type's own and shown by its kind.
export const LAID_OUT = new Set([
  "company_id",
  "contact_id",
  "project_id",
  "doc_date",
  "currency",
  "rate",
  "notes",
  "terms",
  "discount_percent",
  "discount_amount",
]);
export const LINE_BUILT_IN = new Set([
  "product_id",
  "service_id",
  "sku",
  "description",
  "unit",
  "qty",
  "unit_price",
  "discount_percent",
  "tax_code",
  "source_line_id",
]);

export type Header = Record<string, unknown>;
export type FormState = { header: Header; lines: LineDraft[]; company: Row | null; contact: Row | null };

const today = () => {
  const d = new Date();
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-${String(d.getDate()).padStart(2, "0")}`;
};

export function writableHeader(t: WebDocType): FieldDef[] {
  return formFields(t.header, "create").filter(showsWorkspace);
}

// Past draft, the line quantities a type lists (read-only, `list`: a transfer's received and short quantities, a
// loan's returned and sold) are shown beside its own fields.
export function lineExtras(t: WebDocType, status?: string): FieldDef[] {
  const own = formFields(t.lines, "create").filter(
    (f) => showsWorkspace(f) && !LINE_BUILT_IN.has(f.name) && f.name !== `${t.type}_id` && f.name !== "line_no",
  );
  if (status === undefined || status === t.machine.initial) return own;
  return [...own, ...t.lines.fields.filter((f) => f.readOnly && f.list)];
}

export function stateFrom(t: WebDocType, doc: DocRow | null, currency: string): FormState {
  const fields = writableHeader(t);
  if (!doc) {
    const header: Header = Object.fromEntries(fields.map((f) => [f.name, null]));
    return { header: { ...header, doc_date: today(), currency }, lines: [emptyLine()], company: null, contact: null };
  }
  // Past draft, the read-only header fields a type lists (a supplier invoice's three-way verdict) come along, so
  // the header shows their values.
  const shown = doc.status === t.machine.initial ? [] : t.header.fields.filter((f) => f.readOnly && f.list);
  const header: Header = Object.fromEntries([...fields, ...shown].map((f) => [f.name, doc[f.name] ?? null]));
  const extras = lineExtras(t, doc.status);
  return {
    header,
    lines: doc.lines.map((l) => lineFromRow(l, extras)),
    company: (doc.company as Row | null) ?? null,
    contact: (doc.contact as Row | null) ?? null,
  };
}

export const comparable = (s: FormState) =>
  JSON.stringify([s.header, s.lines.filter((l) => !isBlank(l)).map((l) => ({ ...l, key: "" }))]);

export function headerErrors(err: unknown, t: WebDocType): Record<string, string> {
  if (!(err instanceof DataError)) return {};
  return headerMessages(err.fields, t.header.fields);
}

// What a member may do with a type's documents: the rule the server applies to document_save and its actions.
export function documentAccess(member: Member, t: WebDocType, action: string) {
  return decide(member, {
    audience: "member",
    permission: `${t.type}.${action}`,
    feature: t.machine.feature,
    subject: t.machine.plural,
    does: `${action} ${t.machine.plural.toLowerCase()}`,
  });
}
