import type { LeaveStatus } from "@workmetrics/domain/db/hr-schema";
import { formatDays, leaveDays } from "@workmetrics/domain/resources/hr";
import { sql } from "drizzle-orm";
import type { Tx } from "./database.ts";

// Issue 21 §4 demo: HR for the Pro and Premium demo workspaces — the leave types as Singapore's Employment Act sets
// them (annual leave starts at 7 days and rises with service; kept a flat figure HR edits), the year's public
// holidays, an employee for each demo user with their manager, and leave requests in every status around today.

// Employment Act: annual leave 7 days in the first year (up to 14 after 8 years), paid outpatient sick leave
// 14 days, hospitalisation 60 (including the 14), government-paid childcare leave 6 days a year.
const LEAVE_TYPES: Array<[string, number]> = [
  ["Annual leave", 7],
  ["Sick leave", 14],
  ["Hospitalisation leave", 60],
  ["Childcare leave", 6],
];

// Singapore's gazetted public holidays (MOM), with the Monday off when one falls on a Sunday.
const PUBLIC_HOLIDAYS: Record<number, Array<[string, string]>> = {
  2026: [
    ["2026-01-01", "New Year's Day"],
    ["2026-02-17", "Chinese New Year"],
    ["2026-02-18", "Chinese New Year (second day)"],
    ["2026-03-21", "Hari Raya Puasa"],
    ["2026-04-03", "Good Friday"],
    ["2026-05-01", "Labour Day"],
    ["2026-05-27", "Hari Raya Haji"],
    ["2026-05-31", "Vesak Day"],
    ["2026-06-01", "Vesak Day (observed)"],
    ["2026-08-09", "National Day"],
    ["2026-08-10", "National Day (observed)"],
    ["2026-11-08", "Deepavali"],
    ["2026-11-09", "Deepavali (observed)"],
    ["2026-12-25", "Christmas Day"],
  ],
};

type Person = {
  local: string; // the demo user's e-mail before the @; "": not a user (linked to no sign-in), named by `name`
  name?: string;
  title: string;
  department: string;
  manager?: string; // the manager's local
  start: string;
  pass: string;
};

const STAFF: Record<string, Person[]> = {
  demo: [
    { local: "owner", title: "Managing Director", department: "Management", start: "2015-03-02", pass: "citizen" },
    {
      local: "admin",
      title: "HR and Admin Manager",
      department: "Administration",
      manager: "owner",
      start: "2018-07-16",
      pass: "citizen",
    },
    {
      local: "manager",
      title: "Sales Manager",
      department: "Sales",
      manager: "owner",
      start: "2017-01-09",
      pass: "permanent_resident",
    },
    {
      local: "sales",
      title: "Sales Executive",
      department: "Sales",
      manager: "manager",
      start: "2022-04-04",
      pass: "citizen",
    },
    {
      local: "finance",
      title: "Finance Manager",
      department: "Finance",
      manager: "owner",
      start: "2019-10-01",
      pass: "citizen",
    },
    {
      local: "accounts",
      title: "Accounts Executive",
      department: "Finance",
      manager: "finance",
      start: "2023-02-13",
      pass: "s_pass",
    },
    {
      local: "procurement",
      title: "Procurement Officer",
      department: "Purchasing",
      manager: "finance",
      start: "2021-08-02",
      pass: "employment_pass",
    },
    {
      local: "warehouse",
      title: "Warehouse Supervisor",
      department: "Logistics",
      manager: "owner",
      start: "2020-05-18",
      pass: "permanent_resident",
    },
    {
      local: "driver",
      title: "Delivery Driver",
      department: "Logistics",
      manager: "warehouse",
      start: "2021-11-22",
      pass: "work_permit",
    },
    {
      local: "pos",
      title: "Retail Assistant",
      department: "Retail",
      manager: "manager",
      start: "2024-06-03",
      pass: "citizen",
    },
    {
      local: "",
      name: "Nurul Huda",
      title: "Part-time Retail Assistant",
      department: "Retail",
      manager: "manager",
      start: "2025-09-01",
      pass: "citizen",
    },
  ],
  pro: [
    { local: "owner", title: "Director", department: "Management", start: "2016-02-01", pass: "citizen" },
    {
      local: "admin",
      title: "Operations Manager",
      department: "Operations",
      manager: "owner",
      start: "2019-03-11",
      pass: "citizen",
    },
    {
      local: "warehouse",
      title: "Storekeeper",
      department: "Operations",
      manager: "admin",
      start: "2021-06-07",
      pass: "permanent_resident",
    },
    {
      local: "driver",
      title: "Driver",
      department: "Operations",
      manager: "admin",
      start: "2022-09-05",
      pass: "work_permit",
    },
    { local: "pos", title: "Cashier", department: "Retail", manager: "admin", start: "2023-12-04", pass: "citizen" },
  ],
};

// Leave around today: [who, type, first working day from today (negative: past), working days, status, note].
const REQUESTS: Array<[string, string, number, number, LeaveStatus, string | null]> = [
  ["sales", "Annual leave", 5, 3, "approved", "Family trip to Penang"],
  ["pos", "Sick leave", -3, 2, "approved", "Flu, medical certificate given"],
  ["warehouse", "Annual leave", 10, 2, "pending", "Moving house"],
  ["driver", "Childcare leave", 3, 1, "pending", "Child's school event"],
  ["procurement", "Annual leave", 7, 2, "rejected", "Supplier audit that week"],
  ["accounts", "Annual leave", 12, 1, "cancelled", null],
  ["admin", "Annual leave", -15, 2, "approved", null],
];

