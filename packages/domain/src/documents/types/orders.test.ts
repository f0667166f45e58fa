import { describe, expect, it } from "vitest";
import { offeredActions, transitionMatrix } from "../machine.ts";
import { CUSTOMER_ORDER } from "./customer-order.ts";
import { DELIVERY_INSTRUCTION } from "./delivery-instruction.ts";
import type { DocSnapshot } from "./snapshot.ts";

// The matrices of the order and the delivery instruction (issue 10 §2), every (status, action) pair spelled out.

const doc = (status: string, header: Record<string, unknown> = {}, lines: Record<string, unknown>[] = []) =>
  ({ status, today: "2026-06-01", header, lines }) as DocSnapshot;

describe("the customer order matrix", () => {
  it("received → confirmed or rejected, and nothing after", () => {
    const m = transitionMatrix(CUSTOMER_ORDER, { doc: (s) => doc(s, { company_id: 7 }, [{ id: 1, qty: "2" }]) });
    expect(m).toEqual({
      received: { confirm: "→ confirmed", reject: "→ rejected" },
      confirmed: {
        confirm: "A confirmed order cannot be confirmed",
        reject: "A confirmed order cannot be rejected",
      },
      rejected: {
        confirm: "A rejected order cannot be confirmed",
        reject: "A rejected order cannot be rejected",
      },
    });
  });

  it("confirming needs lines and a customer; rejecting needs a reason", () => {
    const none = transitionMatrix(CUSTOMER_ORDER, { doc: (s) => doc(s, { company_id: 7 }), reason: null });
    expect(none.received.confirm).toBe("Add a line before confirming the order");
    expect(none.received.reject).toBe("Give a reason to reject the order (the customer may be told)");
    const guest = transitionMatrix(CUSTOMER_ORDER, { doc: (s) => doc(s, { company_id: null }, [{ id: 1, qty: "1" }]) });
    expect(guest.received.confirm).toBe("Choose the customer this order is for before confirming it");
  });

  it("offers Reject but not Confirm, which only making the sales order does", () => {
    const who = { kind: "member" as const, permissions: ["*"], features: ["erp"] };
    const offered = offeredActions(CUSTOMER_ORDER, doc("received", { company_id: 7 }, [{ id: 1, qty: "1" }]), who);
    expect(offered.map((a) => a.action)).toEqual(["reject"]);
  });

  it("a received order is the type's starting status (its draft)", () => {
    expect(CUSTOMER_ORDER.initial).toBe("received");
  });
});

describe("the delivery instruction matrix", () => {
  const lines = (qtyDelivered: string) => [{ id: 1, qty: "4", qty_delivered: qtyDelivered }];

  it("draft → released → picked; cancel until done", () => {
    expect(transitionMatrix(DELIVERY_INSTRUCTION, { doc: (s) => doc(s, {}, lines("0")) })).toEqual({
      draft: {
        release: "→ released",
        pick: "A draft delivery instruction cannot be marked picked",
        cancel: "→ cancelled",
      },
      released: {
        release: "A released delivery instruction cannot be released",
        pick: "→ picked",
        cancel: "→ cancelled",
      },
      picked: {
        release: "A picked delivery instruction cannot be released",
        pick: "A picked delivery instruction cannot be marked picked",
        cancel: "→ cancelled",
      },
      done: {
        release: "A done delivery instruction cannot be released",
        pick: "A done delivery instruction cannot be marked picked",
        cancel: "A done delivery instruction cannot be cancelled",
      },
      cancelled: {
        release: "A cancelled delivery instruction cannot be released",
        pick: "A cancelled delivery instruction cannot be marked picked",
        cancel: "A cancelled delivery instruction cannot be cancelled",
      },
    });
  });

  it("is done once delivery orders deliver all of it; releasing needs a line; Pro only", () => {
    expect(transitionMatrix(DELIVERY_INSTRUCTION, { doc: (s) => doc(s, {}, lines("4")) }).released.pick).toBe("→ done");
    expect(transitionMatrix(DELIVERY_INSTRUCTION, { doc: (s) => doc(s) }).draft.release).toBe(
      "Add a line before releasing the delivery instruction",
    );
    const lite = { kind: "member" as const, permissions: ["*"], features: ["erp"] };
    expect(
      transitionMatrix(DELIVERY_INSTRUCTION, { doc: (s) => doc(s, {}, lines("0")), member: lite }).draft.release,
    ).toMatch(/Pro/);
  });
});
