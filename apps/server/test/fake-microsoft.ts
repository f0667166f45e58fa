import { createHash, randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";

// Issue 24: a local stand-in for Microsoft's identity platform and Graph v1.0, in the shapes Microsoft answers, for
// the Outlook channel's tests (MS_LOGIN_URL and MS_GRAPH_URL point at it):
// - login: GET /{tenant}/oauth2/v2.0/authorize (the signed-in mailbox consents at once and is sent back to the
//   redirect_uri with ?code&state) and POST /{tenant}/oauth2/v2.0/token — authorization_code (client secret,
//   redirect_uri and the PKCE verifier checked; offline_access gives a refresh token) and refresh_token, which
//   ROTATES the refresh token: the old one is refused (invalid_grant) once used;
// - Graph: /me; /subscriptions (POST really calls the notificationUrl back with ?validationToken and wants the
//   token echoed as text/plain within 10 s; expiration at most 4230 minutes ahead; PATCH renews, GET and DELETE;
//   404 once lapsed or deleted); /me/messages/{id} (+ $expand=attachments, /attachments), /reply, /me/sendMail;
//   the inbox's messages/delta; OneDrive's simple PUT (< 4 MB) and upload sessions (chunks of 320 KiB multiples,
//   Content-Range) answering the driveItem with its webUrl;
// - errors as Graph's {error: {code, message}} and the identity platform's {error, error_description}.

export type FakeUser = { id: string; mail: string; displayName: string };
export type FakeMail = {
  id: string;
  conversationId: string;
  internetMessageId: string;
  subject: string;
  from: { emailAddress: { address: string; name: string } };
  body: { contentType: "text"; content: string };
  receivedDateTime: string;
  hasAttachments: boolean;
  attachments: Array<{ id: string; name: string; contentType: string; size: number; contentBytes: string }>;
};
export type FakeSubscription = {
  id: string;
  userId: string;
  resource: string;
  changeType: string;
  notificationUrl: string;
  lifecycleNotificationUrl: string | null;
  clientState: string | null;
  expirationDateTime: string;
  deleted?: boolean;
};
export type FakeMicrosoft = {
  url: string;
  clientId: string;
  clientSecret: string;
  // The mailbox that consents on the next /authorize (as if signed in at Microsoft).
  signIn(user: FakeUser): void;
  // Access tokens' lifetime in seconds (default 3600); 0 makes every new token expired at once.
  tokenLifetime: number;
  users: Map<string, FakeUser>;
  subscriptions: Map<string, FakeSubscription>;
  // A mail arriving in a mailbox: kept, and returned (to build the notification).
  deliver(
    userId: string,
    mail: Partial<Omit<FakeMail, "from">> & { from: string; subject: string; text: string },
  ): FakeMail;
  // Graph's change notification for a mail, as Graph posts it to the subscription's notificationUrl.
  notification(sub: FakeSubscription, mailId: string, clientState?: string | null): Record<string, unknown>;
  lifecycle(sub: FakeSubscription, event: "reauthorizationRequired" | "subscriptionRemoved" | "missed"): unknown;
  // Makes a subscription lapse (its expiry in the past): GET and PATCH answer 404.
  lapse(id: string): void;
  replies: Array<{ userId: string; messageId: string; body: Record<string, unknown> }>;
  sent: Array<{ userId: string; body: Record<string, unknown> }>;
  files: Map<string, { bytes: Buffer; webUrl: string; via: "simple" | "session"; chunks: number }>;
  refreshes: number;
  // Every access and refresh token handed out (to check none is kept in clear), and a way to revoke the refresh ones.
  issued: string[];
  revokeRefreshTokens(): void;
  validations: Array<{ url: string; ok: boolean }>;
  calls: Array<{ method: string; path: string }>;
  close(): Promise<void>;
};

const MAX_MINUTES = 4230;
const CHUNK = 320 * 1024;
const SIMPLE_MAX = 4 * 1024 * 1024;
const rid = (n = 18) => randomBytes(n).toString("base64url");

function send(res: http.ServerResponse, status: number, body?: unknown) {
  if (body === undefined) {
    res.writeHead(status);
    res.end();
    return;
  }
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
}
const graphError = (res: http.ServerResponse, status: number, code: string, message: string) =>
  send(res, status, { error: { code, message, innerError: { "request-id": rid(8), date: new Date().toISOString() } } });
const loginError = (res: http.ServerResponse, error: string, description: string) =>
  send(res, 400, { error, error_description: `AADSTS70000: ${description}`, error_codes: [70000] });

async function readBody(req: http.IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

export async function startFakeMicrosoft(): Promise<FakeMicrosoft> {
  const codes = new Map<
    string,
    { userId: string; redirectUri: string; challenge: string | null; scope: string; exp: number }
  >();
  const accessTokens = new Map<string, { userId: string; exp: number }>();
  const refreshTokens = new Map<string, string>(); // live refresh token → user
  const mail = new Map<string, FakeMail[]>();
  const sessions = new Map<string, { userId: string; path: string; size: number; got: Buffer[]; next: number }>();
  let current: FakeUser | null = null;

  const fake: FakeMicrosoft = {
    url: "",
    clientId: "00000000-fake-4000-8000-workmetrics01",
    clientSecret: `fake~secret~${rid(12)}`,
    signIn: (u) => {
      current = u;
      fake.users.set(u.id, u);
    },
    tokenLifetime: 3600,
    users: new Map(),
    subscriptions: new Map(),
    deliver: (userId, m) => {
      const box = mail.get(userId) ?? [];
      const made: FakeMail = {
        id: m.id ?? `AAMkAD${rid(24)}`,
        conversationId: m.conversationId ?? `AAQkAD${rid(16)}`,
        internetMessageId: m.internetMessageId ?? `<${rid(10)}@mail.example>`,
        subject: m.subject,
        from: { emailAddress: { address: m.from, name: m.from.split("@")[0] } },
        body: { contentType: "text", content: m.text },
        receivedDateTime: new Date().toISOString(),
        hasAttachments: Boolean(m.attachments?.length),
        attachments: m.attachments ?? [],
      };
      box.push(made);
      mail.set(userId, box);
      return made;
    },
    notification: (sub, mailId, clientState) => ({
      value: [
        {
          subscriptionId: sub.id,
          subscriptionExpirationDateTime: sub.expirationDateTime,
          changeType: "created",
          resource: `Users/${sub.userId}/Messages/${mailId}`,
          resourceData: {
            "@odata.type": "#Microsoft.Graph.Message",
            "@odata.id": `Users/${sub.userId}/Messages/${mailId}`,
            "@odata.etag": `W/"${rid(6)}"`,
            id: mailId,
          },
          clientState: clientState === undefined ? sub.clientState : clientState,
          tenantId: "fake-tenant",
        },
      ],
    }),
    lifecycle: (sub, event) => ({
      value: [
        {
          subscriptionId: sub.id,
          subscriptionExpirationDateTime: sub.expirationDateTime,
          tenantId: "fake-tenant",
          clientState: sub.clientState,
          lifecycleEvent: event,
        },
      ],
    }),
    lapse: (id) => {
      const s = fake.subscriptions.get(id);
      if (s) s.expirationDateTime = new Date(Date.now() - 60_000).toISOString();
    },
    replies: [],
    sent: [],
    files: new Map(),
    refreshes: 0,
    issued: [],
    revokeRefreshTokens: () => refreshTokens.clear(),
    validations: [],
    calls: [],
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };

  const issue = (userId: string, scope: string) => {
    const access = `eyJ0eXAiOiJKV1Qi.fake.${rid(24)}`;
    accessTokens.set(access, { userId, exp: Date.now() + fake.tokenLifetime * 1000 });
    fake.issued.push(access);
    const body: Record<string, unknown> = {
      token_type: "Bearer",
      scope,
      expires_in: fake.tokenLifetime,
      ext_expires_in: fake.tokenLifetime,
      access_token: access,
    };
    if (scope.split(" ").includes("offline_access")) {
      const refresh = `0.fake-refresh.${rid(32)}`;
      refreshTokens.set(refresh, userId);
      fake.issued.push(refresh);
      body.refresh_token = refresh;
    }
    return body;
  };

  const live = (s: FakeSubscription | undefined) =>
    s && !s.deleted && Date.parse(s.expirationDateTime) > Date.now() ? s : undefined;

  const validate = async (url: string): Promise<boolean> => {
    const token = `Validation: Testing client application reachability for subscription Request-Id: ${rid(8)}`;
    try {
      const u = new URL(url);
      u.searchParams.set("validationToken", token);
      const r = await fetch(u, {
        method: "POST",
        headers: { "content-type": "text/plain; charset=utf-8" },
        signal: AbortSignal.timeout(10_000),
      });
      const text = await r.text();
      const ok = r.status === 200 && (r.headers.get("content-type") ?? "").startsWith("text/plain") && text === token;
      fake.validations.push({ url, ok });
      return ok;
    } catch {
      fake.validations.push({ url, ok: false });
      return false;
    }
  };

  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://fake");
    const p = decodeURIComponent(url.pathname);
    fake.calls.push({ method: req.method ?? "GET", path: p });
    try {
      // ---- the identity platform
      let m = p.match(/^\/([^/]+)\/oauth2\/v2\.0\/authorize$/);
      if (m && req.method === "GET") {
        const q = url.searchParams;
        if (q.get("client_id") !== fake.clientId) return loginError(res, "unauthorized_client", "Unknown client_id");
        if (q.get("response_type") !== "code") return loginError(res, "unsupported_response_type", "Only code");
        const redirect = q.get("redirect_uri");
        if (!redirect) return loginError(res, "invalid_request", "redirect_uri is missing");
        if (!current) return send(res, 200, { error: "login_required" });
        const code = `0.fake-code.${rid(24)}`;
        codes.set(code, {
          userId: current.id,
          redirectUri: redirect,
          challenge: q.get("code_challenge"),
          scope: q.get("scope") ?? "",
          exp: Date.now() + 10 * 60_000,
        });
        const back = new URL(redirect);
        back.searchParams.set("code", code);
        if (q.get("state")) back.searchParams.set("state", q.get("state") as string);
        res.writeHead(302, { location: back.toString() });
        return res.end();
      }
      m = p.match(/^\/([^/]+)\/oauth2\/v2\.0\/token$/);
      if (m && req.method === "POST") {
        const form = new URLSearchParams((await readBody(req)).toString("utf8"));
        if (form.get("client_id") !== fake.clientId || form.get("client_secret") !== fake.clientSecret) {
          return send(res, 401, { error: "invalid_client", error_description: "AADSTS7000215: Invalid client secret" });
        }
        if (form.get("grant_type") === "authorization_code") {
          const c = codes.get(form.get("code") ?? "");
          codes.delete(form.get("code") ?? "");
          if (!c || c.exp < Date.now()) return loginError(res, "invalid_grant", "The code is unknown or used");
          if (c.redirectUri !== form.get("redirect_uri"))
            return loginError(res, "invalid_grant", "redirect_uri differs");
          if (c.challenge) {
            const v = form.get("code_verifier") ?? "";
            if (createHash("sha256").update(v).digest("base64url") !== c.challenge) {
              return loginError(res, "invalid_grant", "The code_verifier does not match the code_challenge");
            }
          }
          return send(res, 200, issue(c.userId, c.scope || (form.get("scope") ?? "")));
        }
        if (form.get("grant_type") === "refresh_token") {
          const given = form.get("refresh_token") ?? "";
          const userId = refreshTokens.get(given);
          if (!userId) return loginError(res, "invalid_grant", "The refresh token has expired or was already used");
          refreshTokens.delete(given); // rotated: the old one never works again
          fake.refreshes++;
          return send(res, 200, issue(userId, `${form.get("scope") ?? ""} offline_access`.trim()));
        }
        return loginError(res, "unsupported_grant_type", "Only authorization_code and refresh_token");
      }

      // ---- OneDrive upload sessions (the uploadUrl carries its own authorisation, as Microsoft's does)
      m = p.match(/^\/upload\/([\w-]+)$/);
      if (m && req.method === "PUT") {
        const s = sessions.get(m[1]);
        if (!s) return graphError(res, 404, "itemNotFound", "The upload session was not found");
        const range = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(String(req.headers["content-range"] ?? ""));
        const bytes = await readBody(req);
        if (!range) return graphError(res, 400, "invalidRequest", "Content-Range is required");
        const [from, to, total] = [Number(range[1]), Number(range[2]), Number(range[3])];
        if (total !== s.size || from !== s.next || to - from + 1 !== bytes.length) {
          return graphError(res, 416, "invalidRange", `Expected bytes from ${s.next}`);
        }
        const last = to + 1 === total;
        if (!last && bytes.length % CHUNK !== 0) {
          return graphError(res, 400, "invalidRange", "Fragments must be multiples of 320 KiB");
        }
        s.got.push(bytes);
        s.next = to + 1;
        if (!last) return send(res, 202, { nextExpectedRanges: [`${s.next}-`] });
        sessions.delete(m[1]);
        return send(res, 201, driveItem(s.path, Buffer.concat(s.got), "session", s.got.length));
      }

      // ---- Graph v1.0
      if (!p.startsWith("/v1.0/")) return graphError(res, 404, "NotFound", "No such endpoint");
      const auth = String(req.headers.authorization ?? "");
      const at = accessTokens.get(auth.replace(/^Bearer /, ""));
      if (!at) return graphError(res, 401, "InvalidAuthenticationToken", "Access token is empty or invalid.");
      if (at.exp <= Date.now()) {
        return graphError(res, 401, "InvalidAuthenticationToken", "Lifetime validation failed, the token is expired.");
      }
      const user = fake.users.get(at.userId) as FakeUser;
      const g = p.slice(5);
      if (g === "/me" && req.method === "GET") {
        return send(res, 200, {
          id: user.id,
          mail: user.mail,
          userPrincipalName: user.mail,
          displayName: user.displayName,
        });
      }
      if (g === "/subscriptions" && req.method === "POST") {
        const b = JSON.parse((await readBody(req)).toString("utf8") || "{}");
        const exp = Date.parse(b.expirationDateTime ?? "");
        if (!b.notificationUrl || !b.resource || !b.changeType || !Number.isFinite(exp)) {
          return graphError(
            res,
            400,
            "InvalidRequest",
            "notificationUrl, resource, changeType and expiry are required",
          );
        }
        if (exp > Date.now() + MAX_MINUTES * 60_000 + 60_000) {
          return graphError(
            res,
            400,
            "InvalidRequest",
            "Subscription expiration can only be 4230 minutes in the future.",
          );
        }
        if (!(await validate(b.notificationUrl))) {
          return graphError(
            res,
            400,
            "ValidationError",
            "Subscription validation request failed. Response must exactly match validationToken query parameter.",
          );
        }
        if (b.lifecycleNotificationUrl && !(await validate(b.lifecycleNotificationUrl))) {
          return graphError(res, 400, "ValidationError", "Lifecycle notification URL validation failed.");
        }
        const sub: FakeSubscription = {
          id: randomUUIDish(),
          userId: user.id,
          resource: b.resource,
          changeType: b.changeType,
          notificationUrl: b.notificationUrl,
          lifecycleNotificationUrl: b.lifecycleNotificationUrl ?? null,
          clientState: b.clientState ?? null,
          expirationDateTime: new Date(exp).toISOString(),
        };
        fake.subscriptions.set(sub.id, sub);
        return send(res, 201, { ...sub, clientState: sub.clientState, applicationId: fake.clientId });
      }
      m = g.match(/^\/subscriptions\/([\w-]+)$/);
      if (m) {
        const sub = live(fake.subscriptions.get(m[1]));
        if (!sub || sub.userId !== user.id) {
          return graphError(res, 404, "ResourceNotFound", `The object was not found.`);
        }
        if (req.method === "GET") return send(res, 200, sub);
        if (req.method === "DELETE") {
          sub.deleted = true;
          return send(res, 204);
        }
        if (req.method === "PATCH") {
          const b = JSON.parse((await readBody(req)).toString("utf8") || "{}");
          const exp = Date.parse(b.expirationDateTime ?? "");
          if (!Number.isFinite(exp) || exp > Date.now() + MAX_MINUTES * 60_000 + 60_000) {
            return graphError(
              res,
              400,
              "InvalidRequest",
              "Subscription expiration can only be 4230 minutes in the future.",
            );
          }
          sub.expirationDateTime = new Date(exp).toISOString();
          return send(res, 200, sub);
        }
      }
      const box = mail.get(user.id) ?? [];
      if (/^\/me\/mailFolders\/(inbox|'Inbox'|Inbox)\/messages\/delta$/i.test(g) && req.method === "GET") {
        const after = Number(url.searchParams.get("$deltatoken") ?? "0");
        const list = box.slice(Number.isFinite(after) ? after : 0);
        return send(res, 200, {
          value: list.map(({ attachments: _a, ...rest }) => rest),
          "@odata.deltaLink": `${fake.url}/v1.0/me/mailFolders/inbox/messages/delta?$deltatoken=${box.length}`,
        });
      }
      m = g.match(/^\/me\/messages\/([\w=+-]+)(\/attachments|\/reply)?$/);
      if (m) {
        const msg = box.find((x) => x.id === m?.[1]);
        if (!msg) return graphError(res, 404, "ErrorItemNotFound", "The specified object was not found in the store.");
        if (m[2] === "/reply" && req.method === "POST") {
          const b = JSON.parse((await readBody(req)).toString("utf8") || "{}");
          fake.replies.push({ userId: user.id, messageId: msg.id, body: b });
          return send(res, 202);
        }
        if (m[2] === "/attachments") {
          return send(res, 200, {
            value: msg.attachments.map((a) => ({ "@odata.type": "#microsoft.graph.fileAttachment", ...a })),
          });
        }
        const { attachments, ...rest } = msg;
        const expand = (url.searchParams.get("$expand") ?? "").includes("attachments");
        return send(res, 200, {
          ...rest,
          ...(expand
            ? { attachments: attachments.map((a) => ({ "@odata.type": "#microsoft.graph.fileAttachment", ...a })) }
            : {}),
        });
      }
      if (g === "/me/sendMail" && req.method === "POST") {
        const b = JSON.parse((await readBody(req)).toString("utf8") || "{}");
        if (!b.message?.toRecipients?.length) return graphError(res, 400, "ErrorInvalidRecipients", "No recipients");
        fake.sent.push({ userId: user.id, body: b });
        return send(res, 202);
      }
      m = g.match(/^\/me\/drive\/root:\/(.+):\/(content|createUploadSession)$/);
      if (m && m[2] === "content" && req.method === "PUT") {
        const bytes = await readBody(req);
        if (bytes.length > SIMPLE_MAX) {
          return graphError(
            res,
            413,
            "requestEntityTooLarge",
            "Simple upload is limited to 4 MB; use an upload session",
          );
        }
        return send(res, 201, driveItem(m[1], bytes, "simple", 1));
      }
      if (m && m[2] === "createUploadSession" && req.method === "POST") {
        const b = JSON.parse((await readBody(req)).toString("utf8") || "{}");
        const size = Number(b.item?.fileSize ?? req.headers["x-file-size"] ?? 0);
        const id = rid(12);
        sessions.set(id, { userId: user.id, path: m[1], size, got: [], next: 0 });
        return send(res, 200, {
          uploadUrl: `${fake.url}/upload/${id}`,
          expirationDateTime: new Date(Date.now() + 3600_000).toISOString(),
          nextExpectedRanges: ["0-"],
        });
      }
      return graphError(res, 400, "BadRequest", `Unsupported request: ${req.method} ${g}`);
    } catch (err) {
      graphError(res, 500, "InternalServerError", (err as Error).message);
    }
  });

  const driveItem = (path: string, bytes: Buffer, via: "simple" | "session", chunks: number) => {
    const webUrl = `${fake.url}/personal/drive/${path.split("/").map(encodeURIComponent).join("/")}`;
    fake.files.set(path, { bytes, webUrl, via, chunks });
    return { id: rid(10), name: path.split("/").at(-1), size: bytes.length, webUrl, file: {} };
  };

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return fake;
}

const randomUUIDish = () => {
  const h = randomBytes(16).toString("hex");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
};
