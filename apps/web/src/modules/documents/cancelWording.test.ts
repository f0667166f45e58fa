import { describe, expect, it } from "vitest";
import { cancelWording } from "./cancelWording.ts";

describe("the cancel confirmation, from the type's declarations", () => {
  it("says a debit note's journal entry is reversed — it has no stock moves", () => {
    expect(cancelWording("debit_note", "Debit note", false)).toEqual({
      body: "Its journal entry is reversed. This cannot be undone.",
      confirmLabel: "Cancel debit note",
      keepLabel: "Keep it",
    });
  });

  it("names stock moves only where the type's posting moves stock", () => {
    expect(cancelWording("delivery_order", "Delivery order", false).body).toBe(
      "Its stock moves and journal entry are reversed. This cannot be undone.",
    );
    expect(cancelWording("invoice", "Invoice", false).body).toBe(
      "Its journal entry is reversed. This cannot be undone.",
    );
    expect(cancelWording("sales_order", "Sales order", false).body).toBe(
      "It stays in the list as cancelled. This cannot be undone.",
    );
  });

  it("a draft posted nothing", () => {
    expect(cancelWording("delivery_order", "Delivery order", true)).toMatchObject({
      body: "The draft stays in the list as cancelled; it cannot be edited afterwards.",
      confirmLabel: "Cancel delivery order",
    });
  });
});
