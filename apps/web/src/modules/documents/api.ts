import { useQuery, useQueryClient } from "@tanstack/react-query";
import type { CommandResult } from "@workmetrics/domain/commands";
import { type Row, useDataProvider } from "../../platform/data-access/provider.ts";
import { useReadable } from "../../platform/resource/access.ts";
import type { Readable } from "../../platform/resource/definition.ts";
import { retryUnlessClientError } from "../../platform/resource/hooks.ts";
import type { WebDocType } from "./types.ts";

// The document page's reads and commands (DESIGN §2.3.1): the document with its lines through /rest/v1, the
// commands through /rest/v1/rpc. Every write refreshes the document, its actions, history and every list.

export type DocRow = Row & { number: string | null; status: string; lines: Row[] };
// The commands' answers, as their declarations say (packages/domain/src/commands/documents.ts).
export type HistoryEvent = CommandResult<"document_history">[number];
export type OnHand = CommandResult<"stock_on_hand">[number];

export const docKey = (type: string, id: number | string) => [type, "one", String(id)];

// The document with its lines and the labels of the records it names — those the member reads (a driver reads no
// companies: asking for the embed would refuse the whole document).
export function documentSelect(t: WebDocType, readable: Readable): string {
  const embeds = [
    ["company", "company:company(id,name)"],
    ["contact", "contact:contact(id,name)"],
    ["user", "created_by_user:user!created_by(id,name)"], // a delivery also names its driver, a user
  ].filter(([resource]) => readable(resource as string));
  return [`*,lines:${t.lines.name}(*)`, ...embeds.map(([, e]) => e)].join(",");
}

export function useDocument(t: WebDocType, id: number | null) {
  const data = useDataProvider();
  const select = documentSelect(t, useReadable());
  return useQuery({
    queryKey: [...docKey(t.type, id ?? "new"), "document"],
    queryFn: ({ signal }) => data.getOne(t.type, id as number, select, signal) as Promise<DocRow>,
    enabled: id !== null,
    retry: retryUnlessClientError,
  });
}

export type DocLabels = CommandResult<"document_labels">; // resource → id → its name

// The names of what the document points at that the member may not read themselves (a driver's delivery order: the
// customer, the location, the driver), as the server names them for a document the member reads; only then asked.
export function useDocumentLabels(t: WebDocType, id: number | null): DocLabels {
  const data = useDataProvider();
  const readable = useReadable();
  const unread = [...t.header.fields, ...t.lines.fields].some(
    (f) => f.reference && f.name !== "workspace_id" && !readable(f.reference.resource),
  );
  const q = useQuery({
    queryKey: [...docKey(t.type, id ?? "new"), "labels"],
    queryFn: ({ signal }) => data.command("document_labels", { type: t.type, id: id as number }, signal),
    enabled: id !== null && unread,
    staleTime: 60_000,
    retry: retryUnlessClientError,
  });
  return q.data ?? NO_LABELS;
}
const NO_LABELS: DocLabels = {};

export function useActions(t: WebDocType, id: number | null, status: string | undefined) {
  const data = useDataProvider();
  return useQuery({
    queryKey: [...docKey(t.type, id ?? "new"), "actions", status],
    queryFn: ({ signal }) => data.command("document_actions", { type: t.type, id: id as number }, signal),
    enabled: id !== null,
    retry: retryUnlessClientError,
  });
}

export function useHistory(t: WebDocType, id: number | null) {
  const data = useDataProvider();
  return useQuery({
    queryKey: [...docKey(t.type, id ?? "new"), "history"],
    queryFn: ({ signal }) => data.command("document_history", { type: t.type, id: id as number }, signal),
    enabled: id !== null,
    retry: retryUnlessClientError,
    // An e-mail still in the outbox (issue 20 §1) is asked after until it has gone or failed.
    refetchInterval: (q) =>
      q.state.data?.some((e) => e.mail?.status === "queued" || e.mail?.status === "retrying") ? 2000 : false,
  });
}

// Stock on hand per product (all locations summed, and per location), for the picker and the lines.
export function useStockOnHand(productIds: readonly number[]) {
  const data = useDataProvider();
  const ids = [...new Set(productIds)].sort((a, b) => a - b);
  return useQuery({
    queryKey: ["stock_on_hand", ids.join(",")],
    queryFn: ({ signal }) => data.command("stock_on_hand", { product_ids: ids }, signal),
    enabled: ids.length > 0,
    staleTime: 15_000,
    retry: retryUnlessClientError,
  });
}

export function onHandOf(rows: readonly OnHand[] | undefined, productId: number): number | null {
  if (!rows) return null;
  return rows.filter((r) => r.product_id === productId).reduce((s, r) => s + Number(r.qty), 0);
}

// What each product has available to promise (on hand less what undelivered sales orders reserve: stock_levels), for
// the selling documents' lines; only asked when `enabled`.
export function useAvailable(productIds: readonly number[], enabled: boolean) {
  const data = useDataProvider();
  const ids = [...new Set(productIds)].sort((a, b) => a - b);
  return useQuery({
    queryKey: ["stock_on_hand", "available", ids.join(",")],
    queryFn: async ({ signal }) =>
      new Map(
        (await data.command("stock_levels", { product_ids: ids, limit: 500, offset: 0 }, signal)).rows.map((r) => [
          r.product_id,
          Number(r.available),
        ]),
      ),
    enabled: enabled && ids.length > 0,
    staleTime: 15_000,
    retry: retryUnlessClientError,
  });
}

// After any command: this document, the documents it touched (a source's quantities), and every list.
export function useRefreshDocuments() {
  const qc = useQueryClient();
  return () =>
    qc.invalidateQueries({
      predicate: (q) => q.queryKey[1] === "list" || q.queryKey[1] === "one" || q.queryKey[0] === "stock_on_hand",
    });
}
