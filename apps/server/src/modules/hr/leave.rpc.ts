import { decide, type Requirement } from "@workmetrics/domain";
import { COMMANDS } from "@workmetrics/domain/commands";
import type { LeaveBalanceRow, LeaveRequestView } from "@workmetrics/domain/commands/hr";
import { formatDays, HR_ACCESS, leaveDays } from "@workmetrics/domain/resources/hr";
import { type SQL, sql } from "drizzle-orm";
import type { Tx } from "../../platform/db/database.ts";
import { type Caller, memberOf, refusalError } from "../../platform/rest/access.ts";
import { RestError } from "../../platform/rest/rest-error.ts";
import { implement } from "../../platform/rest/rpc/command.ts";

// Issue 21 §4 "HR": leave requests (DESIGN §2.3.2), each command in the request's one transaction. The days are
// computed here (working days less the workspace's public holidays), the balance is checked under a lock on the
// employee's row (two requests at once cannot both take the last days), and every change writes its
// document_event row, as the documents do.

const fail = (status: number, message: string, field?: string) =>
  new RestError(
    status,
    status === 422 ? "validation_failed" : status === 403 ? "42501" : "PGRST116",
    message,
    field ? [{ field, message }] : null,
  );

const may = (caller: Caller, need: Requirement) => decide(memberOf(caller), need).allowed;

function need(caller: Caller, requirement: Requirement): void {
  const d = decide(memberOf(caller), requirement);
  if (!d.allowed) throw refusalError(d);
}

type Employee = {
  id: number;
  name: string;
  user_id: string | null;
  manager_user_id: string | null;
  start_date: string | null;
  end_date: string | null;
};

const EMPLOYEE = sql`e.id, e.name, e.user_id::text, e.start_date::text, e.end_date::text,
  (select m.user_id::text from employee m where m.workspace_id = e.workspace_id and m.id = e.manager_id) as manager_user_id`;

async function employeeWhere(tx: Tx, ws: string, where: SQL, lock: boolean): Promise<Employee | null> {
  const res = await tx.execute(sql`select ${EMPLOYEE} from employee e
    where e.workspace_id = ${ws}::uuid and ${where} ${lock ? sql`for update of e` : sql``}`);
  const row = res.rows[0] as Employee | undefined;
  return row ? { ...row, id: Number(row.id) } : null;
}

type Stored = {
  id: number;
  employee_id: number;
  leave_type_id: number;
  leave_type_name: string;
  start_date: string;
  days: string;
  status: LeaveRequestView["status"];
};

async function loadRequest(tx: Tx, ws: string, id: number): Promise<Stored> {
  const res = await tx.execute(sql`select r.id, r.employee_id, r.leave_type_id, t.name as leave_type_name,
      r.start_date::text, r.days::text, r.status
    from leave_request r join leave_type t on t.workspace_id = r.workspace_id and t.id = r.leave_type_id
    where r.workspace_id = ${ws}::uuid and r.id = ${id} for update of r`);
  const row = res.rows[0] as Stored | undefined;
  if (!row) throw fail(404, `There is no leave request ${id} in this workspace`);
  return { ...row, id: Number(row.id), employee_id: Number(row.employee_id), leave_type_id: Number(row.leave_type_id) };
}

const VIEW = sql`r.id, r.employee_id, e.name as employee_name, r.leave_type_id, t.name as leave_type_name,
  r.start_date::text, r.end_date::text, r.half_day, trim_scale(r.days)::text as days, r.status, r.reason,
  (select u.name from "user" u where u.workspace_id = r.workspace_id and u.id = r.decided_by) as decided_by_name,
  r.decided_at, r.decision_reason
  from leave_request r
  join employee e on e.workspace_id = r.workspace_id and e.id = r.employee_id
  join leave_type t on t.workspace_id = r.workspace_id and t.id = r.leave_type_id`;

