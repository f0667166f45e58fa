import { OrderSubmission } from "@workmetrics/domain/schemas/order-submission";
import { describe, expect, it } from "vitest";
import { estimateOf, notANumber } from "./orderQuantity.ts";

describe("the public order form's quantities", () => {
  it("estimates from the quantities that are numbers only, never throwing on letters", () => {
    expect(estimateOf([{ price: "2.50" }, { price: "10" }], ["abc", "3"]).toString()).toBe("30");
    expect(estimateOf([{ price: "2.50" }], ["2x"]).toString()).toBe("0");
  });

  it('says "must be a number" for letters and nothing for empty or numeric text', () => {
    expect(notANumber("abc")).toBe('Quantity must be a number, not "abc"');
    expect(notANumber("")).toBeNull();
    expect(notANumber("1.5")).toBeNull();
    expect(notANumber("1.2345")).toBeNull();
  });

  it("the shared schema refuses letters in a quantity with a message instead of a DecimalError", () => {
    const r = OrderSubmission.safeParse({
      name: "A",
      email: "a@b.co",
      delivery_address: "1 Road",
      items: [{ product_id: 1, qty: "abc" }],
    });
    expect(r.success).toBe(false);
  });
});
