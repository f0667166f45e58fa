import { randomUUID } from "node:crypto";
import type { WebSocket } from "ws";
import type { Caller } from "../rest/access.ts";
import type { Binding } from "./changes.ts";
import { encodeFrame, type Frame, type Vsn } from "./protocol.ts";

// The sockets and channels of this process, the rooms they joined (a topic within one workspace: the same topic in
// two workspaces is two rooms) and the presence of each room, its own members' and those other instances told of.

// A socket whose unsent frames pass this is too slow to keep up: it is cut off (its client reconnects and rejoins)
// rather than held in memory or allowed to delay the others.
export const MAX_BUFFERED_BYTES = 1_048_576;

export type Conn = { ws: WebSocket; vsn: Vsn; channels: Map<string, Chan>; dropped: boolean; seenAt: number };

export type Meta = Record<string, unknown> & { phx_ref: string };

export type Chan = {
  conn: Conn;
  topic: string; // as the client names it: "realtime:<sub-topic>"
  subTopic: string;
  joinRef: string | null;
  token: string;
  caller: Caller & { userId: string; workspaceId: string };
  // The workspace whose room it joined: the caller's own, or for a marketplace thread's topic the thread's seller's,
  // which both parties join (issue 23: typing and presence between a buyer and a seller; channels.ts).
  room: string;
  checkedAt: number;
  self: boolean;
  ack: boolean;
  presenceKey: string;
  bindings: Binding[];
  tracked: Meta | null;
};

export type PresenceDiff = { joins: Record<string, { metas: Meta[] }>; leaves: Record<string, { metas: Meta[] }> };

const roomOf = (workspaceId: string, topic: string) => `${workspaceId}\n${topic}`;

export class Hub {
  private readonly rooms = new Map<string, Set<Chan>>();
  private readonly byWorkspace = new Map<string, Set<Chan>>();
  // room → presence key → phx_ref → meta
  private readonly presence = new Map<string, Map<string, Map<string, Meta>>>();
  constructor(private readonly onSlow: (conn: Conn) => void) {}

  send(conn: Conn, frame: Frame): void {
    if (conn.dropped || conn.ws.readyState !== conn.ws.OPEN) return;
    if (conn.ws.bufferedAmount > MAX_BUFFERED_BYTES) {
      conn.dropped = true;
      this.onSlow(conn);
      conn.ws.terminate();
      return;
    }
    conn.ws.send(encodeFrame(frame, conn.vsn));
  }

  push(chan: Chan, event: string, payload: Record<string, unknown>): void {
    this.send(chan.conn, { joinRef: chan.joinRef, ref: null, topic: chan.topic, event, payload });
  }

  workspaces(): string[] {
    return [...this.byWorkspace.keys()];
  }

  inWorkspace(workspaceId: string): Chan[] {
    return [...(this.byWorkspace.get(workspaceId) ?? [])];
  }

  inRoom(workspaceId: string, topic: string): Chan[] {
    return [...(this.rooms.get(roomOf(workspaceId, topic)) ?? [])];
  }

  // Adds a joined channel; true when it is the first of its room here (so other instances are asked for theirs).
  add(chan: Chan): boolean {
    const key = roomOf(chan.room, chan.topic);
    const room = this.rooms.get(key) ?? new Set<Chan>();
    const first = room.size === 0;
    this.rooms.set(key, room);
    room.add(chan);
    const ws = this.byWorkspace.get(chan.caller.workspaceId) ?? new Set<Chan>();
    this.byWorkspace.set(chan.caller.workspaceId, ws);
    ws.add(chan);
    chan.conn.channels.set(chan.topic, chan);
    return first;
  }

  // Removes a channel; answers whether its workspace has no channel left here.
  remove(chan: Chan): boolean {
    const key = roomOf(chan.room, chan.topic);
    const room = this.rooms.get(key);
    room?.delete(chan);
    if (room?.size === 0) {
      this.rooms.delete(key);
      this.presence.delete(key);
    }
    if (chan.conn.channels.get(chan.topic) === chan) chan.conn.channels.delete(chan.topic);
    const ws = this.byWorkspace.get(chan.caller.workspaceId);
    ws?.delete(chan);
    if (ws?.size === 0) {
      this.byWorkspace.delete(chan.caller.workspaceId);
      return true;
    }
    return false;
  }

  // The room's presence as presence_state: { key: { metas: [...] } }.
  presenceState(workspaceId: string, topic: string): Record<string, { metas: Meta[] }> {
    const state: Record<string, { metas: Meta[] }> = {};
    for (const [key, metas] of this.presence.get(roomOf(workspaceId, topic)) ?? []) {
      if (metas.size) state[key] = { metas: [...metas.values()] };
    }
    return state;
  }

  // Applies a diff to the room's presence and tells the room's channels of it (presence_diff).
  applyPresence(workspaceId: string, topic: string, diff: PresenceDiff): void {
    const key = roomOf(workspaceId, topic);
    if (!this.rooms.has(key)) return;
    const room = this.presence.get(key) ?? new Map<string, Map<string, Meta>>();
    this.presence.set(key, room);
    for (const [k, { metas }] of Object.entries(diff.leaves)) {
      for (const m of metas) room.get(k)?.delete(m.phx_ref);
      if (room.get(k)?.size === 0) room.delete(k);
    }
    for (const [k, { metas }] of Object.entries(diff.joins)) {
      const at = room.get(k) ?? new Map<string, Meta>();
      room.set(k, at);
      for (const m of metas) at.set(m.phx_ref, m);
    }
    for (const chan of this.inRoom(workspaceId, topic)) {
      this.push(chan, "presence_diff", diff as unknown as Record<string, unknown>);
    }
  }

  // This channel's presence changes to `meta` (null: untracked): the diff, applied here and returned for the peers.
  track(chan: Chan, meta: Record<string, unknown> | null): PresenceDiff | null {
    const leaves = chan.tracked ? { [chan.presenceKey]: { metas: [chan.tracked] } } : {};
    const next: Meta | null = meta ? { ...meta, phx_ref: randomUUID() } : null;
    if (!next && !chan.tracked) return null;
    chan.tracked = next;
    const diff: PresenceDiff = { joins: next ? { [chan.presenceKey]: { metas: [next] } } : {}, leaves };
    this.applyPresence(chan.room, chan.topic, diff);
    return diff;
  }

  // What this instance's own channels track in a room, as joins (the answer to another instance's sync request).
  ownPresence(workspaceId: string, topic: string): PresenceDiff["joins"] {
    const joins: PresenceDiff["joins"] = {};
    for (const chan of this.inRoom(workspaceId, topic)) {
      if (!chan.tracked) continue;
      joins[chan.presenceKey] = { metas: [...(joins[chan.presenceKey]?.metas ?? []), chan.tracked] };
    }
    return joins;
  }

  allChannels(): Chan[] {
    return [...this.byWorkspace.values()].flatMap((s) => [...s]);
  }
}
