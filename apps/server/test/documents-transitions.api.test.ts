import { transitionMatrix } from "@workmetrics/domain/documents/machine";
import { QUOTATION } from "@workmetrics/domain/documents/types/quotation";
import { SALES_ORDER } from "@workmetrics/domain/documents/types/sales-order";
import type { DocSnapshot } from "@workmetrics/domain/documents/types/snapshot";
import { describe, expect, it } from "vitest";
import { act, type Doc, draft, ok, read, rpc } from "./documents-helpers.ts";

// Issue 10 §5: each type's transition matrix through the server — every action from every status the selling
// documents can reach today: allowed → the status it lands on, or refused with the clerk's message (the same table
// the domain's types.test.ts spells out), and a refusal changes nothing.

const ADMIN = "admin@demo.test";
const REASON = "A reason";

// How to bring a fresh document to each status with the commands (statuses that need deliveries come later).
const PATHS: Record<string, Record<string, string[]>> = {
  quotation: {
    draft: [],
    sent: ["submit"],
    won: ["submit", "mark_won"],
    lost: ["submit", "mark_lost"],
    expired: ["submit", "expire"],
    cancelled: ["cancel"],
  },
  sales_order: {
    draft: [],
    to_deliver_and_bill: ["submit"],
    on_hold: ["submit", "hold"],
    closed: ["submit", "close"],
    cancelled: ["cancel"],
  },
};

async function inStatus(type: string, status: string): Promise<Doc> {
  const doc = await draft(ADMIN, type, type === "quotation" ? { valid_until: "2020-01-31" } : {});
  for (const action of PATHS[type][status])
    await ok(ADMIN, "document_transition", { type, id: doc.id, action, reason: REASON });
  return read(ADMIN, type, doc.id);
}

const snapshot = (status: string): DocSnapshot => ({
  status,
  today: new Date().toISOString().slice(0, 10),
  header: { valid_until: "2020-01-31" },
  lines: [{ id: 1, qty: "2", qty_delivered: "0", qty_billed: "0" }],
});

describe.each([
  ["quotation", QUOTATION],
  ["sales_order", SALES_ORDER],
] as const)("the %s matrix on the server", (type, machine) => {
  const expected = transitionMatrix(machine as typeof QUOTATION, { doc: snapshot }) as Record<
    string,
    Record<string, string>
  >;
  it.each(Object.keys(PATHS[type]))("from %s", async (status) => {
    const answers: Record<string, string> = {};
    for (const action of machine.actions) {
      const doc = await inStatus(type, status);
      expect(doc.status).toBe(status);
      const res = await act(ADMIN, type, doc.id, action, REASON);
      if (res.status === 200) {
        answers[action] = `→ ${(res.body as Doc).status}`;
      } else {
        expect(res.status, res.text).toBe(409);
        answers[action] = (res.body as { message: string }).message;
        expect(await read(ADMIN, type, doc.id), `${status} ${action} changed nothing`).toEqual(doc);
      }
    }
    expect(answers).toEqual(expected[status]);
  });
});

describe("transitions", () => {
  it("number a document when it leaves draft, never a cancelled draft", async () => {
    const sent = await ok(ADMIN, "document_transition", {
      type: "quotation",
      id: (await draft(ADMIN)).id,
      action: "submit",
    });
    expect(sent.number).toMatch(new RegExp(`^QT-${new Date().getFullYear()}-\\d{5}$`));
    const cancelled = await ok(ADMIN, "document_transition", {
      type: "quotation",
      id: (await draft(ADMIN)).id,
      action: "cancel",
    });
    expect(cancelled).toMatchObject({ status: "cancelled", number: null });
  });

  it("ask for a reason, refuse empty documents and unknown actions — and change nothing", async () => {
    const doc = await inStatus("quotation", "sent");
    const noReason = await act(ADMIN, "quotation", doc.id, "mark_lost");
    expect(noReason.status).toBe(422);
    expect(noReason.body).toMatchObject({ message: "Give a reason to mark it lost" });
    const unknown = await act(ADMIN, "quotation", doc.id, "explode");
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({ message: 'Quotations have no action "explode"' });
    expect(await read(ADMIN, "quotation", doc.id)).toEqual(doc);
    const empty = await ok(ADMIN, "document_save", { type: "sales_order", header: { company_id: 9 }, lines: [] });
    const refused = await act(ADMIN, "sales_order", empty.id, "submit");
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ message: "Add a line before submitting the sales order" });
  });
});

