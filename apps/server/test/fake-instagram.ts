import { randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { metaError } from "./fake-meta-graph.ts";

// Issue 24: a local stand-in for Instagram's business login and Instagram's Graph API (the Instagram API with
// Instagram Login), in the shapes Meta documents — one server for the three hosts (IG_LOGIN_URL, IG_API_URL,
// IG_GRAPH_URL):
// - GET /oauth/authorize: the signed-in professional account consents at once and is sent back to redirect_uri with
//   ?code=…#_&state (or ?error=access_denied&error_reason=user_denied&error_description=… when it declines);
// - POST /oauth/access_token (form: client_id, client_secret, grant_type=authorization_code, redirect_uri, code): a
//   short-lived token, each code once; errors as {error_type, code, error_message};
// - GET /access_token?grant_type=ig_exchange_token&client_secret&access_token: a long-lived token (60 days);
// - GET /refresh_access_token?grant_type=ig_refresh_token&access_token: a new long-lived token;
// - GET /v21.0/me?fields=user_id,username,name; POST /v21.0/me/subscribed_apps?subscribed_fields=messages;
//   POST /v21.0/{ig-user-id}/messages — each with a long-lived token as the bearer, else Graph's code 190.

export type FakeIgAccount = { userId: string; username: string; name: string };
export type FakeInstagram = {
  url: string;
  appId: string;
  appSecret: string;
  signIn(account: FakeIgAccount): void;
  declineNext: boolean;
  subscribed: Map<string, string>; // ig user id → subscribed fields
  sent: Array<{ igUserId: string; token: string; body: Record<string, unknown> }>;
  issued: string[]; // every token handed out (to check none is kept in clear)
  refreshes: number;
  revoke(token: string): void;
  close(): Promise<void>;
};

const token = (prefix: string) => `${prefix}${randomBytes(24).toString("base64url")}`;

export async function startFakeInstagram(): Promise<FakeInstagram> {
  let current: FakeIgAccount | null = null;
  const codes = new Map<string, { redirectUri: string; account: FakeIgAccount }>();
  const shortTokens = new Map<string, FakeIgAccount>();
  const longTokens = new Map<string, FakeIgAccount>();
  const fake: FakeInstagram = {
    url: "",
    appId: "990011223344556",
    appSecret: randomBytes(16).toString("hex"),
    signIn: (a) => {
      current = a;
    },
    declineNext: false,
    subscribed: new Map(),
    sent: [],
    issued: [],
    refreshes: 0,
    revoke: (t) => longTokens.delete(t),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  const json = (res: http.ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { "content-type": "application/json" });
    res.end(JSON.stringify(body));
  };
  const oauthError = (res: http.ServerResponse, message: string) =>
    json(res, 400, { error_type: "OAuthException", code: 400, error_message: message });
  const bearer = (req: http.IncomingMessage) => (req.headers.authorization ?? "").replace(/^Bearer /, "");
  const invalid = (res: http.ServerResponse) =>
    metaError(res, 400, 190, "Invalid OAuth access token - Cannot parse access token");

  const server = http.createServer(async (req, res) => {
    const u = new URL(req.url ?? "/", "http://fake");
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks).toString("utf8");
    if (req.method === "GET" && u.pathname === "/oauth/authorize") {
      const redirect = u.searchParams.get("redirect_uri") ?? "";
      const state = u.searchParams.get("state") ?? "";
      if (u.searchParams.get("client_id") !== fake.appId) return oauthError(res, "Invalid platform app");
      if (u.searchParams.get("response_type") !== "code" || !redirect) return oauthError(res, "Invalid request");
      const back = new URL(redirect);
      if (fake.declineNext || !current) {
        fake.declineNext = false;
        back.search = new URLSearchParams({
          error: "access_denied",
          error_reason: "user_denied",
          error_description: "The user denied your request",
          state,
        }).toString();
        res.writeHead(302, { location: back.toString() });
        return res.end();
      }
      const code = randomBytes(18).toString("base64url");
      codes.set(code, { redirectUri: redirect, account: current });
      back.search = new URLSearchParams({ code, state }).toString();
      res.writeHead(302, { location: `${back.toString()}#_` });
      return res.end();
    }
    if (req.method === "POST" && u.pathname === "/oauth/access_token") {
      const f = new URLSearchParams(raw);
      if (f.get("client_id") !== fake.appId || f.get("client_secret") !== fake.appSecret) {
        return oauthError(res, "Error validating client secret.");
      }
      if (f.get("grant_type") !== "authorization_code") return oauthError(res, "Unsupported grant type");
      const c = codes.get(f.get("code") ?? "");
      if (!c || c.redirectUri !== f.get("redirect_uri")) {
        return oauthError(res, "Error validating verification code. Please make sure your redirect_uri is identical");
      }
      codes.delete(f.get("code") ?? "");
      const t = token("IGQVJshort");
      shortTokens.set(t, c.account);
      fake.issued.push(t);
      return json(res, 200, {
        access_token: t,
        user_id: Number(c.account.userId),
        permissions: ["instagram_business_basic", "instagram_business_manage_messages"],
      });
    }
    if (req.method === "GET" && (u.pathname === "/access_token" || u.pathname === "/refresh_access_token")) {
      const refresh = u.pathname === "/refresh_access_token";
      const given = u.searchParams.get("access_token") ?? "";
      const account = refresh ? longTokens.get(given) : shortTokens.get(given);
      if (
        refresh
          ? u.searchParams.get("grant_type") !== "ig_refresh_token"
          : u.searchParams.get("grant_type") !== "ig_exchange_token"
      ) {
        return metaError(res, 400, 100, "Unsupported grant_type");
      }
      if (!refresh && u.searchParams.get("client_secret") !== fake.appSecret) {
        return metaError(res, 400, 101, "Error validating client secret.");
      }
      if (!account) return invalid(res);
      if (refresh) {
        fake.refreshes++;
        longTokens.delete(given);
      } else shortTokens.delete(given);
      const t = token("IGAAlong");
      longTokens.set(t, account);
      fake.issued.push(t);
      return json(res, 200, { access_token: t, token_type: "bearer", expires_in: 5_184_000 });
    }
    const account = longTokens.get(bearer(req));
    if (req.method === "GET" && u.pathname === "/v21.0/me") {
      if (!account) return invalid(res);
      return json(res, 200, {
        user_id: account.userId,
        username: account.username,
        name: account.name,
        id: `9${account.userId}`,
      });
    }
    if (req.method === "POST" && u.pathname === "/v21.0/me/subscribed_apps") {
      if (!account) return invalid(res);
      fake.subscribed.set(account.userId, u.searchParams.get("subscribed_fields") ?? "");
      return json(res, 200, { success: true });
    }
    const send = /^\/v21\.0\/([^/]+)\/messages$/.exec(u.pathname);
    if (req.method === "POST" && send) {
      if (!account) return invalid(res);
      if (account.userId !== decodeURIComponent(send[1])) return metaError(res, 403, 200, "Permissions error");
      const body = JSON.parse(raw || "{}") as { recipient?: { id?: string } };
      fake.sent.push({ igUserId: send[1], token: bearer(req), body });
      return json(res, 200, {
        recipient_id: body.recipient?.id,
        message_id: `aWdfZAG1faWQ${randomBytes(9).toString("hex")}`,
      });
    }
    return metaError(res, 404, 803, `Unknown path components: ${u.pathname}`);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return fake;
}
