import { describe, expect, it } from "vitest";
import { metricsAllowed } from "../http/metrics.ts";
import {
  createReadRouter,
  decideRead,
  type LsnSource,
  lsnValue,
  minLsnOf,
  type ReplicaState,
  replicaTrouble,
} from "./replica.ts";

// Issue 25 §3: where a read goes, decided from WAL positions alone — here from a scripted source.

const up = (replayLsn: string | null): ReplicaState => ({ kind: "up", replayLsn, lagBytes: 0, checkedAt: 0 });

describe("a WAL position", () => {
  it("orders by its high then its low half, as hex numbers", () => {
    expect(lsnValue("0/16B3748") < lsnValue("0/16B3749")).toBe(true);
    expect(lsnValue("1/0") > lsnValue("0/FFFFFFFF")).toBe(true);
    expect(lsnValue("A/10") > lsnValue("9/FFFFFFF0")).toBe(true); // not compared as text
    expect(lsnValue("0/9") < lsnValue("0/10")).toBe(true);
  });

  it("a reader's is the later of the header and the cookie, and junk is no position", () => {
    expect(minLsnOf("0/200", "0/100")).toBe("0/200");
    expect(minLsnOf(undefined, "1/0")).toBe("1/0");
    expect(minLsnOf("'; drop table x", "nonsense")).toBeNull();
    expect(minLsnOf(["0/1", "0/2"], undefined)).toBeNull();
  });
});

describe("decideRead", () => {
  it("sends a reader with no write of their own to the replica that is up", () => {
    expect(decideRead(up("0/100"), null)).toBe("replica");
  });

  it("sends the author of a write the replica has not replayed to the primary, and back once it has", () => {
    expect(decideRead(up("0/100"), "0/101")).toBe("primary");
    expect(decideRead(up("0/101"), "0/101")).toBe("replica");
    expect(decideRead(up("1/0"), "0/FFFFFFFF")).toBe("replica");
  });

  it("sends everything to the primary without a replica or with one down", () => {
    expect(decideRead({ kind: "none" }, null)).toBe("primary");
    expect(decideRead({ kind: "down", since: 0 }, null)).toBe("primary");
  });

  it("trusts a 'replica' that answers as a primary (not in recovery)", () => {
    expect(decideRead(up(null), "5/0")).toBe("replica");
  });
});

// A scripted replica: its replayed position, or down (throws), and a clock the test moves.
function scripted() {
  const s = { replay: "0/100" as string | null, current: "0/100", down: false, asked: 0, time: 1_000 };
  const source: LsnSource = {
    async replayLsn() {
      s.asked++;
      if (s.down) throw Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5434"), { code: "ECONNREFUSED" });
      return s.replay;
    },
    currentLsn: async () => s.current,
  };
  const router = createReadRouter({ source, now: () => s.time, refreshMs: 50, retryDownMs: 2_000 });
  return { s, router };
}

describe("the read router", () => {
  it("asks the replica's position at most once per refresh interval for readers with no write", async () => {
    const { s, router } = scripted();
    expect(await router.target(null)).toBe("replica");
    expect(await router.target(null)).toBe("replica");
    expect(s.asked).toBe(1);
    s.time += 60;
    expect(await router.target(null)).toBe("replica");
    expect(s.asked).toBe(2);
  });

  it("follows a write: primary until the replica replays it, the replica after", async () => {
    const { s, router } = scripted();
    await router.target(null);
    s.current = "0/200";
    const lsn = await router.writeLsn();
    expect(lsn).toBe("0/200");
    expect(await router.target(lsn)).toBe("primary"); // cached 0/100, asked again, still 0/100
    s.replay = "0/200";
    expect(await router.target(lsn)).toBe("replica"); // behind by the cache, so it asks again and finds it replayed
    expect(router.state()).toMatchObject({ kind: "up", replayLsn: "0/200", lagBytes: 0 });
  });

  it("measures the lag in bytes of WAL", async () => {
    const { s, router } = scripted();
    s.current = "0/1100";
    await router.target(null);
    expect(router.state()).toMatchObject({ kind: "up", lagBytes: 0x1000 });
  });

  it("sends reads to the primary while the replica is down, and tries it again after a while", async () => {
    const { s, router } = scripted();
    s.down = true;
    expect(await router.target(null)).toBe("primary");
    expect(router.state().kind).toBe("down");
    s.down = false;
    s.time += 1_000;
    expect(await router.target(null)).toBe("primary"); // left alone for retryDownMs
    s.time += 1_500;
    expect(await router.target(null)).toBe("replica");
  });

  it("marks the replica down when a read on it lost its connection", async () => {
    const { router } = scripted();
    expect(await router.target(null)).toBe("replica");
    router.failed(new Error("Connection terminated unexpectedly"));
    expect(await router.target(null)).toBe("primary");
  });

  it("without a replica answers primary and asks nothing", async () => {
    const router = createReadRouter({ source: null });
    expect(await router.target("0/1")).toBe("primary");
    expect(await router.writeLsn()).toBeNull();
    expect(router.state().kind).toBe("none");
  });
});

describe("replicaTrouble", () => {
  it("tells a replica that is gone from a read to run again once, and a read's own error from both", () => {
    expect(replicaTrouble(Object.assign(new Error("x"), { code: "ECONNREFUSED" }))).toBe("down");
    expect(replicaTrouble({ message: "wrapped", cause: { code: "57P03" } })).toBe("down");
    expect(replicaTrouble({ code: "08006" })).toBe("down");
    expect(replicaTrouble({ code: "25006" })).toBe("retry"); // a read path that writes
    expect(replicaTrouble({ code: "40001" })).toBe("retry"); // canceled by a conflict with recovery
    expect(replicaTrouble({ code: "42501" })).toBeNull();
    expect(replicaTrouble({ code: "PGRST100" })).toBeNull();
  });
});

describe("who may read /metrics", () => {
  const req = (remoteAddress: string, headers: Record<string, string> = {}) => ({ headers, socket: { remoteAddress } });
  const token = "operator-metrics-token-0123456789";

  it("the operator's token from anywhere", () => {
    expect(metricsAllowed(req("10.0.0.9", { authorization: `Bearer ${token}` }), token)).toBe(true);
  });

  it("a direct local request without a token", () => {
    expect(metricsAllowed(req("127.0.0.1"), token)).toBe(true);
    expect(metricsAllowed(req("::1"), undefined)).toBe(true);
  });

  it("nobody else: a tenant's token, a wrong token, a request nginx forwarded, a remote one", () => {
    expect(metricsAllowed(req("127.0.0.1", { authorization: "Bearer eyJ.tenant.jwt" }), token)).toBe(false);
    expect(metricsAllowed(req("127.0.0.1", { authorization: "Bearer eyJ.tenant.jwt" }), undefined)).toBe(false);
    expect(metricsAllowed(req("127.0.0.1", { "x-forwarded-for": "203.0.113.5" }), token)).toBe(false);
    expect(metricsAllowed(req("10.0.0.9"), token)).toBe(false);
  });
});
