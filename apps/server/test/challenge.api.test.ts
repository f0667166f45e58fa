import Decimal from "decimal.js";
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { act, type Doc, draft, ok, type Product, products, rpc } from "./documents-helpers.ts";
import { api, type Json } from "./http.ts";
import { locationsByCode, openingStock, ownServer } from "./own-server-helpers.ts";
import { restFetch } from "./rest-helpers.ts";

// Issue 12 "Team challenge": leaderboards computed from the documents (submitted, not cancelled, in the period,
// per participant), the HR feature (Pro) and team_challenge.* (sales managers) on the commands, the calendar as
// each member may read it, the .ics feed and its revocation, and isolation between workspaces.

const MANAGER = "manager@demo.test";
const SALES = "sales@demo.test";
const ADMIN = "admin@demo.test";
const DRIVER = "driver@demo.test";
const LITE = "admin@lite.test";
const PRO = "admin@pro.test";

const own = ownServer();
let item: Product;
let users: Record<string, string> = {};
let managerRole = 0;
const today = new Date().toISOString().slice(0, 10);
const monthStart = `${today.slice(0, 8)}01`;

const err = (res: { body: unknown }) => res.body as { code: string; message: string; details: unknown };

async function idsByEmail(email: string): Promise<Record<string, string>> {
  const res = await restFetch(email, "user?select=id,email");
  expect(res.status, res.text).toBe(200);
  return Object.fromEntries((res.body as Array<{ id: string; email: string }>).map((u) => [u.email, u.id]));
}

beforeAll(async () => {
  [item] = await products(ADMIN, 1);
  await openingStock(own, [item], (await locationsByCode(ADMIN))["WH-TUAS"], 1000);
  users = await idsByEmail(ADMIN);
  const roles = await restFetch(ADMIN, "workspace_role?select=id,slug,base_role_id&is_system=is.true");
  managerRole = (roles.body as Array<{ id: number; base_role_id: number }>).find((r) => r.base_role_id === 2)
    ?.id as number;
  expect(managerRole).toBeTruthy();
}, 120_000);

const challenge = (extra: Record<string, unknown> = {}) => ({
  name: "November invoices",
  metric: "invoices_issued_sum",
  period_kind: "custom",
  start_date: monthStart,
  end_date: today,
  default_target: "5000",
  participants: [
    { user_id: users[ADMIN], target: "2000" },
    { workspace_role_id: managerRole }, // the sales managers, at the default target
  ],
  ...extra,
});

async function invoice(email: string, qty: string, header: Record<string, unknown> = {}): Promise<Doc> {
  const d = await draft(email, "invoice", header, [{ product_id: item.id, qty }]);
  return ok(email, "document_transition", { type: "invoice", id: d.id, action: "submit" });
}

const board = async (email: string, id: number) => {
  const res = await rpc(email, "challenge_leaderboard", { id });
  expect(res.status, res.text).toBe(200);
  return res.body as {
    state: string;
    total: string;
    leaderboard: Array<{
      user_id: string;
      value: string;
      target: string | null;
      percent: string | null;
      rank: number;
      documents: number;
    }>;
  };
};

// What the documents themselves say: Σ net total × rate of each user's issued, uncancelled invoices in the period.
const truth = async (userId: string, from: string, to: string) => {
  const res = await restFetch(
    ADMIN,
    `invoice?select=net_total,rate&created_by=eq.${userId}&status=not.in.(draft,cancelled)&doc_date=gte.${from}&doc_date=lte.${to}`,
  );
  return (res.body as Array<{ net_total: string; rate: string }>)
    .reduce((s, r) => s.plus(new Decimal(r.net_total).times(r.rate).toDecimalPlaces(2)), new Decimal(0))
    .toFixed(2);
};

