import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { ROLE } from "@workmetrics/domain";
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { act, customer, ok } from "./documents-helpers.ts";
import { ownServer, squeezeQuota } from "./own-server-helpers.ts";
import { restFetch, tokenFor } from "./rest-helpers.ts";

// Issue 22 "Driver": dispatch gives delivery orders a driver and a date (drivers only); the driver's trip lists their
// stops for the date in their order, which they change; at a stop: arrived, delivered with its proof (a signature
// and photos kept as the workspace's files, the GPS fix, the device's and the server's time) or failed (back to
// dispatch). Every command runs once per Idempotency-Key (the outbox's replay); Lite and non-drivers are refused.

const ADMIN = "admin@demo.test";
const DRIVER = "driver@demo.test";
const OTHER_DRIVER = "accounts@demo.test"; // made a driver below
const SALES = "sales@demo.test";
const WAREHOUSE = "warehouse@demo.test";
const PRO_ADMIN = "admin@pro.test";
const LITE_DRIVER = "driver@lite.test";

const own = ownServer({}, 600_000);
const DAY = "2025-03-04"; // a day of its own in the past: no seeded trip, and device times before now
const PNG =
  "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";
const JPEG = `data:image/jpeg;base64,${Buffer.from("not really a jpeg, but bytes all the same").toString("base64")}`;

type Answer = { status: number; body: Record<string, unknown>; headers: Headers };
const call = async (email: string, fn: string, args: unknown, key?: string) =>
  (await restFetch(email, `rpc/${fn}`, {
    method: "POST",
    body: JSON.stringify(args),
    headers: key ? { "idempotency-key": key } : {},
  })) as unknown as Answer;

let product = 0;
let location = 0;
let driverId = "";
let otherDriverId = "";
let salesId = "";

const userId = async (email: string) =>
  ((await restFetch(ADMIN, `user?select=id&email=eq.${encodeURIComponent(email)}`)).body as Array<{ id: string }>)[0]
    .id;

beforeAll(async () => {
  await own.db.execute(sql`update "user" set role_id = ${ROLE.Driver}, workspace_role_id = null
    where email = ${OTHER_DRIVER}`);
  const made = await restFetch(ADMIN, "product", {
    method: "POST",
    headers: { prefer: "return=representation" },
    body: JSON.stringify({ sku: `TRIP-${Date.now()}`, name: "Pallet wrap", price: "20", cost: "8", unit: "roll" }),
  });
  expect(made.status, made.text).toBe(201);
  product = (made.body as Array<{ id: number }>)[0].id;
  await own.db.execute(sql`update product set is_stock_tracked = false where id = ${product}`);
  location = ((await restFetch(ADMIN, "location?select=id&order=id&limit=1")).body as Array<{ id: number }>)[0].id;
  driverId = await userId(DRIVER);
  otherDriverId = await userId(OTHER_DRIVER);
  salesId = await userId(SALES);
}, 600_000);

// A submitted delivery order of a submitted sales order, no driver yet.
async function delivery(qty = "2"): Promise<number> {
  const so = await ok(ADMIN, "document_save", {
    type: "sales_order",
    header: { company_id: await customer(ADMIN) },
    lines: [{ product_id: product, qty }],
  });
  await ok(ADMIN, "document_transition", { type: "sales_order", id: so.id, action: "submit" });
  const d = await ok(ADMIN, "document_convert", {
    type: "sales_order",
    id: so.id,
    to: "delivery_order",
    header: { location_id: location },
  });
  await ok(ADMIN, "document_transition", { type: "delivery_order", id: d.id, action: "submit" });
  return d.id;
}

const dispatch = (ids: number[], driver = driverId, date = DAY) =>
  call(ADMIN, "delivery_dispatch", { ids, driver_id: driver, date });

type Trip = { shows_totals: boolean; stops: Array<Record<string, unknown> & { id: number }> };
const trip = async (email = DRIVER, date = DAY) => {
  const res = await call(email, "delivery_trip", { date });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as unknown as Trip;
};

const proof = (id: number, extra: Record<string, unknown> = {}) => ({
  id,
  received_by: "Mdm Tan",
  signature: PNG,
  photos: [JPEG, JPEG],
  lat: 1.29027,
  lng: 103.851959,
  accuracy: 12.4,
  device_time: "2025-03-04T10:15:00+08:00",
  ...extra,
});

let stops: number[] = [];

