import { describe, expect, it } from "vitest";
import { TIERS } from "../tiers.ts";
import { quotePrice, slugFromName, WorkspaceSlug } from "./company-signup.ts";

describe("company sign-up rules", () => {
  it.each([
    ["acme", true],
    ["Acme-Trading", true],
    ["ab", false],
    ["a".repeat(31), false],
    ["9lives", false],
    ["acme-", false],
    ["ac--me", false],
    ["admin", false],
    ["pos", false],
    ["acme_trading", false],
  ])("slug %s valid: %s", (slug, ok) => {
    expect(WorkspaceSlug.safeParse(slug).success).toBe(ok);
  });

  it("derives a slug from a company name", () => {
    expect(slugFromName("Bedok Hardware Pte. Ltd.")).toBe("bedok-hardware-pte-ltd");
    expect(slugFromName("123 Trading")).toBe("trading");
  });

  it("quotes prices with coupons, never below zero", () => {
    const pro = TIERS[1];
    expect(quotePrice(pro, "monthly")).toEqual({ listPrice: "149.00", discount: "0.00", price: "149.00" });
    expect(quotePrice(pro, "yearly", { code: "X", kind: "percent", value: "15" })).toEqual({
      listPrice: "1609.20",
      discount: "241.38",
      price: "1367.82",
    });
    expect(quotePrice(pro, "monthly", { code: "X", kind: "amount", value: "500" }).price).toBe("0.00");
  });
});
