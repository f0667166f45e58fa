import { decodeJwt } from "jose";
import * as OTPAuth from "otpauth";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { authClient, fragmentParams, linkIn, startMailCatcher, totpNow, uniqueEmail } from "./auth-helpers.ts";
import { startTestServer, type TestServer } from "./harness.ts";

// Issue 3 tests: the whole journey with auth-js as the client, mail through a real SMTP receiver.
// The refresh-token reuse interval is 1 s here (10 s by default) so the revocation step stays quick.
describe("sign-up to sign-out with auth-js", () => {
  let server: TestServer;
  let catcher: Awaited<ReturnType<typeof startMailCatcher>>;
  const email = uniqueEmail("journey");
  const password = "correct horse battery staple";
  let factorSecret = "";
  let factorId = "";
  let aal2: Awaited<ReturnType<typeof authClient>>;

  beforeAll(async () => {
    catcher = await startMailCatcher();
    server = await startTestServer({ SMTP_URL: catcher.url, AUTH_REFRESH_REUSE_SECONDS: "1", SEED: "none" });
  });
  afterAll(async () => {
    await server?.close();
    await catcher?.close();
  });

  it("signs up without a session until the e-mail is confirmed", async () => {
    const auth = await authClient(server.url);
    const { data, error } = await auth.signUp({
      email,
      password,
      options: { data: { name: "Journey Tester" }, emailRedirectTo: `${server.url}/auth/success` },
    });
    expect(error).toBeNull();
    expect(data.session).toBeNull();
    expect(data.user?.email).toBe(email);
    expect(data.user?.user_metadata).toEqual({ name: "Journey Tester" });
    expect(data.user?.identities).toHaveLength(1);
    // With SMTP_URL set, mail goes out by SMTP and there is no built-in mailbox.
    expect((await fetch(`${server.url}/dev/mailbox`)).status).toBe(404);

    const early = await auth.signInWithPassword({ email, password });
    expect(early.error?.code).toBe("email_not_confirmed");
    expect(early.data.session).toBeNull();
  });

  it("confirms through the e-mailed link, landing back in the web app with a session", async () => {
    const mail = await catcher.next(email);
    expect(mail.subject).toBe("Confirm your Workmetrics account");
    const link = linkIn(mail.text);
    expect(link.startsWith(`${server.url}/auth/v1/verify?`)).toBe(true);
    const res = await fetch(link, { redirect: "manual" });
    expect(res.status).toBe(303);
    const location = res.headers.get("location") ?? "";
    expect(location.startsWith(`${server.url}/auth/success#`)).toBe(true);
    const params = fragmentParams(location);
    expect(params.get("type")).toBe("signup");
    expect(params.get("token_type")).toBe("bearer");
    expect(decodeJwt(params.get("access_token") ?? "").email).toBe(email);

    // The link is single-use: a second visit lands with GoTrue's error parameters.
    const again = await fetch(link, { redirect: "manual" });
    expect(fragmentParams(again.headers.get("location") ?? "").get("error_code")).toBe("otp_expired");
  });

  it("signs in with a HS256 access token carrying the session claims", async () => {
    const auth = await authClient(server.url);
    const { data, error } = await auth.signInWithPassword({ email, password });
    expect(error).toBeNull();
    const session = data.session!;
    expect(session.expires_in).toBe(3600);
    expect(session.token_type).toBe("bearer");
    expect(session.access_token.split(".")).toHaveLength(3);
    const claims = decodeJwt(session.access_token);
    expect(claims).toMatchObject({ sub: data.user?.id, role: "authenticated", aal: "aal1", email, workspace_id: null });
    expect(typeof claims.session_id).toBe("string");
    expect(claims.exp! - claims.iat!).toBe(3600);
    expect(data.user?.email_confirmed_at).toBeTruthy();
  });

  it("rotates refresh tokens; two clients refreshing at once both stay signed in", async () => {
    const a = await authClient(server.url);
    const signedIn = await a.signInWithPassword({ email, password });
    const first = signedIn.data.session!;

    const rotated = await a.refreshSession();
    expect(rotated.error).toBeNull();
    const second = rotated.data.session!;
    expect(second.refresh_token).not.toBe(first.refresh_token);

    // Two tabs holding the same token refresh together: both succeed with the same current token.
    const b = await authClient(server.url);
    const c = await authClient(server.url);
    const [rb, rc] = await Promise.all([
      b.refreshSession({ refresh_token: second.refresh_token }),
      c.refreshSession({ refresh_token: second.refresh_token }),
    ]);
    expect(rb.error).toBeNull();
    expect(rc.error).toBeNull();
    expect(rb.data.session?.refresh_token).toBe(rc.data.session?.refresh_token);
    expect(rb.data.session?.refresh_token).not.toBe(second.refresh_token);
    const current = rb.data.session!.refresh_token;

    // After the reuse interval, replaying an old token is theft: the whole session is revoked.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const replay = await (await authClient(server.url)).refreshSession({ refresh_token: first.refresh_token });
    expect(replay.error?.code).toBe("refresh_token_already_used");
    const afterRevoke = await (await authClient(server.url)).refreshSession({ refresh_token: current });
    expect(afterRevoke.error).not.toBeNull();
    expect(afterRevoke.data.session).toBeNull();
    const user = await a.getUser(rb.data.session!.access_token);
    expect(user.data.user).toBeNull();
  });

  it("enrolls a TOTP factor and reaches aal2 with a code from an authenticator", async () => {
    const auth = await authClient(server.url);
    await auth.signInWithPassword({ email, password });
    const enrolled = await auth.mfa.enroll({ factorType: "totp", friendlyName: "Phone" });
    expect(enrolled.error).toBeNull();
    const totp = enrolled.data!.totp!;
    expect(totp.qr_code.startsWith("data:image/svg+xml;utf-8,<svg")).toBe(true);
    expect(totp.uri).toContain(`secret=${totp.secret}`);
    factorSecret = totp.secret;
    factorId = enrolled.data!.id;

    const challenge = await auth.mfa.challenge({ factorId });
    expect(challenge.error).toBeNull();
    const wrong = await auth.mfa.verify({
      factorId,
      challengeId: challenge.data!.id,
      code: "000000" === totpNow(factorSecret) ? "111111" : "000000",
    });
    expect(wrong.error?.code).toBe("mfa_verification_failed");

    const verified = await auth.mfa.verify({ factorId, challengeId: challenge.data!.id, code: totpNow(factorSecret) });
    expect(verified.error).toBeNull();
    expect(decodeJwt(verified.data!.access_token).aal).toBe("aal2");
    const level = await auth.mfa.getAuthenticatorAssuranceLevel();
    expect(level.data).toMatchObject({ currentLevel: "aal2", nextLevel: "aal2" });
  });

  it("a new sign-in is aal1 and not admitted to protected routes until the TOTP step", async () => {
    const auth = await authClient(server.url);
    const { data } = await auth.signInWithPassword({ email, password });
    const level = await auth.mfa.getAuthenticatorAssuranceLevel();
    expect(level.data).toMatchObject({ currentLevel: "aal1", nextLevel: "aal2" });
    const denied = await fetch(`${server.url}/api/auth/user`, {
      headers: { authorization: `Bearer ${data.session!.access_token}` },
    });
    expect(denied.status).toBe(401);

    // The previous code's time step is spent; the authenticator's next code is accepted (±1 step of drift).
    const next = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(factorSecret) }).generate({
      timestamp: Date.now() + 30_000,
    });
    const verified = await auth.mfa.challengeAndVerify({ factorId, code: next });
    expect(verified.error).toBeNull();
    const allowed = await fetch(`${server.url}/api/auth/user`, {
      headers: { authorization: `Bearer ${verified.data!.access_token}` },
    });
    expect(allowed.status).toBe(200);
    const replay = await auth.mfa.challengeAndVerify({ factorId, code: next });
    expect(replay.error?.code).toBe("mfa_verification_failed");
    aal2 = auth;
  });

  it("updates metadata and the password, then signs in with the new one", async () => {
    // With MFA on, changing the password takes an aal2 session.
    const aal1 = await authClient(server.url);
    await aal1.signInWithPassword({ email, password });
    expect((await aal1.updateUser({ password: "an even longer passphrase 2026" })).error?.code).toBe(
      "insufficient_aal",
    );
    const auth = aal2;

    const meta = await auth.updateUser({ data: { phoneModel: "Pixel" } });
    expect(meta.error).toBeNull();
    expect(meta.data.user?.user_metadata).toEqual({ name: "Journey Tester", phoneModel: "Pixel" });

    const weak = await auth.updateUser({ password: "password1" });
    expect(weak.error?.code).toBe("weak_password");
    const same = await auth.updateUser({ password });
    expect(same.error?.code).toBe("same_password");
    const changed = await auth.updateUser({ password: "an even longer passphrase 2026" });
    expect(changed.error).toBeNull();

    const fresh = await authClient(server.url);
    expect((await fresh.signInWithPassword({ email, password })).error?.code).toBe("invalid_credentials");
    expect((await fresh.signInWithPassword({ email, password: "an even longer passphrase 2026" })).error).toBeNull();

    // Turning MFA off again (aal2 session): the factor is gone from the user.
    expect((await aal1.mfa.unenroll({ factorId })).error).not.toBeNull();
    expect((await auth.mfa.unenroll({ factorId })).error).toBeNull();
    expect((await auth.getUser()).data.user?.factors ?? []).toEqual([]);
  });

  it("signs out everywhere: the access token and refresh token stop working", async () => {
    const auth = await authClient(server.url);
    const { data } = await auth.signInWithPassword({ email, password: "an even longer passphrase 2026" });
    const session = data.session!;
    const other = await authClient(server.url);
    const otherSession = (await other.signInWithPassword({ email, password: "an even longer passphrase 2026" })).data
      .session!;

    expect((await auth.signOut({ scope: "global" })).error).toBeNull();
    const user = await other.getUser(session.access_token);
    expect(user.error?.name).toBe("AuthSessionMissingError");
    expect((await other.getUser(otherSession.access_token)).error?.name).toBe("AuthSessionMissingError");
    const refresh = await (await authClient(server.url)).refreshSession({ refresh_token: session.refresh_token });
    expect(refresh.error).not.toBeNull();
  });
});