describe("document_actions", () => {
  it("offers what the status and the member's permissions allow, with why a blocked one is blocked", async () => {
    const sent = await ok(ADMIN, "document_transition", {
      type: "quotation",
      id: (await draft(ADMIN)).id,
      action: "submit",
    });
    const res = await rpc(ADMIN, "document_actions", { type: "quotation", id: sent.id });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      status: "sent",
      actions: [
        { action: "mark_won", label: "Mark won", needsReason: false, blocked: null },
        { action: "mark_lost", label: "Mark lost", needsReason: true, blocked: null },
        {
          action: "expire",
          label: "Expire",
          needsReason: false,
          blocked: "This quotation has no valid-until date, so it does not expire",
        },
        { action: "cancel", label: "Cancel", needsReason: false, blocked: null },
      ],
    });
    const order = await draft("sales@demo.test", "sales_order");
    const theirs = await rpc("sales@demo.test", "document_actions", { type: "sales_order", id: order.id });
    expect(theirs.body).toEqual({ status: "draft", actions: [] });
    const driver = await rpc("driver@demo.test", "document_actions", { type: "quotation", id: sent.id });
    expect(driver.status).toBe(403);
    expect(driver.body).toMatchObject({ message: "You do not have permission to read quotations" });
  });
});

describe("document_convert", () => {
  it("makes a sales order from a sent quotation, lines linked, quantities as asked; the quotation is won", async () => {
    const quote = await inStatus("quotation", "sent");
    const [first, second] = quote.lines;
    const order = await ok(ADMIN, "document_convert", {
      type: "quotation",
      id: quote.id,
      to: "sales_order",
      lines: [
        { line_id: second.id, qty: "1" },
        { line_id: first.id, qty: 2 },
      ],
    });
    expect(order).toMatchObject({
      status: "draft",
      number: null,
      company_id: quote.company_id,
      source_type: "quotation",
      source_id: quote.id,
    });
    expect(order.lines.map((l) => [l.source_line_id, l.qty, l.unit_price, l.description])).toEqual([
      [second.id, "1.000", second.unit_price, second.description],
      [first.id, "2.000", first.unit_price, first.description],
    ]);
    expect(order.subtotal).toBe((Number(second.unit_price) + 2 * Number(first.unit_price)).toFixed(2));
    expect((await read(ADMIN, "quotation", quote.id)).status).toBe("won");
    // Saving the draft again keeps its links; a line cannot claim a source line it was not made from.
    const kept = order.lines.map((l) => ({
      description: l.description,
      qty: l.qty,
      unit_price: l.unit_price,
      source_line_id: l.source_line_id,
    }));
    const header = { company_id: order.company_id };
    const resaved = await ok(ADMIN, "document_save", { type: "sales_order", id: order.id, header, lines: kept });
    expect(resaved.lines.map((l) => l.source_line_id)).toEqual([second.id, first.id]);
    const forged = await rpc(ADMIN, "document_save", {
      type: "sales_order",
      id: order.id,
      header,
      lines: [{ ...kept[0], source_line_id: order.id }],
    });
    expect(forged.status).toBe(422);
    expect(forged.body).toMatchObject({ message: "Line 1 links to a line this sales order was not made from" });
    const submitted = await ok(ADMIN, "document_transition", { type: "sales_order", id: order.id, action: "submit" });
    expect(submitted.status).toBe("to_deliver_and_bill");
    expect(submitted.number).toMatch(/^SO-\d{4}-\d{5}$/);
  });

  it("refuses a quotation that is not sent, a line of another document, and changes nothing", async () => {
    const quote = await inStatus("quotation", "draft");
    const res = await rpc(ADMIN, "document_convert", { type: "quotation", id: quote.id, to: "sales_order" });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({
      message: "Only a sent quotation can be made into a sales order; this one is draft",
    });
    const sent = await inStatus("quotation", "sent");
    const other = await rpc(ADMIN, "document_convert", {
      type: "quotation",
      id: sent.id,
      to: "sales_order",
      lines: [{ line_id: quote.lines[0].id, qty: "1" }],
    });
    expect(other.status).toBe(422);
    expect(other.body).toMatchObject({ message: `Line ${quote.lines[0].id} is not on ${sent.number}` });
    expect(await read(ADMIN, "quotation", sent.id)).toEqual(sent);
    const back = await rpc(ADMIN, "document_convert", { type: "sales_order", id: 1, to: "quotation" });
    expect(back.body).toMatchObject({ message: "A quotation cannot be made from a sales order" });
  });
});
