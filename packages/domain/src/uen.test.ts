import { describe, expect, it } from "vitest";
import { isUen, normalizeUen } from "./uen.ts";

describe("Singapore UEN (issue 9 §2)", () => {
  it.each([
    ["12345678X", "business registered with ACRA"],
    ["53012345D", "business"],
    ["201912345K", "local company"],
    ["199904567M", "local company, 1999"],
    ["T09LL0001B", "limited liability partnership, 2009"],
    ["S99SS0123A", "society, 1999"],
    ["t09ll0001b", "lower case"],
    [" 201912345k ", "spaces around"],
  ])("takes %s (%s)", (uen) => {
    expect(isUen(uen)).toBe(true);
  });

  it.each([
    "xyz",
    "",
    "1234567X", // 7 digits
    "123456789", // no check letter
    "12345678XX",
    "20191234K5",
    "R09LL0001B", // only T and S prefixes
    "T09L10001B", // entity type is two letters
    "T9LL0001B",
    "201912345 K",
    "２01912345K", // full-width digit
  ])("refuses %j", (uen) => {
    expect(isUen(uen)).toBe(false);
  });

  it("keeps UENs in capitals without spaces", () => {
    expect(normalizeUen(" t09ll0001b ")).toBe("T09LL0001B");
  });
});
