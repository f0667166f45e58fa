import { transitionMatrix } from "@workmetrics/domain/documents/machine";
import { DELIVERY_ORDER } from "@workmetrics/domain/documents/types/delivery-order";
import type { DocSnapshot } from "@workmetrics/domain/documents/types/snapshot";
import { describe, expect, it } from "vitest";
import { act, type Doc, draft, ok, read, rpc } from "./documents-helpers.ts";
import { restFetch } from "./rest-helpers.ts";

// Issue 10 §5: the delivery order's transition matrix through the server, what it may be made from, and another
// workspace's attempts. Lines that name no product move no stock, so this runs on the suite's server, which has
// none (documents-delivery.api.test.ts covers stock and the books on a server of its own).

const ADMIN = "admin@demo.test";
const THEM = "owner@pro.test";
const LINE = { description: "Site visit kit", qty: "3", unit_price: "10" };

async function openOrder(): Promise<Doc> {
  const so = await draft(ADMIN, "sales_order", {}, [LINE]);
  return ok(ADMIN, "document_transition", { type: "sales_order", id: so.id, action: "submit" });
}

const PATHS: Record<string, string[]> = { draft: [], to_bill: ["submit"], cancelled: ["cancel"] };

async function inStatus(status: string): Promise<Doc> {
  const so = await openOrder();
  const d = await ok(ADMIN, "document_convert", { type: "sales_order", id: so.id, to: "delivery_order" });
  for (const action of PATHS[status])
    await ok(ADMIN, "document_transition", { type: "delivery_order", id: d.id, action });
  return read(ADMIN, "delivery_order", d.id);
}

const snapshot = (status: string): DocSnapshot => ({
  status,
  today: new Date().toISOString().slice(0, 10),
  header: {},
  lines: [{ id: 1, qty: "3", qty_billed: "0" }],
});

describe("the delivery_order matrix on the server", () => {
  const expected = transitionMatrix(DELIVERY_ORDER, { doc: snapshot }) as Record<string, Record<string, string>>;
  it.each(Object.keys(PATHS))("from %s", async (status) => {
    const answers: Record<string, string> = {};
    for (const action of DELIVERY_ORDER.actions) {
      const doc = await inStatus(status);
      expect(doc.status).toBe(status);
      const res = await act(ADMIN, "delivery_order", doc.id, action);
      if (res.status === 200) {
        answers[action] = `→ ${(res.body as Doc).status}`;
      } else {
        // 409 for the status and guards; 422 for an input the action asks for (complete: who received the goods).
        expect(res.status, res.text).toBe(
          DELIVERY_ORDER.transitions.some(
            (t) => t.action === action && t.from.includes(status as never) && t.inputs?.some((i) => i.required),
          )
            ? 422
            : 409,
        );
        answers[action] = (res.body as { message: string }).message;
        expect(await read(ADMIN, "delivery_order", doc.id), `${status} ${action} changed nothing`).toEqual(doc);
      }
    }
    expect(answers).toEqual(expected[status]);
  });

  it("the completed row: the handover and its driver, and cancel (the server then asks whether an invoice bills it)", () => {
    expect(expected.completed).toEqual({
      submit: "A completed delivery order cannot be submitted",
      complete: "Give the name of the person who received the goods",
      assign_driver: "Choose the driver to assign",
      cancel: "→ cancelled",
    });
  });
});

describe("making a delivery order", () => {
  it("only from an open sales order, and services are not delivered", async () => {
    const so = await draft(ADMIN, "sales_order", {}, [LINE]);
    const early = await rpc(ADMIN, "document_convert", { type: "sales_order", id: so.id, to: "delivery_order" });
    expect(early.status).toBe(409);
    expect(early.body).toMatchObject({ message: "A draft sales order cannot be made into a delivery order" });
    const quote = await rpc(ADMIN, "document_convert", { type: "quotation", id: 1, to: "delivery_order" });
    expect(quote.status).toBe(422);
    expect(quote.body).toMatchObject({ message: "A delivery order cannot be made from a quotation" });

    const service = (await restFetch(ADMIN, "service?select=id&order=id&limit=1")).body as Array<{ id: number }>;
    const mixed = await draft(ADMIN, "sales_order", {}, [LINE, { service_id: service[0].id, qty: "2" }]);
    await ok(ADMIN, "document_transition", { type: "sales_order", id: mixed.id, action: "submit" });
    const d = await ok(ADMIN, "document_convert", { type: "sales_order", id: mixed.id, to: "delivery_order" });
    expect(d.lines.map((l) => [l.description, l.qty])).toEqual([["Site visit kit", "3.000"]]);
    expect((await act(ADMIN, "delivery_order", d.id, "submit")).status).toBe(200);
    // Goods delivered, the service still to bill: the order is To Bill.
    expect((await read(ADMIN, "sales_order", mixed.id)).status).toBe("to_bill");
  });

  it("a submitted delivery blocks cancelling the order until it is cancelled", async () => {
    const so = await openOrder();
    const d = await ok(ADMIN, "document_convert", { type: "sales_order", id: so.id, to: "delivery_order" });
    await ok(ADMIN, "document_transition", { type: "delivery_order", id: d.id, action: "submit" });
    const refused = await act(ADMIN, "sales_order", so.id, "cancel");
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({
      message: "Part of this sales order is delivered or billed: cancel those documents first, or close the order",
    });
    await ok(ADMIN, "document_transition", { type: "delivery_order", id: d.id, action: "cancel" });
    expect((await ok(ADMIN, "document_transition", { type: "sales_order", id: so.id, action: "cancel" })).status).toBe(
      "cancelled",
    );
  });
});

describe("another workspace", () => {
  it("cannot convert demo's order nor move demo's delivery: answered as not found, nothing changes", async () => {
    const so = await openOrder();
    const d = await ok(ADMIN, "document_convert", { type: "sales_order", id: so.id, to: "delivery_order" });
    const convert = await rpc(THEM, "document_convert", { type: "sales_order", id: so.id, to: "delivery_order" });
    expect(convert.status, convert.text).toBe(404);
    expect(convert.body).toMatchObject({ message: `There is no sales order ${so.id} in this workspace` });
    for (const action of ["submit", "cancel"]) {
      const res = await act(THEM, "delivery_order", d.id, action);
      expect(res.status, res.text).toBe(404);
      expect(res.body).toMatchObject({ message: `There is no delivery order ${d.id} in this workspace` });
    }
    expect((await restFetch(THEM, `delivery_order_line?delivery_order_id=eq.${d.id}`)).body).toEqual([]);
    expect((await read(ADMIN, "delivery_order", d.id)).status).toBe("draft");
    expect((await read(ADMIN, "sales_order", so.id)).lines[0].qty_delivered).toBe("0.000");
  });
});
