import "fake-indexeddb/auto";
import { beforeEach, describe, expect, it } from "vitest";
import { resetDbForTests } from "./idb.ts";
import {
  flush,
  type OutboxEntry,
  onReplayed,
  outboxSnapshot,
  refreshOutbox,
  runOrQueue,
  setTransportForTests,
  type Transport,
} from "./outbox.ts";
import { type Attempt, BACKOFF_MAX_MS, backoffDelay, isTransient, summarizeArgs } from "./outbox-core.ts";

// The outbox's rules (issue 22 "Offline") on a real IndexedDB implementation: kept before it is sent, replayed in
// order with its own key, a refusal on replay kept as a conflict and reported, never dropped.

type Sent = { name: string; args: unknown; key: string };

function fakeNetwork(opts: { user?: string } = {}) {
  const sent: Sent[] = [];
  const reported: OutboxEntry[] = [];
  const state = {
    online: true,
    user: opts.user ?? "user-1",
    answer: (_s: Sent): Attempt => ({ kind: "done", result: { ok: true } }),
  };
  const transport: Transport = {
    async send(name, args, key) {
      if (!state.online) return { kind: "unreachable", message: "offline" };
      const s = { name, args, key };
      sent.push(s);
      return state.answer(s);
    },
    async report(entry) {
      if (!state.online) return false;
      reported.push(entry);
      return true;
    },
    currentUserId: async () => state.user,
    online: () => state.online,
  };
  setTransportForTests(transport);
  return { sent, reported, state };
}

const args = { id: 7 } as never;

beforeEach(async () => {
  await resetDbForTests();
});

