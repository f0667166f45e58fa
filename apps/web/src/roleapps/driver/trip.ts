import { useQueryClient } from "@tanstack/react-query";
import type { TripStop } from "@workmetrics/domain/commands/driver";
import { useCallback, useEffect, useMemo } from "react";
import { useSession } from "../../app/session/SessionProvider.tsx";
import { callCommand } from "../../platform/commands.ts";
import { useShiftData } from "../shell/offline-cache.ts";
import { type OutboxEntry, onReplayed, useOutbox } from "../shell/outbox.ts";

// The driver's day (issue 22): the trip for a date read through the shell's offline cache, with what the outbox
// still holds laid over it — a stop delivered, failed or reached offline shows so at once, marked pending.

// Today in the device's time zone, as YYYY-MM-DD.
export function localDay(d = new Date()): string {
  const y = d.getFullYear();
  const m = String(d.getMonth() + 1).padStart(2, "0");
  return `${y}-${m}-${String(d.getDate()).padStart(2, "0")}`;
}

export function shiftDay(day: string, by: number): string {
  const [y, m, d] = day.split("-").map(Number);
  return localDay(new Date(y, m - 1, d + by));
}

export const tripKey = (date: string) => ["driver-trip", date];

export type StopState = "open" | "arrived" | "delivered" | "failed";
export type ShownStop = TripStop & { state: StopState; pending: OutboxEntry[] };

const stopId = (e: OutboxEntry) => Number((e.args as { id?: unknown })?.id);
const DRIVER_COMMANDS = new Set(["delivery_arrive", "delivery_deliver", "delivery_fail"]);

function withPending(stop: TripStop, pending: OutboxEntry[]): ShownStop {
  const mine = pending.filter((e) => DRIVER_COMMANDS.has(e.name) && stopId(e) === Number(stop.id));
  let state: StopState = stop.received_by
    ? "delivered"
    : stop.failure_reason
      ? "failed"
      : stop.arrived_at
        ? "arrived"
        : "open";
  const shown: ShownStop = { ...stop, state, pending: mine };
  for (const e of mine) {
    const a = e.args as Record<string, unknown>;
    if (e.name === "delivery_arrive" && state === "open") {
      state = "arrived";
      shown.arrived_at = String(a.device_time);
    }
    if (e.name === "delivery_deliver") {
      state = "delivered";
      shown.received_by = String(a.received_by);
      shown.received_at = String(a.device_time);
    }
    if (e.name === "delivery_fail") {
      state = "failed";
      shown.failure_reason = a.reason as TripStop["failure_reason"];
      shown.failure_note = (a.note as string | null) ?? null;
    }
  }
  shown.state = state;
  return shown;
}

// The order the driver last gave per day on this device, until the server's answer has it: between a reorder's
// answer and the trip read again the list must not jump back (a second move would start from the old order).
const asked = new Map<string, number[]>();
export function rememberOrder(date: string, ids: number[]): void {
  asked.set(date, ids);
}

// The stops in the order last asked for: a reorder still in the outbox, or just answered, wins over the server's
// order as read.
function ordered(stops: ShownStop[], pending: OutboxEntry[], date: string): ShownStop[] {
  const reorder = pending.filter((e) => e.name === "delivery_reorder" && (e.args as { date?: string }).date === date);
  const last = reorder[reorder.length - 1];
  const ids = last ? (last.args as { ids: number[] }).ids : asked.get(date);
  if (!ids) return stops;
  if (!last && stops.map((s) => Number(s.id)).join() === ids.join()) asked.delete(date); // the server has it
  const rank = new Map(ids.map((id, i) => [id, i]));
  return [...stops].sort((a, b) => (rank.get(Number(a.id)) ?? ids.length) - (rank.get(Number(b.id)) ?? ids.length));
}

export function useTrip(date: string) {
  const { client } = useSession();
  const qc = useQueryClient();
  const { pending } = useOutbox();
  const data = useShiftData(tripKey(date), async () => {
    if (!client) throw new Error("Not signed in");
    return callCommand(client, "delivery_trip", { date });
  });
  const refresh = useCallback(() => qc.invalidateQueries({ queryKey: ["shift", ...tripKey(date)] }), [qc, date]);
  // A replayed action changes the server's answer: read it again.
  useEffect(() => onReplayed(() => void refresh()), [refresh]);
  const stops = useMemo(
    () =>
      ordered(
        (data.data?.stops ?? []).map((s) => withPending(s, pending)),
        pending,
        date,
      ),
    [data.data, pending, date],
  );
  return { ...data, stops, showsTotals: data.data?.shows_totals ?? false, refresh };
}

// A place the phone's maps open: the GPS fix where there is one, else the address.
export const mapsLink = (query: string) => `https://maps.google.com/?q=${encodeURIComponent(query)}`;
export const telLink = (phone: string) => `tel:${phone.replace(/[^\d+]/g, "")}`;

export const STATE_LABEL: Record<StopState, string> = {
  open: "To deliver",
  arrived: "Arrived",
  delivered: "Delivered",
  failed: "Failed",
};
export const STATE_COLOR: Record<StopState, "default" | "info" | "success" | "error"> = {
  open: "default",
  arrived: "info",
  delivered: "success",
  failed: "error",
};
