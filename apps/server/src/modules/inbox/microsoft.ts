import { GraphError } from "./graph.ts";

// Issue 24: the calls the Outlook channel makes to Microsoft's identity platform (MS_LOGIN_URL) and Graph v1.0
// (MS_GRAPH_URL), DESIGN §2.3.2. As with Meta, a token travels only in the Authorization header or the token
// request's form body, and a failure is a GraphError that names neither the token nor the URL: Graph's
// {error: {code, message}} or the identity platform's {error, error_description}. 401 means the token is refused.

const TIMEOUT_MS = 15_000;
export const OUTLOOK_SCOPES = "offline_access openid email User.Read Mail.ReadWrite Mail.Send Files.ReadWrite";
export const OUTLOOK_RESOURCE = "me/mailFolders('Inbox')/messages";
// Graph's limit for mail subscriptions is 4230 minutes; ours ask a little less, so a clock skew never exceeds it.
export const SUBSCRIPTION_MINUTES = 4200;
export const SIMPLE_UPLOAD_MAX = 4 * 1024 * 1024;
export const UPLOAD_CHUNK = 320 * 1024 * 10; // 3.2 MiB, a multiple of 320 KiB as Graph requires

export type MsTokens = { access_token: string; refresh_token?: string; expires_in: number; scope?: string };
export type MsSubscription = { id: string; expirationDateTime: string; clientState?: string | null };
export type MsMail = {
  id: string;
  conversationId?: string;
  internetMessageId?: string;
  subject?: string | null;
  from?: { emailAddress?: { address?: string; name?: string } };
  body?: { contentType?: string; content?: string };
  bodyPreview?: string;
  receivedDateTime?: string;
  hasAttachments?: boolean;
  attachments?: Array<{ "@odata.type"?: string; name?: string; contentType?: string; contentBytes?: string }>;
};

async function request<T>(url: string, init: RequestInit, who: string): Promise<T | null> {
  let res: Response;
  try {
    res = await fetch(url, { ...init, signal: AbortSignal.timeout(TIMEOUT_MS) });
  } catch (err) {
    throw new GraphError(`${who} could not be reached (${(err as Error).name})`, 0, null, null);
  }
  const text = await res.text();
  let json: unknown = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    // not JSON: said below when it matters
  }
  if (!res.ok) {
    const body = json as { error?: { message?: string; code?: string } | string; error_description?: string } | null;
    const e = body?.error;
    const words =
      typeof e === "object" && e?.message
        ? e.message
        : body?.error_description
          ? body.error_description.split(/\r?\n/)[0]
          : typeof e === "string"
            ? e
            : `HTTP ${res.status}`;
    // invalid_grant from the token endpoint: the refresh token is gone — as good as a refused token.
    const status = typeof e === "string" && e === "invalid_grant" ? 401 : res.status;
    throw new GraphError(`${who} answered: ${words}`, status, null, null);
  }
  return json as T | null;
}

const graph = <T>(base: string, token: string, path: string, init: RequestInit = {}): Promise<T | null> =>
  request<T>(
    `${base}/v1.0/${path}`,
    {
      ...init,
      headers: {
        authorization: `Bearer ${token}`,
        ...(init.body && typeof init.body === "string" ? { "content-type": "application/json" } : {}),
        ...(init.headers as Record<string, string> | undefined),
      },
    },
    "Microsoft Graph",
  );

export function authorizeUrl(
  loginUrl: string,
  clientId: string,
  redirectUri: string,
  state: string,
  challenge: string,
): string {
  const u = new URL(`${loginUrl}/common/oauth2/v2.0/authorize`);
  u.searchParams.set("client_id", clientId);
  u.searchParams.set("response_type", "code");
  u.searchParams.set("redirect_uri", redirectUri);
  u.searchParams.set("response_mode", "query");
  u.searchParams.set("scope", OUTLOOK_SCOPES);
  u.searchParams.set("state", state);
  u.searchParams.set("code_challenge", challenge);
  u.searchParams.set("code_challenge_method", "S256");
  u.searchParams.set("prompt", "select_account");
  return u.toString();
}

export async function tokenRequest(
  loginUrl: string,
  clientId: string,
  clientSecret: string,
  grant: { code: string; redirect_uri: string; code_verifier: string } | { refresh_token: string },
): Promise<MsTokens> {
  const form = new URLSearchParams({ client_id: clientId, client_secret: clientSecret, scope: OUTLOOK_SCOPES });
  if ("code" in grant) {
    form.set("grant_type", "authorization_code");
    form.set("code", grant.code);
    form.set("redirect_uri", grant.redirect_uri);
    form.set("code_verifier", grant.code_verifier);
  } else {
    form.set("grant_type", "refresh_token");
    form.set("refresh_token", grant.refresh_token);
  }
  const t = await request<MsTokens>(
    `${loginUrl}/common/oauth2/v2.0/token`,
    { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: form.toString() },
    "Microsoft's login",
  );
  if (!t?.access_token) throw new GraphError("Microsoft's login answered no access token", 502, null, null);
  return t;
}

export const me = async (base: string, token: string) =>
  (await graph<{ id: string; mail?: string | null; userPrincipalName?: string; displayName?: string }>(
    base,
    token,
    "me",
  )) as { id: string; mail?: string | null; userPrincipalName?: string; displayName?: string };