describe("the leaderboard", () => {
  let id = 0;
  it("equals the sums of the participants' issued invoices in the period; drafts, cancelled and earlier ones do not count", async () => {
    const created = await rpc(MANAGER, "team_challenge_save", challenge());
    expect(created.status, created.text).toBe(200);
    id = (created.body as { id: number }).id;
    expect((created.body as { state: string }).state).toBe("running");

    await invoice(MANAGER, "3");
    await invoice(MANAGER, "2");
    await invoice(ADMIN, "4");
    const cancelled = await invoice(ADMIN, "10");
    expect((await act(ADMIN, "invoice", cancelled.id, "cancel", "Wrong customer")).status).toBe(200);
    await draft(ADMIN, "invoice", {}, [{ product_id: item.id, qty: "50" }]); // a draft: not issued
    await invoice(ADMIN, "7", { doc_date: "2024-01-05" }); // before the period

    const b = await board(SALES, id); // a salesperson reads it too
    const byUser = Object.fromEntries(b.leaderboard.map((r) => [r.user_id, r]));
    expect(byUser[users[MANAGER]].value).toBe(await truth(users[MANAGER], monthStart, today));
    expect(byUser[users[ADMIN]].value).toBe(await truth(users[ADMIN], monthStart, today));
    expect(new Decimal(byUser[users[MANAGER]].value).gt(0)).toBe(true);
    expect(byUser[users[MANAGER]].documents).toBeGreaterThanOrEqual(2);
    // Targets: the user's own row, else the challenge's default; % of target to one decimal.
    expect(byUser[users[ADMIN]].target).toBe("2000.00");
    expect(byUser[users[MANAGER]].target).toBe("5000.00");
    expect(byUser[users[ADMIN]].percent).toBe(new Decimal(byUser[users[ADMIN]].value).div(20).toFixed(1));
    // Only the participants: the salesperson takes no part.
    expect(byUser[users[SALES]]).toBeUndefined();
    // Ranked by value; the total is the sum.
    const values = b.leaderboard.map((r) => Number(r.value));
    expect(values).toEqual([...values].sort((x, y) => y - x));
    expect(b.leaderboard[0].rank).toBe(1);
    expect(b.total).toBe(b.leaderboard.reduce((s, r) => s.plus(r.value), new Decimal(0)).toFixed(2));
  });

  it("counts and sums quotations sent by the salesperson, attributed to who made them", async () => {
    const saved = await rpc(MANAGER, "team_challenge_save", {
      ...challenge({ name: "Quotes sent", metric: "quotations_sent_count", default_target: "10" }),
      participants: [{ user_id: users[SALES] }],
    });
    expect(saved.status, saved.text).toBe(200);
    const before = await board(MANAGER, (saved.body as { id: number }).id);
    const q = await draft(SALES, "quotation", {}, [{ product_id: item.id, qty: "1" }]);
    expect((await act(SALES, "quotation", q.id, "submit")).status).toBe(200);
    await draft(SALES, "quotation", {}, [{ product_id: item.id, qty: "1" }]); // unsent
    const after = await board(MANAGER, (saved.body as { id: number }).id);
    expect(Number(after.leaderboard[0].value)).toBe(Number(before.leaderboard[0].value) + 1);
    expect(after.leaderboard[0].percent).toBe(new Decimal(after.leaderboard[0].value).times(10).toFixed(1));
  });

  it("credits an invoice to the salesperson of the sales order it bills, not to who typed it", async () => {
    const saved = await ok(MANAGER, "team_challenge_save", {
      ...challenge({ name: "Sellers", default_target: null }),
      participants: [{ user_id: users[SALES] }, { user_id: users[MANAGER] }],
    });
    const before = await board(MANAGER, saved.id);
    const value = (b: typeof before, email: string) =>
      new Decimal(b.leaderboard.find((r) => r.user_id === users[email])?.value ?? "0");
    const so = await draft(SALES, "sales_order", {}, [{ product_id: item.id, qty: "2" }]);
    await ok(MANAGER, "document_transition", { type: "sales_order", id: so.id, action: "submit" });
    const inv = await ok(MANAGER, "document_convert", { type: "sales_order", id: so.id, to: "invoice" });
    const issued = await ok(MANAGER, "document_transition", { type: "invoice", id: inv.id, action: "submit" });
    const after = await board(MANAGER, saved.id);
    expect(value(after, SALES).minus(value(before, SALES)).toFixed(2)).toBe(
      new Decimal(String(issued.net_total)).times(String(issued.rate)).toFixed(2),
    );
    expect(value(after, MANAGER).toFixed(2)).toBe(value(before, MANAGER).toFixed(2));
    expect(after.leaderboard[0].target).toBeNull();
    expect(after.leaderboard[0].percent).toBeNull();
  });

  it("a finished challenge gives badges to its top three who achieved something", async () => {
    const res = await rpc(
      MANAGER,
      "team_challenge_save",
      challenge({ name: "Last year", start_date: "2024-01-01", end_date: "2024-12-31" }),
    );
    expect(res.status, res.text).toBe(200);
    const b = res.body as {
      state: string;
      leaderboard: Array<{ user_id: string; value: string; badge: number | null }>;
    };
    expect(b.state).toBe("finished");
    const admin = b.leaderboard.find((r) => r.user_id === users[ADMIN]);
    expect(admin?.value).toBe(await truth(users[ADMIN], "2024-01-01", "2024-12-31"));
    expect(admin?.badge).toBe(1);
    for (const r of b.leaderboard) if (Number(r.value) === 0) expect(r.badge).toBeNull();
  });

  it("lists the challenges; cancelling one keeps it in the history as cancelled", async () => {
    const list = await rpc(SALES, "team_challenges", {});
    expect(list.status, list.text).toBe(200);
    expect((list.body as Json[]).map((c) => c.id)).toContain(id);
    const cancelled = await rpc(MANAGER, "team_challenge_cancel", { id });
    expect(cancelled.status, cancelled.text).toBe(200);
    expect((cancelled.body as { state: string }).state).toBe("cancelled");
    const again = await rpc(MANAGER, "team_challenge_cancel", { id });
    expect(again.status).toBe(409);
    expect(err(again).message).toBe("This challenge is already cancelled");
  });
});

