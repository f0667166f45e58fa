import { decide, type Member, STORAGE_ACTIONS } from "@workmetrics/domain";
import type { Action } from "./FileTable.tsx";

// Issue 9 §3: what the page offers follows the one access rule the server checks, so nothing is offered only to
// be refused. Members without file.read (drivers, POS staff, suppliers) get files as share links instead.
export type FileRights = { read: boolean; upload: boolean; change: boolean; remove: boolean };

export function fileRights(who: Member): FileRights {
  const ok = (need: keyof typeof STORAGE_ACTIONS) => decide(who, STORAGE_ACTIONS[need]).allowed;
  return { read: ok("file.read"), upload: ok("file.create"), change: ok("file.update"), remove: ok("file.delete") };
}

export function offers(rights: FileRights, action: Action): boolean {
  if (action === "rename" || action === "move") return rights.change;
  if (action === "delete") return rights.remove;
  return rights.read;
}
