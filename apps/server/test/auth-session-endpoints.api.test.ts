import { describe, expect, it } from "vitest";
import { DEMO_PASSWORD } from "./auth-helpers.ts";
import { api, baseUrl } from "./http.ts";

type Session = { access_token: string; refresh_token: string; expires_at: number };

async function signIn(email: string, password = DEMO_PASSWORD): Promise<Session> {
  const res = await api("/auth/v1/token?grant_type=password", { method: "POST", json: { email, password } });
  expect(res.status).toBe(200);
  return res.body as Session;
}

const setCookies = (headers: Headers) => headers.getSetCookie();
const cookieHeader = (headers: Headers) =>
  setCookies(headers)
    .map((c) => c.split(";")[0])
    .filter((c) => !c.endsWith("="))
    .join("; ");

const NOT_AUTHENTICATED = {
  error: "not_authenticated",
  description: "The user does not have an active session or is not authenticated",
};

// Spec §2 "Shell behaviour" and issue 3 item 4, over plain HTTP.
describe("POST /api/auth/callback", () => {
  it("accepts POST only: other methods → 405 Method Not Allowed", async () => {
    for (const method of ["GET", "PUT", "DELETE", "PATCH"]) {
      const res = await api("/api/auth/callback", { method });
      expect(res.status).toBe(405);
      expect(res.body.message).toBe("Method Not Allowed");
      expect(res.headers.get("allow")).toBe("POST");
    }
  });

  it("names what is missing or malformed", async () => {
    expect((await api("/api/auth/callback", { method: "POST", json: {} })).body.message).toBe("Auth event missing!");
    const noSession = await api("/api/auth/callback", { method: "POST", json: { event: "SIGNED_IN" } });
    expect(noSession.status).toBe(400);
    expect(noSession.body.message).toBe("Auth session missing!");
    for (const access_token of ["abc.def", "a.b.c.d", "not a token", "e30.bm90LWpzb24.sig", "e30.WzEsMl0.sig"]) {
      const res = await api("/api/auth/callback", {
        method: "POST",
        json: { event: "SIGNED_IN", session: { access_token } },
      });
      expect(res.status).toBe(400);
      expect(res.body.message).toBe("Invalid session data.");
    }
    // Three parts with a JSON payload, but not signed by us.
    const forged = `${Buffer.from('{"alg":"HS256"}').toString("base64url")}.${Buffer.from('{"sub":"x","session_id":"y"}').toString("base64url")}.c2ln`;
    const res = await api("/api/auth/callback", {
      method: "POST",
      json: { event: "SIGNED_IN", session: { access_token: forged } },
    });
    expect(res.body.message).toBe("Invalid session data.");
    expect(setCookies(res.headers)).toEqual([]);
  });

  it("sets the sb cookie: HttpOnly, SameSite=Lax, Path=/, no Domain, 8 hours", async () => {
    const session = await signIn("manager@demo.test");
    const res = await api("/api/auth/callback", { method: "POST", json: { event: "SIGNED_IN", session } });
    expect(res.status).toBe(200);
    const [cookie] = setCookies(res.headers);
    expect(cookie.startsWith(`sb-access-token=${session.access_token};`)).toBe(true);
    const attrs = cookie.split(";").map((a) => a.trim().toLowerCase());
    expect(attrs).toEqual(expect.arrayContaining(["max-age=28800", "path=/", "httponly", "samesite=lax"]));
    expect(attrs.some((a) => a.startsWith("domain"))).toBe(false);
    expect(attrs).not.toContain("secure");
  });

  it("keeps the cookie 7 days with remember: true, remembered for later events", async () => {
    const session = await signIn("finance@demo.test");
    const first = await api("/api/auth/callback", {
      method: "POST",
      json: { event: "SIGNED_IN", session, remember: true },
    });
    expect(setCookies(first.headers)[0]).toMatch(/Max-Age=604800/);
    const later = await api("/api/auth/callback", { method: "POST", json: { event: "TOKEN_REFRESHED", session } });
    expect(setCookies(later.headers)[0]).toMatch(/Max-Age=604800/);
  });

  it("marks the cookie Secure behind https", async () => {
    const session = await signIn("procurement@demo.test");
    const res = await api("/api/auth/callback", {
      method: "POST",
      json: { event: "SIGNED_IN", session },
      headers: { "x-forwarded-proto": "https" },
    });
    expect(setCookies(res.headers)[0]).toMatch(/; Secure/);
  });

  it("splits a token over 4 KB into chunks and reads it back", async () => {
    const session = await signIn("accounts@demo.test");
    const big = { bio: "x".repeat(5000) };
    const updated = await api("/auth/v1/user", {
      method: "PUT",
      json: { data: big },
      headers: { authorization: `Bearer ${session.access_token}` },
    });
    expect(updated.status).toBe(200);
    const refreshed = await api("/auth/v1/token?grant_type=refresh_token", {
      method: "POST",
      json: { refresh_token: session.refresh_token },
    });
    const token = refreshed.body.access_token as string;
    expect(token.length).toBeGreaterThan(4096);
    const res = await api("/api/auth/callback", {
      method: "POST",
      json: { event: "TOKEN_REFRESHED", session: refreshed.body },
    });
    const cookies = setCookies(res.headers);
    expect(cookies.map((c) => c.split("=")[0])).toEqual(["sb-access-token.0", "sb-access-token.1"]);
    for (const c of cookies) expect(c.split(";")[0].length).toBeLessThan(4000);
    const user = await api("/api/auth/user", { headers: { cookie: cookieHeader(res.headers) } });
    expect(user.status).toBe(200);
    expect(user.body.user.email).toBe("accounts@demo.test");
    await api("/auth/v1/user", {
      method: "PUT",
      json: { data: { bio: null } },
      headers: { authorization: `Bearer ${token}` },
    });
  });

  it("clears the cookies on SIGNED_OUT", async () => {
    const res = await api("/api/auth/callback", {
      method: "POST",
      json: { event: "SIGNED_OUT", session: null },
      headers: { cookie: "sb-access-token.0=a; sb-access-token.1=b" },
    });
    expect(res.status).toBe(200);
    const cleared = setCookies(res.headers);
    expect(cleared.map((c) => c.split("=")[0]).sort()).toEqual([
      "sb-access-token",
      "sb-access-token.0",
      "sb-access-token.1",
    ]);
    for (const c of cleared) expect(c).toMatch(/Max-Age=0/);
  });
});

