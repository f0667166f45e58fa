import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { SealError, seal, unseal } from "./secrets.ts";

const key = randomBytes(32);
const WS = "7f0c8f1e-1111-4222-8333-944455556666";

describe("sealed channel tokens", () => {
  it("opens what it sealed, and the sealed text holds no trace of the token", () => {
    const sealed = seal(key, WS, 1001, "EAAG-secret-token");
    expect(sealed).not.toContain("EAAG");
    expect(sealed.startsWith("v1.")).toBe(true);
    expect(unseal(key, WS, 1001, sealed)).toBe("EAAG-secret-token");
    expect(seal(key, WS, 1001, "EAAG-secret-token")).not.toBe(sealed); // a fresh IV every time
  });

  it("does not open for another account, another workspace, another key or a changed byte", () => {
    const sealed = seal(key, WS, 1001, "token");
    expect(() => unseal(key, WS, 1002, sealed)).toThrow(SealError);
    expect(() => unseal(key, WS.replace("7f", "8f"), 1001, sealed)).toThrow(SealError);
    expect(() => unseal(randomBytes(32), WS, 1001, sealed)).toThrow(SealError);
    const parts = sealed.split(".");
    const flipped = `${parts[0]}.${parts[1]}.${parts[2]}.${parts[3].startsWith("A") ? "B" : "A"}${parts[3].slice(1)}`;
    expect(() => unseal(key, WS, 1001, flipped)).toThrow(SealError);
    expect(() => unseal(key, WS, 1001, "plain-token")).toThrow(SealError);
  });
});
