import { useQueryClient } from "@tanstack/react-query";
import type { ReceiptDue } from "@workmetrics/domain/commands/warehouse";
import { dec, plain } from "@workmetrics/domain/documents/decimal";
import { useCallback, useEffect, useMemo } from "react";
import { useSession } from "../../app/session/SessionProvider.tsx";
import { callCommand } from "../../platform/commands.ts";
import { useShiftData } from "../shell/offline-cache.ts";
import { type OutboxEntry, onReplayed, useOutbox } from "../shell/outbox.ts";

// The warehouse app's shift data (issue 22), read through the shell's offline cache, with what the outbox still
// holds laid over it: a receipt or a pick made offline shows at once, marked pending.

export const KEYS = {
  receipts: ["warehouse", "receipts"],
  locations: ["warehouse", "locations"],
  pickLists: ["warehouse", "pick-lists"],
  toPick: ["warehouse", "to-pick"],
  sheet: (location: number) => ["warehouse", "count-sheet", String(location)],
};

type Client = NonNullable<ReturnType<typeof useSession>["client"]>;

function useClient(): Client {
  const { client } = useSession();
  if (!client) throw new Error("Not signed in");
  return client;
}

// Every view reads again once the outbox has replayed something (the server's answer has changed).
export function useRefreshAfterReplay(): () => void {
  const qc = useQueryClient();
  const refresh = useCallback(() => void qc.invalidateQueries({ queryKey: ["shift", "warehouse"] }), [qc]);
  useEffect(() => onReplayed(() => refresh()), [refresh]);
  return refresh;
}

const less = (a: string, b: string) => plain(dec(a).minus(dec(b)));

export type ShownReceipt = ReceiptDue & { pending: OutboxEntry[] };

// Open purchase orders with what is left on each line less what the outbox still holds for it.
export function useReceiptsDue() {
  const client = useClient();
  const { pending } = useOutbox();
  const data = useShiftData(KEYS.receipts, () => callCommand(client, "warehouse_receipts_due", {}));
  const orders = useMemo<ShownReceipt[]>(
    () =>
      (data.data?.orders ?? []).map((o) => {
        const mine = pending.filter(
          (e) =>
            e.name === "warehouse_receive" &&
            Number((e.args as { purchase_order_id?: unknown }).purchase_order_id) === o.id,
        );
        const queued = new Map<number, string>();
        for (const e of mine) {
          for (const l of (e.args as { lines: Array<{ line_id: number; qty: string }> }).lines) {
            queued.set(l.line_id, plain(dec(queued.get(l.line_id) ?? "0").plus(dec(l.qty))));
          }
        }
        const lines = o.lines.map((l) => {
          const q = queued.get(l.line_id);
          if (!q) return l;
          const left = less(l.remaining, q);
          return {
            ...l,
            received: plain(dec(l.received).plus(dec(q))),
            remaining: dec(left).isNegative() ? "0" : left,
          };
        });
        return { ...o, lines, pending: mine };
      }),
    [data.data, pending],
  );
  return { ...data, orders };
}

export type Location = { id: number; code: string; name: string };

// The workspace's own locations goods are kept in (not the transit and on-loan ones the server keeps).
export function useLocations() {
  const client = useClient();
  return useShiftData<Location[]>(KEYS.locations, async () => {
    const [locs, sys] = await Promise.all([
      client.from("location").select("id,code,name").order("name"),
      client.from("system_location").select("location_id"),
    ]);
    if (locs.error) throw new Error(locs.error.message);
    const hidden = new Set(((sys.data ?? []) as Array<{ location_id: number }>).map((s) => Number(s.location_id)));
    return (locs.data as Location[]).filter((l) => !hidden.has(Number(l.id)));
  });
}

// A location by what a scanner or the storekeeper typed: its code (exact, any case), else its name.
export function findLocation(locations: readonly Location[], text: string): Location | null {
  const q = text.trim().toLowerCase();
  if (!q) return null;
  return (
    locations.find((l) => l.code.toLowerCase() === q) ??
    locations.find((l) => l.name.toLowerCase() === q) ??
    (locations.filter((l) => l.name.toLowerCase().includes(q)).length === 1
      ? (locations.find((l) => l.name.toLowerCase().includes(q)) ?? null)
      : null)
  );
}