async function view(tx: Tx, ws: string, id: number): Promise<LeaveRequestView> {
  const res = await tx.execute(sql`select ${VIEW} where r.workspace_id = ${ws}::uuid and r.id = ${id}`);
  return res.rows[0] as LeaveRequestView;
}

async function audit(
  tx: Tx,
  ws: string,
  caller: Caller,
  id: number,
  action: string,
  from: string | null,
  to: string,
  reason: string | null,
  changes: Record<string, unknown> | null = null,
): Promise<void> {
  await tx.execute(sql`insert into document_event
      (workspace_id, doc_type, doc_id, action, from_status, to_status, reason, user_id, changes)
    values (${ws}::uuid, 'leave_request', ${id}, ${action}, ${from}, ${to}, ${reason}, ${caller.userId}::uuid,
      ${changes ? JSON.stringify(changes) : null}::jsonb)`);
}

// The employee's approved and pending days of a leave type in a year (by the day the leave starts).
async function used(tx: Tx, ws: string, employeeId: number, typeId: number, year: string, except = 0) {
  const res = await tx.execute(sql`select
      coalesce(sum(days) filter (where status = 'approved'), 0)::float8 as taken,
      coalesce(sum(days) filter (where status = 'pending'), 0)::float8 as pending
    from leave_request where workspace_id = ${ws}::uuid and employee_id = ${employeeId}
      and leave_type_id = ${typeId} and id <> ${except}
      and start_date >= ${`${year}-01-01`}::date and start_date <= ${`${year}-12-31`}::date`);
  const row = res.rows[0] as { taken: number; pending: number };
  return { taken: Number(row.taken), pending: Number(row.pending) };
}

const left = (remaining: number, type: string, year: string, days: number) =>
  fail(
    422,
    remaining <= 0
      ? `No days of ${type} are left for ${year}, not ${formatDays(days)}`
      : `Only ${formatDays(remaining)} day${remaining === 1 ? "" : "s"} of ${type} ${remaining === 1 ? "is" : "are"} left for ${year}, not ${formatDays(days)}`,
    "end_date",
  );

