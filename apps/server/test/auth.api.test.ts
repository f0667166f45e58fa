import { AuthClient } from "@supabase/auth-js";
import { decodeJwt } from "jose";
import { describe, expect, it } from "vitest";
import { authClient, codeIn, DEMO_PASSWORD, fragmentParams, linkIn, mailboxTo, uniqueEmail } from "./auth-helpers.ts";
import { api, baseUrl } from "./http.ts";

// The GoTrue contract against the suite's shared server (demo data, mail kept in the built-in mailbox).
describe("GoTrue errors as auth-js surfaces them", () => {
  it("wrong password → invalid_credentials; unknown address → the same", async () => {
    const auth = await authClient(baseUrl());
    const wrong = await auth.signInWithPassword({ email: "sales@demo.test", password: "not-the-password" });
    expect(wrong.error?.code).toBe("invalid_credentials");
    expect(wrong.error?.status).toBe(400);
    expect(wrong.error?.message).toBe("Invalid login credentials");
    const unknown = await auth.signInWithPassword({ email: "nobody-here@demo.test", password: "not-the-password" });
    expect(unknown.error?.code).toBe("invalid_credentials");
    expect(unknown.error?.message).toBe(wrong.error?.message);
  });

  it("weak passwords → weak_password with GoTrue's reasons", async () => {
    const auth = await authClient(baseUrl());
    const short = await auth.signUp({ email: uniqueEmail("weak"), password: "Ab1!xyz" });
    expect(short.error?.code).toBe("weak_password");
    expect(short.error).toMatchObject({ name: "AuthWeakPasswordError", reasons: ["length"] });
    const common = await auth.signUp({ email: uniqueEmail("weak"), password: "Password123" });
    expect(common.error).toMatchObject({ code: "weak_password", reasons: ["pwned"] });
    // No composition rules: a long lower-case passphrase is fine, and 64+ characters are allowed.
    const long = await auth.signUp({
      email: uniqueEmail("long"),
      password: "a".repeat(3) + "b quiet river under the old stone bridge at night ".repeat(2),
    });
    expect(long.error).toBeNull();
  });

  it("an unconfirmed e-mail cannot sign in → email_not_confirmed", async () => {
    const auth = await authClient(baseUrl());
    const email = uniqueEmail("unconfirmed");
    expect((await auth.signUp({ email, password: "silver lining 2026" })).error).toBeNull();
    const res = await auth.signInWithPassword({ email, password: "silver lining 2026" });
    expect(res.error?.code).toBe("email_not_confirmed");
    // A wrong password is still just invalid_credentials (confirmation state is not revealed).
    expect((await auth.signInWithPassword({ email, password: "wrong wrong wrong" })).error?.code).toBe(
      "invalid_credentials",
    );
  });

  it("missing e-mail or password is refused with the spec's message", async () => {
    const res = await api("/auth/v1/token?grant_type=password", { method: "POST", json: { email: "owner@demo.test" } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      code: 400,
      error_code: "validation_failed",
      msg: "You must provide either an email or phone number and a password",
    });
  });

  it("does not reveal accounts through signup, recover or otp", async () => {
    const auth = await authClient(baseUrl());
    const existing = await auth.signUp({ email: "owner@demo.test", password: "brand new passphrase 1" });
    expect(existing.error).toBeNull();
    expect(existing.data.session).toBeNull();
    expect(existing.data.user?.identities).toEqual([]);
    // No account mail; the owner may meanwhile get the shared server's order notifications (orders.api.test.ts).
    const ownerMail = await mailboxTo(baseUrl(), "owner@demo.test");
    expect(ownerMail.filter((m) => !m.subject.startsWith("New order "))).toEqual([]);

    for (const email of ["admin@demo.test", uniqueEmail("ghost")]) {
      expect((await auth.resetPasswordForEmail(email)).error).toBeNull();
      expect((await auth.signInWithOtp({ email, options: { shouldCreateUser: false } })).error).toBeNull();
    }
    expect((await mailboxTo(baseUrl(), "admin@demo.test")).map((m) => m.subject).sort()).toEqual([
      "Reset your Workmetrics password",
      "Your Workmetrics sign-in link",
    ]);
  });

  it("id_token and OAuth providers answer plainly that none is configured", async () => {
    const auth = await authClient(baseUrl());
    const res = await auth.signInWithIdToken({ provider: "google", token: "x.y.z" });
    expect(res.error?.code).toBe("provider_disabled");
    expect(res.error?.message).toMatch(/no OpenID Connect provider is configured/);
    const authorize = await api("/auth/v1/authorize?provider=github");
    expect(authorize.status).toBe(400);
    expect(authorize.body.error_code).toBe("provider_disabled");
  });

  it("serves settings: e-mail sign-up on, phone and autoconfirm off", async () => {
    const res = await api("/auth/v1/settings");
    expect(res.body).toMatchObject({
      external: { email: true, phone: false },
      mailer_autoconfirm: false,
      disable_signup: false,
    });
  });

  it("unknown refresh tokens → refresh_token_not_found", async () => {
    const auth = await authClient(baseUrl());
    const res = await auth.refreshSession({ refresh_token: "not-a-token" });
    expect(res.error?.code).toBe("refresh_token_not_found");
  });
});

