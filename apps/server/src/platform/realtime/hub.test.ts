import { describe, expect, it } from "vitest";
import type { WebSocket } from "ws";
import { type Chan, type Conn, Hub, MAX_BUFFERED_BYTES } from "./hub.ts";
import { decodeFrame, encodeFrame } from "./protocol.ts";

// Issue 20 §4: one slow socket does not hold the others — a socket whose unsent frames pass MAX_BUFFERED_BYTES is
// cut off, the rest of the room still gets every frame; and the frames realtime-js sends decode as it means them.

function fakeSocket(buffered = 0) {
  const sent: unknown[] = [];
  const ws = {
    OPEN: 1,
    readyState: 1,
    bufferedAmount: buffered,
    send: (d: unknown) => sent.push(d),
    terminate() {
      this.readyState = 3;
    },
  };
  return { ws: ws as unknown as WebSocket & { readyState: number }, sent };
}

function chanOn(hub: Hub, ws: WebSocket, userId: string): Chan {
  const conn: Conn = { ws, vsn: "2.0.0", channels: new Map(), dropped: false, seenAt: Date.now() };
  const chan: Chan = {
    conn,
    topic: "realtime:room",
    subTopic: "room",
    joinRef: "1",
    token: "t",
    caller: { kind: "member", userId, workspaceId: "w", permissions: [], features: [], isOperator: false },
    room: "w",
    checkedAt: Date.now(),
    self: false,
    ack: false,
    presenceKey: userId,
    bindings: [],
    tracked: null,
  };
  hub.add(chan);
  return chan;
}

describe("the realtime hub", () => {
  it("cuts off a socket that cannot keep up and goes on sending to the others", () => {
    const slowConns: Conn[] = [];
    const hub = new Hub((c) => slowConns.push(c));
    const fast = fakeSocket();
    const slow = fakeSocket(MAX_BUFFERED_BYTES + 1);
    chanOn(hub, fast.ws, "a");
    const stuck = chanOn(hub, slow.ws, "b");
    for (let i = 0; i < 3; i++) {
      for (const c of hub.inRoom("w", "realtime:room"))
        hub.push(c, "broadcast", { type: "broadcast", event: "e", payload: i });
    }
    expect(fast.sent).toHaveLength(3);
    expect(slow.sent).toHaveLength(0);
    expect(slow.ws.readyState).toBe(3);
    expect(slowConns).toEqual([stuck.conn]);
  });

  it("keeps a room's presence by key and tells the room each diff", () => {
    const hub = new Hub(() => undefined);
    const a = fakeSocket();
    const chan = chanOn(hub, a.ws, "a");
    hub.track(chan, { name: "A" });
    expect(hub.presenceState("w", "realtime:room")).toMatchObject({ a: { metas: [{ name: "A" }] } });
    hub.track(chan, null);
    expect(hub.presenceState("w", "realtime:room")).toEqual({});
    expect(a.sent.map((f) => JSON.parse(String(f))[3])).toEqual(["presence_diff", "presence_diff"]);
  });
});

describe("the Phoenix frames", () => {
  it("reads serializer 2.0.0's arrays, 1.0.0's objects and a binary broadcast push", () => {
    const array = Buffer.from(JSON.stringify(["1", "2", "realtime:x", "phx_join", { a: 1 }]));
    expect(decodeFrame(array, false, "2.0.0")).toEqual({
      joinRef: "1",
      ref: "2",
      topic: "realtime:x",
      event: "phx_join",
      payload: { a: 1 },
    });
    const object = Buffer.from(JSON.stringify({ topic: "phoenix", event: "heartbeat", payload: {}, ref: "3" }));
    expect(decodeFrame(object, false, "1.0.0")).toMatchObject({ topic: "phoenix", event: "heartbeat", ref: "3" });
    // kind 3, lengths of join_ref, ref, topic, event, metadata, JSON encoding, then the strings and the payload
    const [joinRef, ref, topic, event] = ["1", "9", "realtime:x", "cursor"];
    const head = Buffer.from([3, joinRef.length, ref.length, topic.length, event.length, 0, 1]);
    const push = Buffer.concat([head, Buffer.from(joinRef + ref + topic + event), Buffer.from('{"x":1}')]);
    expect(decodeFrame(push, true, "2.0.0")).toEqual({
      joinRef: "1",
      ref: "9",
      topic: "realtime:x",
      event: "broadcast",
      payload: { type: "broadcast", event: "cursor", payload: { x: 1 } },
    });
    const frame = { joinRef: null, ref: null, topic: "t", event: "broadcast", payload: { event: "e", payload: {} } };
    expect(JSON.parse(String(encodeFrame(frame, "2.0.0")))).toEqual([null, null, "t", "broadcast", frame.payload]);
  });
});
