import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { ROLE } from "@workmetrics/domain";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { act, customer, type Doc, draft, ok, read, rpc } from "./documents-helpers.ts";
import { startTestServer, type TestServer } from "./harness.ts";
import { useServer } from "./http.ts";
import { restFetch, tokenFor } from "./rest-helpers.ts";

// Issue 10 §2–§3: a delivery order has an assigned driver, who completes it — who received the goods and when —
// on the delivery orders assigned to them only; salespeople read and act on their own quotations and sales orders, a
// sales manager on all. A server of its own: the test makes the procurement officer a second salesperson.

const ADMIN = "admin@demo.test";
const MANAGER = "manager@demo.test";
const WAREHOUSE = "warehouse@demo.test";
const DRIVER = "driver@demo.test";
const SALES = "sales@demo.test";
const OTHER_DRIVER = "accounts@demo.test"; // made a driver below
const OTHER_SALES = "procurement@demo.test"; // made a salesperson below

let server: TestServer;
let product = 0;
let location = 0;
let driverId = "";
let otherDriverId = ""; // accounts@, made a second driver below (issue 22: only drivers are assigned)

type Answer = { status: number; body: Record<string, unknown> };
const call = async (email: string, fn: string, args: unknown) => (await rpc(email, fn, args)) as Answer;
const userId = async (email: string) =>
  ((await restFetch(ADMIN, `user?select=id&email=eq.${encodeURIComponent(email)}`)).body as Array<{ id: string }>)[0]
    .id;

beforeAll(async () => {
  server = await startTestServer({ LOG_LEVEL: "silent" });
  useServer(server.url);
  await server.running.database.db.execute(
    sql`update "user" set role_id = ${ROLE.Salesperson}, workspace_role_id = null where email = ${OTHER_SALES}`,
  );
  await server.running.database.db.execute(
    sql`update "user" set role_id = ${ROLE.Driver}, workspace_role_id = null where email = ${OTHER_DRIVER}`,
  );
  const made = await restFetch(ADMIN, "product", {
    method: "POST",
    headers: { prefer: "return=representation" },
    body: JSON.stringify({
      sku: `DRV-${Date.now()}`,
      name: "Stretch film",
      price: "12",
      cost: "5",
      unit: "roll",
      is_stock_tracked: false, // delivered without opening stock
    }),
  });
  expect(made.status, made.text).toBe(201);
  product = (made.body as Array<{ id: number }>)[0].id;
  location = ((await restFetch(ADMIN, "location?select=id&order=id&limit=1")).body as Array<{ id: number }>)[0].id;
  driverId = await userId(DRIVER);
  otherDriverId = await userId(OTHER_DRIVER);
}, 120_000);
afterAll(() => server?.close());

// A submitted delivery order of a submitted sales order, assigned to `driver` (or to nobody).
async function delivery(driver: string | null): Promise<Doc> {
  const so = await ok(ADMIN, "document_save", {
    type: "sales_order",
    header: { company_id: await customer(ADMIN) },
    lines: [{ product_id: product, qty: "3" }],
  });
  await ok(ADMIN, "document_transition", { type: "sales_order", id: so.id, action: "submit" });
  const d = await ok(ADMIN, "document_convert", {
    type: "sales_order",
    id: so.id,
    to: "delivery_order",
    header: { location_id: location, ...(driver ? { driver_id: driver } : {}) },
  });
  expect(d.driver_id).toBe(driver);
  return ok(ADMIN, "document_transition", { type: "delivery_order", id: d.id, action: "submit" });
}

// The PDF's text as poppler reads it.
async function pdfText(email: string, type: string, id: number): Promise<string> {
  const res = await fetch(`${server.url}/api/documents/${type}/${id}/pdf`, {
    headers: { authorization: `Bearer ${await tokenFor(email)}` },
  });
  expect(res.status).toBe(200);
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), "driver-pdf-")), "d.pdf");
  writeFileSync(file, Buffer.from(await res.arrayBuffer()));
  return execFileSync("pdftotext", ["-layout", file, "-"], { encoding: "utf8" });
}

const complete = (email: string, id: number, values: Record<string, unknown>) =>
  call(email, "document_transition", { type: "delivery_order", id, action: "complete", values });