export const leaveRequestSave = implement(COMMANDS.leave_request_save, {
  run: async (tx, args, caller) => {
    const ws = caller.workspaceId as string;
    // The employee's row is locked first: their requests' balance is checked and written under it.
    const mine = await employeeWhere(tx, ws, sql`e.user_id = ${caller.userId}::uuid`, !args.employee_id);
    let who = mine;
    if (args.employee_id && args.employee_id !== mine?.id) {
      need(caller, HR_ACCESS.requestForOthers);
      who = await employeeWhere(tx, ws, sql`e.id = ${args.employee_id}`, true);
      if (!who) throw fail(422, `There is no employee ${args.employee_id} in this workspace`, "employee_id");
    } else if (args.employee_id && mine) {
      who = await employeeWhere(tx, ws, sql`e.id = ${mine.id}`, true);
    }
    if (!who) throw fail(422, "You are not on the staff list of this workspace yet: ask HR to add you as an employee");
    if (who.start_date && args.start_date < who.start_date) {
      throw fail(422, `${who.name} starts work on ${who.start_date}: leave begins on or after it`, "start_date");
    }
    if (who.end_date && args.end_date > who.end_date) {
      throw fail(422, `${who.name}'s last day is ${who.end_date}: leave ends on or before it`, "end_date");
    }
    const type = (
      await tx.execute(sql`select id, name, days_per_year::float8 as entitlement, active from leave_type
        where workspace_id = ${ws}::uuid and id = ${args.leave_type_id}`)
    ).rows[0] as { name: string; entitlement: number; active: boolean } | undefined;
    if (!type) throw fail(422, `There is no leave type ${args.leave_type_id} in this workspace`, "leave_type_id");
    if (!type.active) throw fail(422, `${type.name} is no longer offered`, "leave_type_id");

    const holidays = await tx.execute(sql`select date::text as d from public_holiday where workspace_id = ${ws}::uuid
      and date between ${args.start_date}::date and ${args.end_date}::date`);
    const off = new Set((holidays.rows as Array<{ d: string }>).map((h) => h.d));
    const days = leaveDays(args.start_date, args.end_date, off, args.half_day);
    if (days === 0) {
      throw fail(422, "These dates hold no working day: weekends and public holidays take no leave", "start_date");
    }
    const overlap = (
      await tx.execute(sql`select id, start_date::text as start, end_date::text as end, status from leave_request
        where workspace_id = ${ws}::uuid and employee_id = ${who.id} and status in ('pending', 'approved')
          and start_date <= ${args.end_date}::date and end_date >= ${args.start_date}::date
        order by start_date limit 1`)
    ).rows[0] as { id: number; start: string; end: string; status: string } | undefined;
    if (overlap) {
      throw fail(
        409,
        `This overlaps ${who.name}'s ${overlap.status} leave from ${overlap.start} to ${overlap.end} (request ${overlap.id})`,
        "start_date",
      );
    }
    const year = args.start_date.slice(0, 4);
    const u = await used(tx, ws, who.id, args.leave_type_id, year);
    const remaining = type.entitlement - u.taken - u.pending;
    if (days > remaining) throw left(remaining, type.name, year, days);

    const res = await tx.execute(sql`insert into leave_request (workspace_id, employee_id, leave_type_id, user_id,
        start_date, end_date, half_day, days, reason, created_by)
      values (${ws}::uuid, ${who.id}, ${args.leave_type_id}, ${who.user_id}::uuid, ${args.start_date}::date,
        ${args.end_date}::date, ${args.half_day}, ${days}, ${args.reason ?? null}, ${caller.userId}::uuid)
      returning id`);
    const id = Number((res.rows[0] as { id: number }).id);
    await audit(tx, ws, caller, id, "create", null, "pending", args.reason ?? null, { days: formatDays(days) });
    return view(tx, ws, id);
  },
});

export const leaveDecide = implement(COMMANDS.leave_decide, {
  run: async (tx, args, caller) => {
    const ws = caller.workspaceId as string;
    const r = await loadRequest(tx, ws, args.id);
    const who = (await employeeWhere(tx, ws, sql`e.id = ${r.employee_id}`, true)) as Employee;
    if (who.user_id && who.user_id === caller.userId) throw fail(403, "You cannot decide your own leave request");
    const isManager = who.manager_user_id != null && who.manager_user_id === caller.userId;
    if (!isManager && !may(caller, HR_ACCESS.approve)) {
      throw fail(403, `Only ${who.name}'s manager or HR may decide this leave request`);
    }
    if (r.status !== "pending") throw fail(409, `This leave request is already ${r.status}`);
    const approve = args.decision === "approve";
    if (approve) {
      // Approving takes from what is left after the leave already approved (other pending requests may yet fail).
      const year = r.start_date.slice(0, 4);
      const u = await used(tx, ws, r.employee_id, r.leave_type_id, year, r.id);
      const entitlement = (
        (
          await tx.execute(sql`select days_per_year::float8 as n from leave_type
            where workspace_id = ${ws}::uuid and id = ${r.leave_type_id}`)
        ).rows[0] as { n: number }
      ).n;
      const remaining = Number(entitlement) - u.taken;
      if (Number(r.days) > remaining) throw left(remaining, r.leave_type_name, year, Number(r.days));
    } else if (!args.reason) {
      throw fail(422, "Say why the leave is rejected", "reason");
    }
    const to = approve ? "approved" : "rejected";
    await tx.execute(sql`update leave_request set status = ${to}, decided_by = ${caller.userId}::uuid,
        decided_at = now(), decision_reason = ${args.reason ?? null}, updated_at = now()
      where workspace_id = ${ws}::uuid and id = ${r.id}`);
    await audit(tx, ws, caller, r.id, args.decision, r.status, to, args.reason ?? null);
    return view(tx, ws, r.id);
  },
});

