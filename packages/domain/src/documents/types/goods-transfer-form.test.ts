import { describe, expect, it } from "vitest";
import { decideTransition, type LineQuantities, transitionMatrix } from "../machine.ts";
import { GOODS_TRANSFER_FORM, shortfall } from "./goods-transfer-form.ts";
import type { DocSnapshot } from "./snapshot.ts";

// Issue 11: the goods transfer form's matrix, its guards, and the received quantities per line (line_qty) it asks.

const everyone = { kind: "member" as const, permissions: ["*"], features: ["warehouse_tracking", "erp"] };
const doc = (
  status: string,
  header: Record<string, unknown> = {},
  lines: object[] = [{ id: 1, qty: "10", product_id: 5 }],
) =>
  ({
    status,
    today: "2026-06-01",
    header: { from_location_id: 1, to_location_id: 2, ...header },
    lines,
  }) as DocSnapshot;

describe("the goods transfer form matrix", () => {
  it("dispatches a draft into transit, receives it, cancels before receipt", () => {
    expect(transitionMatrix(GOODS_TRANSFER_FORM, { doc: (s) => doc(s) })).toEqual({
      draft: {
        submit: "→ in_transit",
        receive: "A draft goods transfer form cannot be received",
        cancel: "→ cancelled",
      },
      in_transit: {
        submit: "A dispatched goods transfer form cannot be dispatched",
        receive: "→ received",
        cancel: "→ cancelled",
      },
      received: {
        submit: "A received goods transfer form cannot be dispatched",
        receive: "A received goods transfer form cannot be received",
        cancel: "A received goods transfer form cannot be cancelled",
      },
      cancelled: {
        submit: "A cancelled goods transfer form cannot be dispatched",
        receive: "A cancelled goods transfer form cannot be received",
        cancel: "A cancelled goods transfer form cannot be cancelled",
      },
    });
  });

  it("refuses a transfer to the same location, one without lines and a line without a product", () => {
    const submit = (d: DocSnapshot) => decideTransition(GOODS_TRANSFER_FORM, d, "submit", everyone);
    expect(submit(doc("draft", { to_location_id: 1 }))).toMatchObject({
      allowed: false,
      message: "A goods transfer moves stock between two different locations: choose another to-location",
    });
    expect(submit(doc("draft", {}, []))).toMatchObject({
      message: "Add a line before dispatching the goods transfer form",
    });
    expect(submit(doc("draft", {}, [{ id: 1, qty: "1", description: "Freight" }]))).toMatchObject({
      message: "Every line of a goods transfer moves a product",
    });
  });

  it("is a warehouse tracking (Pro) feature", () => {
    const lite = { kind: "member" as const, permissions: ["*"], features: ["erp"] };
    expect(decideTransition(GOODS_TRANSFER_FORM, doc("draft"), "submit", lite)).toMatchObject({ allowed: false });
  });
});

describe("receiving per line", () => {
  const two = doc("in_transit", {}, [
    { id: 11, qty: "10", product_id: 5, qty_received: "0" },
    { id: 12, qty: "4", product_id: 6, qty_received: "0" },
  ]);
  const receive = (values: Record<string, unknown> | null) =>
    decideTransition(GOODS_TRANSFER_FORM, two, "receive", everyone, { values });

  it("takes what arrived per line, a line left out as 0; everything when nothing is given", () => {
    const some = receive({ qty_received: [{ line_id: 11, qty: "8" }] });
    expect(some).toMatchObject({ allowed: true, to: "received", lines: { qty_received: { "11": "8" } } });
    const all = receive(null);
    expect(all.allowed && (all.lines as LineQuantities)).toEqual({ qty_received: { "11": "10", "12": "4" } });
    expect(shortfall({ qty: "10", qty_received: "8" })).toBe("2");
  });

  it("refuses more than was sent, a negative quantity, a word, a line of another document", () => {
    expect(receive({ qty_received: [{ line_id: 12, qty: "5" }] })).toMatchObject({
      allowed: false,
      reason: "needs_input",
      field: "qty_received",
      message: "Line 2: at most 4 can be received, not 5",
    });
    expect(receive({ qty_received: [{ line_id: 12, qty: "-1" }] })).toMatchObject({
      message: "The quantity received on line 2 cannot be less than 0",
    });
    expect(receive({ qty_received: [{ line_id: 12, qty: "four" }] })).toMatchObject({
      message: 'The quantity received on line 2 must be a number, not "four"',
    });
    expect(receive({ qty_received: [{ line_id: 99, qty: "1" }] })).toMatchObject({
      message: "Line 99 is not on this document",
    });
    expect(receive({ qty_received: "8" })).toMatchObject({ message: "Received: give a list of { line_id, qty }" });
  });
});
