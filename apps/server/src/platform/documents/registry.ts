import type { DocumentType } from "@workmetrics/domain/documents/machine";
import type { DocSnapshot } from "@workmetrics/domain/documents/types/snapshot";
import type { ResourceDef } from "@workmetrics/domain/resources";
import { RestError } from "../rest/rest-error.ts";

// The document types the commands know (issue 10 §1): each module registers its types' declarations (the pure
// machine from the domain, the header and line resources), the engine here runs them all alike.

// Which type a document can be made from, and the source's action that records it (a quotation is marked won).
export type MadeFrom = { from: string; sourceAction: string };

export type DocumentSpec = {
  machine: DocumentType<string, DocSnapshot>;
  header: ResourceDef;
  lines: ResourceDef; // its parent column is `<type>_id`
  madeFrom?: readonly MadeFrom[];
};

const TYPES = new Map<string, DocumentSpec>();

export function registerDocumentType(spec: DocumentSpec): void {
  const type = spec.machine.type;
  if (TYPES.has(type)) throw new Error(`The document type ${type} is registered twice`);
  if (spec.header.name !== type || spec.lines.name !== `${type}_line`) {
    throw new Error(`The document type ${type} needs the resources ${type} and ${type}_line`);
  }
  TYPES.set(type, spec);
}

export function documentSpec(type: string, field = "type"): DocumentSpec {
  const spec = TYPES.get(type);
  if (!spec) {
    const message = `Unknown document type "${type}"; use one of: ${[...TYPES.keys()].join(", ")}`;
    throw new RestError(422, "validation_failed", message, [{ field, message }]);
  }
  return spec;
}

export const parentColumn = (spec: DocumentSpec) => `${spec.machine.type}_id`;
