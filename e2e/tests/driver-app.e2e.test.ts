import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { customer, ok, rpc } from "../../apps/server/test/documents-helpers.ts";
import { restFetch } from "../../apps/server/test/rest-helpers.ts";
import { appUrl, fillDate, hasChromium, openBrowser, screenshot, signIn, watchErrors } from "../browser.ts";

// Issue 22 "Driver" at 390×844 on demo.driver.localhost: dispatch gives the driver four stops on a day of their
// own; the driver delivers two (a signature drawn with the mouse, a photo from the file input, a fixed GPS fix),
// reports one failed, then delivers the fourth with the network cut in the middle — kept on the phone, pending, and
// applied once when the network is back. The back office shows the proof on the delivery order's page.

const ADMIN = "admin@demo.test";
const DRIVER = "driver@demo.test";
// A day no other journey plans for (the suite's server is shared): some day of 2029 from the clock.
const DAY = (() => {
  const d = new Date(Date.UTC(2029, 0, 1) + (Math.floor(Date.now() / 1000) % 360) * 86_400_000);
  return d.toISOString().slice(0, 10);
})();
const NEXT_DAY = new Date(Date.parse(`${DAY}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
  "base64",
);

type Stop = { id: number; number: string };

async function dispatchStops(n: number): Promise<Stop[]> {
  const made = await restFetch(ADMIN, "product", {
    method: "POST",
    headers: { prefer: "return=representation" },
    body: JSON.stringify({
      sku: `E2E-TRIP-${Date.now()}`,
      name: "Site hoarding panel",
      price: "30",
      cost: "12",
      unit: "pc",
      is_stock_tracked: false,
    }),
  });
  expect(made.status, made.text).toBe(201);
  const product = (made.body as Array<{ id: number }>)[0].id;
  const location = ((await restFetch(ADMIN, "location?select=id&order=id&limit=1")).body as Array<{ id: number }>)[0]
    .id;
  const company = await customer(ADMIN);
  const stops: Stop[] = [];
  for (let i = 0; i < n; i++) {
    const so = await ok(ADMIN, "document_save", {
      type: "sales_order",
      header: { company_id: company },
      lines: [{ product_id: product, qty: String(i + 2) }],
    });
    await ok(ADMIN, "document_transition", { type: "sales_order", id: so.id, action: "submit" });
    const d = await ok(ADMIN, "document_convert", {
      type: "sales_order",
      id: so.id,
      to: "delivery_order",
      header: { location_id: location },
    });
    const done = await ok(ADMIN, "document_transition", { type: "delivery_order", id: d.id, action: "submit" });
    stops.push({ id: d.id, number: String(done.number) });
  }
  const driver = (
    (await restFetch(ADMIN, `user?select=id&email=eq.${encodeURIComponent(DRIVER)}`)).body as Array<{ id: string }>
  )[0].id;
  const res = await rpc(ADMIN, "delivery_dispatch", { ids: stops.map((s) => s.id), driver_id: driver, date: DAY });
  expect(res.status, res.text).toBe(200);
  return stops;
}

const card = (page: Page, s: Stop) => page.getByTestId("stop-card").filter({ hasText: s.number });

async function openStop(page: Page, s: Stop) {
  await card(page, s).locator("a").click();
  await page.getByText(s.number, { exact: true }).waitFor();
}

async function sign(page: Page) {
  const pad = page.getByTestId("signature-pad");
  await pad.scrollIntoViewIfNeeded();
  const box = await pad.boundingBox();
  if (!box) throw new Error("no signature pad");
  await page.mouse.move(box.x + 30, box.y + 100);
  await page.mouse.down();
  for (const [dx, dy] of [
    [60, 40],
    [110, 90],
    [170, 30],
    [240, 110],
    [300, 60],
  ]) {
    await page.mouse.move(box.x + dx, box.y + dy, { steps: 4 });
  }
  await page.mouse.up();
}

async function deliver(page: Page, s: Stop, name: string, shot?: string) {
  await openStop(page, s);
  await page.getByRole("button", { name: "Arrived" }).click();
  await page.getByTestId("stop-state").filter({ hasText: "Arrived" }).waitFor();
  await page.getByRole("link", { name: "Delivered" }).click();
  await page.getByRole("heading", { name: `Deliver ${s.number}` }).waitFor();
  await page.getByLabel("Received by").fill(name);
  await sign(page);
  await page.getByTestId("photo-input").setInputFiles({ name: "goods.png", mimeType: "image/png", buffer: PNG });
  await page.getByRole("img", { name: "Photo 1" }).waitFor();
  await page.getByTestId("gps-fix").filter({ hasText: "Location fixed within 8 m" }).waitFor();
  if (shot) await screenshot(page, shot);
  await page.getByRole("button", { name: "Confirm delivery" }).click();
  await page.getByTestId("trip-date").waitFor();
}

const row = async (id: number) =>
  (
    (
      await restFetch(
        ADMIN,
        `delivery_order?id=eq.${id}&select=received_by,failure_reason,pod_signature,pod_photos,pod_lat,pod_accuracy_m`,
      )
    ).body as Array<Record<string, unknown>>
  )[0];

describe.skipIf(!hasChromium)("the driver app in Chromium (390×844)", () => {
  it("delivers two stops, fails one, delivers one through a network cut once; the back office shows the proof", async () => {
    const stops = await dispatchStops(4);
    const browser = await openBrowser({ width: 390, height: 844 });
    const page = await browser.context.newPage();
    const errors = watchErrors(page);
    try {
      const origin = new URL(appUrl("/", "demo.driver")).origin;
      await browser.context.grantPermissions(["geolocation"], { origin });
      await browser.context.setGeolocation({ latitude: 1.2847, longitude: 103.8511, accuracy: 8 });
      await signIn(page, DRIVER, { sub: "demo.driver" });
      await page.goto(appUrl(`/dashboard?date=${DAY}`, "demo.driver"));
      for (const s of stops) await card(page, s).waitFor();
      await screenshot(page, "driver-app-trip");

      // The order is the driver's: the last stop moved up to first with the arrow, kept after a reload.
      await page.getByRole("button", { name: "Move stop 4 up" }).click();
      await page.getByRole("button", { name: "Move stop 3 up" }).click();
      await page.getByRole("button", { name: "Move stop 2 up" }).click();
      await expect
        .poll(async () => (await page.getByTestId("stop-card").first().textContent()) ?? "")
        .toContain(stops[3].number);
      await expect
        .poll(async () => {
          const res = await rpc(DRIVER, "delivery_trip", { date: DAY });
          return (res.body as { stops: Array<{ id: number }> }).stops.map((s) => Number(s.id));
        })
        .toEqual([stops[3].id, stops[0].id, stops[1].id, stops[2].id]);
      // …and dragged by its handle with the mouse: the first stop to the end and back to the top.
      const drag = async (from: number, to: number) => {
        const a = await page.getByTestId(`drag-stop-${from}`).boundingBox();
        const b = await page.getByTestId(`drag-stop-${to}`).boundingBox();
        if (!a || !b) throw new Error("no drag handle");
        await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
        await page.mouse.down();
        await page.mouse.move(a.x + a.width / 2, b.y + b.height / 2 + (to > from ? 20 : -20), { steps: 12 });
        await page.mouse.up();
      };
      const kept = async () =>
        ((await rpc(DRIVER, "delivery_trip", { date: DAY })).body as { stops: Array<{ id: number }> }).stops.map((s) =>
          Number(s.id),
        );
      await drag(1, 4);
      await expect.poll(kept).toEqual([stops[0].id, stops[1].id, stops[2].id, stops[3].id]);
      await expect
        .poll(async () => (await page.getByTestId("stop-card").last().textContent()) ?? "")
        .toContain(stops[3].number);
      await drag(4, 1);
      await expect.poll(kept).toEqual([stops[3].id, stops[0].id, stops[1].id, stops[2].id]);

      await deliver(page, stops[0], "Mdm Lim", "driver-app-deliver");
      await deliver(page, stops[1], "Mr Rahman");

      await openStop(page, stops[2]);
      await page.getByRole("link", { name: "Failed" }).click();
      await page.getByRole("radio", { name: "Nobody there" }).check();
      await page.getByTestId("failure-note").fill("Gate locked, no answer on the phone");
      await screenshot(page, "driver-app-fail");
      await page.getByRole("button", { name: "Report failed" }).click();
      await page.getByTestId("trip-date").waitFor();

      // The network goes in the middle of the fourth stop: everything is kept on the phone and shown pending.
      await openStop(page, stops[3]);
      await browser.context.setOffline(true);
      await page.getByRole("button", { name: "Arrived" }).click();
      await page.getByTestId("stop-state").filter({ hasText: "Arrived" }).waitFor();
      await page.getByRole("link", { name: "Delivered" }).click();
      await page.getByLabel("Received by").fill("Store 2 receiving");
      await sign(page);
      await page.getByTestId("photo-input").setInputFiles({ name: "goods.png", mimeType: "image/png", buffer: PNG });
      await page.getByRole("img", { name: "Photo 1" }).waitFor();
      await page.getByRole("button", { name: "Confirm delivery" }).click();
      await page.getByTestId("trip-date").waitFor();
      await page.getByRole("link", { name: "Done" }).click();
      await card(page, stops[3]).getByText("Waiting to send").waitFor();
      await screenshot(page, "driver-app-offline-pending");
      expect((await row(stops[3].id)).received_by).toBeNull();

      await browser.context.setOffline(false);
      await expect
        .poll(async () => (await row(stops[3].id)).received_by, { timeout: 30_000 })
        .toBe("Store 2 receiving");
      await card(page, stops[3]).getByText("Waiting to send").waitFor({ state: "detached", timeout: 30_000 });
      await screenshot(page, "driver-app-done");

      // Each landed once: one handover each, the failure, the proof's files.
      for (const [s, who] of [
        [stops[0], "Mdm Lim"],
        [stops[1], "Mr Rahman"],
        [stops[3], "Store 2 receiving"],
      ] as const) {
        const r = await row(s.id);
        expect(r.received_by).toBe(who);
        expect(String(r.pod_signature)).toMatch(/proof\/signature\.png$/);
        expect(r.pod_photos).toHaveLength(1);
        expect(Number(r.pod_accuracy_m)).toBe(8);
        const history = (await rpc(ADMIN, "document_history", { type: "delivery_order", id: s.id })).body as Array<{
          action: string;
        }>;
        expect(history.filter((e) => e.action === "complete")).toHaveLength(1);
      }
      expect(await row(stops[2].id)).toMatchObject({ failure_reason: "nobody", received_by: null });
      expect(errors.filter((e) => !/Failed to fetch|ERR_INTERNET_DISCONNECTED|net::/.test(e))).toEqual([]);
    } catch (err) {
      await screenshot(page, "driver-app-failed");
      throw err;
    } finally {
      await browser.close();
    }

    // The back office: the proof on the delivery order's page.
    const office = await openBrowser({ width: 1440, height: 900 });
    const desk = await office.context.newPage();
    try {
      await signIn(desk, ADMIN);
      await desk.goto(appUrl(`/dashboard/delivery-orders/${stops[0].id}`));
      const proof = desk.getByTestId("delivery-proof");
      await proof.getByText("Proof of delivery").waitFor();
      await proof.getByText("Mdm Lim").waitFor();
      await proof.getByRole("img", { name: "Signature of Mdm Lim" }).waitFor();
      await proof.getByRole("link", { name: /1\.28470, 103\.85110/ }).waitFor();
      await proof.scrollIntoViewIfNeeded();
      await screenshot(desk, "driver-app-backoffice-proof");
      await desk.goto(appUrl(`/dashboard/delivery-orders/${stops[2].id}`));
      await desk
        .getByTestId("delivery-proof")
        .getByText(/Nobody there — Gate locked/)
        .waitFor();

      // Dispatch sends the failed one out again from the list: select it, assign a driver (drivers only) and a day.
      await desk.goto(appUrl(`/dashboard/delivery-orders?q=${stops[2].number}`));
      await desk
        .getByRole("row", { name: new RegExp(stops[2].number) })
        .getByRole("checkbox")
        .check();
      await desk.getByRole("button", { name: "Assign driver and date" }).click();
      const dialog = desk.getByRole("dialog");
      await dialog.getByRole("combobox", { name: "Driver" }).fill("Dinesh");
      await desk.getByRole("option", { name: /Dinesh/ }).click();
      await fillDate(dialog.getByTestId("dispatch-date"), NEXT_DAY);
      await screenshot(desk, "driver-app-dispatch");
      await dialog.getByRole("button", { name: "Assign" }).click();
      await desk.getByText(/1 delivery order assigned to .* for/).waitFor();
      expect(
        (await restFetch(ADMIN, `delivery_order?id=eq.${stops[2].id}&select=failure_reason,planned_date`)).body,
      ).toEqual([{ failure_reason: null, planned_date: NEXT_DAY }]);
    } catch (err) {
      await screenshot(desk, "driver-app-backoffice-failed");
      throw err;
    } finally {
      await office.close();
    }
  });
});
