import { describe, expect, it } from "vitest";
import { spreadReturn } from "./supplier-return-spread.ts";

// A receipt line 7 of 10 billed by two invoices: line 1 (invoice A) 4, line 2 (invoice B) 6.
const billing = (returned: [string, string] = ["0", "0"]) => [
  { id: 1, receiptLineId: 7, qty: "4", returned: returned[0] },
  { id: 2, receiptLineId: 7, qty: "6", returned: returned[1] },
];
const open = (q: string) => new Map([[7, q]]);

describe("spreadReturn: a return to the supplier debits every invoice that billed the receipt line", () => {
  it("fills the oldest invoice first, then the next", () => {
    expect(spreadReturn(billing(), open("10"), [{ id: 50, receiptLineId: 7, qty: "5" }])).toEqual([
      { returnLineId: 50, invoiceLineId: 1, qty: "4" },
      { returnLineId: 50, invoiceLineId: 2, qty: "1" },
    ]);
  });

  it("goes on where earlier returns stopped (each line's qty_returned)", () => {
    expect(spreadReturn(billing(["4", "1"]), open("5"), [{ id: 51, receiptLineId: 7, qty: "3" }])).toEqual([
      { returnLineId: 51, invoiceLineId: 2, qty: "3" },
    ]);
    // An earlier return cancelled gave the first invoice its room back: the next one debits it again.
    expect(spreadReturn(billing(["0", "3"]), open("7"), [{ id: 52, receiptLineId: 7, qty: "2" }])).toEqual([
      { returnLineId: 52, invoiceLineId: 1, qty: "2" },
    ]);
  });

  it("debits no more than was billed and is still open; the rest was not invoiced yet", () => {
    expect(spreadReturn(billing().slice(0, 1), open("4"), [{ id: 53, receiptLineId: 7, qty: "9" }])).toEqual([
      { returnLineId: 53, invoiceLineId: 1, qty: "4" },
    ]);
    expect(spreadReturn(billing(), open("1.5"), [{ id: 54, receiptLineId: 7, qty: "9" }])).toEqual([
      { returnLineId: 54, invoiceLineId: 1, qty: "1.5" },
    ]);
  });

  it("leaves other receipt lines alone", () => {
    const two = [...billing(), { id: 3, receiptLineId: 8, qty: "2", returned: "0" }];
    expect(spreadReturn(two, new Map([[8, "2"]]), [{ id: 55, receiptLineId: 8, qty: "1" }])).toEqual([
      { returnLineId: 55, invoiceLineId: 3, qty: "1" },
    ]);
  });
});