export const leaveCancel = implement(COMMANDS.leave_cancel, {
  run: async (tx, args, caller) => {
    const ws = caller.workspaceId as string;
    const r = await loadRequest(tx, ws, args.id);
    const who = (await employeeWhere(tx, ws, sql`e.id = ${r.employee_id}`, false)) as Employee;
    const hr = may(caller, HR_ACCESS.approve);
    const own = who.user_id != null && who.user_id === caller.userId;
    if (!own && !hr) throw fail(403, "Only the employee or HR may cancel this leave request");
    if (r.status === "cancelled" || r.status === "rejected")
      throw fail(409, `This leave request is already ${r.status}`);
    if (r.status === "approved" && !hr) {
      throw fail(409, "Approved leave is cancelled by HR: ask them, or your manager, to take it back");
    }
    await tx.execute(sql`update leave_request set status = 'cancelled', updated_at = now()
      where workspace_id = ${ws}::uuid and id = ${r.id}`);
    await audit(tx, ws, caller, r.id, "cancel", r.status, "cancelled", args.reason ?? null);
    return view(tx, ws, r.id);
  },
});

// The employees whose leave the caller sees beyond their own: everyone's with leave_request.read, else their
// reports' (e is the employee alias).
function teamScope(caller: Caller): SQL {
  if (may(caller, HR_ACCESS.readAll)) return sql`true`;
  return sql`(e.user_id = ${caller.userId}::uuid or exists (select 1 from employee m
    where m.workspace_id = e.workspace_id and m.id = e.manager_id and m.user_id = ${caller.userId}::uuid))`;
}

export const leaveToDecide = implement(COMMANDS.leave_to_decide, {
  run: async (tx, _args, caller) => {
    const ws = caller.workspaceId as string;
    const scope = may(caller, HR_ACCESS.approve)
      ? sql`true`
      : sql`exists (select 1 from employee m where m.workspace_id = e.workspace_id and m.id = e.manager_id
          and m.user_id = ${caller.userId}::uuid)`;
    const res = await tx.execute(sql`select ${VIEW} where r.workspace_id = ${ws}::uuid and r.status = 'pending'
      and ${scope} and e.user_id is distinct from ${caller.userId}::uuid
      order by r.start_date, r.id limit 500`);
    return res.rows as LeaveRequestView[];
  },
});

export const leaveBalances = implement(COMMANDS.leave_balances, {
  run: async (tx, args, caller) => {
    const ws = caller.workspaceId as string;
    const from = `${args.year}-01-01`;
    const to = `${args.year}-12-31`;
    const res = await tx.execute(sql`select e.id as employee_id, e.name as employee_name, t.id as leave_type_id,
        t.name as leave_type_name, trim_scale(t.days_per_year)::text as entitlement,
        trim_scale(coalesce(sum(r.days) filter (where r.status = 'approved'), 0))::text as taken,
        trim_scale(coalesce(sum(r.days) filter (where r.status = 'pending'), 0))::text as pending,
        trim_scale(t.days_per_year - coalesce(sum(r.days) filter (where r.status in ('approved', 'pending')), 0))::text
          as remaining
      from employee e
      join leave_type t on t.workspace_id = e.workspace_id and t.active
      left join leave_request r on r.workspace_id = e.workspace_id and r.employee_id = e.id
        and r.leave_type_id = t.id and r.start_date between ${from}::date and ${to}::date
      where e.workspace_id = ${ws}::uuid and (e.end_date is null or e.end_date >= ${from}::date)
        and (e.start_date is null or e.start_date <= ${to}::date) and ${teamScope(caller)}
      group by e.id, e.name, t.id, t.name, t.days_per_year
      order by e.name, e.id, t.name`);
    return { year: args.year, rows: res.rows as LeaveBalanceRow[] };
  },
});