describe("a driver completes the delivery orders assigned to them", () => {
  it("records who received the goods and when; the status still follows billing; the history keeps it", async () => {
    const d = await delivery(driverId);
    expect(d.status).toBe("to_bill");
    const offered = (await call(DRIVER, "document_actions", { type: "delivery_order", id: d.id })).body as {
      actions: Array<{ action: string; inputs?: Array<{ field: string }> }>;
    };
    expect(offered.actions.map((a) => a.action)).toEqual(["complete"]);
    expect(offered.actions[0].inputs?.map((i) => i.field)).toEqual(["received_by", "received_at"]);

    const done = await complete(DRIVER, d.id, {
      received_by: "  Tan Ah Kow  ",
      received_at: "2026-11-20T09:30:00+08:00",
    });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body).toMatchObject({ status: "to_bill", received_by: "Tan Ah Kow", driver_id: driverId });
    expect(new Date(String(done.body.received_at)).toISOString()).toBe("2026-11-20T01:30:00.000Z");

    const again = await complete(DRIVER, d.id, { received_by: "Someone else" });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe("This delivery order was received by Tan Ah Kow on 2026-11-20");

    const history = (await call(ADMIN, "document_history", { type: "delivery_order", id: d.id }))
      .body as unknown as Array<{
      action: string;
      changes: Record<string, unknown> | null;
    }>;
    const event = history.find((e) => e.action === "complete");
    expect(event?.changes?.received_by).toEqual([null, "Tan Ah Kow"]);

    // The driver prints it: the driver among the facts, the signature block filled in (Singapore time).
    const text = await pdfText(DRIVER, "delivery_order", d.id);
    expect(text).toMatch(/Driver\s+\S/);
    expect(text).toContain("Tan Ah Kow");
    expect(text).toContain("20 Nov 2026 09:30");
    expect(text).toContain("Received by (name)");
  });

  it("received_at defaults to now; received_by is required", async () => {
    const d = await delivery(driverId);
    const missing = await complete(DRIVER, d.id, { received_by: "   " });
    expect(missing.status).toBe(422);
    expect(missing.body.message).toBe("Give the name of the person who received the goods");
    expect(missing.body.details).toEqual([
      { field: "values.received_by", message: "Give the name of the person who received the goods" },
    ]);
    const bad = await complete(DRIVER, d.id, { received_by: "Mdm Lim", received_at: "yesterday-ish" });
    expect(bad.status).toBe(422);
    expect(bad.body.message).toBe("Received at must be a date and time");
    expect((await read(ADMIN, "delivery_order", d.id)).received_by).toBeNull(); // refused: nothing changed

    const before = Date.now();
    const done = await complete(DRIVER, d.id, { received_by: "Mdm Lim" });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    const at = Date.parse(String(done.body.received_at));
    expect(at).toBeGreaterThanOrEqual(before - 60_000);
    expect(at).toBeLessThanOrEqual(Date.now() + 60_000);
  });

  it("is refused on a delivery order not assigned to them, which they do not even read", async () => {
    const theirs = await delivery(driverId);
    const other = await delivery(otherDriverId);
    const none = await delivery(null);
    for (const d of [other, none]) {
      const res = await complete(DRIVER, d.id, { received_by: "Tan Ah Kow" });
      expect(res.status).toBe(403);
      expect(res.body.message).toBe("You can only mark delivery orders assigned to you delivered");
      expect((await restFetch(DRIVER, `delivery_order?id=eq.${d.id}`)).body).toEqual([]);
      expect((await restFetch(DRIVER, `delivery_order_line?delivery_order_id=eq.${d.id}`)).body).toEqual([]);
      const offered = await call(DRIVER, "document_actions", { type: "delivery_order", id: d.id });
      expect(offered.status).toBe(403);
      expect(offered.body.message).toBe("You can only read delivery orders assigned to you");
      expect((await read(ADMIN, "delivery_order", d.id)).received_by).toBeNull();
    }
    // Their own, with its lines, they read.
    const mine = await read(DRIVER, "delivery_order", theirs.id);
    expect(mine.lines).toHaveLength(1);
    const listed = (await restFetch(DRIVER, "delivery_order?select=id,driver_id&limit=1000")).body as Array<{
      driver_id: string;
    }>;
    expect(listed.length).toBeGreaterThan(0);
    expect(listed.every((r) => r.driver_id === driverId)).toBe(true);
    // A driver changes nothing else: no drafts, no submit, no cancel.
    const cancel = await act(DRIVER, "delivery_order", theirs.id, "cancel");
    expect(cancel.status).toBe(403);
    // Warehouse staff hold delivery_order.complete: a customer collecting at the counter signs there.
    const counter = await complete(WAREHOUSE, none.id, { received_by: "Collected by Mr Goh" });
    expect(counter.status, JSON.stringify(counter.body)).toBe(200);
  });

  it("names what their delivery order points at, which they may not read themselves; nobody else's", async () => {
    const theirs = await delivery(driverId);
    const other = await delivery(otherDriverId);
    // A driver reads no locations, customers or users …
    expect((await restFetch(DRIVER, `location?id=eq.${location}`)).status).toBe(403);
    // … so the document names them.
    const labels = await call(DRIVER, "document_labels", { type: "delivery_order", id: theirs.id });
    expect(labels.status, JSON.stringify(labels.body)).toBe(200);
    const names = labels.body as Record<string, Record<string, string>>;
    const [loc] = (await restFetch(ADMIN, `location?select=name&id=eq.${location}`)).body as Array<{ name: string }>;
    const [company] = (await restFetch(ADMIN, `company?select=name&id=eq.${theirs.company_id}`)).body as Array<{
      name: string;
    }>;
    const [me] = (await restFetch(ADMIN, `user?select=name&id=eq.${driverId}`)).body as Array<{ name: string }>;
    expect(names.location).toEqual({ [String(location)]: loc.name });
    expect(names.company).toEqual({ [String(theirs.company_id)]: company.name });
    expect(names.user?.[driverId]).toBe(me.name);
    expect(names.product).toBeDefined();
    const refused = await call(DRIVER, "document_labels", { type: "delivery_order", id: other.id });
    expect(refused.status).toBe(403);
    // Another workspace's document is not found.
    const foreign = await call("owner@pro.test", "document_labels", { type: "delivery_order", id: theirs.id });
    expect(foreign.status).toBe(404);
  });

  it("a submitted delivery order's driver is assigned by a role with delivery_order.update, until it is received", async () => {
    const d = await delivery(null);
    const byDriver = await call(DRIVER, "document_transition", {
      type: "delivery_order",
      id: d.id,
      action: "assign_driver",
      values: { driver_id: driverId },
    });
    expect(byDriver.status).toBe(403);
    const stranger = await call(WAREHOUSE, "document_transition", {
      type: "delivery_order",
      id: d.id,
      action: "assign_driver",
      values: { driver_id: "00000000-0000-4000-8000-000000000000" },
    });
    expect(stranger.status).toBe(422);
    expect(stranger.body.message).toBe("Driver: choose an active user of this workspace");
    const assigned = await call(WAREHOUSE, "document_transition", {
      type: "delivery_order",
      id: d.id,
      action: "assign_driver",
      values: { driver_id: driverId },
    });
    expect(assigned.status, JSON.stringify(assigned.body)).toBe(200);
    expect(assigned.body).toMatchObject({ driver_id: driverId, status: "to_bill" });
    expect((await complete(DRIVER, d.id, { received_by: "Ms Wong" })).status).toBe(200);
    const late = await call(WAREHOUSE, "document_transition", {
      type: "delivery_order",
      id: d.id,
      action: "assign_driver",
      values: { driver_id: otherDriverId },
    });
    expect(late.status).toBe(409);
    expect(late.body.message).toMatch(
      /^This delivery order was received by Ms Wong on \d{4}-\d{2}-\d{2}; its driver cannot change$/,
    );
  });

  it("a draft's driver is a field of document_save and document_convert: a user of another workspace is refused", async () => {
    const proDriver = (
      (await restFetch("admin@pro.test", "user?select=id&email=eq.driver%40pro.test")).body as Array<{ id: string }>
    )[0].id;
    const company = await customer(ADMIN);
    const refused = (res: Answer) => {
      expect(res.status).toBe(422);
      expect(res.body.message).toBe("Driver: choose an active user of this workspace");
    };
    const count = async () =>
      Number(
        (
          (await server.running.database.db.execute(sql`select count(*)::int as n from delivery_instruction`))
            .rows[0] as { n: number }
        ).n,
      );
    const before = await count();
    for (const type of ["delivery_order", "delivery_instruction"]) {
      refused(
        await call(ADMIN, "document_save", {
          type,
          header: { company_id: company, location_id: location, driver_id: proDriver },
          lines: [{ product_id: product, qty: "1" }],
        }),
      );
    }
    // Made from a sales order, the instruction's driver is checked the same; nothing is written.
    const so = await ok(ADMIN, "document_save", {
      type: "sales_order",
      header: { company_id: company },
      lines: [{ product_id: product, qty: "1" }],
    });
    await act(ADMIN, "sales_order", so.id, "submit");
    refused(
      await call(ADMIN, "document_convert", {
        type: "sales_order",
        id: so.id,
        to: "delivery_instruction",
        header: { planned_date: "2026-12-01", driver_id: proDriver, location_id: location },
      }),
    );
    expect(await count()).toBe(before);
  });
});

