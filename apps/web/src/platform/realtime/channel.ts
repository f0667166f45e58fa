// The realtime channel's client (DESIGN §2.1): one WebSocket per tab to /realtime/v1/websocket, opened while some
// page listens and closed a little after the last one stops. A lost connection is opened again with backoff
// (1 s doubling to 30 s, with jitter), and at once when the tab comes back online; a new access token (a refresh,
// another user) reconnects with it. Events are {event, payload}; the server sends each only to members allowed it.

export type RealtimeStatus = "connecting" | "live" | "offline";
export type RealtimeHandler = (payload: unknown, event: string) => void;

const MAX_BACKOFF_MS = 30_000;
const LINGER_MS = 5_000;

class Channel {
  private socket: WebSocket | null = null;
  private token: string | null = null;
  private attempt = 0;
  private retry: ReturnType<typeof setTimeout> | null = null;
  private linger: ReturnType<typeof setTimeout> | null = null;
  private readonly handlers = new Map<string, Set<RealtimeHandler>>();
  private readonly watchers = new Set<(s: RealtimeStatus) => void>();
  status: RealtimeStatus = "offline";

  constructor() {
    if (typeof window !== "undefined") {
      window.addEventListener("online", () => this.reconnectNow());
    }
  }

  private subscribers(): number {
    let n = 0;
    for (const set of this.handlers.values()) n += set.size;
    return n;
  }

  private setStatus(s: RealtimeStatus): void {
    this.status = s;
    for (const w of this.watchers) w(s);
  }

  setToken(token: string | null): void {
    if (token === this.token) return;
    this.token = token;
    this.close();
    if (this.subscribers() > 0) this.open();
  }

  subscribe(event: string, fn: RealtimeHandler): () => void {
    const set = this.handlers.get(event) ?? new Set();
    this.handlers.set(event, set);
    set.add(fn);
    if (this.linger) clearTimeout(this.linger);
    this.linger = null;
    if (!this.socket && !this.retry) this.open();
    return () => {
      set.delete(fn);
      if (this.subscribers() === 0) {
        this.linger = setTimeout(() => this.close(), LINGER_MS);
      }
    };
  }

  watch(fn: (s: RealtimeStatus) => void): () => void {
    this.watchers.add(fn);
    return () => this.watchers.delete(fn);
  }

  private open(): void {
    if (!this.token || this.socket) return;
    const scheme = window.location.protocol === "https:" ? "wss" : "ws";
    const url = `${scheme}://${window.location.host}/realtime/v1/websocket`;
    this.setStatus("connecting");
    // The token goes as a subprotocol: an address holding it would be written to access logs.
    const socket = new WebSocket(url, ["workmetrics", `access_token.${this.token}`]);
    this.socket = socket;
    socket.onmessage = (e) => {
      let msg: { event?: string; payload?: unknown };
      try {
        msg = JSON.parse(String(e.data));
      } catch {
        return;
      }
      if (msg.event === "ready") {
        this.attempt = 0;
        this.setStatus("live");
      }
      for (const fn of this.handlers.get(String(msg.event)) ?? []) fn(msg.payload, String(msg.event));
    };
    socket.onclose = () => {
      if (this.socket !== socket) return;
      this.socket = null;
      this.setStatus("offline");
      if (this.subscribers() === 0 || !this.token) return;
      const wait = Math.min(MAX_BACKOFF_MS, 1000 * 2 ** this.attempt++) * (0.75 + Math.random() / 2);
      this.retry = setTimeout(() => {
        this.retry = null;
        this.open();
      }, wait);
    };
  }

  private reconnectNow(): void {
    if (this.socket || this.subscribers() === 0) return;
    if (this.retry) clearTimeout(this.retry);
    this.retry = null;
    this.attempt = 0;
    this.open();
  }

  private close(): void {
    if (this.retry) clearTimeout(this.retry);
    this.retry = null;
    const s = this.socket;
    this.socket = null;
    s?.close();
    this.setStatus("offline");
  }
}

export const realtime = new Channel();
