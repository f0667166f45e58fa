import pg from "pg";
import { describe, expect, it } from "vitest";
import { act, type Doc, draft, ok, read, rpc } from "./documents-helpers.ts";
import { locationsByCode, ownServer } from "./own-server-helpers.ts";

// Issue 20 §3: a document page's actions are decided by pure guards over the rows it read — no trial of a cancel's
// effects, and so no lock, on a read path. What only the effects know (a debit note standing against an invoice) is
// asked with document_action_check when the clerk opens the action.

const ADMIN = "admin@demo.test";
const own = ownServer();

type Offered = { status: string; actions: Array<{ action: string; blocked: string | null }> };
const message = (res: { body: unknown }) => (res.body as { message: string }).message;
const submit = (type: string, id: number) => ok(ADMIN, "document_transition", { type, id, action: "submit" });

async function invoice(price = "100"): Promise<Doc> {
  const d = await draft(ADMIN, "invoice", {}, [{ description: "Consulting", qty: "1", unit_price: price }]);
  return submit("invoice", d.id);
}

const cancelOffered = async (type: string, id: number) => {
  const res = await rpc(ADMIN, "document_actions", { type, id });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return (res.body as Offered).actions.find((a) => a.action === "cancel");
};

describe("document_actions and document_action_check", () => {
  it("blocks a cancel from the lines it read when a later document draws on them", async () => {
    const so = await submit(
      "sales_order",
      (await draft(ADMIN, "sales_order", {}, [{ description: "Survey", qty: "4", unit_price: "50" }])).id,
    );
    const location = (await locationsByCode(ADMIN))["WH-TUAS"];
    const made = await ok(ADMIN, "document_convert", {
      type: "sales_order",
      id: so.id,
      to: "delivery_order",
      header: { location_id: location },
    });
    const delivery = await submit("delivery_order", made.id);
    expect(await cancelOffered("delivery_order", delivery.id)).toMatchObject({ blocked: null });
    const inv = await ok(ADMIN, "document_convert", { type: "delivery_order", id: delivery.id, to: "invoice" });
    await submit("invoice", inv.id);
    const blocked = await cancelOffered("delivery_order", delivery.id);
    expect(blocked?.blocked).toBe("This delivery order is billed on an invoice (line 1): cancel the invoice first");
    // The server's own refusal names the invoice; the check, asked when the clerk opens Cancel, says the same.
    expect(message(await act(ADMIN, "delivery_order", delivery.id, "cancel"))).toMatch(/billed on invoice INV-/);
    const check = await rpc(ADMIN, "document_action_check", {
      type: "delivery_order",
      id: delivery.id,
      action: "cancel",
    });
    expect(check.status).toBe(200);
    expect(check.body).toMatchObject({ action: "cancel", blocked: expect.stringMatching(/billed on an invoice/) });
  });

  it("asks what stands against an invoice only when the clerk opens Cancel, and the asking changes nothing", async () => {
    const inv = await invoice("100");
    const dn = await submit(
      "debit_note",
      (await draft(ADMIN, "debit_note", { invoice_id: inv.id }, [{ description: "Fee", qty: "1", unit_price: "10" }]))
        .id,
    );
    // The page's read offers Cancel: nothing on the invoice's own rows says a debit note stands against it.
    expect(await cancelOffered("invoice", inv.id)).toMatchObject({ blocked: null });
    const why = `Debit note ${dn.number} stands against this invoice: cancel the debit note first`;
    const check = await rpc(ADMIN, "document_action_check", { type: "invoice", id: inv.id, action: "cancel" });
    expect(check.body).toEqual({ action: "cancel", blocked: why });
    expect(message(await act(ADMIN, "invoice", inv.id, "cancel"))).toBe(why);
    expect(await read(ADMIN, "invoice", inv.id)).toMatchObject({ status: "unpaid", outstanding: "109.00" });
    // An action the document's status does not offer is answered in words, not run.
    const cancelled = await submit(
      "quotation",
      (await draft(ADMIN, "quotation", {}, [{ description: "x", qty: "1", unit_price: "1" }])).id,
    );
    await ok(ADMIN, "document_transition", { type: "quotation", id: cancelled.id, action: "cancel" });
    const notNow = await rpc(ADMIN, "document_action_check", { type: "quotation", id: cancelled.id, action: "cancel" });
    expect(notNow.body).toMatchObject({ blocked: expect.stringMatching(/is cancelled: it cannot be given "cancel"/) });
  });

  it.skipIf(!process.env.TEST_DATABASE_URL)(
    "answers a page's actions while a clerk's command holds the document locked (PostgreSQL: a second connection)",
    async () => {
      const inv = await invoice("40");
      const clerk = new pg.Client({ connectionString: own.server.databaseUrl });
      await clerk.connect();
      try {
        await clerk.query("begin");
        await clerk.query("select id from invoice where id = $1 for update", [inv.id]);
        await clerk.query("select id from invoice_line where invoice_id = $1 for update", [inv.id]);
        const t0 = performance.now();
        expect(await cancelOffered("invoice", inv.id)).toMatchObject({ blocked: null });
        // A trial of the cancel would have waited for the clerk's locks (up to the statement timeout, 15 s).
        expect(performance.now() - t0).toBeLessThan(5_000);
      } finally {
        await clerk.query("rollback");
        await clerk.end();
      }
    },
  );
});
