import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { rpc } from "./documents-helpers.ts";
import { ownServer } from "./own-server-helpers.ts";
import { restFetch } from "./rest-helpers.ts";

// Issue 21 §4 "HR" (Pro): leave days computed over weekends and the workspace's public holidays, the manager's
// approval (never one's own), balances, the tier, the directory's private fields, the team leave calendar and
// isolation between workspaces. The demo workspace's staff come from the seed (platform/db/demo-hr.ts): Samuel Goh
// (sales) reports to Mei Ling Ng (manager); the driver manages nobody.

const ADMIN = "admin@demo.test";
const MANAGER = "manager@demo.test";
const SALES = "sales@demo.test";
const DRIVER = "driver@demo.test";
const LITE = "admin@lite.test";
const PRO = "admin@pro.test";

const own = ownServer();

// Next year: the seed's leave is around today, so next year's balances start clean.
const year = new Date().getUTCFullYear() + 1;
const iso = (d: Date) => d.toISOString().slice(0, 10);
// The first Friday of March next year, the Monday after it (made a public holiday) and the Tuesday.
const firstFriday = (() => {
  const d = new Date(Date.UTC(year, 2, 1));
  while (d.getUTCDay() !== 5) d.setUTCDate(d.getUTCDate() + 1);
  return d;
})();
const plus = (d: Date, n: number) => iso(new Date(d.getTime() + n * 86_400_000));
const FRIDAY = iso(firstFriday);
const HOLIDAY = plus(firstFriday, 3); // Monday
const TUESDAY = plus(firstFriday, 4);

type Leave = { id: number; status: string; days: string; employee_name: string; leave_type_name: string };
type Balance = {
  employee_name: string;
  leave_type_name: string;
  entitlement: string;
  taken: string;
  pending: string;
  remaining: string;
};
const err = (res: { body: unknown }) => res.body as { code: string; message: string };

let annual = 0;
let sick = 0;

async function ask(email: string, args: Record<string, unknown>) {
  return rpc(email, "leave_request_save", { leave_type_id: annual, ...args });
}

beforeAll(async () => {
  const types = await restFetch(SALES, "leave_type?select=id,name,days_per_year");
  expect(types.status, types.text).toBe(200);
  const byName = new Map((types.body as Array<{ id: number; name: string }>).map((t) => [t.name, t.id]));
  annual = byName.get("Annual leave") as number;
  sick = byName.get("Sick leave") as number;
  expect(annual && sick).toBeTruthy();
  const holiday = await restFetch(ADMIN, "public_holiday", {
    method: "POST",
    body: JSON.stringify({ date: HOLIDAY, name: "Test holiday" }),
  });
  expect(holiday.status, holiday.text).toBe(201);
}, 120_000);

