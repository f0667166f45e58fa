import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { authClient, type CaughtMail, startMailCatcher } from "./auth-helpers.ts";
import { startTestServer, type TestServer } from "./harness.ts";
import type { Json } from "./http.ts";

// Company sign-up (issue 4 item 6) on a server of its own that mails through a real SMTP receiver.
describe("company sign-up", () => {
  let server: TestServer;
  let mail: Awaited<ReturnType<typeof startMailCatcher>>;
  const post = (path: string, body: unknown) =>
    fetch(`${server.url}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
  const json = async (res: Response): Promise<{ status: number; body: Json }> => ({
    status: res.status,
    body: await res.json(),
  });
  const signup = (over: Record<string, unknown> = {}) => ({
    companyName: "Bedok Hardware Pte Ltd",
    slug: "bedok-hardware",
    name: "Nur Aisyah",
    email: "aisyah@bedok.example",
    password: "marina-bay-sands-2026",
    tierId: 11,
    cycle: "yearly",
    ...over,
  });

  beforeAll(async () => {
    mail = await startMailCatcher();
    server = await startTestServer({ SMTP_URL: mail.url, PUBLIC_URL: "http://localhost:3000" });
  });
  afterAll(async () => {
    await server?.close();
    await mail?.close();
  });

  it("checks workspace addresses", async () => {
    const check = async (slug: string): Promise<Json> =>
      (await fetch(`${server.url}/api/public/slug-availability?slug=${slug}`)).json();
    expect(await check("demo")).toMatchObject({ available: false, message: "That address is taken" });
    expect(await check("ab")).toMatchObject({ available: false, message: "The address needs at least 3 characters" });
    expect(await check("admin")).toMatchObject({
      available: false,
      message: "That address is reserved; choose another",
    });
    expect(await check("bedok-hardware")).toMatchObject({ available: true });
  });

  it("prices coupons on the server and refuses bad ones", async () => {
    const q = (code: string) => fetch(`${server.url}/api/public/coupons/${code}?tierId=11&cycle=monthly`).then(json);
    expect((await q("welcome10")).body).toMatchObject({
      code: "WELCOME10",
      quote: { listPrice: "149.00", discount: "14.90", price: "134.10" },
    });
    expect(await q("EXPIRED2025")).toMatchObject({
      status: 422,
      body: { message: "The coupon EXPIRED2025 has expired" },
    });
    expect(await q("NOPE")).toMatchObject({ status: 422, body: { details: [{ field: "couponCode" }] } });
  });

  it("refuses bad input field by field and creates nothing", async () => {
    const bad = await json(await post("/api/public/signup", signup({ slug: "pos", email: "nope", password: "short" })));
    expect(bad.status).toBe(422);
    const fields = bad.body.details.map((d: { field: string }) => d.field);
    expect(fields).toEqual(expect.arrayContaining(["slug", "email", "password"]));
    const weak = await json(await post("/api/public/signup", signup({ password: "password123" })));
    expect(weak).toMatchObject({ status: 422, body: { details: [{ field: "password" }] } });
    const coupon = await json(await post("/api/public/signup", signup({ couponCode: "EXPIRED2025" })));
    expect(coupon).toMatchObject({ status: 422, body: { details: [{ field: "couponCode" }] } });
    const taken = await json(await post("/api/public/signup", signup({ slug: "demo" })));
    expect(taken).toMatchObject({
      status: 409,
      body: { details: [{ field: "slug", message: "That address is taken" }] },
    });
    const exists = await json(await post("/api/public/signup", signup({ email: "owner@demo.test" })));
    expect(exists).toMatchObject({ status: 409, body: { details: [{ field: "email" }] } });
    const still: Json = await (await fetch(`${server.url}/api/public/slug-availability?slug=bedok-hardware`)).json();
    expect(still.available).toBe(true);
  });

  it("creates the owner, the workspace and the discounted subscription; the e-mailed link signs the owner in on the workspace host", async () => {
    const res = await json(await post("/api/public/signup", signup({ couponCode: "WELCOME10" })));
    const port = new URL(server.url).port;
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      email: "aisyah@bedok.example",
      workspace: { slug: "bedok-hardware", url: `http://bedok-hardware.localhost:${port}` },
    });

    const letter: CaughtMail = await mail.next("aisyah@bedok.example");
    const link = letter.text.match(/https?:\/\/\S+/g)?.find((l) => l.includes("/auth/v1/verify"));
    expect(link).toBeTruthy();
    // Follow the link against the test server (PUBLIC_URL names port 3000).
    const verify = new URL(link!);
    const answer = await fetch(`${server.url}${verify.pathname}${verify.search}`, { redirect: "manual" });
    expect(answer.status).toBeGreaterThanOrEqual(300);
    const location = answer.headers.get("location") ?? "";
    expect(location.startsWith(`http://bedok-hardware.localhost:${port}/auth/success`)).toBe(true);
    expect(location).toContain("access_token=");

    const auth = await authClient(server.url);
    const { data, error } = await auth.signInWithPassword({
      email: "aisyah@bedok.example",
      password: "marina-bay-sands-2026",
    });
    expect(error).toBeNull();
    const me: Json = await (
      await fetch(`${server.url}/api/auth/user`, { headers: { authorization: `Bearer ${data.session?.access_token}` } })
    ).json();
    expect(me.profile).toMatchObject({
      name: "Nur Aisyah",
      role_id: 31,
      workspace: { slug: "bedok-hardware", name: "Bedok Hardware Pte Ltd", tier_id: 11 },
    });

    const again: Json = await (await fetch(`${server.url}/api/public/slug-availability?slug=bedok-hardware`)).json();
    expect(again.available).toBe(false);
  });
});

// Issue 9 §3: a sign-up mails a confirmation, so it spends the per-IP e-mail budget like /auth/v1's mailers do.
describe("company sign-up and the e-mail rate limit", () => {
  let server: TestServer;
  let mail: Awaited<ReturnType<typeof startMailCatcher>>;
  const post = (path: string, body: unknown) =>
    fetch(`${server.url}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
  const company = (n: number) => ({
    companyName: `Limit Test ${n} Pte Ltd`,
    slug: `limit-test-${n}`,
    name: `Owner ${n}`,
    email: `owner${n}@limit.example`,
    password: "marina-bay-sands-2026",
    tierId: 10,
    cycle: "monthly",
  });

  beforeAll(async () => {
    mail = await startMailCatcher();
    server = await startTestServer({ SMTP_URL: mail.url, SEED: "none", AUTH_RATE_LIMITS: "email_sent=2/3600" });
  });
  afterAll(async () => {
    await server?.close();
    await mail?.close();
  });

  it("answers 429 with the auth API's message once the budget is spent, and creates and mails nothing", async () => {
    expect((await post("/api/public/signup", company(1))).status).toBe(201);
    await mail.next("owner1@limit.example");
    // Another mailer spends the same budget.
    expect((await post("/auth/v1/recover", { email: "nobody@limit.example" })).status).toBe(200);

    const refused = await post("/api/public/signup", company(2));
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await refused.json()).toEqual({ code: "over_email_send_rate_limit", message: "Email rate limit exceeded" });

    const slug: Json = await (await fetch(`${server.url}/api/public/slug-availability?slug=limit-test-2`)).json();
    expect(slug.available).toBe(true);
    expect((await post("/api/public/signup", company(3))).status).toBe(429);
    expect(mail.mails.map((m) => m.to)).toEqual(["owner1@limit.example"]);
  });
});