describe("GET /api/auth/user and the guard", () => {
  it("answers 401 not_authenticated without a session, with a bad token or a bad cookie", async () => {
    expect(await api("/api/auth/user")).toMatchObject({ status: 401, body: NOT_AUTHENTICATED });
    expect((await api("/api/auth/user", { headers: { authorization: "Bearer a.b.c" } })).body).toEqual(
      NOT_AUTHENTICATED,
    );
    expect((await api("/api/auth/user", { headers: { cookie: "sb-access-token=%00%01" } })).status).toBe(401);
    const { anonKey } = (await api("/api/config")).body;
    expect((await api("/api/auth/user", { headers: { authorization: `Bearer ${anonKey}` } })).status).toBe(401);
  });

  it("returns the auth user and the database user with role, workspace, tier and features", async () => {
    const session = await signIn("pos@demo.test");
    const res = await api("/api/auth/user", { headers: { authorization: `Bearer ${session.access_token}` } });
    expect(res.status).toBe(200);
    expect(res.body.user).toMatchObject({ email: "pos@demo.test", aud: "authenticated", role: "authenticated" });
    expect(res.body.profile).toMatchObject({
      email: "pos@demo.test",
      role_id: 7,
      role: { id: 7, slug: "pos_staff", title: "POS Staff" },
      workspace: { slug: "demo", tier_id: 12, tier: { id: 12, slug: "premium" }, primary_color: "Blue" },
    });
    expect(res.body.profile.workspace.features).toContain("pos");
    expect(res.body.profile.workspace_id).toBe(res.body.profile.workspace.id);
    expect(res.body).toMatchObject({ is_platform_operator: false, aal: "aal1" });
  });

  it("has no profile for a platform operator outside any workspace", async () => {
    const session = await signIn("platform@workmetrics.test");
    const res = await api("/api/auth/user", { headers: { authorization: `Bearer ${session.access_token}` } });
    expect(res.body).toMatchObject({ profile: null, is_platform_operator: true });
  });
});

