import { describe, expect, it } from "vitest";
import { mentionedQty } from "./conversations.rpc.ts";
import { validSignature } from "./webhook.route.ts";

describe("reading a customer's words", () => {
  const qty = (text: string, product: string) => mentionedQty(text.toLowerCase(), text.toLowerCase().indexOf(product));
  it("takes the number written just before the product", () => {
    expect(qty("Please quote 20 pallets of A4 paper", "a4 paper")).toBe(20);
    expect(qty("need 5x hex bolt m6", "hex bolt")).toBe(5);
    expect(qty("12 Hex Bolt M6 please", "hex bolt")).toBe(12);
    expect(qty("price for hex bolt m6?", "hex bolt")).toBe(1);
    expect(qty("order 0 of hex bolt", "hex bolt")).toBe(1);
  });
});

describe("Meta's signature", () => {
  it("accepts only HMAC-SHA256 of the exact bytes under the app secret", async () => {
    const { createHmac } = await import("node:crypto");
    const raw = Buffer.from('{"entry":[]}');
    const good = `sha256=${createHmac("sha256", "s3cret").update(raw).digest("hex")}`;
    expect(validSignature("s3cret", raw, good)).toBe(true);
    expect(validSignature("other", raw, good)).toBe(false);
    expect(validSignature("s3cret", Buffer.from('{"entry": []}'), good)).toBe(false);
    expect(validSignature("s3cret", raw, good.replace("sha256=", "sha1="))).toBe(false);
    expect(validSignature("s3cret", raw, "sha256=abc")).toBe(false);
    expect(validSignature("s3cret", raw, undefined)).toBe(false);
  });
});
