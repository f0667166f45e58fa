import { COMMANDS } from "@workmetrics/domain/commands";
import { findResource } from "@workmetrics/domain/resources";
import { getTableName, sql } from "drizzle-orm";
import { requireDocumentAccess, requireOwnDocument } from "../../platform/documents/access.ts";
import { notFound } from "../../platform/documents/refusals.ts";
import { documentSpec } from "../../platform/documents/registry.ts";
import { loadLines, lockHeader, type Row } from "../../platform/documents/store.ts";
import { implement } from "../../platform/rest/rpc/command.ts";

// document_labels {type, id} (issue 10 §3): the names of what a document points at — its customer, contact,
// location, driver, invoice, a line's location — for whoever may read the document, as the document itself names
// them. A driver reads the delivery orders assigned to them but not locations, customers or users: the page showed
// "…" for the location to drive from. Only the rows this document references, by their display column; another
// workspace's document is not found. Answers { resource: { id: label } }.

type Labels = Record<string, Record<string, string>>;

export const documentLabels = implement(COMMANDS.document_labels, {
  run: async (tx, args, caller): Promise<Labels> => {
    const spec = documentSpec(args.type);
    requireDocumentAccess(caller, spec, "read", `read ${spec.machine.plural.toLowerCase()}`);
    const ws = caller.workspaceId as string;
    const header = await lockHeader(tx, spec, ws, args.id, false);
    if (!header) throw notFound(spec, args.id);
    requireOwnDocument(caller, spec, header, "read");
    const lines = await loadLines(tx, spec, ws, args.id);
    // resource → its display column and the ids this document names
    const wanted = new Map<string, { display: string; ids: Set<string> }>();
    const collect = (fields: typeof spec.header.fields, rows: Row[]) => {
      for (const f of fields) {
        if (!f.reference || f.name === "workspace_id") continue;
        const entry = wanted.get(f.reference.resource) ?? { display: f.reference.display, ids: new Set<string>() };
        for (const r of rows) if (r[f.name] != null) entry.ids.add(String(r[f.name]));
        if (entry.ids.size) wanted.set(f.reference.resource, entry);
      }
    };
    collect(spec.header.fields, [header]);
    collect(spec.lines.fields, lines);
    const out: Labels = {};
    for (const [resource, { display, ids }] of wanted) {
      const def = findResource(resource);
      if (def?.scope !== "tenant" || !def.fields.some((f) => f.name === display)) continue;
      const res = await tx.execute(sql`select id::text as id, ${sql.identifier(display)}::text as label
        from ${sql.identifier(getTableName(def.table))}
        where workspace_id = ${ws}::uuid and id::text = any(${`{${[...ids].join(",")}}`}::text[])`);
      out[resource] = Object.fromEntries(
        (res.rows as Array<{ id: string; label: string }>).map((r) => [r.id, r.label]),
      );
    }
    return out;
  },
});