describe("refusals", () => {
  it("a salesperson cannot set up a challenge (refused with a message); nothing is stored", async () => {
    const before = await own.q<{ n: number }>(sql`select count(*)::int as n from team_challenge`);
    const res = await rpc(SALES, "team_challenge_save", challenge({ name: "Mine" }));
    expect(res.status).toBe(403);
    expect(err(res).message).toBe("You do not have permission to set up team challenges");
    const after = await own.q<{ n: number }>(sql`select count(*)::int as n from team_challenge`);
    expect(after[0].n).toBe(before[0].n);
  });

  it("a Lite workspace has no team challenges (tier refusal on commands and REST)", async () => {
    for (const fn of ["team_challenges", "calendar_events"]) {
      const res = await rpc(LITE, fn, fn === "calendar_events" ? { from: today, to: today } : {});
      expect(res.status, res.text).toBe(403);
      expect(err(res).code).toBe("tier_required");
      expect(err(res).message).toMatch(/Pro tier/);
    }
    const rest = await restFetch(LITE, "team_challenge?select=id");
    expect(rest.status).toBe(403);
  });

  it("bad input is refused per field and changes nothing", async () => {
    const before = await own.q<{ n: number }>(sql`select count(*)::int as n from team_challenge`);
    const backwards = await rpc(
      MANAGER,
      "team_challenge_save",
      challenge({ start_date: today, end_date: "2020-01-01" }),
    );
    expect(backwards.status).toBe(422);
    expect(err(backwards).details).toEqual([
      { field: "end_date", message: "The challenge must end on or after the day it starts" },
    ]);
    const nobody = await rpc(MANAGER, "team_challenge_save", challenge({ participants: [] }));
    expect(nobody.status).toBe(422);
    expect(err(nobody).message).toBe("Add at least one participant (a user or a role)");
    const twice = await rpc(
      MANAGER,
      "team_challenge_save",
      challenge({ participants: [{ user_id: users[SALES] }, { user_id: users[SALES] }] }),
    );
    expect(twice.status).toBe(422);
    expect(err(twice).message).toBe("This user already takes part");
    const badTarget = await rpc(MANAGER, "team_challenge_save", challenge({ default_target: "-5" }));
    expect(badTarget.status).toBe(422);
    const after = await own.q<{ n: number }>(sql`select count(*)::int as n from team_challenge`);
    expect(after[0].n).toBe(before[0].n);
  });
});

