// The Phoenix channel frames `@supabase/realtime-js` speaks (DESIGN §2.3.2). Serializer 2.0.0 (the client's
// default) sends a JSON array [join_ref, ref, topic, event, payload]; 1.0.0 an object with those keys. A broadcast
// the client sends is binary (a "user broadcast push": kind 3, the lengths of join_ref, ref, topic, event and
// metadata, the payload's encoding, then those strings and the payload); one we send with a binary payload goes as
// kind 4 (the lengths of topic, event and metadata, the encoding, the strings, the payload), a JSON one as a JSON
// frame, which the client reads the same.

export type Vsn = "1.0.0" | "2.0.0";

export type Frame = {
  joinRef: string | null;
  ref: string | null;
  topic: string;
  event: string;
  payload: Record<string, unknown>;
};

const PUSH = 3; // client → server user broadcast
const BROADCAST = 4; // server → client user broadcast
const JSON_ENCODING = 1;

const record = (v: unknown): Record<string, unknown> =>
  v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : {};

const text = (v: unknown): string | null => (typeof v === "string" ? v : typeof v === "number" ? String(v) : null);

// A frame as the client sent it, or null when it is not one.
export function decodeFrame(data: Buffer, binary: boolean, vsn: Vsn): Frame | null {
  if (binary) return decodePush(data);
  let raw: unknown;
  try {
    raw = JSON.parse(data.toString("utf8"));
  } catch {
    return null;
  }
  if (vsn === "2.0.0" && Array.isArray(raw) && raw.length === 5) {
    const [joinRef, ref, topic, event, payload] = raw;
    if (typeof topic !== "string" || typeof event !== "string") return null;
    return { joinRef: text(joinRef), ref: text(ref), topic, event, payload: record(payload) };
  }
  const o = record(raw);
  if (typeof o.topic !== "string" || typeof o.event !== "string") return null;
  return { joinRef: text(o.join_ref), ref: text(o.ref), topic: o.topic, event: o.event, payload: record(o.payload) };
}

function decodePush(buf: Buffer): Frame | null {
  if (buf.length < 7 || buf[0] !== PUSH) return null;
  const lengths = [buf[1], buf[2], buf[3], buf[4], buf[5]];
  const encoding = buf[6];
  let at = 7;
  const strings = lengths.map((n) => {
    const s = buf.subarray(at, at + n).toString("utf8");
    at += n;
    return s;
  });
  if (at > buf.length) return null;
  const [joinRef, ref, topic, event, metadata] = strings;
  const body = buf.subarray(at);
  let payload: unknown;
  let meta: Record<string, unknown> = {};
  try {
    payload = encoding === JSON_ENCODING ? JSON.parse(body.toString("utf8") || "{}") : Buffer.from(body);
    if (metadata) meta = record(JSON.parse(metadata));
  } catch {
    return null;
  }
  return {
    joinRef: joinRef || null,
    ref: ref || null,
    topic,
    event: "broadcast",
    payload: { ...meta, type: "broadcast", event, payload },
  };
}

export function encodeFrame(f: Frame, vsn: Vsn): string | Buffer {
  const inner = f.payload.payload;
  if (f.event === "broadcast" && Buffer.isBuffer(inner)) return encodeBinaryBroadcast(f.topic, f.payload, inner);
  if (vsn === "2.0.0") return JSON.stringify([f.joinRef, f.ref, f.topic, f.event, f.payload]);
  return JSON.stringify({ join_ref: f.joinRef, ref: f.ref, topic: f.topic, event: f.event, payload: f.payload });
}

function encodeBinaryBroadcast(topic: string, payload: Record<string, unknown>, body: Buffer): Buffer {
  const t = Buffer.from(topic, "utf8");
  const e = Buffer.from(String(payload.event ?? ""), "utf8");
  const head = Buffer.from([BROADCAST, t.length, e.length, 0, 0]);
  return Buffer.concat([head, t, e, body]);
}

export const reply = (
  to: Pick<Frame, "joinRef" | "ref" | "topic">,
  status: "ok" | "error",
  response: Record<string, unknown> = {},
): Frame => ({ joinRef: to.joinRef, ref: to.ref, topic: to.topic, event: "phx_reply", payload: { status, response } });
