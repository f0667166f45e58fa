import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { authClient, codeIn, DEMO_PASSWORD, mailboxTo } from "./auth-helpers.ts";
import { startTestServer, type TestServer } from "./harness.ts";

// A server with GoTrue's default limits (the shared one relaxes them): brute force meets 429.
describe("per-IP rate limits at GoTrue's defaults", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server?.close());

  it("stops password guessing after 30 sign-ins in 5 minutes → over_request_rate_limit", async () => {
    const auth = await authClient(server.url);
    const codes: string[] = [];
    for (let i = 0; i < 30; i++) {
      const res = await auth.signInWithPassword({ email: "owner@demo.test", password: `guess-number-${i}` });
      codes.push(res.error?.code ?? "ok");
    }
    expect(new Set(codes)).toEqual(new Set(["invalid_credentials"]));
    const blocked = await auth.signInWithPassword({ email: "owner@demo.test", password: DEMO_PASSWORD });
    expect(blocked.error?.code).toBe("over_request_rate_limit");
    expect(blocked.error?.status).toBe(429);
    // Sign-up shares the sign-in budget.
    expect((await auth.signUp({ email: "late@example.com", password: "late to the party 1" })).error?.status).toBe(429);
    const raw = await fetch(`${server.url}/auth/v1/token?grant_type=password`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "owner@demo.test", password: DEMO_PASSWORD }),
    });
    expect(raw.status).toBe(429);
    expect(Number(raw.headers.get("retry-after"))).toBeGreaterThan(0);
  });
});

// Changing the password after the recent-sign-in window takes the nonce mailed by GET /reauthenticate.
describe("reauthentication", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ AUTH_REAUTH_WINDOW_SECONDS: "0" });
  });
  afterAll(() => server?.close());

  it("asks for a nonce, mails one, and accepts it once", async () => {
    const auth = await authClient(server.url);
    expect((await auth.signInWithPassword({ email: "admin@lite.test", password: DEMO_PASSWORD })).error).toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const without = await auth.updateUser({ password: "lite admin new pass 1" });
    expect(without.error?.code).toBe("reauthentication_needed");

    expect((await auth.reauthenticate()).error).toBeNull();
    const [mail] = await mailboxTo(server.url, "admin@lite.test");
    expect(mail.subject).toBe("Your Workmetrics confirmation code");
    const nonce = codeIn(mail.text);
    const wrong = await auth.updateUser({
      password: "lite admin new pass 1",
      nonce: nonce === "000000" ? "111111" : "000000",
    });
    expect(wrong.error?.code).toBe("reauthentication_not_valid");
    // A wrong guess spends the nonce: a fresh one is needed.
    expect((await auth.updateUser({ password: "lite admin new pass 1", nonce })).error?.code).toBe(
      "reauthentication_not_valid",
    );
    await auth.reauthenticate();
    const [second] = await mailboxTo(server.url, "admin@lite.test");
    const ok = await auth.updateUser({ password: "lite admin new pass 1", nonce: codeIn(second.text) });
    expect(ok.error).toBeNull();
  });
});

describe("production, with AUTH_REDIRECT_PATH", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ NODE_ENV: "production", SEED: "none", AUTH_REDIRECT_PATH: "/auth/login" });
  });
  afterAll(() => server?.close());

  it("never serves the dev mailbox", async () => {
    expect((await fetch(`${server.url}/dev/mailbox`)).status).toBe(404);
    expect((await fetch(`${server.url}/dev/mailbox/1`)).status).toBe(404);
  });

  it("sends signed-out page loads to the configured path", async () => {
    const res = await fetch(`${server.url}/dashboard/products`, {
      headers: { accept: "text/html" },
      redirect: "manual",
    });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/auth/login?redirectedFrom=%2Fdashboard%2Fproducts");
  });
});