describe("HR leave", () => {
  let requestId = 0;

  it("counts working days: a weekend and a public holiday take none", async () => {
    const res = await ask(SALES, { start_date: FRIDAY, end_date: TUESDAY, reason: "Long weekend" });
    expect(res.status, res.text).toBe(200);
    const leave = res.body as Leave;
    expect(leave).toMatchObject({ status: "pending", days: "2", employee_name: "Samuel Goh" });
    requestId = leave.id;
    const half = await ask(SALES, {
      leave_type_id: sick,
      start_date: plus(firstFriday, 7),
      end_date: plus(firstFriday, 7),
      half_day: true,
    });
    expect(half.status, half.text).toBe(200);
    expect((half.body as Leave).days).toBe("0.5");
    const none = await ask(SALES, { start_date: plus(firstFriday, 1), end_date: HOLIDAY });
    expect(none.status, none.text).toBe(422);
    expect(err(none).message).toMatch(/no working day/);
    const before = await ask(SALES, { start_date: "2021-03-01", end_date: "2021-03-01" });
    expect(before.status, before.text).toBe(422);
    expect(err(before).message).toBe("Samuel Goh starts work on 2022-04-04: leave begins on or after it");
    const overlap = await ask(SALES, { start_date: TUESDAY, end_date: TUESDAY });
    expect(overlap.status, overlap.text).toBe(409);
    expect(err(overlap).message).toMatch(/overlaps/);
  });

  it("an employee cannot decide their own request, nor anyone but the manager or HR", async () => {
    const mine = await rpc(SALES, "leave_decide", { id: requestId, decision: "approve" });
    expect(mine.status, mine.text).toBe(403);
    expect(err(mine).message).toBe("You cannot decide your own leave request");
    const driver = await rpc(DRIVER, "leave_decide", { id: requestId, decision: "approve" });
    expect(driver.status, driver.text).toBe(403);
    expect(err(driver).message).toBe("Only Samuel Goh's manager or HR may decide this leave request");
    const drivers = await rpc(DRIVER, "leave_to_decide", {});
    expect((drivers.body as Leave[]).some((l) => l.id === requestId)).toBe(false);
  });

  it("the manager sees their report's request and approves it; the decision is audited", async () => {
    const inbox = await rpc(MANAGER, "leave_to_decide", {});
    expect(inbox.status, inbox.text).toBe(200);
    expect((inbox.body as Leave[]).some((l) => l.id === requestId)).toBe(true);
    const res = await rpc(MANAGER, "leave_decide", { id: requestId, decision: "approve", reason: "Enjoy" });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ status: "approved", decided_by_name: "Mei Ling Ng", decision_reason: "Enjoy" });
    const again = await rpc(MANAGER, "leave_decide", { id: requestId, decision: "reject", reason: "No" });
    expect(again.status).toBe(409);
    expect(err(again).message).toBe("This leave request is already approved");
    const events = await own.q<{ action: string; from_status: string | null; to_status: string }>(
      sql`select action, from_status, to_status from document_event where doc_type = 'leave_request'
        and doc_id = ${requestId} order by id`,
    );
    expect(events).toEqual([
      { action: "create", from_status: null, to_status: "pending" },
      { action: "approve", from_status: "pending", to_status: "approved" },
    ]);
  });

  it("balances: entitlement, taken, pending and remaining; a request beyond them is refused", async () => {
    const pending = await ask(SALES, { start_date: plus(firstFriday, 14), end_date: plus(firstFriday, 14) });
    expect(pending.status, pending.text).toBe(200);
    const mine = await rpc(SALES, "leave_balances", { year });
    expect(mine.status, mine.text).toBe(200);
    const rows = (mine.body as { rows: Balance[] }).rows;
    expect(new Set(rows.map((r) => r.employee_name))).toEqual(new Set(["Samuel Goh"]));
    expect(rows.find((r) => r.leave_type_name === "Annual leave")).toMatchObject({
      entitlement: "7",
      taken: "2",
      pending: "1",
      remaining: "4",
    });
    // Five working days (Monday to Friday of a week without holidays) where four are left.
    const tooMany = await ask(SALES, { start_date: plus(firstFriday, 17), end_date: plus(firstFriday, 21) });
    expect(tooMany.status, tooMany.text).toBe(422);
    expect(err(tooMany).message).toBe(`Only 4 days of Annual leave are left for ${year}, not 5`);
    // The manager sees their reports' balances and their own; HR sees everyone's.
    const team = await rpc(MANAGER, "leave_balances", { year });
    const names = new Set((team.body as { rows: Balance[] }).rows.map((r) => r.employee_name));
    expect(names).toEqual(new Set(["Mei Ling Ng", "Samuel Goh", "Priya Nair", "Nurul Huda"]));
    const all = await rpc(ADMIN, "leave_balances", { year });
    expect(new Set((all.body as { rows: Balance[] }).rows.map((r) => r.employee_name)).size).toBe(11);
  });

  it("the requester cancels their pending request, not an approved one", async () => {
    const inbox = await rpc(MANAGER, "leave_to_decide", {});
    const open = (inbox.body as Array<Leave & { start_date: string }>).find(
      (l) => l.employee_name === "Samuel Goh" && l.start_date === plus(firstFriday, 14),
    ) as Leave;
    const cancelled = await rpc(SALES, "leave_cancel", { id: open.id });
    expect(cancelled.status, cancelled.text).toBe(200);
    expect((cancelled.body as Leave).status).toBe("cancelled");
    const approved = await rpc(SALES, "leave_cancel", { id: requestId });
    expect(approved.status).toBe(409);
  });

  it("approved leave is on the calendar of the employee, their manager and HR, not a colleague's", async () => {
    const range = { from: `${year}-03-01`, to: `${year}-03-31` };
    for (const email of [SALES, MANAGER, ADMIN]) {
      const res = await rpc(email, "calendar_events", range);
      expect(res.status, res.text).toBe(200);
      const events = res.body as Array<{ id: string; kind: string; title: string; start: string; end: string }>;
      expect(
        events.find((e) => e.id === `leave_request-${requestId}`),
        email,
      ).toMatchObject({
        kind: "leave",
        title: "On leave: Samuel Goh (Annual leave)",
        start: FRIDAY,
        end: TUESDAY,
      });
      expect(events.some((e) => e.kind === "holiday" && e.start === HOLIDAY)).toBe(true);
    }
    const driver = await rpc(DRIVER, "calendar_events", range);
    expect((driver.body as Array<{ kind: string }>).some((e) => e.kind === "leave")).toBe(false);
  });

  it("the manager's .ics feed carries their report's approved leave (the seed's, near today)", async () => {
    const feed = await rpc(MANAGER, "calendar_feed", { regenerate: true });
    expect(feed.status, feed.text).toBe(200);
    const res = await fetch(`${own.server.url}${(feed.body as { path: string }).path}`);
    expect(res.status).toBe(200);
    const body = await res.text();
    expect(body).toContain("SUMMARY:On leave: Samuel Goh (Annual leave)\r\n");
    expect(body).toMatch(/\r\nUID:leave_request-\d+@demo\.localhost\r\n/);
  });

  it("members read the directory without its private fields; leave requests are their own", async () => {
    const directory = await restFetch(DRIVER, "employee?select=*&order=name");
    expect(directory.status, directory.text).toBe(200);
    const people = directory.body as Array<Record<string, unknown>>;
    expect(people.length).toBe(11);
    expect(people[0]).not.toHaveProperty("work_pass_type");
    expect(people[0]).not.toHaveProperty("emergency_contact_phone");
    const hr = await restFetch(ADMIN, "employee?select=name,work_pass_type&limit=1");
    expect(hr.status, hr.text).toBe(200);
    const theirs = await restFetch(MANAGER, "leave_request?select=id,employee_id");
    expect(theirs.status, theirs.text).toBe(200);
    expect((theirs.body as unknown[]).length).toBe(0); // the manager has asked no leave
    const write = await restFetch(SALES, "leave_request", {
      method: "POST",
      body: JSON.stringify({ employee_id: 1, leave_type_id: annual, start_date: FRIDAY, end_date: FRIDAY, days: 1 }),
    });
    expect(write.status).toBeGreaterThanOrEqual(400);
    expect(write.status).toBeLessThan(500);
  });

  it("a Lite workspace is refused with the tier message", async () => {
    for (const [fn, args] of [
      ["leave_balances", { year }],
      ["leave_request_save", { leave_type_id: 1, start_date: FRIDAY, end_date: FRIDAY }],
    ] as const) {
      const res = await rpc(LITE, fn, args);
      expect(res.status, res.text).toBe(403);
      expect(err(res).code).toBe("tier_required");
      expect(err(res).message).toMatch(/HR needs? the Pro tier/);
    }
    const rest = await restFetch(LITE, "employee?select=id");
    expect(rest.status).toBe(403);
    expect(err(rest).message).toMatch(/Pro tier/);
  });

  it("another workspace's employees are never read nor used", async () => {
    const pro = await restFetch(PRO, "employee?select=name");
    expect(pro.status, pro.text).toBe(200);
    const names = (pro.body as Array<{ name: string }>).map((e) => e.name);
    expect(names.length).toBe(5);
    expect(names).not.toContain("Samuel Goh");
    const demoEmployee = await own.q<{ id: number }>(sql`select id from employee where name = 'Samuel Goh'`);
    const foreign = await rpc(PRO, "leave_request_save", {
      employee_id: Number(demoEmployee[0].id),
      leave_type_id: annual,
      start_date: FRIDAY,
      end_date: FRIDAY,
    });
    expect(foreign.status, foreign.text).toBe(422);
    // Row-level security: the demo workspace's session reads only its own rows, even unfiltered.
    const wss = await own.q<{ ws: string }>(sql`select distinct workspace_id::text as ws from employee`);
    expect(wss).toEqual([{ ws: own.ws }]);
  });
});