describe("sign-out scopes", () => {
  it("others ends every other session, local only this one", async () => {
    const [a, b, c, probe] = await Promise.all([1, 2, 3, 4].map(() => authClient(baseUrl())));
    const sessions: Array<{ access_token: string }> = [];
    for (const client of [a, b, c]) {
      sessions.push(
        (await client.signInWithPassword({ email: "manager@demo.test", password: DEMO_PASSWORD })).data.session!,
      );
    }
    // A separate client checks: auth-js drops its own session when getUser meets a dead token.
    const alive = async (i: number) => (await probe.getUser(sessions[i].access_token)).data.user !== null;
    expect((await a.signOut({ scope: "others" })).error).toBeNull();
    expect([await alive(0), await alive(1), await alive(2)]).toEqual([true, false, false]);
    expect((await a.signOut({ scope: "local" })).error).toBeNull();
    expect(await alive(0)).toBe(false);
  });
});

describe("e-mailed links and codes", () => {
  it("recovers a password: the link lands on /auth/reset signed in, and the new password works", async () => {
    // A user of its own (confirmed through its link), so shared demo passwords stay as they are.
    const auth = await authClient(baseUrl());
    const email = uniqueEmail("recover");
    const firstPassword = "first password of mine";
    expect((await auth.signUp({ email, password: firstPassword })).error).toBeNull();
    const [confirm] = await mailboxTo(baseUrl(), email);
    expect((await fetch(linkIn(confirm.text), { redirect: "manual" })).status).toBe(303);

    expect((await auth.resetPasswordForEmail(email)).error).toBeNull();
    const [mail] = await mailboxTo(baseUrl(), email);
    expect(mail.subject).toBe("Reset your Workmetrics password");
    const res = await fetch(linkIn(mail.text), { redirect: "manual" });
    const location = res.headers.get("location") ?? "";
    expect(location.startsWith(`${baseUrl()}/auth/reset#`)).toBe(true);
    const params = fragmentParams(location);
    expect(params.get("type")).toBe("recovery");
    const client = await authClient(baseUrl());
    await client.setSession({ access_token: params.get("access_token")!, refresh_token: params.get("refresh_token")! });
    expect((await client.updateUser({ password: "fresh start 2026 pro" })).error).toBeNull();
    expect((await auth.signInWithPassword({ email, password: "fresh start 2026 pro" })).error).toBeNull();
    expect((await auth.signInWithPassword({ email, password: firstPassword })).error?.code).toBe("invalid_credentials");
  });

  it("signs in with the e-mailed six-digit code (verifyOtp type email)", async () => {
    const auth = await authClient(baseUrl());
    const email = "driver@pro.test";
    expect((await auth.signInWithOtp({ email, options: { shouldCreateUser: false } })).error).toBeNull();
    const [mail] = await mailboxTo(baseUrl(), email);
    const wrong = await auth.verifyOtp({
      email,
      token: codeIn(mail.text) === "000000" ? "111111" : "000000",
      type: "email",
    });
    expect(wrong.error?.code).toBe("otp_expired");
    const ok = await auth.verifyOtp({ email, token: codeIn(mail.text), type: "email" });
    expect(ok.error).toBeNull();
    expect(decodeJwt(ok.data.session!.access_token)).toMatchObject({ email, workspace_slug: "pro", role_id: 5 });
  });

  it("follows the PKCE flow: the link yields ?code= that the client exchanges with its verifier", async () => {
    const storage = new Map<string, string>();
    const auth = new AuthClient({
      url: `${baseUrl()}/auth/v1`,
      flowType: "pkce",
      persistSession: true,
      autoRefreshToken: false,
      detectSessionInUrl: false,
      storage: {
        getItem: (k: string) => storage.get(k) ?? null,
        setItem: (k: string, v: string) => void storage.set(k, v),
        removeItem: (k: string) => void storage.delete(k),
      },
    });
    const email = uniqueEmail("pkce");
    expect((await auth.signUp({ email, password: "pkce flows are neat 7" })).error).toBeNull();
    const [mail] = await mailboxTo(baseUrl(), email);
    const res = await fetch(linkIn(mail.text), { redirect: "manual" });
    const code = new URL(res.headers.get("location") ?? "").searchParams.get("code");
    expect(code).toBeTruthy();
    const exchanged = await auth.exchangeCodeForSession(code!);
    expect(exchanged.error).toBeNull();
    expect(exchanged.data.user?.email).toBe(email);
    expect((await auth.exchangeCodeForSession(code!)).error).not.toBeNull();
  });

  it("changes the e-mail only once the new address confirms it", async () => {
    const auth = await authClient(baseUrl());
    const email = uniqueEmail("mover");
    const newEmail = uniqueEmail("moved");
    const pass = "moving house in june";
    await auth.signUp({ email, password: pass });
    const [confirm] = await mailboxTo(baseUrl(), email);
    await fetch(linkIn(confirm.text), { redirect: "manual" });
    await auth.signInWithPassword({ email, password: pass });

    expect((await auth.updateUser({ email: "owner@demo.test" })).error?.code).toBe("email_exists");
    const pending = await auth.updateUser({ email: newEmail });
    expect(pending.error).toBeNull();
    expect(pending.data.user).toMatchObject({ email, new_email: newEmail });
    expect((await auth.resend({ type: "email_change", email })).error).toBeNull();
    const mails = await mailboxTo(baseUrl(), newEmail);
    expect(mails[0].subject).toBe("Confirm your new e-mail address");
    const location = (await fetch(linkIn(mails[0].text), { redirect: "manual" })).headers.get("location") ?? "";
    expect(fragmentParams(location).get("type")).toBe("email_change");
    expect((await auth.signInWithPassword({ email: newEmail, password: pass })).error).toBeNull();
    expect((await auth.signInWithPassword({ email, password: pass })).error?.code).toBe("invalid_credentials");
  });

  it("keeps the dev mailbox as an HTML page", async () => {
    const res = await fetch(`${baseUrl()}/dev/mailbox`, { headers: { accept: "text/html" } });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("<h1>Mailbox</h1>");
  });
});