const iso = (t: number) => new Date(t).toISOString().slice(0, 10);

// The `count` working days from the `offset`th working day after (or before) `today`, kept inside today's year.
function span(today: string, offset: number, count: number, off: ReadonlySet<string>): [string, string] {
  const isWork = (t: number) => leaveDays(iso(t), iso(t), off) === 1;
  const step = offset < 0 ? -86_400_000 : 86_400_000;
  let t = Date.parse(`${today}T00:00:00Z`);
  for (let n = Math.abs(offset); n > 0; ) {
    t += step;
    if (isWork(t)) n--;
  }
  while (!isWork(t)) t += 86_400_000;
  let end = t;
  for (let n = count - 1; n > 0; ) {
    end += 86_400_000;
    if (isWork(end)) n--;
  }
  // Near the year's end the span moves back into the year (a request never crosses it).
  const year = today.slice(0, 4);
  if (iso(end).slice(0, 4) !== year) return span(today, offset - 25, count, off);
  if (iso(t).slice(0, 4) !== year) return span(today, offset + 25, count, off);
  return [iso(t), iso(end)];
}

export async function seedHr(tx: Tx, workspaceId: string, slug: string): Promise<void> {
  const staff = STAFF[slug];
  if (!staff) return;
  const ws = sql`${workspaceId}::uuid`;
  const today = ((await tx.execute(sql`select current_date::text as d`)).rows[0] as { d: string }).d;
  const year = Number(today.slice(0, 4));

  for (const [name, days] of LEAVE_TYPES) {
    await tx.execute(sql`insert into leave_type (workspace_id, name, days_per_year) values (${ws}, ${name}, ${days})`);
  }
  for (const [date, name] of PUBLIC_HOLIDAYS[year] ?? []) {
    await tx.execute(sql`insert into public_holiday (workspace_id, date, name) values (${ws}, ${date}::date, ${name})`);
  }

  const users = new Map(
    (
      (await tx.execute(sql`select id::text, name, email from "user" where workspace_id = ${ws}`)).rows as Array<{
        id: string;
        name: string;
        email: string;
      }>
    ).map((u) => [u.email.split("@")[0], u]),
  );
  const ids = new Map<string, number>();
  for (const p of staff) {
    const u = p.local ? users.get(p.local) : undefined;
    if (p.local && !u) continue;
    const phone = `+65 9${String(1000000 + ids.size * 137_731).slice(-7)}`;
    const res = await tx.execute(sql`insert into employee (workspace_id, user_id, name, job_title, department,
        manager_id, start_date, work_pass_type, email, phone, emergency_contact_name, emergency_contact_phone)
      values (${ws}, ${u?.id ?? null}::uuid, ${u?.name ?? p.name ?? p.local}, ${p.title}, ${p.department},
        ${p.manager ? (ids.get(p.manager) ?? null) : null}, ${p.start}::date, ${p.pass}, ${u?.email ?? null}, ${phone},
        ${"Next of kin"}, ${`+65 8${String(2000000 + ids.size * 91_373).slice(-7)}`})
      returning id`);
    ids.set(p.local || (p.name ?? ""), Number((res.rows[0] as { id: number }).id));
  }

  const types = new Map(
    (
      (await tx.execute(sql`select id, name from leave_type where workspace_id = ${ws}`)).rows as Array<{
        id: number;
        name: string;
      }>
    ).map((t) => [t.name, Number(t.id)]),
  );
  const off = new Set((PUBLIC_HOLIDAYS[year] ?? []).map(([d]) => d));
  for (const [local, type, offset, count, status, note] of REQUESTS) {
    const employeeId = ids.get(local);
    const u = users.get(local);
    if (!employeeId || !u) continue;
    const [start, end] = span(today, offset, count, off);
    const days = leaveDays(start, end, off);
    const manager = staff.find((p) => p.local === local)?.manager;
    const decider = status === "approved" || status === "rejected" ? users.get(manager ?? "owner")?.id : undefined;
    const reason = status === "rejected" ? note : null;
    const res = await tx.execute(sql`insert into leave_request (workspace_id, employee_id, leave_type_id, user_id,
        start_date, end_date, days, status, reason, decided_by, decided_at, decision_reason, created_by)
      values (${ws}, ${employeeId}, ${types.get(type)}, ${u.id}::uuid, ${start}::date, ${end}::date, ${days},
        ${status}, ${status === "rejected" ? "A short break" : note}, ${decider ?? null}::uuid,
        ${decider ? sql`now()` : null}, ${reason}, ${u.id}::uuid)
      returning id`);
    const id = Number((res.rows[0] as { id: number }).id);
    await tx.execute(sql`insert into document_event (workspace_id, doc_type, doc_id, action, to_status, user_id, changes)
      values (${ws}, 'leave_request', ${id}, 'create', 'pending', ${u.id}::uuid,
        ${JSON.stringify({ days: formatDays(days) })}::jsonb)`);
    if (status !== "pending") {
      const action = status === "approved" ? "approve" : status === "rejected" ? "reject" : "cancel";
      await tx.execute(sql`insert into document_event (workspace_id, doc_type, doc_id, action, from_status,
          to_status, reason, user_id)
        values (${ws}, 'leave_request', ${id}, ${action}, 'pending', ${status}, ${reason},
          ${(decider ?? u.id) as string}::uuid)`);
    }
  }
}
