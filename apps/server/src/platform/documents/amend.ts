import { sql } from "drizzle-orm";
import type { Tx } from "../db/database.ts";
import type { Caller } from "../rest/access.ts";
import { requireDocumentAccess, requireOwnDocument } from "./access.ts";
import { priceDraft } from "./pricing.ts";
import { conflict, title } from "./refusals.ts";
import type { DocumentSpec } from "./registry.ts";
import { insertLines, saveDraft } from "./save.ts";
import { insertRows, type Row, writeEvent } from "./store.ts";
import { lockDocument } from "./transition.ts";

// Amend and duplicate, for every type (issue 10 §1: "after submit a document is never edited …; amend makes a new
// draft"). Amend (ERPNext): a cancelled document becomes a new draft with the same header, lines and source links,
// `amended_from` naming it; submitted, it takes the cancelled one's number with a suffix (QT-2026-00001-1,
// store.ts numberFor) and draws from the same source lines again. Duplicate: a new draft with the same customer and
// lines and no links to any source, from a document in any status, priced and snapshotted like a fresh save.

const keysOf = (def: DocumentSpec["header"]) => Object.keys((def.insert as unknown as { shape: object }).shape);

const pick = (row: Row, keys: readonly string[]) =>
  Object.fromEntries(keys.filter((k) => row[k] !== undefined).map((k) => [k, row[k]]));

export async function amendDocument(tx: Tx, caller: Caller, spec: DocumentSpec, docId: number): Promise<number> {
  requireDocumentAccess(caller, spec, "create", `amend ${spec.machine.plural.toLowerCase()}`);
  const ws = caller.workspaceId as string;
  const doc = await lockDocument(tx, caller, spec, docId);
  requireOwnDocument(caller, spec, doc.header, "amend");
  const name = String(doc.header.number ?? `this ${title(spec)}`);
  if (doc.header.status !== "cancelled") {
    const label = spec.machine.statuses[String(doc.header.status)]?.label.toLowerCase() ?? doc.header.status;
    throw conflict(`Only a cancelled ${title(spec)} can be amended; ${name} is ${label}`);
  }
  const res = await tx.execute(sql`select number from ${sql.identifier(spec.header.name)}
    where workspace_id = ${ws}::uuid and amended_from = ${docId} and status <> 'cancelled' order by id limit 1`);
  const already = res.rows[0] as { number: string | null } | undefined;
  if (already) {
    throw conflict(`${name} is already amended by ${already.number ?? `a draft ${title(spec)}`}`, {
      reason: "amended",
    });
  }
  const header: Row = {
    ...pick(doc.header, keysOf(spec.header)),
    source_type: doc.header.source_type ?? null,
    source_id: doc.header.source_id ?? null,
  };
  const priced = (spec.price ?? priceDraft)(header, doc.lines);
  const [row] = await insertRows(
    tx,
    spec.header,
    [
      {
        ...priced.header,
        workspace_id: ws,
        status: spec.machine.initial,
        amended_from: docId,
        created_by: caller.userId,
      },
    ],
    true,
  );
  const newId = Number(row.id);
  await insertLines(tx, spec, ws, newId, priced.lines);
  await writeEvent(tx, caller, {
    type: spec.machine.type,
    docId: newId,
    action: "amend",
    from: null,
    to: spec.machine.initial,
    changes: { amended_from: { id: docId, number: doc.header.number ?? null } },
  });
  return newId;
}

export async function duplicateDocument(tx: Tx, caller: Caller, spec: DocumentSpec, docId: number): Promise<number> {
  requireDocumentAccess(caller, spec, "read", `read ${spec.machine.plural.toLowerCase()}`);
  const doc = await lockDocument(tx, caller, spec, docId, false);
  requireOwnDocument(caller, spec, doc.header, "duplicate");
  const header = pick(
    doc.header,
    keysOf(spec.header).filter((k) => k !== "doc_date" && !spec.notCopied?.includes(k)),
  );
  const lineKeys = keysOf(spec.lines).filter((k) => k !== "source_line_id");
  const lines = doc.lines.map((l) => ({ ...pick(l, lineKeys), source_line_id: null }));
  return saveDraft(tx, caller, spec, { header, lines });
}
