import { describe, expect, it } from "vitest";
import { parseBanDuration } from "./admin.route.ts";
import { AuthError } from "./auth-error.ts";
import { CHUNK_SIZE, chunk, isValidCookieName, isValidCookieValue } from "./cookies.ts";
import { sealer } from "./crypto.ts";
import { createSigner, decodePayload } from "./jwt.ts";
import { assertStrongPassword, passwordWeakness } from "./password-policy.ts";
import { DEFAULT_RATE_LIMITS, parseRateLimits } from "./rate-limit.ts";

describe("password rules (issue 3 rule 2)", () => {
  it("wants 8 characters, counts characters not bytes, and has no composition rules", () => {
    expect(passwordWeakness("short1!")?.reasons).toEqual(["length"]);
    expect(passwordWeakness("ééééééé")?.reasons).toEqual(["length"]);
    expect(passwordWeakness("quiet river stone")).toBeNull();
    expect(passwordWeakness("zqxjvkwpmr")).toBeNull();
  });

  it("refuses common passwords whatever their case", () => {
    for (const p of ["password", "Password1", "QWERTY123", "iloveyou1", "12345678", "1q2w3e4r", "sunshine2024"]) {
      expect(passwordWeakness(p)?.reasons).toEqual(["pwned"]);
    }
  });

  it("allows long passphrases up to 256 characters", () => {
    expect(() => assertStrongPassword(`${"w".repeat(64)}ord`)).not.toThrow();
    expect(() => assertStrongPassword("x".repeat(300))).toThrow(AuthError);
  });
});

describe("session token shape (spec §5)", () => {
  it("needs three base64url parts with a JSON object payload", () => {
    const part = (v: unknown) => Buffer.from(JSON.stringify(v)).toString("base64url");
    expect(decodePayload(`${part({})}.${part({ sub: "x" })}.sig`)).toEqual({ sub: "x" });
    expect(decodePayload(`${part({})}.${part([1])}.sig`)).toBeNull();
    expect(decodePayload(`${part({})}.${part("s")}.sig`)).toBeNull();
    expect(decodePayload(`${part({})}.${part({})}`)).toBeNull();
    expect(decodePayload(`${part({})}.bm90IGpzb24.sig`)).toBeNull();
    expect(decodePayload("a.b c.d")).toBeNull();
  });

  it("verifies our own HS256 tokens only, with a small leeway", async () => {
    const signer = createSigner("k".repeat(40), "http://localhost:3000");
    const claims = {
      sub: "u",
      aal: "aal1" as const,
      amr: [],
      session_id: "s",
      email: "",
      phone: "",
      app_metadata: {},
      user_metadata: {},
      is_anonymous: false as const,
      workspace_id: null,
      workspace_slug: null,
      role_id: null,
    };
    const now = Math.floor(Date.now() / 1000);
    expect((await signer.verify(await signer.sign(claims, now)))?.sub).toBe("u");
    // Expired 10 s ago: inside the leeway. Expired an hour ago: refused, unless expiry is ignored (page loads).
    expect(await signer.verify(await signer.sign(claims, now - 3610))).not.toBeNull();
    const old = await signer.sign(claims, now - 7200);
    expect(await signer.verify(old)).toBeNull();
    expect(await signer.verify(old, { ignoreExpiry: true })).not.toBeNull();
    const other = createSigner("o".repeat(40), "http://localhost:3000");
    expect(await other.verify(await signer.sign(claims, now))).toBeNull();
    expect(await signer.verify(await signer.anonKey())).toBeNull();
  });
});

describe("cookies (issue 3 item 4)", () => {
  it("chunks values over the browser limit", () => {
    expect(chunk("abc")).toEqual(["abc"]);
    const parts = chunk("x".repeat(CHUNK_SIZE * 2 + 1));
    expect(parts.map((p) => p.length)).toEqual([CHUNK_SIZE, CHUNK_SIZE, 1]);
  });

  it("rejects names and values with invalid characters", () => {
    expect(isValidCookieName("sb-access-token.0")).toBe(true);
    for (const bad of ["sb token", "sb;x", "sb=x", "", "sb\u0000"]) expect(isValidCookieName(bad)).toBe(false);
    expect(isValidCookieValue("eyJ.abc-_.x")).toBe(true);
    for (const bad of ["a b", "a;b", 'a"b', "a,b", "a\\b", "é"]) expect(isValidCookieValue(bad)).toBe(false);
  });
});

describe("configuration parsing", () => {
  it("reads AUTH_RATE_LIMITS overrides on top of GoTrue's defaults", () => {
    expect(parseRateLimits(undefined)).toEqual(DEFAULT_RATE_LIMITS);
    expect(parseRateLimits("sign_in=5/60").sign_in).toEqual({ max: 5, windowSeconds: 60 });
    expect(parseRateLimits("sign_in=5/60").mfa).toEqual({ max: 15, windowSeconds: 60 });
    expect(() => parseRateLimits("logins=5/60")).toThrow(/KIND=MAX\/SECONDS/);
  });

  it("reads Go durations for bans", () => {
    expect(parseBanDuration("24h")).toBe(86_400_000);
    expect(parseBanDuration("1h30m")).toBe(5_400_000);
    expect(parseBanDuration("none")).toBe(0);
    expect(parseBanDuration("forever")).toBeNull();
    expect(parseBanDuration("")).toBeNull();
  });

  it("seals TOTP secrets so only this server can open them", () => {
    const a = sealer("s".repeat(40), "totp-secret");
    const sealed = a.seal("JBSWY3DPEHPK3PXP");
    expect(sealed).not.toContain("JBSWY3DPEHPK3PXP");
    expect(a.open(sealed)).toBe("JBSWY3DPEHPK3PXP");
    expect(() => sealer("t".repeat(40), "totp-secret").open(sealed)).toThrow();
  });
});