describe("isolation", () => {
  it("another workspace neither reads a challenge, its participants or its leaderboard, nor names its users", async () => {
    const mine = await rpc(MANAGER, "team_challenge_save", challenge({ name: "Ours only" }));
    const id = (mine.body as { id: number }).id;
    const theirs = await rpc(PRO, "challenge_leaderboard", { id });
    expect(theirs.status).toBe(404);
    const list = await rpc(PRO, "team_challenges", {});
    expect(list.status, list.text).toBe(200);
    expect((list.body as Json[]).map((c) => c.id)).not.toContain(id);
    for (const table of ["team_challenge", "team_challenge_participant"]) {
      const res = await restFetch(PRO, `${table}?select=id&limit=1000`);
      expect(res.status, res.text).toBe(200);
      const ours = await own.q<{ id: number }>(sql`select id from ${sql.identifier(table)}`);
      const seen = new Set((res.body as Array<{ id: number }>).map((r) => r.id));
      expect(ours.filter((r) => seen.has(Number(r.id)))).toEqual([]);
    }
    const poach = await rpc(PRO, "team_challenge_save", challenge({ participants: [{ user_id: users[SALES] }] }));
    expect(poach.status).toBe(422);
    expect(err(poach).message).toBe("A participant is not a user of this workspace");
    const cancel = await rpc(PRO, "team_challenge_cancel", { id });
    expect(cancel.status).toBe(404);
  });
});

describe("the calendar and its feed", () => {
  it("shows each member what they may read: the manager sees invoice due dates and challenges, the driver neither", async () => {
    const inv = await invoice(MANAGER, "1", { due_date: today });
    const from = monthStart;
    const to = `${Number(today.slice(0, 4)) + 1}${today.slice(4)}`;
    const manager = await rpc(MANAGER, "calendar_events", { from, to });
    expect(manager.status, manager.text).toBe(200);
    const events = manager.body as Array<{ id: string; kind: string; url: string; start: string }>;
    const due = events.find((e) => e.id === `invoice-${inv.id}`);
    expect(due).toMatchObject({ kind: "invoice_due", url: `/dashboard/invoices/${inv.id}`, start: today });
    expect(events.some((e) => e.kind === "challenge")).toBe(true);
    const driver = await rpc(DRIVER, "calendar_events", { from, to });
    expect(driver.status, driver.text).toBe(200);
    const kinds = new Set((driver.body as Array<{ kind: string }>).map((e) => e.kind));
    expect(kinds.has("invoice_due")).toBe(false);
    expect(kinds.has("challenge")).toBe(false);
  });

  it("the .ics feed is RFC 5545 at a secret address; regenerating revokes the old one", async () => {
    const saved = await rpc(MANAGER, "team_challenge_save", challenge({ name: "Feed, with a comma; and more" }));
    expect(saved.status, saved.text).toBe(200);
    const none = await rpc(MANAGER, "calendar_feed", {});
    expect(none.body).toEqual({ exists: false, path: null });
    const first = await rpc(MANAGER, "calendar_feed", { regenerate: true });
    expect(first.status, first.text).toBe(200);
    const path = (first.body as { path: string }).path;
    expect(path).toMatch(/^\/api\/calendar\/[0-9a-f]{48}\.ics$/);
    const res = await fetch(`${own.server.url}${path}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/calendar/);
    const body = await res.text();
    expect(body.startsWith("BEGIN:VCALENDAR\r\nVERSION:2.0\r\n")).toBe(true);
    expect(body.trimEnd().endsWith("END:VCALENDAR")).toBe(true);
    const event = body.split("BEGIN:VEVENT")[1];
    expect(event).toMatch(/\r\nUID:[a-z_]+-\d+@demo\.localhost\r\n/);
    expect(event).toMatch(/\r\nDTSTART;VALUE=DATE:\d{8}\r\n/);
    expect(event).toMatch(/\r\nSUMMARY:.+\r\n/);
    expect(event).toMatch(/\r\nURL:http:\/\/demo\.localhost(:\d+)?\/dashboard\//);
    expect(body.split("\r\n").every((l) => Buffer.byteLength(l) <= 75)).toBe(true);
    expect(body).toContain("SUMMARY:Challenge: Feed\\, with a comma\\; and more\r\n"); // RFC 5545 text escapes

    const second = await rpc(MANAGER, "calendar_feed", { regenerate: true });
    const newPath = (second.body as { path: string }).path;
    expect(newPath).not.toBe(path);
    expect((await fetch(`${own.server.url}${path}`)).status).toBe(404);
    expect((await fetch(`${own.server.url}${newPath}`)).status).toBe(200);
    expect((await api("/api/calendar/not-a-token.ics")).status).toBe(404);
  });
});
