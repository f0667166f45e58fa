import type { SupabaseClient } from "@supabase/supabase-js";
import { useQueryClient } from "@tanstack/react-query";
import type { PosOrderView, PosSessionView } from "@workmetrics/domain/commands/pos";
import { dec, money } from "@workmetrics/domain/documents/decimal";
import { useCallback, useEffect, useMemo, useSyncExternalStore } from "react";
import { useSession } from "../../app/session/SessionProvider.tsx";
import { toDataError } from "../../platform/data-access/errors.ts";
import { useShiftData } from "../shell/offline-cache.ts";
import { type OutboxEntry, onReplayed, useOutbox } from "../shell/outbox.ts";
import { PRODUCT_COLUMNS, type ScannedProduct } from "../shell/ScanField.tsx";

// The point of sale's data (issue 22): the catalogue with its prices, the customers, the counters and the
// cashier's open session, each read through the shell's offline cache so a counter goes on selling with the network
// gone; the cart kept on the device; what the outbox still holds laid over the server's answers.

export const GST_FACTOR = dec("1.09");

// A catalogue price includes GST at the counter (IRAS): the product's price plus 9% when it is standard-rated,
// rounded to cents — the server checks the same figure.
export const inclGst = (p: Pick<ScannedProduct, "price" | "tax_code">) =>
  money(p.tax_code === "SR" ? dec(p.price).mul(GST_FACTOR) : dec(p.price));

export const sgd = (v: string | number) => `S$${money(String(v))}`;
// A quantity as people write it: 2, 1.5 (the database keeps three decimals).
export const qtyText = (q: string | number) => String(Number(q));

async function rows<T>(q: PromiseLike<{ data: unknown; error: unknown; status: number }>): Promise<T[]> {
  const res = await q;
  if (res.error) throw toDataError(res.error as never, res.status);
  return (res.data ?? []) as T[];
}

const need = (client: SupabaseClient | null): SupabaseClient => {
  if (!client) throw new Error("Not signed in");
  return client;
};

export type Location = { id: number; name: string; code: string };
export type Customer = { id: number; name: string };
export type SessionRow = {
  id: number;
  location_id: number;
  status: "open" | "closed";
  opening_float: string;
  opened_at: string;
  location: { name: string } | null;
};

export function useCatalogue() {
  const { client } = useSession();
  return useShiftData(["pos-catalogue"], () =>
    rows<ScannedProduct>(
      need(client).from("product").select(PRODUCT_COLUMNS).eq("active", true).order("name").limit(2000),
    ),
  );
}

export function useCustomers() {
  const { client } = useSession();
  return useShiftData(["pos-customers"], () =>
    rows<Customer>(
      need(client)
        .from("company")
        .select("id,name")
        .eq("is_customer", true)
        .eq("active", true)
        .order("name")
        .limit(1000),
    ),
  );
}

export function useLocations() {
  const { client } = useSession();
  return useShiftData(["pos-locations"], () =>
    rows<Location>(need(client).from("location").select("id,name,code").eq("active", true).order("name")),
  );
}

// The favourites grid an owner or admin chose (pos_favourites_set), in its order: product ids, first tile first. Kept
// for offline like the catalogue; an empty list means none chosen.
export const FAVOURITES_KEY = ["pos-favourites"];

export function useFavouriteIds() {
  const { client } = useSession();
  return useShiftData(FAVOURITES_KEY, async () =>
    (
      await rows<{ product_id: number | string }>(
        need(client).from("pos_favourite").select("product_id").order("position").limit(100),
      )
    ).map((r) => Number(r.product_id)),
  );
}

const SESSION_KEY = ["pos-session"];

// The cashier's open session, or a session open still waiting in the outbox (sales then go to the open session the
// server finds when they are replayed after it).
export function useOpenSession() {
  const { client, session } = useSession();
  const userId = session?.user.id ?? "";
  const qc = useQueryClient();
  const { pending } = useOutbox();
  const data = useShiftData([...SESSION_KEY, userId], async () => {
    const found = await rows<SessionRow>(
      need(client)
        .from("pos_session")
        .select("id,location_id,status,opening_float,opened_at,location:location(name)")
        .eq("status", "open")
        .eq("opened_by", userId)
        .limit(1),
    );
    return found[0] ?? null;
  });
  const refresh = useCallback(() => qc.invalidateQueries({ queryKey: ["shift", ...SESSION_KEY] }), [qc]);
  useEffect(() => onReplayed(() => void refresh()), [refresh]);
  const queuedOpen = pending.find((e) => e.name === "pos_session_open") ?? null;
  const queuedClose = pending.find((e) => e.name === "pos_session_close") ?? null;
  return { ...data, open: queuedClose ? null : (data.data ?? null), queuedOpen, refresh };
}

export type OrderRow = {
  id: number;
  number: string;
  kind: "sale" | "refund";
  status: string;
  total: string;
  tax_total: string;
  created_at: string;
  company: { name: string } | null;
  lines: Array<{
    id: number;
    line_no: number;
    description: string;
    qty: string;
    unit_price: string;
    discount_percent: string;
    line_total: string;
    qty_refunded: string;
  }>;
  payments: Array<{ method: string; amount: string; tendered: string; change_given: string }>;
};

export const ORDER_SELECT =
  "id,number,kind,status,total,tax_total,created_at,company:company(name),lines:pos_order_line(id,line_no,description,qty,unit_price,discount_percent,line_total,qty_refunded),payments:pos_payment(method,amount,tendered,change_given)";

