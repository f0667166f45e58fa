import { z } from "zod";
import { amendDocument, duplicateDocument } from "../../platform/documents/amend.ts";
import { documentSpec } from "../../platform/documents/registry.ts";
import { readDocument } from "../../platform/documents/store.ts";
import { defineRpc } from "../../platform/rest/rpc/command.ts";

// POST /rest/v1/rpc/document_amend {type, id} and document_duplicate {type, id}: each answers the new draft with its
// lines. The permission is the type's (<type>.create, checked inside).

const args = z.object({ type: z.string().min(1).max(64), id: z.number().int().positive() });

export const documentAmendRpc = defineRpc({
  name: "document_amend",
  args,
  permission: null,
  run: async (tx, { type, id }, caller) => {
    const spec = documentSpec(type);
    return readDocument(tx, caller, spec, await amendDocument(tx, caller, spec, id));
  },
});

export const documentDuplicateRpc = defineRpc({
  name: "document_duplicate",
  args,
  permission: null,
  run: async (tx, { type, id }, caller) => {
    const spec = documentSpec(type);
    return readDocument(tx, caller, spec, await duplicateDocument(tx, caller, spec, id));
  },
});