describe("runOrQueue", () => {
  it("answers a live success and keeps nothing", async () => {
    const net = fakeNetwork();
    const res = await runOrQueue("offline_conflict_list", args, { label: "List" });
    expect(res).toMatchObject({ status: "done", result: { ok: true } });
    expect(net.sent).toHaveLength(1);
    expect(net.sent[0].key).toBe(res.key);
    await refreshOutbox();
    expect(outboxSnapshot()).toEqual([]);
  });

  it("queues offline with the key made when the person acted, then replays it once with that key", async () => {
    const net = fakeNetwork();
    net.state.online = false;
    const res = await runOrQueue("offline_conflict_list", args, { label: "Sale 1", key: "k-1" });
    expect(res).toEqual({ status: "queued", key: "k-1" });
    await refreshOutbox();
    expect(outboxSnapshot().map((e) => [e.key, e.status, e.label])).toEqual([["k-1", "pending", "Sale 1"]]);

    const replayed: string[] = [];
    const stop = onReplayed((entry) => replayed.push(entry.key));
    net.state.online = true;
    await flush();
    await flush();
    stop();
    expect(net.sent.map((s) => s.key)).toEqual(["k-1"]);
    expect(replayed).toEqual(["k-1"]);
    expect(outboxSnapshot()).toEqual([]);
  });

  it("keeps an action the server did not answer (5xx, timeout) pending, with why", async () => {
    const net = fakeNetwork();
    net.state.answer = () => ({ kind: "unreachable", message: "Request failed (503)" });
    const res = await runOrQueue("offline_conflict_list", args, { label: "Count A-01" });
    expect(res.status).toBe("queued");
    const [entry] = outboxSnapshot();
    expect(entry).toMatchObject({ status: "pending", attempts: 1, lastError: "Request failed (503)" });
  });

  it("returns a refusal on the first attempt to the caller and keeps nothing", async () => {
    const net = fakeNetwork();
    net.state.answer = () => ({ kind: "refused", code: "P0001", message: "Only 2 left" });
    const res = await runOrQueue("offline_conflict_list", args, { label: "Sale" });
    expect(res).toMatchObject({ status: "refused", code: "P0001", message: "Only 2 left" });
    await refreshOutbox();
    expect(outboxSnapshot()).toEqual([]);
    expect(net.reported).toEqual([]);
  });

  it("turns a refusal on replay into a conflict, kept and reported for a manager", async () => {
    const net = fakeNetwork();
    net.state.online = false;
    await runOrQueue("offline_conflict_list", args, { label: "Delivered DO-1", key: "d-1" });
    net.state.online = true;
    net.state.answer = () => ({ kind: "refused", code: "P0001", message: "DO-1 was cancelled" });
    await flush();
    const [entry] = outboxSnapshot();
    expect(entry).toMatchObject({
      key: "d-1",
      status: "conflict",
      reported: true,
      conflict: { code: "P0001", message: "DO-1 was cancelled" },
    });
    expect(net.reported.map((e) => e.key)).toEqual(["d-1"]);
    // Replays go on past it; it is not sent again.
    await flush();
    expect(net.sent).toHaveLength(1);
  });

  it("reports a conflict later when the report itself could not be sent", async () => {
    const net = fakeNetwork();
    net.state.online = false;
    await runOrQueue("offline_conflict_list", args, { label: "Move", key: "m-1" });
    net.state.online = true;
    net.state.answer = () => ({ kind: "refused", code: "409", message: "Not enough stock" });
    const realReport = net.reported.push.bind(net.reported);
    let failReport = true;
    net.reported.push = (...items: OutboxEntry[]) => {
      if (failReport) throw new Error("lost");
      return realReport(...items);
    };
    await flush().catch(() => undefined);
    failReport = false;
    await flush();
    await refreshOutbox();
    expect(outboxSnapshot()[0]).toMatchObject({ status: "conflict", reported: true });
  });

  it("replays in the order the person acted and stops at the first unanswered one", async () => {
    const net = fakeNetwork();
    net.state.online = false;
    for (const k of ["a", "b", "c"]) await runOrQueue("offline_conflict_list", args, { label: k, key: k });
    net.state.online = true;
    let calls = 0;
    net.state.answer = () =>
      ++calls === 2 ? { kind: "unreachable", message: "timeout" } : { kind: "done", result: 1 };
    await flush();
    expect(net.sent.map((s) => s.key)).toEqual(["a", "b"]);
    expect(outboxSnapshot().map((e) => e.key)).toEqual(["b", "c"]);
    await flush();
    expect(net.sent.map((s) => s.key)).toEqual(["a", "b", "b", "c"]);
    expect(outboxSnapshot()).toEqual([]);
  });

  it("replays only the signed-in person's actions", async () => {
    const net = fakeNetwork({ user: "someone" });
    net.state.online = false;
    await runOrQueue("offline_conflict_list", args, { label: "theirs", key: "t-1" });
    net.state.user = "user-2";
    net.state.online = true;
    await flush();
    expect(net.sent).toEqual([]);
    net.state.user = "someone";
    await flush();
    expect(net.sent.map((s) => s.key)).toEqual(["t-1"]);
  });
});

describe("outbox rules", () => {
  it("backs off from 2 s doubling to 60 s", () => {
    expect([1, 2, 3, 4, 5, 6, 7, 20].map(backoffDelay)).toEqual([
      2_000,
      4_000,
      8_000,
      16_000,
      32_000,
      BACKOFF_MAX_MS,
      BACKOFF_MAX_MS,
      BACKOFF_MAX_MS,
    ]);
  });

  it("takes no answer, a server error, an expired session or a busy key as 'try again', a refusal as final", () => {
    for (const s of [0, 408, 429, 500, 502, 503, 401]) expect(isTransient(s), String(s)).toBe(true);
    expect(isTransient(409, "idempotency_key_busy")).toBe(true);
    for (const s of [400, 403, 404, 409, 422]) expect(isTransient(s, "P0001"), String(s)).toBe(false);
  });

  it("summarises arguments for the manager without the photos' bytes", () => {
    const summary = summarizeArgs({ id: 3, photo: `data:image/jpeg;base64,${"A".repeat(5000)}` });
    expect(summary).toContain('"id":3');
    expect(summary).toContain("(5023 characters)");
    expect(summary.length).toBeLessThan(200);
  });
});
