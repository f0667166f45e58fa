// Issue 24: the few calls of Meta's Graph API v20.0 the inbox makes, at META_GRAPH_URL (DESIGN §2.3.2). A token
// travels only in the Authorization header (never in a URL, which proxies and logs keep), and an error is Meta's
// `{error: {message, type, code, fbtrace_id}}` turned into a GraphError that names neither the token nor the URL.

export const GRAPH_VERSION = "v20.0";
const TIMEOUT_MS = 15_000;

export class GraphError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code: number | null,
    readonly fbtraceId: string | null,
  ) {
    super(message);
  }
  // Meta's code 190 (and HTTP 401): the token expired or was revoked — the account needs re-authorising.
  get tokenInvalid(): boolean {
    return this.code === 190 || this.status === 401;
  }
}

type Init = { method?: string; body?: unknown; form?: FormData | URLSearchParams };

async function call<T>(base: string, token: string, path: string, init: Init = {}): Promise<T> {
  return metaFetch<T>(`${base}/${GRAPH_VERSION}/${path}`, token, init);
}

// One request to a Meta API (Facebook's Graph, Instagram's Graph or its OAuth end point), the token as a bearer when
// given; Meta's errors ({error: {message, code, fbtrace_id}}, and Instagram's OAuth {error_type, code,
// error_message}) as a GraphError that says what Meta said.
export async function metaFetch<T>(url: string, token: string | null, init: Init = {}): Promise<T> {
  const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  let body: FormData | URLSearchParams | string | undefined;
  if (init.form) body = init.form;
  else if (init.body !== undefined) {
    headers["content-type"] = "application/json";
    body = JSON.stringify(init.body);
  }
  let res: Response;
  try {
    res = await fetch(url, {
      method: init.method ?? "GET",
      headers,
      body,
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch (err) {
    throw new GraphError(`Meta's Graph API could not be reached (${(err as Error).name})`, 0, null, null);
  }
  const text = await res.text();
  let json: unknown = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    // not JSON: said below
  }
  if (!res.ok) {
    const o = json as {
      error?: { message?: string; code?: number; fbtrace_id?: string };
      error_message?: string;
      code?: number;
    } | null;
    const message = o?.error?.message ?? o?.error_message;
    const code = o?.error?.code ?? o?.code;
    throw new GraphError(
      message ? `Meta answered: ${message}` : `Meta answered HTTP ${res.status}`,
      res.status,
      typeof code === "number" ? code : null,
      o?.error?.fbtrace_id ?? null,
    );
  }
  if (json === null) throw new GraphError("Meta answered something that is not JSON", res.status, null, null);
  return json as T;
}

export type TokenInfo = { valid: boolean; name: string | null };

// Checks a token before it is kept: debug_token must call it valid, and the account's id must be readable with it
// (a WhatsApp phone number id, a page id or an Instagram account id), which also gives the account's name.
export async function checkToken(
  base: string,
  channel: "whatsapp" | "facebook" | "instagram",
  externalId: string,
  token: string,
): Promise<TokenInfo> {
  const debug = await call<{ data?: { is_valid?: boolean; error?: { message?: string } } }>(
    base,
    token,
    `debug_token?input_token=${encodeURIComponent(token)}`,
  );
  if (!debug.data?.is_valid) {
    throw new GraphError(
      debug.data?.error?.message
        ? `Meta says the token is not valid: ${debug.data.error.message}`
        : "Meta says the token is not valid",
      400,
      190,
      null,
    );
  }
  const fields = channel === "whatsapp" ? "id,display_phone_number,verified_name" : "id,name,username";
  const me = await call<{
    id?: string;
    display_phone_number?: string;
    verified_name?: string;
    name?: string;
    username?: string;
  }>(base, token, `${encodeURIComponent(externalId)}?fields=${fields}`);
  const name =
    channel === "whatsapp"
      ? [me.verified_name, me.display_phone_number].filter(Boolean).join(" · ") || null
      : (me.name ?? me.username ?? null);
  return { valid: true, name };
}

export type Sent = { id: string };

// WhatsApp Cloud API: POST /{phone_number_id}/messages. `message` is the type-specific part ({type:"text", text}…).
export async function sendWhatsApp(
  base: string,
  token: string,
  phoneNumberId: string,
  to: string,
  message: Record<string, unknown>,
): Promise<Sent> {
  const res = await call<{ messages?: Array<{ id: string }> }>(
    base,
    token,
    `${encodeURIComponent(phoneNumberId)}/messages`,
    {
      method: "POST",
      body: { messaging_product: "whatsapp", recipient_type: "individual", to, ...message },
    },
  );
  const id = res.messages?.[0]?.id;
  if (!id) throw new GraphError("Meta accepted the message but gave it no id", 200, null, null);
  return { id };
}

// Messenger and Instagram: POST /{page_id}/messages with the recipient's page-scoped id.
export async function sendPageMessage(
  base: string,
  token: string,
  pageId: string,
  recipientId: string,
  text: string,
): Promise<Sent> {
  const res = await call<{ message_id?: string }>(base, token, `${encodeURIComponent(pageId)}/messages`, {
    method: "POST",
    body: { recipient: { id: recipientId }, messaging_type: "RESPONSE", message: { text } },
  });
  if (!res.message_id) throw new GraphError("Meta accepted the message but gave it no id", 200, null, null);
  return { id: res.message_id };
}

// A WhatsApp media file: its short-lived URL, then the bytes (fetched with the same token, as Meta requires).
export async function downloadMedia(
  base: string,
  token: string,
  mediaId: string,
): Promise<{ bytes: Buffer; mimeType: string }> {
  const info = await call<{ url?: string; mime_type?: string }>(base, token, encodeURIComponent(mediaId));
  if (!info.url) throw new GraphError("Meta gave no URL for the media", 200, null, null);
  let res: Response;
  try {
    res = await fetch(info.url, {
      headers: { authorization: `Bearer ${token}` },
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch (err) {
    throw new GraphError(`The media could not be downloaded (${(err as Error).name})`, 0, null, null);
  }
  if (!res.ok) throw new GraphError(`The media download answered HTTP ${res.status}`, res.status, null, null);
  return {
    bytes: Buffer.from(await res.arrayBuffer()),
    mimeType: info.mime_type ?? res.headers.get("content-type") ?? "application/octet-stream",
  };
}

// Uploads a file for a WhatsApp message (a document's PDF): POST /{phone_number_id}/media → the media id.
export async function uploadWhatsAppMedia(
  base: string,
  token: string,
  phoneNumberId: string,
  bytes: Uint8Array,
  mimeType: string,
  fileName: string,
): Promise<string> {
  const form = new FormData();
  form.set("messaging_product", "whatsapp");
  form.set("type", mimeType);
  form.set("file", new Blob([Buffer.from(bytes)], { type: mimeType }), fileName);
  const res = await call<{ id?: string }>(base, token, `${encodeURIComponent(phoneNumberId)}/media`, {
    method: "POST",
    form,
  });
  if (!res.id) throw new GraphError("Meta accepted the file but gave it no id", 200, null, null);
  return res.id;
}