describe("salespeople work on their own quotations and sales orders", () => {
  it("another salesperson's quotation is neither read nor acted on; the sales manager does both", async () => {
    const mine = await draft(SALES);
    const theirs = await draft(OTHER_SALES);

    // Reads: the list, one row, its lines, its history, its PDF.
    const listed = (await restFetch(SALES, "quotation?select=id,created_by&limit=1000")).body as Array<{ id: number }>;
    expect(listed.map((q) => q.id)).toContain(mine.id);
    expect(listed.map((q) => q.id)).not.toContain(theirs.id);
    expect((await restFetch(SALES, `quotation_line?quotation_id=eq.${theirs.id}`)).body).toEqual([]);
    expect((await read(SALES, "quotation", mine.id)).lines).toHaveLength(mine.lines.length);
    const history = await call(SALES, "document_history", { type: "quotation", id: theirs.id });
    expect(history.status).toBe(403);
    expect(history.body.message).toBe("You can only read the history of your own quotations");
    const pdf = await fetch(`${server.url}/api/documents/quotation/${theirs.id}/pdf`, {
      headers: { authorization: `Bearer ${await tokenFor(SALES)}` },
    });
    expect(pdf.status).toBe(404);

    // Commands: change, send, cancel, duplicate, make an order from it.
    const save = await call(SALES, "document_save", {
      type: "quotation",
      id: theirs.id,
      header: { company_id: await customer(SALES) },
      lines: [{ product_id: product, qty: "1" }],
    });
    expect(save.status).toBe(403);
    expect(save.body.message).toBe("You can only change your own quotations");
    const send = await act(SALES, "quotation", theirs.id, "submit");
    expect(send.status).toBe(403);
    expect((send.body as { message: string }).message).toBe("You can only mark your own quotations as sent");
    const cancel = await act(SALES, "quotation", theirs.id, "cancel");
    expect((cancel.body as { message: string }).message).toBe("You can only cancel your own quotations");
    const actions = await call(SALES, "document_actions", { type: "quotation", id: theirs.id });
    expect(actions.body.message).toBe("You can only read your own quotations");
    await ok(OTHER_SALES, "document_transition", { type: "quotation", id: theirs.id, action: "submit" });
    const lost = await act(SALES, "quotation", theirs.id, "mark_lost", "Too dear");
    expect((lost.body as { message: string }).message).toBe("You can only mark your own quotations lost");
    const order = await call(SALES, "document_convert", { type: "quotation", id: theirs.id, to: "sales_order" });
    expect(order.status).toBe(403);
    expect(order.body.message).toBe("You can only make sales orders from your own quotations");
    expect((await read(MANAGER, "quotation", theirs.id)).status).toBe("sent"); // refused: nothing changed

    // Their own they send and make an order from, which is theirs too.
    await ok(SALES, "document_transition", { type: "quotation", id: mine.id, action: "submit" });
    const so = await ok(SALES, "document_convert", { type: "quotation", id: mine.id, to: "sales_order" });
    expect((await read(SALES, "sales_order", so.id)).id).toBe(so.id);
    expect((await restFetch(OTHER_SALES, `sales_order?id=eq.${so.id}`)).body).toEqual([]);
    const change = await call(OTHER_SALES, "document_save", {
      type: "sales_order",
      id: so.id,
      header: { company_id: await customer(SALES) },
      lines: [{ product_id: product, qty: "1" }],
    });
    expect(change.body.message).toBe("You can only change your own sales orders");

    // The home page's figures count their own too.
    const figures = (await call(SALES, "dashboard_summary", {})).body.figures as Record<string, { count: number }>;
    const sent = (await restFetch(SALES, "quotation?select=id&status=eq.sent")).body as unknown[];
    expect(figures.open_quotations).toEqual({ count: sent.length });
    const open = (await restFetch(SALES, "sales_order?select=id&status=in.(to_deliver_and_bill,to_deliver)"))
      .body as unknown[];
    expect(figures.orders_to_deliver).toEqual({ count: open.length });

    // The sales manager reads both and acts on either.
    const all = (await restFetch(MANAGER, "quotation?select=id&limit=1000")).body as Array<{ id: number }>;
    expect(all.map((q) => q.id)).toEqual(expect.arrayContaining([mine.id, theirs.id]));
    const managed = await ok(MANAGER, "document_convert", { type: "quotation", id: theirs.id, to: "sales_order" });
    expect(managed.source_id).toBe(theirs.id);
    expect((await read(MANAGER, "quotation", theirs.id)).status).toBe("won");
  });
});
