import { afterAll, describe, expect, it } from "vitest";
import { ownServer } from "../../apps/server/test/own-server-helpers.ts";
import { restFetch } from "../../apps/server/test/rest-helpers.ts";
import {
  appUrl,
  type Browser,
  fillDate,
  hasChromium,
  openBrowser,
  screenshot,
  signIn,
  watchErrors,
} from "../browser.ts";

// Issue 21 §4 "HR": the salesperson asks for a day of sick leave on the leave page, their manager (a second browser
// profile) finds it waiting for a decision and approves it, and it shows on the team calendar; the salesperson's
// page says it is approved — at 1440 px and on a 390 px phone.

const MANAGER = "manager@demo.test";
const SALES = "sales@demo.test";

const iso = (d: Date) => d.toISOString().slice(0, 10);

// The first weekday after today, in this year, that none of the salesperson's leave takes (the seed gives them some).
async function freeDay(): Promise<string> {
  const res = await restFetch(SALES, "leave_request?select=start_date,end_date,status&status=in.(pending,approved)");
  expect(res.status, res.text).toBe(200);
  const taken = res.body as Array<{ start_date: string; end_date: string }>;
  const d = new Date();
  for (let i = 0; i < 60; i++) {
    d.setUTCDate(d.getUTCDate() + 1);
    const day = iso(d);
    const weekday = d.getUTCDay();
    if (weekday === 0 || weekday === 6) continue;
    if (taken.some((t) => t.start_date <= day && t.end_date >= day)) continue;
    if (day.slice(0, 4) === String(new Date().getUTCFullYear())) return day;
  }
  throw new Error("No free weekday left this year for the journey");
}

describe.skipIf(!hasChromium)("HR leave in Chromium", () => {
  ownServer({}, 600_000);
  const browsers: Browser[] = [];
  afterAll(async () => {
    for (const b of browsers) await b.close();
  });

  it("an employee asks for leave, the manager approves it and it shows on the calendar", async () => {
    const day = await freeDay();
    const employee = await openBrowser();
    const manager = await openBrowser();
    browsers.push(employee, manager);
    const mine = await employee.context.newPage();
    const boss = await manager.context.newPage();
    const errors = watchErrors(mine);
    const bossErrors = watchErrors(boss);
    try {
      await mine.setViewportSize({ width: 1440, height: 900 });
      await signIn(mine, SALES);
      await mine.goto(appUrl("/dashboard/hr"));
      await mine.getByRole("heading", { name: "Leave", level: 1 }).waitFor();
      await mine.getByRole("combobox", { name: "Kind of leave" }).click();
      await mine.getByRole("option", { name: "Sick leave" }).click();
      await fillDate(mine.getByRole("group", { name: "From", exact: true }), day);
      await fillDate(mine.getByRole("group", { name: "To", exact: true }), day);
      await mine.getByText("1 working day").waitFor();
      await mine.getByLabel("Reason (optional)").fill("Dental surgery");
      await mine.getByRole("button", { name: "Ask for leave" }).click();
      await mine.getByText("Leave asked: 1 day, waiting for your manager").waitFor();
      const row = mine.getByRole("table", { name: "Your leave" }).locator("tr", { hasText: "Dental surgery" });
      await row.locator('[data-status="pending"]').waitFor();
      await screenshot(mine, "hr-leave-asked-1440");

      await boss.setViewportSize({ width: 1440, height: 900 });
      await signIn(boss, MANAGER);
      await boss.goto(appUrl("/dashboard/hr"));
      const waiting = boss.getByRole("table", { name: "Leave to decide" }).locator("tr", { hasText: "Dental surgery" });
      await waiting.getByText("Samuel Goh").waitFor();
      await screenshot(boss, "hr-manager-to-decide-1440");
      await waiting.getByRole("button", { name: "Approve" }).click();
      await boss.getByText("Samuel Goh's leave approved").waitFor();
      await waiting.waitFor({ state: "detached" });

      await boss.goto(appUrl("/dashboard/team-challenge/calendar"));
      if (day.slice(0, 7) !== iso(new Date()).slice(0, 7)) {
        await boss.getByRole("button", { name: /next/i }).first().click(); // the leave falls next month
      }
      const event = boss.locator(".fc-event", { hasText: "On leave: Samuel Goh (Sick leave)" });
      await event.first().waitFor();
      await screenshot(boss, "hr-calendar-1440");

      await mine.setViewportSize({ width: 390, height: 844 });
      await mine.reload();
      // On a phone the note column is left out: the row is found by its kind (the salesperson's only sick leave).
      const phoneRow = mine.getByRole("table", { name: "Your leave" }).locator("tr", { hasText: "Sick leave" });
      await phoneRow.locator('[data-status="approved"]').waitFor();
      await screenshot(mine, "hr-leave-approved-390");
      expect(errors).toEqual([]);
      expect(bossErrors).toEqual([]);
    } catch (err) {
      await screenshot(mine, "hr-failed-employee");
      await screenshot(boss, "hr-failed-manager");
      throw err;
    }
  }, 180_000);
});
