import { useQueryClient } from "@tanstack/react-query";
import { useRef } from "react";
import { useTableChanges } from "../../platform/realtime/useRealtime.ts";
import { type DocRow, docKey } from "./api.ts";
import type { WebDocType } from "./types.ts";

// Issue 20 §4: a document page follows its document live (postgres_changes on its table, filtered to its id, which
// the server sends only to those who read it). Someone else's submit, payment or cancel reads the page again; our
// own write (the version we already read) does nothing. A draft's form is not replaced under the clerk's hands —
// its history and actions are read again, the form keeps what they typed until they save or reload.
export function useLiveDocument(t: WebDocType, doc: DocRow | undefined): void {
  const qc = useQueryClient();
  const shown = useRef(doc);
  shown.current = doc;
  const id = doc ? Number(doc.id) : null;
  useTableChanges(
    id === null ? null : [t.type],
    (change) => {
      const now = shown.current;
      const next = change.new as Partial<DocRow>;
      if (!now || next.updated_at === now.updated_at) return;
      const key = docKey(t.type, String(now.id));
      const keepForm = now.status === t.machine.initial && (next.status ?? now.status) === t.machine.initial;
      void qc.invalidateQueries({
        predicate: (q) =>
          key.every((k, i) => q.queryKey[i] === k) && !(keepForm && q.queryKey[key.length] === "document"),
      });
    },
    id === null ? undefined : `id=eq.${id}`,
  );
}