export const createSubscription = async (
  base: string,
  token: string,
  notificationUrl: string,
  clientState: string,
  expires: Date,
) =>
  (await graph<MsSubscription>(base, token, "subscriptions", {
    method: "POST",
    body: JSON.stringify({
      changeType: "created",
      notificationUrl,
      lifecycleNotificationUrl: notificationUrl,
      resource: OUTLOOK_RESOURCE,
      expirationDateTime: expires.toISOString(),
      clientState,
    }),
  })) as MsSubscription;

export const getSubscription = async (base: string, token: string, id: string) =>
  (await graph<MsSubscription>(base, token, `subscriptions/${encodeURIComponent(id)}`)) as MsSubscription;

export const renewSubscription = async (base: string, token: string, id: string, expires: Date) =>
  (await graph<MsSubscription>(base, token, `subscriptions/${encodeURIComponent(id)}`, {
    method: "PATCH",
    body: JSON.stringify({ expirationDateTime: expires.toISOString() }),
  })) as MsSubscription;

export const deleteSubscription = (base: string, token: string, id: string) =>
  graph(base, token, `subscriptions/${encodeURIComponent(id)}`, { method: "DELETE" });

// A mail with its attachments, its body as plain text (Graph converts HTML when asked to).
export const getMail = async (base: string, token: string, id: string) =>
  (await graph<MsMail>(base, token, `me/messages/${encodeURIComponent(id)}?$expand=attachments`, {
    headers: { prefer: 'outlook.body-content-type="text"' },
  })) as MsMail;

export async function inboxDelta(
  base: string,
  token: string,
  deltaLink: string | null,
): Promise<{ mails: MsMail[]; deltaLink: string | null }> {
  const mails: MsMail[] = [];
  let next: string | null = deltaLink ?? `${base}/v1.0/me/mailFolders/inbox/messages/delta`;
  let last: string | null = null;
  for (let page = 0; next && page < 50; page++) {
    const url: string = next.startsWith(base) ? next : `${base}/v1.0/me/mailFolders/inbox/messages/delta`;
    const r: { value?: MsMail[]; "@odata.nextLink"?: string; "@odata.deltaLink"?: string } | null = await request(
      url,
      { headers: { authorization: `Bearer ${token}` } },
      "Microsoft Graph",
    );
    mails.push(...(r?.value ?? []));
    next = r?.["@odata.nextLink"] ?? null;
    last = r?.["@odata.deltaLink"] ?? last;
  }
  return { mails, deltaLink: last };
}

export type MailFile = { name: string; contentType: string; bytes: Uint8Array };
const fileAttachment = (f: MailFile) => ({
  "@odata.type": "#microsoft.graph.fileAttachment",
  name: f.name,
  contentType: f.contentType,
  contentBytes: Buffer.from(f.bytes).toString("base64"),
});

// A reply in the mail's own thread (Graph keeps the subject and the recipients).
export const replyToMail = (base: string, token: string, mailId: string, comment: string, files: MailFile[]) =>
  graph(base, token, `me/messages/${encodeURIComponent(mailId)}/reply`, {
    method: "POST",
    body: JSON.stringify({ comment, ...(files.length ? { message: { attachments: files.map(fileAttachment) } } : {}) }),
  });

export const sendMail = (base: string, token: string, to: string, subject: string, text: string, files: MailFile[]) =>
  graph(base, token, "me/sendMail", {
    method: "POST",
    body: JSON.stringify({
      message: {
        subject,
        body: { contentType: "Text", content: text },
        toRecipients: [{ emailAddress: { address: to } }],
        attachments: files.map(fileAttachment),
      },
      saveToSentItems: true,
    }),
  });

const drivePath = (path: string) => path.split("/").filter(Boolean).map(encodeURIComponent).join("/");

// OneDrive: a file under 4 MB in one PUT; a larger one through an upload session, in chunks of 320 KiB multiples.
export async function uploadToDrive(
  base: string,
  token: string,
  path: string,
  bytes: Uint8Array,
  contentType: string,
): Promise<{ id: string; webUrl: string; size: number; via: "simple" | "session" }> {
  const p = drivePath(path);
  if (bytes.length < SIMPLE_UPLOAD_MAX) {
    const item = (await graph<{ id: string; webUrl: string; size: number }>(
      base,
      token,
      `me/drive/root:/${p}:/content`,
      {
        method: "PUT",
        headers: { "content-type": contentType },
        body: Buffer.from(bytes),
      },
    )) as { id: string; webUrl: string; size: number };
    return { ...item, via: "simple" };
  }
  const session = (await graph<{ uploadUrl: string }>(base, token, `me/drive/root:/${p}:/createUploadSession`, {
    method: "POST",
    body: JSON.stringify({ item: { "@microsoft.graph.conflictBehavior": "rename", fileSize: bytes.length } }),
  })) as { uploadUrl: string };
  let item: { id: string; webUrl: string; size: number } | null = null;
  for (let from = 0; from < bytes.length; from += UPLOAD_CHUNK) {
    const chunk = bytes.subarray(from, Math.min(from + UPLOAD_CHUNK, bytes.length));
    // The upload URL carries its own authorisation: no bearer token goes to it (Microsoft's guidance).
    item = await request<{ id: string; webUrl: string; size: number }>(
      session.uploadUrl,
      {
        method: "PUT",
        headers: {
          "content-length": String(chunk.length),
          "content-range": `bytes ${from}-${from + chunk.length - 1}/${bytes.length}`,
        },
        body: Buffer.from(chunk),
      },
      "OneDrive",
    );
  }
  if (!item?.webUrl) throw new GraphError("OneDrive finished the upload without the file's link", 502, null, null);
  return { ...item, via: "session" };
}
