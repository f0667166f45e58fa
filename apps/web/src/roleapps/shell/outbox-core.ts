// The outbox's pure rules (issue 22 "Offline"), apart from IndexedDB and the network so tests can hold them.

// Replays back off from 2 s, doubling, to 60 s at most.
export const BACKOFF_START_MS = 2_000;
export const BACKOFF_MAX_MS = 60_000;

export function backoffDelay(failures: number): number {
  if (failures <= 0) return BACKOFF_START_MS;
  return Math.min(BACKOFF_START_MS * 2 ** Math.min(failures - 1, 30), BACKOFF_MAX_MS);
}

// What came of one attempt to send: the answer, a refusal (the server saw it and said no) or no answer at all (the
// network, a timeout, the server down or busy, an expired session): the last stays pending and is tried again.
export type Attempt =
  | { kind: "done"; result: unknown }
  | { kind: "refused"; code: string; message: string }
  | { kind: "unreachable"; message: string };

// An HTTP status the outbox must not take as the server's word on the action.
export function isTransient(status: number, code?: string): boolean {
  if (status === 0 || status === 408 || status === 429 || status >= 500) return true;
  // The session expired while offline: the action waits for the refreshed token, or for the person to sign in.
  if (status === 401) return true;
  // The same key still running (a replay raced the first send): its answer comes on the next try.
  if (status === 409 && code === "idempotency_key_busy") return true;
  return false;
}

export type OutboxStatus = "pending" | "conflict";

export type OutboxEntry = {
  key: string; // the Idempotency-Key, made when the person acted
  name: string; // the command
  args: unknown;
  label: string; // what the person did, in words ("Sale of 3 items", "Delivered DO-2026-00012")
  app: string; // driver, warehouse, pos
  userId: string;
  createdAt: string; // ISO time of the action
  seq: number; // creation order on this device
  status: OutboxStatus;
  attempts: number;
  lastError: string | null; // why the last try did not get through
  conflict: { code: string; message: string; at: string } | null;
  reported: boolean; // the conflict reached the server (for a manager to resolve)
};

// Replays go in the order the person acted.
export function inCreationOrder(entries: OutboxEntry[]): OutboxEntry[] {
  return [...entries].sort((a, b) => a.seq - b.seq || a.createdAt.localeCompare(b.createdAt));
}

// A short, readable account of the arguments for the manager's conflict list (not the whole payload: photos and
// signatures are data URLs).
export function summarizeArgs(args: unknown, max = 400): string {
  const text = JSON.stringify(args, (_k, v) =>
    typeof v === "string" && v.length > 80 ? `${v.slice(0, 40)}… (${v.length} characters)` : v,
  );
  if (!text) return "";
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