describe("admin users for platform operators", () => {
  const adminClient = async (email: string) => {
    const auth = await authClient(baseUrl());
    const { data } = await auth.signInWithPassword({ email, password: DEMO_PASSWORD });
    return new AuthClient({
      url: `${baseUrl()}/auth/v1`,
      headers: { Authorization: `Bearer ${data.session!.access_token}` },
      persistSession: false,
      autoRefreshToken: false,
    }).admin;
  };

  it("refuses workspace users, even owners → not_admin", async () => {
    const admin = await adminClient("owner@demo.test");
    const res = await admin.listUsers();
    expect(res.error?.code).toBe("not_admin");
    expect(res.error?.status).toBe(403);
  });

  it("lists, creates, bans (ending sessions) and deletes users", async () => {
    const admin = await adminClient("platform@workmetrics.test");
    const list = await admin.listUsers({ page: 1, perPage: 5 });
    expect(list.error).toBeNull();
    expect(list.data.users).toHaveLength(5);
    expect((list.data as { total: number }).total).toBeGreaterThanOrEqual(20);

    const email = uniqueEmail("made-by-admin");
    const created = await admin.createUser({ email, password: "operator made this 1", email_confirm: true });
    expect(created.error).toBeNull();
    const id = created.data.user!.id;
    expect((await admin.createUser({ email, password: "operator made this 1" })).error?.code).toBe("email_exists");

    const auth = await authClient(baseUrl());
    const session = (await auth.signInWithPassword({ email, password: "operator made this 1" })).data.session!;
    const banned = await admin.updateUserById(id, { ban_duration: "24h" });
    expect(banned.error).toBeNull();
    expect(banned.data.user?.banned_until).toBeTruthy();
    expect((await auth.getUser(session.access_token)).error?.name).toBe("AuthSessionMissingError");
    expect((await auth.refreshSession({ refresh_token: session.refresh_token })).error).not.toBeNull();
    expect((await auth.signInWithPassword({ email, password: "operator made this 1" })).error?.code).toBe(
      "user_banned",
    );

    expect((await admin.deleteUser(id)).error).toBeNull();
    expect((await admin.getUserById(id)).error?.code).toBe("user_not_found");
  });

  it("invites by e-mail; the invitee follows the link and sets a password", async () => {
    const admin = await adminClient("platform@workmetrics.test");
    const email = uniqueEmail("invitee");
    const invited = await admin.inviteUserByEmail(email);
    expect(invited.error).toBeNull();
    expect(invited.data.user?.invited_at).toBeTruthy();
    const [mail] = await mailboxTo(baseUrl(), email);
    expect(mail.subject).toBe("You have been invited to Workmetrics");
    const location = (await fetch(linkIn(mail.text), { redirect: "manual" })).headers.get("location") ?? "";
    expect(location.startsWith(`${baseUrl()}/auth/reset#`)).toBe(true);
    expect(fragmentParams(location).get("type")).toBe("invite");
  });
});