export function useSessionOrders(sessionId: number | null) {
  const { client } = useSession();
  const qc = useQueryClient();
  const data = useShiftData(["pos-orders", String(sessionId ?? "none")], async () => {
    const q = need(client).from("pos_order").select(ORDER_SELECT).order("id", { ascending: false });
    // Without an open session: the latest orders, to refund one from an earlier day.
    return rows<OrderRow>(sessionId == null ? q.limit(30) : q.eq("session_id", sessionId).limit(500));
  });
  const refresh = useCallback(() => qc.invalidateQueries({ queryKey: ["shift", "pos-orders"] }), [qc]);
  useEffect(() => onReplayed(() => void refresh()), [refresh]);
  return { ...data, refresh };
}

// ---- the cart, kept on the device (a reload or a dropped tab keeps the sale being rung up) ----------------------

export type CartLine = {
  product_id: number;
  name: string;
  sku: string;
  unit_price_incl_gst: string;
  qty: number;
  discount_pct: number;
};
export type Cart = { lines: CartLine[]; customer: Customer | null };

const CART_STORE = "wm-pos-cart";
const EMPTY_CART: Cart = { lines: [], customer: null };
let cart: Cart = (() => {
  try {
    const saved = JSON.parse(localStorage.getItem(CART_STORE) ?? "null") as Cart | null;
    return saved?.lines ? saved : EMPTY_CART;
  } catch {
    return EMPTY_CART;
  }
})();
const cartListeners = new Set<() => void>();

function setCart(next: Cart) {
  cart = next;
  try {
    localStorage.setItem(CART_STORE, JSON.stringify(next));
  } catch {
    // storage full or denied: the cart still lives in memory
  }
  for (const l of cartListeners) l();
}

export const lineTotal = (l: Pick<CartLine, "qty" | "unit_price_incl_gst" | "discount_pct">) => {
  const gross = dec(money(dec(l.unit_price_incl_gst).mul(l.qty)));
  const discount = dec(money(gross.mul(l.discount_pct).div(100)));
  return gross.minus(discount);
};

export function cartTotals(c: Cart) {
  const total = c.lines.reduce((n, l) => n.plus(lineTotal(l)), dec("0"));
  const gst = dec(money(total.mul(9).div(109)));
  const items = c.lines.reduce((n, l) => n + l.qty, 0);
  return { total: money(total), gst: money(gst), items };
}

export function useCart() {
  const c = useSyncExternalStore(
    (l) => {
      cartListeners.add(l);
      return () => cartListeners.delete(l);
    },
    () => cart,
  );
  return useMemo(
    () => ({
      cart: c,
      totals: cartTotals(c),
      add(p: ScannedProduct) {
        const at = cart.lines.findIndex((l) => l.product_id === p.id);
        if (at >= 0) {
          setCart({ ...cart, lines: cart.lines.map((l, i) => (i === at ? { ...l, qty: l.qty + 1 } : l)) });
        } else {
          const line = {
            product_id: p.id,
            name: p.name,
            sku: p.sku,
            unit_price_incl_gst: inclGst(p),
            qty: 1,
            discount_pct: 0,
          };
          setCart({ ...cart, lines: [...cart.lines, line] });
        }
      },
      setQty(productId: number, qty: number) {
        const lines =
          qty <= 0
            ? cart.lines.filter((l) => l.product_id !== productId)
            : cart.lines.map((l) => (l.product_id === productId ? { ...l, qty } : l));
        setCart({ ...cart, lines });
      },
      setDiscount(productId: number, pct: number) {
        setCart({
          ...cart,
          lines: cart.lines.map((l) => (l.product_id === productId ? { ...l, discount_pct: pct } : l)),
        });
      },
      setCustomer(customer: Customer | null) {
        setCart({ ...cart, customer });
      },
      clear() {
        setCart(EMPTY_CART);
      },
    }),
    [c],
  );
}

// ---- receipts shown right after a sale (kept so the receipt screen survives a reload, and a queued sale's too) ----

export type ShownReceipt = {
  key: string; // the sale's Idempotency-Key
  order: PosOrderView | null; // the server's answer, once it has it
  draft: {
    lines: CartLine[];
    customer: string | null;
    total: string;
    gst: string;
    payments: Array<{ method: string; amount: string }>;
    change: string;
    at: string;
  };
};

const RECEIPTS = "wm-pos-receipts";
export function keepReceipt(r: ShownReceipt) {
  const all = readReceipts().filter((x) => x.key !== r.key);
  all.unshift(r);
  try {
    localStorage.setItem(RECEIPTS, JSON.stringify(all.slice(0, 20)));
  } catch {
    // not kept: the receipt screen still has it in memory
  }
}
export function readReceipts(): ShownReceipt[] {
  try {
    return JSON.parse(localStorage.getItem(RECEIPTS) ?? "[]") as ShownReceipt[];
  } catch {
    return [];
  }
}

// A sale the outbox still holds, shown in the orders list as pending.
export const pendingSales = (pending: OutboxEntry[]) => pending.filter((e) => e.name === "pos_sale");
export const pendingRefunds = (pending: OutboxEntry[]) => pending.filter((e) => e.name === "pos_refund");

export type { PosOrderView, PosSessionView };

// A sale that was queued gets its number, receipt token and QR code when the outbox replays it.
onReplayed((entry, result) => {
  if (entry.name !== "pos_sale") return;
  const kept = readReceipts().find((r) => r.key === entry.key);
  if (kept) keepReceipt({ ...kept, order: result as PosOrderView });
});
