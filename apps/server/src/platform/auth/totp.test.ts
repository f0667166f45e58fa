import { describe, expect, it } from "vitest";
import { base32Decode, base32Encode, hotp, newTotpSecret, totpStep, totpUri, verifyTotp } from "./totp.ts";

// RFC 6238 appendix B (SHA-1), last six digits of the eight-digit values.
const RFC_SECRET = base32Encode(Buffer.from("12345678901234567890"));
const VECTORS: Array<[number, string]> = [
  [59, "287082"],
  [1111111109, "081804"],
  [1111111111, "050471"],
  [1234567890, "005924"],
  [2000000000, "279037"],
];

describe("TOTP (RFC 6238)", () => {
  it("matches the RFC test vectors", () => {
    for (const [seconds, code] of VECTORS) expect(hotp(RFC_SECRET, totpStep(seconds * 1000))).toBe(code);
  });

  it("accepts one step of drift either side and nothing further", () => {
    const now = 1_700_000_000_000;
    const step = totpStep(now);
    expect(verifyTotp(RFC_SECRET, hotp(RFC_SECRET, step), now)).toBe(step);
    expect(verifyTotp(RFC_SECRET, hotp(RFC_SECRET, step - 1), now)).toBe(step - 1);
    expect(verifyTotp(RFC_SECRET, hotp(RFC_SECRET, step + 1), now)).toBe(step + 1);
    expect(verifyTotp(RFC_SECRET, hotp(RFC_SECRET, step + 2), now)).toBeNull();
    expect(verifyTotp(RFC_SECRET, "12345", now)).toBeNull();
    expect(verifyTotp(RFC_SECRET, "abcdef", now)).toBeNull();
  });

  it("round-trips base32 and makes 160-bit secrets", () => {
    const bytes = Buffer.from([0, 1, 2, 250, 251, 252, 253, 254, 255]);
    expect(base32Decode(base32Encode(bytes))).toEqual(bytes);
    expect(base32Decode(newTotpSecret())).toHaveLength(20);
    expect(() => base32Decode("not base32!")).toThrow();
  });

  it("builds an otpauth URI authenticator apps read", () => {
    const uri = new URL(totpUri({ secret: "JBSWY3DPEHPK3PXP", issuer: "Workmetrics", account: "a@b.test" }));
    expect(`${uri.protocol}//${uri.host}`).toBe("otpauth://totp");
    expect(decodeURIComponent(uri.pathname)).toBe("/Workmetrics:a@b.test");
    expect(Object.fromEntries(uri.searchParams)).toEqual({
      secret: "JBSWY3DPEHPK3PXP",
      issuer: "Workmetrics",
      algorithm: "SHA1",
      digits: "6",
      period: "30",
    });
  });
});
