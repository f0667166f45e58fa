import { createHmac, randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";

// Issue 24: a local stand-in for Meta's Graph API v20.0, in the shapes Meta answers — debug_token, an account read
// by its id, WhatsApp's POST /{phone_number_id}/messages and /media, a media id's short-lived URL and its download,
// and errors as {error: {message, type, code, fbtrace_id}}. The tests point META_GRAPH_URL at it. It also signs
// webhooks the way Meta does (X-Hub-Signature-256 over the raw body), to post them to the server under test.

export type SentMessage = { phoneNumberId: string; body: Record<string, unknown>; wamid: string };
export type FakeMeta = {
  url: string;
  // Valid tokens and the account ids each may read (phone number ids, page ids).
  grant(
    token: string,
    ids: Record<string, { display_phone_number?: string; verified_name?: string; name?: string }>,
  ): void;
  revoke(token: string): void;
  media: Map<string, { bytes: Buffer; mime: string }>;
  sent: SentMessage[];
  uploads: Array<{ phoneNumberId: string; size: number; type: string; fileName: string }>;
  calls: Array<{ method: string; path: string; auth: string | null }>;
  // Runs after a send is accepted and before Meta's answer leaves (statuses that beat the send's own commit).
  beforeAnswer: ((m: SentMessage) => Promise<void>) | null;
  failNextSend: { status: number; code: number; message: string } | null;
  close(): Promise<void>;
};

const trace = () => randomBytes(8).toString("base64url");

export function metaError(
  res: http.ServerResponse,
  status: number,
  code: number,
  message: string,
  type = "OAuthException",
) {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify({ error: { message, type, code, fbtrace_id: trace() } }));
}

function json(res: http.ServerResponse, body: unknown) {
  res.writeHead(200, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
}

async function readBody(req: http.IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

export async function startFakeMeta(port = 0): Promise<FakeMeta> {
  const tokens = new Map<string, Record<string, Record<string, string | undefined>>>();
  let serial = 0;
  const fake: FakeMeta = {
    url: "",
    grant: (token, ids) => tokens.set(token, { ...(tokens.get(token) ?? {}), ...ids }),
    revoke: (token) => tokens.delete(token),
    media: new Map(),
    sent: [],
    uploads: [],
    calls: [],
    beforeAnswer: null,
    failNextSend: null,
    close: async () => undefined,
  };
  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    const auth = req.headers.authorization?.replace(/^Bearer /, "") ?? null;
    fake.calls.push({ method: req.method ?? "GET", path: url.pathname, auth });
    const body = await readBody(req);
    const download = url.pathname.match(/^\/download\/(.+)$/);
    if (download) {
      const m = fake.media.get(download[1]);
      if (!auth || !tokens.has(auth)) return metaError(res, 401, 190, "Invalid OAuth access token.");
      if (!m) return metaError(res, 404, 100, "Media not found");
      res.writeHead(200, { "content-type": m.mime });
      return res.end(m.bytes);
    }
    const parts = url.pathname.split("/").filter(Boolean);
    if (parts[0] !== "v20.0") return metaError(res, 400, 2635, "Unknown API version", "OAuthException");
    if (!auth || !tokens.has(auth)) {
      return metaError(res, 400, 190, "Invalid OAuth access token - Cannot parse access token");
    }
    const ids = tokens.get(auth) ?? {};
    if (parts[1] === "debug_token") {
      return json(res, {
        data: {
          app_id: "1234",
          type: "SYSTEM_USER",
          is_valid: url.searchParams.get("input_token") === auth,
          scopes: ["whatsapp_business_messaging"],
        },
      });
    }
    const [, id, edge] = parts;
    if (!edge && req.method === "GET") {
      if (id.startsWith("media-")) {
        const m = fake.media.get(id);
        if (!m)
          return metaError(
            res,
            400,
            100,
            `Unsupported get request. Object with ID '${id}' does not exist`,
            "GraphMethodException",
          );
        return json(res, {
          url: `${fake.url}/download/${id}`,
          mime_type: m.mime,
          file_size: m.bytes.length,
          id,
          messaging_product: "whatsapp",
        });
      }
      if (!ids[id]) {
        return metaError(
          res,
          400,
          100,
          `Unsupported get request. Object with ID '${id}' does not exist, cannot be loaded due to missing permissions`,
          "GraphMethodException",
        );
      }
      return json(res, { id, ...ids[id] });
    }
    if (edge === "messages" && req.method === "POST") {
      if (!ids[id]) return metaError(res, 400, 100, `Object with ID '${id}' does not exist`, "GraphMethodException");
      if (fake.failNextSend) {
        const f = fake.failNextSend;
        fake.failNextSend = null;
        return metaError(res, f.status, f.code, f.message);
      }
      const parsed = JSON.parse(body.toString("utf8")) as Record<string, unknown>;
      const wamid = `wamid.FAKE${Date.now()}${serial++}`;
      const m = { phoneNumberId: id, body: parsed, wamid };
      fake.sent.push(m);
      if (fake.beforeAnswer) await fake.beforeAnswer(m);
      if (parsed.recipient)
        return json(res, { recipient_id: (parsed.recipient as { id: string }).id, message_id: wamid });
      return json(res, {
        messaging_product: "whatsapp",
        contacts: [{ input: parsed.to, wa_id: parsed.to }],
        messages: [{ id: wamid }],
      });
    }
    if (edge === "media" && req.method === "POST") {
      const text = body.toString("latin1");
      const name = text.match(/filename="([^"]+)"/)?.[1] ?? "file";
      const type = text.match(/name="type"\r\n\r\n([^\r]+)/)?.[1] ?? "";
      fake.uploads.push({ phoneNumberId: id, size: body.length, type, fileName: name });
      return json(res, { id: `up-${serial++}` });
    }
    return metaError(res, 400, 100, "Unsupported request", "GraphMethodException");
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fake.close = () => new Promise((resolve) => server.close(() => resolve()));
  return fake;
}

export const sign = (secret: string, raw: string) => `sha256=${createHmac("sha256", secret).update(raw).digest("hex")}`;

// A WhatsApp Cloud API webhook body: one entry per item of `changes` ({phone_number_id, messages?, statuses?, contacts?}).
export function waWebhook(
  changes: Array<{ phoneNumberId: string; messages?: unknown[]; statuses?: unknown[]; contacts?: unknown[] }>,
  entries = 1,
) {
  const per = Math.ceil(changes.length / entries);
  return {
    object: "whatsapp_business_account",
    entry: Array.from({ length: entries }, (_, e) => ({
      id: `waba-${e}`,
      changes: changes.slice(e * per, (e + 1) * per).map((c) => ({
        field: "messages",
        value: {
          messaging_product: "whatsapp",
          metadata: { display_phone_number: "6560000000", phone_number_id: c.phoneNumberId },
          ...(c.contacts ? { contacts: c.contacts } : {}),
          ...(c.messages ? { messages: c.messages } : {}),
          ...(c.statuses ? { statuses: c.statuses } : {}),
        },
      })),
    })),
  };
}
