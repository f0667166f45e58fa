import type { CommandArgs, CommandName, CommandResult } from "@workmetrics/domain/commands";
import { useCallback, useMemo, useSyncExternalStore } from "react";
import { callCommand } from "../../platform/commands.ts";
import { DataError } from "../../platform/data-access/errors.ts";
import { idbDelete, idbGetAll, idbPut, OUTBOX } from "./idb.ts";
import {
  type Attempt,
  backoffDelay,
  inCreationOrder,
  isTransient,
  type OutboxEntry,
  summarizeArgs,
} from "./outbox-core.ts";

export type { OutboxEntry } from "./outbox-core.ts";

// The role apps' offline outbox (issue 22 "Offline", DESIGN §2.3.2). Every action that changes data is kept in
// IndexedDB FIRST, with the Idempotency-Key made when the person acted, then sent as POST /rest/v1/rpc/<name> with
// that key. No answer (network, timeout, 5xx) → it stays pending and is replayed on `online`, at app start and on a
// backoff timer (2 s doubling to 60 s), in creation order, each with its own key, so the server applies it once.
// A refusal while the caller still waits is the caller's to show ("refused", nothing kept); a refusal on a later
// replay becomes a CONFLICT: kept, shown in the outbox sheet with the server's message, reported to the server so
// a manager sees it — never dropped silently.

export type RunOutcome<N extends CommandName> =
  | { status: "done"; result: CommandResult<N>; key: string }
  | { status: "queued"; key: string }
  | { status: "refused"; key: string; code: string; message: string };

// How an entry reaches the server and whose it is; swapped in tests.
export type Transport = {
  send(name: string, args: unknown, key: string, signal: AbortSignal): Promise<Attempt>;
  report(entry: OutboxEntry): Promise<boolean>;
  currentUserId(): Promise<string | null>;
  online(): boolean;
};

const SEND_TIMEOUT_MS = 20_000;

async function supabaseTransport(): Promise<Transport> {
  const { getSupabase } = await import("../../app/session/client.ts");
  const client = await getSupabase();
  return {
    async send(name, args, key, signal) {
      try {
        const result = await callCommand(client, name as CommandName, args as never, { idempotencyKey: key, signal });
        return { kind: "done", result };
      } catch (err) {
        if (err instanceof DataError && !isTransient(err.status, err.code)) {
          return { kind: "refused", code: err.code, message: err.message };
        }
        return { kind: "unreachable", message: err instanceof Error ? err.message : String(err) };
      }
    },
    async report(entry) {
      try {
        await callCommand(
          client,
          "offline_conflict_report",
          {
            app: entry.app as "driver" | "warehouse" | "pos",
            command: entry.name,
            label: entry.label,
            args_summary: summarizeArgs(entry.args),
            code: entry.conflict?.code ?? "refused",
            message: entry.conflict?.message ?? "",
            key: entry.key,
            acted_at: entry.createdAt,
          },
          { idempotencyKey: `conflict-${entry.key}` },
        );
        return true;
      } catch {
        return false;
      }
    },
    async currentUserId() {
      const { data } = await client.auth.getSession();
      return data.session?.user.id ?? null;
    },
    online: () => navigator.onLine !== false,
  };
}

let transportPromise: Promise<Transport> | null = null;
function transport(): Promise<Transport> {
  transportPromise ??= supabaseTransport();
  return transportPromise;
}

// Tests (and nothing else) swap the network and reset the module's memory.
export function setTransportForTests(t: Transport): void {
  transportPromise = Promise.resolve(t);
  app = "test";
  failures = 0;
  outcomes.clear();
  awaiting.clear();
  if (timer) clearTimeout(timer);
  timer = null;
  snapshot = EMPTY;
}

// ---- state the hooks read -------------------------------------------------------------------------------------

type Snapshot = { entries: OutboxEntry[]; sending: string | null };
const EMPTY: Snapshot = { entries: [], sending: null };
let snapshot: Snapshot = EMPTY;
const subscribers = new Set<() => void>();
let app = "app";
let seqFloor = 0;

async function refresh(): Promise<void> {
  const t = await transport();
  const user = await t.currentUserId();
  const all = await idbGetAll<OutboxEntry>(OUTBOX);
  for (const e of all) seqFloor = Math.max(seqFloor, e.seq);
  snapshot = { ...snapshot, entries: inCreationOrder(all.filter((e) => e.userId === user)) };
  for (const s of subscribers) s();
}

function setSending(key: string | null) {
  snapshot = { ...snapshot, sending: key };
  for (const s of subscribers) s();
}

// ---- replay ---------------------------------------------------------------------------------------------------

let failures = 0;
let timer: ReturnType<typeof setTimeout> | null = null;
let running: Promise<void> | null = null;
let again = false;
// What happened to an entry whose caller still waits, and which callers wait.
const outcomes = new Map<string, Attempt>();
const awaiting = new Set<string>();
const replayListeners = new Set<(entry: OutboxEntry, result: unknown) => void>();

export function onReplayed(listener: (entry: OutboxEntry, result: unknown) => void): () => void {
  replayListeners.add(listener);
  return () => replayListeners.delete(listener);
}

// One drain at a time; a call while one runs makes it look again before it stops.
export function flush(): Promise<void> {
  if (running) {
    again = true;
    return running;
  }
  running = (async () => {
    try {
      do {
        again = false;
        const reachedServer = await drain();
        if (!reachedServer) break;
      } while (again);
    } finally {
      running = null;
    }
  })();
  return running;
}