export type PickLine = {
  id: number;
  line_no: number;
  product_id: number | null;
  sku: string | null;
  description: string;
  unit: string | null;
  qty: string;
  qty_picked: string;
  location_id: number | null;
  bin: string | null;
};
export type PickList = {
  id: number;
  number: string | null;
  status: string;
  doc_date: string;
  source_type: string | null;
  source_id: number | null;
  location_id: number | null;
  delivery_order_id: number | null;
  company: string | null;
  lines: PickLine[];
};

// The pick lists being picked, their lines in walking order, with picks still in the outbox laid over.
export function usePickLists() {
  const client = useClient();
  const { pending } = useOutbox();
  const data = useShiftData<PickList[]>(KEYS.pickLists, async () => {
    const res = await client
      .from("pick_list")
      .select(
        "id,number,status,doc_date,source_type,source_id,location_id,delivery_order_id,company_id,lines:pick_list_line(id,line_no,product_id,sku,description,unit,qty,qty_picked,location_id,bin)",
      )
      .eq("status", "picking")
      .order("id", { ascending: false })
      .limit(100);
    if (res.error) throw new Error(res.error.message);
    const rows = res.data as unknown as Array<PickList & { company_id: number }>;
    const names = await companyNames(
      client,
      rows.map((r) => r.company_id),
    );
    return rows.map((r) => ({
      ...r,
      company: names.get(Number(r.company_id)) ?? null,
      lines: [...r.lines].sort((a, b) => a.line_no - b.line_no),
    }));
  });
  const lists = useMemo(
    () =>
      (data.data ?? []).map((pl) => {
        const mine = pending.filter((e) => Number((e.args as { id?: unknown }).id) === pl.id);
        const picked = new Map<number, string>();
        for (const e of mine) {
          if (e.name !== "pick_list_pick") continue;
          const a = e.args as { line_id: number; qty_picked: string };
          picked.set(a.line_id, a.qty_picked);
        }
        return {
          ...pl,
          finishing: mine.some((e) => e.name === "pick_list_finish"),
          pending: mine,
          lines: pl.lines.map((l) => (picked.has(l.id) ? { ...l, qty_picked: picked.get(l.id) as string } : l)),
        };
      }),
    [data.data, pending],
  );
  return { ...data, lists };
}

async function companyNames(client: Client, ids: number[]): Promise<Map<number, string>> {
  const unique = [...new Set(ids.filter((x) => x != null).map(Number))];
  if (unique.length === 0) return new Map();
  const res = await client.from("company").select("id,name").in("id", unique);
  if (res.error) return new Map();
  return new Map((res.data as Array<{ id: number; name: string }>).map((c) => [Number(c.id), c.name]));
}

export type ToPick = {
  type: "sales_order" | "delivery_instruction";
  id: number;
  number: string | null;
  doc_date: string;
  company: string | null;
};

// What a pick list can be made from: open sales orders with goods to deliver and released delivery instructions.
export function useToPick() {
  const client = useClient();
  return useShiftData<ToPick[]>(KEYS.toPick, async () => {
    const [so, di] = await Promise.all([
      client
        .from("sales_order")
        .select("id,number,doc_date,company_id")
        .in("status", ["to_deliver_and_bill", "to_deliver"])
        .order("doc_date", { ascending: false })
        .limit(50),
      client
        .from("delivery_instruction")
        .select("id,number,doc_date,company_id")
        .eq("status", "released")
        .order("doc_date", { ascending: false })
        .limit(50),
    ]);
    if (so.error) throw new Error(so.error.message);
    if (di.error) throw new Error(di.error.message);
    type R = { id: number; number: string | null; doc_date: string; company_id: number };
    const all = [
      ...(di.data as R[]).map((r) => ({ ...r, type: "delivery_instruction" as const })),
      ...(so.data as R[]).map((r) => ({ ...r, type: "sales_order" as const })),
    ];
    const names = await companyNames(
      client,
      all.map((r) => r.company_id),
    );
    return all.map(({ company_id, ...r }) => ({ ...r, company: names.get(Number(company_id)) ?? null }));
  });
}

export type SheetProduct = {
  product_id: number;
  name: string;
  sku: string | null;
  unit: string | null;
  bin: string | null;
};

// What to count at a location: names and bins only, never a quantity (the count is blind).
export function useCountSheet(location: number | null) {
  const client = useClient();
  return useShiftData(KEYS.sheet(location ?? 0), async () => {
    if (!location) return { location_id: 0, products: [] as SheetProduct[] };
    return callCommand(client, "stock_count_sheet", { location_id: location });
  });
}

// Quantities as the storekeeper reads them: "3", "2.5".
export const qtyText = (q: string | null | undefined) => (q == null ? "0" : plain(dec(q)));
