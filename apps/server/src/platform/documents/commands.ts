import type { Tx } from "../db/database.ts";
import type { Caller } from "../rest/access.ts";
import { runConvert } from "./convert.ts";
import { documentSpec } from "./registry.ts";
import { type SaveInput, saveDraft } from "./save.ts";
import { readDocument } from "./store.ts";
import { checkDocumentAction, documentActions, runTransition } from "./transition.ts";

// The three document commands over any registered type; each answers the document it wrote.

export async function saveDocument(tx: Tx, caller: Caller, args: SaveInput & { type: string }): Promise<unknown> {
  const spec = documentSpec(args.type);
  const id = await saveDraft(tx, caller, spec, args);
  return readDocument(tx, caller, spec, id);
}

export async function transitionDocument(
  tx: Tx,
  caller: Caller,
  args: { type: string; id: number; action: string; reason?: string | null; values?: Record<string, unknown> | null },
): Promise<unknown> {
  const spec = documentSpec(args.type);
  await runTransition(tx, caller, spec, args);
  return readDocument(tx, caller, spec, args.id);
}

export async function convertDocument(
  tx: Tx,
  caller: Caller,
  args: {
    type: string;
    id: number;
    to: string;
    lines?: { line_id: number; qty: string }[];
    header?: Record<string, unknown>;
  },
): Promise<unknown> {
  const source = documentSpec(args.type);
  const target = documentSpec(args.to, "to");
  const id = await runConvert(tx, caller, source, target, args);
  return readDocument(tx, caller, target, id);
}

export function offeredDocumentActions(tx: Tx, caller: Caller, args: { type: string; id: number }) {
  return documentActions(tx, caller, documentSpec(args.type), args.id);
}

export function checkedDocumentAction(tx: Tx, caller: Caller, args: { type: string; id: number; action: string }) {
  return checkDocumentAction(tx, caller, documentSpec(args.type), args.id, args.action);
}