describe("dispatch and the driver's trip", () => {
  it("assigns drivers only, in bulk, with a date; the trip lists only my stops for that date, in order", async () => {
    stops = [await delivery(), await delivery("5"), await delivery()];
    const theirs = await delivery();

    const notDriver = await dispatch([stops[0]], salesId);
    expect(notDriver.status).toBe(422);
    expect(notDriver.body.message).toMatch(/is not a driver: only users with the Driver role can be assigned/);
    expect(notDriver.body.details).toEqual([{ field: "driver_id", message: notDriver.body.message }]);
    // The back office's own paths too: the assign action and a delivery order made with a driver.
    const assign = await call(ADMIN, "document_transition", {
      type: "delivery_order",
      id: stops[0],
      action: "assign_driver",
      values: { driver_id: await userId(WAREHOUSE) },
    });
    expect(assign.status).toBe(422);
    expect(assign.body.message).toMatch(/is not a driver/);
    const bySales = await dispatch([stops[0]]);
    expect(bySales.status).toBe(200);
    expect(bySales.body).toMatchObject({ dispatched: 1, date: DAY });

    expect((await dispatch([stops[1], stops[2]])).status).toBe(200);
    expect((await dispatch([theirs], otherDriverId)).status).toBe(200);
    expect((await dispatch([await delivery()], driverId, "2025-03-05")).status).toBe(200);
    // Salespeople do not dispatch.
    expect((await call(SALES, "delivery_dispatch", { ids: [theirs], driver_id: driverId, date: DAY })).status).toBe(
      403,
    );

    const mine = await trip();
    expect(mine.stops.map((s) => Number(s.id))).toEqual(stops);
    expect(mine.shows_totals).toBe(false);
    expect(mine.stops[1]).toMatchObject({ stop_seq: 2, total: null, planned_date: DAY });
    expect(mine.stops[1].lines).toEqual([expect.objectContaining({ description: "Pallet wrap", qty: "5" })]);
    expect(typeof mine.stops[0].company_name).toBe("string");
    expect((await trip(OTHER_DRIVER)).stops.map((s) => Number(s.id))).toEqual([theirs]);
    // An admin's own trip (nobody assigned them) is empty, and would show totals.
    expect(await trip(ADMIN)).toMatchObject({ shows_totals: true, stops: [] });
  });

  it("keeps the order the driver drags the stops into; refuses a stop that is not theirs", async () => {
    const reordered = [stops[2], stops[0], stops[1]];
    const res = await call(DRIVER, "delivery_reorder", { date: DAY, ids: reordered });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect((await trip()).stops.map((s) => Number(s.id))).toEqual(reordered);
    const [theirs] = (await trip(OTHER_DRIVER)).stops;
    const stranger = await call(DRIVER, "delivery_reorder", { date: DAY, ids: [Number(theirs.id), stops[0]] });
    expect(stranger.status).toBe(422);
    expect(stranger.body.message).toBe(`Delivery order ${theirs.id} is not one of your stops on ${DAY}`);
    expect((await trip()).stops.map((s) => Number(s.id))).toEqual(reordered);
  });
});

