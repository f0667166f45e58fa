import { COMMANDS } from "@workmetrics/domain/commands";
import type { DocumentRow } from "@workmetrics/domain/commands/documents";
import { amendDocument, duplicateDocument } from "../../platform/documents/amend.ts";
import { documentSpec } from "../../platform/documents/registry.ts";
import { readDocument } from "../../platform/documents/store.ts";
import { implement } from "../../platform/rest/rpc/command.ts";

// POST /rest/v1/rpc/document_amend {type, id} and document_duplicate {type, id}: each answers the new draft with its
// lines. The permission is the type's (<type>.create, checked inside).

export const documentAmendRpc = implement(COMMANDS.document_amend, {
  run: async (tx, { type, id }, caller) => {
    const spec = documentSpec(type);
    return readDocument(tx, caller, spec, await amendDocument(tx, caller, spec, id)) as Promise<DocumentRow>;
  },
});

export const documentDuplicateRpc = implement(COMMANDS.document_duplicate, {
  run: async (tx, { type, id }, caller) => {
    const spec = documentSpec(type);
    return readDocument(tx, caller, spec, await duplicateDocument(tx, caller, spec, id)) as Promise<DocumentRow>;
  },
});