describe("GET /api/auth/logout", () => {
  it("signs the session out on the server, clears cookies and goes to returnTo", async () => {
    const session = await signIn("sales@demo.test");
    const set = await api("/api/auth/callback", { method: "POST", json: { event: "SIGNED_IN", session } });
    const cookie = cookieHeader(set.headers);
    const res = await api("/api/auth/logout?returnTo=%2Fauth%2Flogin%3Fbye%3D1", { headers: { cookie } });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/auth/login?bye=1");
    expect(setCookies(res.headers)[0]).toMatch(/^sb-access-token=;.*Max-Age=0/);
    expect((await api("/api/auth/user", { headers: { authorization: `Bearer ${session.access_token}` } })).status).toBe(
      401,
    );
    const refresh = await api("/auth/v1/token?grant_type=refresh_token", {
      method: "POST",
      json: { refresh_token: session.refresh_token },
    });
    expect(refresh.status).toBe(400);
  });

  it("only returns to paths on this site; default /", async () => {
    for (const [returnTo, expected] of [
      [undefined, "/"],
      ["https://evil.example/x", "/"],
      ["//evil.example/x", "/"],
      ["/\\evil.example", "/"],
      ["/dashboard/invoices", "/dashboard/invoices"],
    ] as const) {
      const q = returnTo === undefined ? "" : `?returnTo=${encodeURIComponent(returnTo)}`;
      const res = await api(`/api/auth/logout${q}`);
      expect(res.headers.get("location")).toBe(expected);
    }
  });

  // Issue 9 §3: the normalised path once came back as is ("/.//evil.example" → "//evil.example").
  it.each([
    "/.//evil.example",
    "/..//evil.example",
    "/a/..//evil.example",
    "/%2e//evil.example",
    "/./\\evil.example",
    "\\\\evil.example",
    "/\t/evil.example",
    "https://evil.example",
    "javascript:alert(1)",
    "/%5c/evil.example",
    "/%5C%5Cevil.example",
    "//%2fevil.example",
    "/\r\n/evil.example",
    "/x\r\nSet-Cookie: a=b",
  ])("returnTo=%j stays on this site", async (returnTo) => {
    const res = await api(`/api/auth/logout?returnTo=${encodeURIComponent(returnTo)}`);
    expect(res.status).toBe(302);
    const location = res.headers.get("location") ?? "";
    expect(location === "/" || /^\/[^/\\]/.test(location)).toBe(true);
    expect(new URL(location, "http://demo.localhost").origin).toBe("http://demo.localhost");
    expect(res.headers.get("set-cookie") ?? "").not.toContain("a=b");
  });

  it("links mailed with a redirect_to path stay on this site", async () => {
    const res = await api(
      `/auth/v1/verify?type=signup&token=nope&redirect_to=${encodeURIComponent("/.//evil.example")}`,
    );
    expect(res.status).toBe(303);
    const location = new URL(res.headers.get("location") ?? "");
    expect(location.port).toBe(new URL(baseUrl()).port);
    expect(location.pathname).toBe("/auth/success");
  });

  it("any other /api/auth/* endpoint is 404", async () => {
    for (const path of ["/api/auth/login", "/api/auth/session", "/api/auth/callback/extra", "/api/auth"]) {
      expect((await api(path)).status).toBe(404);
    }
  });
});

describe("pages and the anon key", () => {
  it("serves the anon key as a JWT with role anon, and the origin the page came from", async () => {
    const res = await api("/api/config");
    expect(res.body.url).toBe(baseUrl());
    const [, payload] = (res.body.anonKey as string).split(".");
    expect(JSON.parse(Buffer.from(payload, "base64url").toString())).toMatchObject({ role: "anon" });
  });

  it("redirects a protected page without a session to / with redirectedFrom", async () => {
    const res = await api("/dashboard/invoices?status=open", { headers: { accept: "text/html" } });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe(
      `/?redirectedFrom=${encodeURIComponent("/dashboard/invoices?status=open")}`,
    );
    const scoped = await api("/_workspaces/demo/dashboard", { headers: { accept: "text/html" } });
    expect(scoped.headers.get("location")).toBe("/?redirectedFrom=%2F_workspaces%2Fdemo%2Fdashboard");
  });

  it("lets guest pages, addresses that are no page, and signed-in page loads through", async () => {
    // An unknown address is not a protected page: the app answers and shows its not-found page (issue 21 §1).
    for (const path of [
      "/auth/login",
      "/pricing",
      "/_workspaces/demo/auth/reset",
      "/no-such-page",
      "/_workspaces/demo/x",
    ]) {
      expect((await api(path, { headers: { accept: "text/html" } })).status).not.toBe(302);
    }
    const session = await signIn("driver@demo.test");
    const set = await api("/api/auth/callback", { method: "POST", json: { event: "SIGNED_IN", session } });
    const res = await api("/dashboard/invoices", {
      headers: { accept: "text/html", cookie: cookieHeader(set.headers) },
    });
    expect(res.status).not.toBe(302);
  });
});