// Sends every pending entry of the signed-in person in order; false when the server could not be reached (the
// rest wait for the next try). Conflicts not yet reported are reported on the way.
async function drain(): Promise<boolean> {
  const t = await transport();
  const user = await t.currentUserId();
  if (!user) return false;
  const mine = inCreationOrder((await idbGetAll<OutboxEntry>(OUTBOX)).filter((e) => e.userId === user));
  if (!t.online() && mine.some((e) => e.status === "pending")) {
    await refresh();
    scheduleRetry();
    return false;
  }
  for (const entry of mine) {
    if (entry.status === "conflict") {
      if (!entry.reported && (await t.report(entry))) await idbPut(OUTBOX, { ...entry, reported: true });
      continue;
    }
    setSending(entry.key);
    const attempt = await t.send(entry.name, entry.args, entry.key, AbortSignal.timeout(SEND_TIMEOUT_MS));
    setSending(null);
    if (attempt.kind === "unreachable") {
      await idbPut(OUTBOX, { ...entry, attempts: entry.attempts + 1, lastError: attempt.message });
      await refresh();
      scheduleRetry();
      return false;
    }
    failures = 0;
    if (awaiting.has(entry.key)) {
      // The caller still waits: its answer (done or refused) is its own to show; nothing is kept.
      outcomes.set(entry.key, attempt);
      await idbDelete(OUTBOX, entry.key);
    } else if (attempt.kind === "done") {
      await idbDelete(OUTBOX, entry.key);
      for (const l of replayListeners) l(entry, attempt.result);
    } else {
      const conflict: OutboxEntry = {
        ...entry,
        status: "conflict",
        attempts: entry.attempts + 1,
        lastError: attempt.message,
        conflict: { code: attempt.code, message: attempt.message, at: new Date().toISOString() },
        reported: false,
      };
      await idbPut(OUTBOX, conflict);
      if (await t.report(conflict)) await idbPut(OUTBOX, { ...conflict, reported: true });
    }
    await refresh();
  }
  if (timer) clearTimeout(timer);
  timer = null;
  await refresh();
  return true;
}

function scheduleRetry() {
  failures += 1;
  if (timer) clearTimeout(timer);
  timer = setTimeout(() => {
    timer = null;
    void flush();
  }, backoffDelay(failures));
}

// ---- the API the apps use -------------------------------------------------------------------------------------

export async function runOrQueue<N extends CommandName>(
  name: N,
  args: CommandArgs<N>,
  opts: { label: string; key?: string },
): Promise<RunOutcome<N>> {
  const t = await transport();
  const key = opts.key ?? crypto.randomUUID();
  const user = (await t.currentUserId()) ?? "";
  seqFloor = Math.max(seqFloor + 1, Date.now());
  const entry: OutboxEntry = {
    key,
    name,
    args,
    label: opts.label,
    app,
    userId: user,
    createdAt: new Date().toISOString(),
    seq: seqFloor,
    status: "pending",
    attempts: 0,
    lastError: null,
    conflict: null,
    reported: false,
  };
  // Kept before anything is sent: a tab closed mid-request still has the action.
  await idbPut(OUTBOX, entry);
  awaiting.add(key);
  try {
    await refresh();
    if (t.online()) await flush();
    else scheduleRetry();
  } finally {
    awaiting.delete(key);
  }
  const outcome = outcomes.get(key);
  outcomes.delete(key);
  if (outcome?.kind === "done") return { status: "done", result: outcome.result as CommandResult<N>, key };
  if (outcome?.kind === "refused") return { status: "refused", key, code: outcome.code, message: outcome.message };
  return { status: "queued", key };
}

// The shell calls this once at app start: the app's name on new entries, replay now, on `online` and on focus,
// and a request for persistent storage so the browser does not evict the outbox.
let started = false;
export function startOutbox(appName: string): void {
  app = appName;
  if (started) return;
  started = true;
  window.addEventListener("online", () => {
    failures = 0;
    void flush();
  });
  window.addEventListener("offline", () => void refresh());
  void navigator.storage?.persist?.().catch(() => false);
  void refresh().then(() => flush());
}

function subscribe(listener: () => void): () => void {
  subscribers.add(listener);
  return () => subscribers.delete(listener);
}

export function useOutbox(): {
  pending: OutboxEntry[];
  conflicts: OutboxEntry[];
  sending: string | null;
  retryNow(): void;
  dismiss(key: string): Promise<void>;
} {
  const snap = useSyncExternalStore(subscribe, () => snapshot);
  const pending = useMemo(() => snap.entries.filter((e) => e.status === "pending"), [snap.entries]);
  const conflicts = useMemo(() => snap.entries.filter((e) => e.status === "conflict"), [snap.entries]);
  const retryNow = useCallback(() => {
    failures = 0;
    void flush();
  }, []);
  const dismiss = useCallback(async (key: string) => {
    await idbDelete(OUTBOX, key);
    await refresh();
  }, []);
  return { pending, conflicts, sending: snap.sending, retryNow, dismiss };
}

// For the shell's own tests and the badge outside React.
export function outboxSnapshot(): OutboxEntry[] {
  return snapshot.entries;
}
export { refresh as refreshOutbox };