describe("at a stop", () => {
  it("delivers with proof kept as the workspace's files, once per key; a second delivery is refused", async () => {
    const id = stops[0];
    const arrived = await call(DRIVER, "delivery_arrive", { id, device_time: "2025-03-04T10:05:00+08:00" });
    expect(arrived.status, JSON.stringify(arrived.body)).toBe(200);
    expect(new Date(String(arrived.body.arrived_at)).toISOString()).toBe("2025-03-04T02:05:00.000Z");

    const missing = await call(DRIVER, "delivery_deliver", { ...proof(id), photos: [] });
    expect(missing.status).toBe(422);
    expect(missing.body.message).toBe("Take at least one photo of the goods delivered");

    const key = `deliver-${Date.now()}`;
    const first = await call(DRIVER, "delivery_deliver", proof(id), key);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body).toMatchObject({ received_by: "Mdm Tan", status: "to_bill" });
    const replay = await call(DRIVER, "delivery_deliver", proof(id), key);
    expect(replay.status).toBe(200);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(replay.body).toEqual(first.body);
    const files = await own.q<{ name: string }>(sql`select name from storage_object
      where name like ${`documents/delivery_order/${id}/proof/%`} order by name`);
    expect(files.map((f) => f.name)).toEqual([
      `documents/delivery_order/${id}/proof/photo-1.jpg`,
      `documents/delivery_order/${id}/proof/photo-2.jpg`,
      `documents/delivery_order/${id}/proof/signature.png`,
    ]);
    const events = await own.q<{ action: string }>(sql`select action from document_event
      where doc_type = 'delivery_order' and doc_id = ${id} and action in ('complete', 'arrive') order by id`);
    expect(events.map((e) => e.action)).toEqual(["arrive", "complete"]);

    const again = await call(DRIVER, "delivery_deliver", proof(id, { received_by: "Someone else" }), `${key}-2`);
    expect(again.status).toBe(409);
    expect(again.body.message).toMatch(/was already delivered to Mdm Tan on 2025-03-04/);

    // The back office reads the proof on the document …
    const [row] = (
      await restFetch(
        ADMIN,
        `delivery_order?id=eq.${id}&select=received_by,received_at,pod_lat,pod_lng,pod_accuracy_m,pod_device_time,pod_server_time,pod_signature,pod_photos`,
      )
    ).body as Array<Record<string, unknown>>;
    expect(row).toMatchObject({
      received_by: "Mdm Tan",
      pod_signature: `documents/delivery_order/${id}/proof/signature.png`,
      pod_photos: [
        `documents/delivery_order/${id}/proof/photo-1.jpg`,
        `documents/delivery_order/${id}/proof/photo-2.jpg`,
      ],
    });
    expect(Number(row.pod_lat)).toBeCloseTo(1.29027, 5);
    expect(Number(row.pod_accuracy_m)).toBe(12.4);
    expect(new Date(String(row.received_at)).toISOString()).toBe("2025-03-04T02:15:00.000Z");
    expect(row.pod_server_time).toBeTruthy();
    // … and the signature's bytes through storage; another workspace reads neither.
    const get = async (email: string) =>
      fetch(`${own.server.url}/storage/v1/object/authenticated/files/${String(row.pod_signature)}`, {
        headers: { authorization: `Bearer ${await tokenFor(email)}` },
      });
    const mine = await get(ADMIN);
    expect(mine.status).toBe(200);
    expect(Buffer.from(await mine.arrayBuffer())).toEqual(Buffer.from(PNG.split(",")[1], "base64"));
    expect((await get(PRO_ADMIN)).status).not.toBe(200);
    expect((await restFetch(PRO_ADMIN, `delivery_order?id=eq.${id}&select=id,pod_signature`)).body).toEqual([]);
    // … and on its PDF: the signature in its box, the place and both times.
    const pdf = await fetch(`${own.server.url}/api/documents/delivery_order/${id}/pdf`, {
      headers: { authorization: `Bearer ${await tokenFor(ADMIN)}` },
    });
    expect(pdf.status).toBe(200);
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), "pod-pdf-")), "d.pdf");
    writeFileSync(file, Buffer.from(await pdf.arrayBuffer()));
    const text = execFileSync("pdftotext", ["-layout", file, "-"], { encoding: "utf8" });
    expect(text).toContain("PROOF OF DELIVERY");
    expect(text).toContain("Mdm Tan");
    expect(text).toMatch(/Place: 1\.29027, 103\.85196 \(within 12 m\)/);
    expect(text).toContain("Device time 4 Mar 2025 10:15");
    expect(text).toContain("2 photos of the goods kept with the delivery order");
    const images = execFileSync("pdfimages", ["-list", file], { encoding: "utf8" });
    expect(images).toMatch(/png|image/);
    // The PDF e-mailed to the customer is the same: the signature printed in its box.
    const mailed = await call(ADMIN, "document_email", { type: "delivery_order", id, to: ["pod@example.test"] });
    expect(mailed.status, JSON.stringify(mailed.body)).toBe(200);
    const [job] = await own.q<{ payload: { attachments: Array<{ base64: string }> } }>(
      sql`select payload from job where doc_type = 'delivery_order' and doc_id = ${id} order by id desc limit 1`,
    );
    const attached = path.join(path.dirname(file), "mailed.pdf");
    writeFileSync(attached, Buffer.from(job.payload.attachments[0].base64, "base64"));
    expect(execFileSync("pdfimages", ["-list", attached], { encoding: "utf8" })).toBe(images);
    const trip1 = await trip();
    expect(trip1.stops.find((s) => Number(s.id) === id)).toMatchObject({ received_by: "Mdm Tan" });
  });

  it("fails with a reason, back to dispatch; a cancelled delivery is refused clearly", async () => {
    const id = stops[1];
    const vague = await call(DRIVER, "delivery_fail", { id, reason: "other", device_time: new Date().toISOString() });
    expect(vague.status).toBe(422);
    expect(vague.body.message).toBe("Say what went wrong");
    const failed = await call(
      DRIVER,
      "delivery_fail",
      { id, reason: "nobody", note: "Shutter down, rang twice", device_time: new Date().toISOString() },
      `fail-${Date.now()}`,
    );
    expect(failed.status, JSON.stringify(failed.body)).toBe(200);
    expect(failed.body.failure_reason).toBe("nobody");
    const [row] = (await restFetch(ADMIN, `delivery_order?id=eq.${id}&select=failure_reason,failure_note,status`))
      .body as Array<Record<string, unknown>>;
    expect(row).toEqual({ failure_reason: "nobody", failure_note: "Shutter down, rang twice", status: "to_bill" });
    const late = await call(DRIVER, "delivery_deliver", proof(id));
    expect(late.status).toBe(409);
    expect(late.body.message).toMatch(/was reported failed \(nobody there\): dispatch must assign it again/);
    // Dispatch sends it out again the next day: the failure is cleared, the history keeps it.
    expect((await dispatch([id], driverId, "2025-03-05")).status).toBe(200);
    expect((await trip(DRIVER, "2025-03-05")).stops.map((s) => Number(s.id))).toContain(id);
    expect((await call(DRIVER, "delivery_arrive", { id, device_time: new Date().toISOString() })).status).toBe(200);

    const cancelled = stops[2];
    expect((await act(ADMIN, "delivery_order", cancelled, "cancel", "Customer closed the account")).status).toBe(200);
    const refused = await call(DRIVER, "delivery_deliver", proof(cancelled));
    expect(refused.status).toBe(409);
    expect(refused.body.message).toMatch(/was cancelled: do not deliver it/);
  });

  it("counts the proof in the workspace's storage quota: a proof that does not fit is refused and keeps nothing", async () => {
    const id = await delivery();
    expect((await dispatch([id])).status).toBe(200);
    const photo = `data:image/jpeg;base64,${Buffer.alloc(1200 * 1024, 2).toString("base64")}`;
    const read = async () =>
      (
        (await restFetch(ADMIN, `delivery_order?id=eq.${id}&select=received_by,pod_signature,status`)).body as Array<
          Record<string, unknown>
        >
      )[0];
    const before = await read();
    const quota = await squeezeQuota(own);
    try {
      const refused = await call(DRIVER, "delivery_deliver", proof(id, { photos: [photo] }), `pod-quota-${id}`);
      expect(refused.status, JSON.stringify(refused.body)).toBe(413);
      expect(refused.body.message).toBe(quota.message);
      const files = await own.q<{ name: string }>(sql`select name from storage_object
        where name like ${`documents/delivery_order/${id}/proof/%`}`);
      expect(files).toEqual([]);
      expect(await read()).toEqual({ ...before, received_by: null, pod_signature: null });
    } finally {
      await quota.restore();
    }
    const delivered = await call(DRIVER, "delivery_deliver", proof(id, { photos: [photo] }), `pod-quota-${id}-2`);
    expect(delivered.status, JSON.stringify(delivered.body)).toBe(200);
  });

  it("refuses another driver's stop, non-drivers and the Lite tier", async () => {
    const [theirs] = (await trip(OTHER_DRIVER)).stops;
    const stranger = await call(DRIVER, "delivery_arrive", { id: theirs.id, device_time: new Date().toISOString() });
    expect(stranger.status).toBe(403);
    expect(stranger.body.message).toMatch(/is not assigned to you/);
    const sales = await call(SALES, "delivery_trip", { date: DAY });
    expect(sales.status).toBe(403);
    const lite = await call(LITE_DRIVER, "delivery_trip", { date: DAY });
    expect(lite.status).toBe(403);
    expect(lite.body.code).toBe("tier_required");
    const liteDeliver = await call(LITE_DRIVER, "delivery_deliver", proof(1));
    expect(liteDeliver.status).toBe(403);
  });

  it("counts a custom role based on Driver as a driver, whatever it is called", async () => {
    // A driver is a user whose role is the Driver role or a role based on it (the user's role_id, which follows the
    // custom role's base: the driver host, the picker's filter and the server's rule all read it).
    const role = await restFetch(ADMIN, "workspace_role", {
      method: "POST",
      headers: { prefer: "return=representation" },
      body: JSON.stringify({
        title: "Van crew",
        slug: `van-crew-${Date.now()}`,
        base_role_id: ROLE.Driver,
        permissions: ["delivery_order.complete", "company.read", "contact.read", "product.read"],
      }),
    });
    expect(role.status, role.text).toBe(201);
    const roleId = (role.body as Array<{ id: number }>)[0].id;
    const crew = "finance@demo.test";
    const moved = await restFetch(ADMIN, `user?email=eq.${crew}`, {
      method: "PATCH",
      body: JSON.stringify({ workspace_role_id: roleId }),
    });
    expect(moved.status, moved.text).toBeLessThan(300);
    const crewId = await userId(crew);
    const offered = await restFetch(ADMIN, `user?select=id&role_id=eq.${ROLE.Driver}&active=is.true`);
    expect((offered.body as Array<{ id: string }>).map((u) => u.id)).toContain(crewId);
    const given = await dispatch([await delivery()], crewId, "2025-03-06");
    expect(given.status, JSON.stringify(given.body)).toBe(200);
    expect((await trip(crew, "2025-03-06")).stops).toHaveLength(1);
  });
});
