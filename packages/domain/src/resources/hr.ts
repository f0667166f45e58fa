import type { Requirement } from "../access.ts";
import { employee, LEAVE_STATUSES, leaveRequest, leaveType, publicHoliday, WORK_PASS_TYPES } from "../db/hr-schema.ts";
import { CATALOG } from "./catalog.ts";
import { defineResource } from "./define.ts";
import { auditFields, f, idField } from "./fields.ts";
import type { ResourceDef } from "./types.ts";

// Issue 21 §4 "HR" (Pro; DESIGN §2.3.2): the staff directory, leave types, leave requests and public holidays.
// Employees, leave types and holidays are edited through the generic pages; leave requests only through the HR
// module's commands, which compute their days and keep their status (leave_request_save, leave_decide, leave_cancel).

const ro = { readOnly: true, form: false };

// A field of an employee only HR reads (owners and admins, or a role given employee_private.read): a colleague's
// pass and emergency contact are not the directory's.
export const EMPLOYEE_PRIVATE = "employee_private.read";
const hrOnly = { permission: EMPLOYEE_PRIVATE };

export const employeeResource = defineResource({
  ...CATALOG.employee,
  table: employee,
  display: "name",
  search: ["name", "job_title", "department", "email"],
  defaultOrder: "name.asc",
  fields: [
    idField(),
    f.name("name", "Name", { required: true, list: true, width: 220 }),
    f.name("job_title", "Job title", { list: true, width: 180 }),
    f.name("department", "Department", { list: true, width: 150 }),
    f.ref("manager_id", "Manager", "employee", "name", { list: true }),
    f.ref("user_id", "User", "user", "name", { help: "The employee's sign-in, if they have one" }),
    f.email("email", "E-mail", { list: true }),
    f.phone("phone", "Phone"),
    f.date("start_date", "Started", { list: true }),
    f.date("end_date", "Last day", { help: "Set when the employee leaves" }),
    f.enum("work_pass_type", "Work pass", WORK_PASS_TYPES, hrOnly),
    f.date("work_pass_expiry", "Work pass expires", hrOnly),
    f.name("emergency_contact_name", "Emergency contact", hrOnly),
    f.phone("emergency_contact_phone", "Emergency contact phone", hrOnly),
    ...auditFields,
  ],
  relations: {
    manager: { resource: "employee", kind: "one", column: "manager_id", references: "id" },
    user: { resource: "user", kind: "one", column: "user_id", references: "id" },
    reports: { resource: "employee", kind: "many", column: "manager_id", references: "id" },
    leave_requests: { resource: "leave_request", kind: "many", column: "employee_id", references: "id" },
  },
  rules: [
    {
      fields: ["start_date", "end_date"],
      check: (v) => v.start_date == null || v.end_date == null || String(v.end_date) >= String(v.start_date),
      field: "end_date",
      message: "The last day must be on or after the start",
      constraint: "employee_dates_in_order",
    },
  ],
  checks: {
    employee_not_own_manager: { field: "manager_id", message: "An employee cannot be their own manager" },
    employee_user_key: { field: "user_id", message: "This user is already another employee" },
  },
});

export const leaveTypeResource = defineResource({
  ...CATALOG.leave_type,
  table: leaveType,
  display: "name",
  search: ["name"],
  defaultOrder: "name.asc",
  fields: [
    idField(),
    f.name("name", "Name", { required: true, list: true, width: 220 }),
    f.number("days_per_year", "Days a year", { required: true, min: 0, max: 366, list: true, width: 130 }),
    f.boolean("active", "Active", { list: true, width: 90 }),
    ...auditFields,
  ],
  relations: {},
  checks: {
    leave_type_days_range: { field: "days_per_year", message: "Days a year must be between 0 and 366" },
    leave_type_name_key: { field: "name", message: "A leave type with this name already exists" },
  },
});

export const leaveRequestResource = defineResource({
  ...CATALOG.leave_request,
  table: leaveRequest,
  display: "id",
  search: ["reason"],
  defaultOrder: "start_date.desc,id.desc",
  fields: [
    idField(),
    f.ref("employee_id", "Employee", "employee", "name", { required: true, list: true }),
    f.ref("leave_type_id", "Type", "leave_type", "name", { required: true, list: true }),
    f.date("start_date", "From", { required: true, list: true }),
    f.date("end_date", "To", { required: true, list: true }),
    f.boolean("half_day", "Half day"),
    f.number("days", "Days", { ...ro, list: true, width: 90 }),
    f.status("status", "Status", LEAVE_STATUSES, { ...ro, list: true, width: 110 }),
    f.textarea("reason", "Reason", { maxLength: 1000 }),
    f.ref("decided_by", "Decided by", "user", "name", ro),
    f.datetime("decided_at", "Decided", ro),
    f.textarea("decision_reason", "Decision note", ro),
    f.ref("user_id", "User", "user", "name", ro),
    ...auditFields,
  ],
  relations: {
    employee: { resource: "employee", kind: "one", column: "employee_id", references: "id" },
    leave_type: { resource: "leave_type", kind: "one", column: "leave_type_id", references: "id" },
  },
});

export const publicHolidayResource = defineResource({
  ...CATALOG.public_holiday,
  table: publicHoliday,
  display: "name",
  search: ["name"],
  defaultOrder: "date.asc",
  naturalKey: "date",
  fields: [
    idField(),
    f.date("date", "Date", { required: true, list: true }),
    f.name("name", "Name", { required: true, list: true, width: 260 }),
    ...auditFields,
  ],
  relations: {},
  checks: { public_holiday_date_key: { field: "date", message: "This day is already a public holiday" } },
});

export const HR_RESOURCES: readonly ResourceDef[] = [
  employeeResource,
  leaveTypeResource,
  leaveRequestResource,
  publicHolidayResource,
];

// Who may do what beyond one's own leave (the server's commands and the web's offers read the same): approving or
// rejecting anyone's request (a manager decides their reports' without it), and asking leave for someone else.
const need = (permission: string | null, does: string): Requirement => ({
  audience: "member",
  permission,
  does,
  feature: "hr",
  subject: "HR",
});
export const HR_ACCESS = {
  // The leave page: staff read the leave types (a supplier's user, who is nobody's employee, does not).
  use: need("leave_type.read", "use the leave page"),
  approve: need("leave_request.approve", "approve leave requests"),
  requestForOthers: need("leave_request.create", "ask leave for other employees"),
  readAll: need("leave_request.read", "read everyone's leave"),
} as const;

// ---- leave days: pure, shared by the server (which stores them) and the page (which shows them before asking) ---

const DAY_MS = 86_400_000;
const parseDay = (d: string) => Date.parse(`${d}T00:00:00Z`);

// The working days a request takes: Monday to Friday from `start` to `end` inclusive, less the public holidays;
// a half day is half of one working day.
export function leaveDays(start: string, end: string, holidays: ReadonlySet<string>, halfDay = false): number {
  let days = 0;
  for (let t = parseDay(start); t <= parseDay(end); t += DAY_MS) {
    const d = new Date(t);
    const weekday = d.getUTCDay();
    if (weekday !== 0 && weekday !== 6 && !holidays.has(d.toISOString().slice(0, 10))) days++;
  }
  return halfDay ? days / 2 : days;
}

// Days as shown and stored: one decimal at most ("2", "0.5").
export const formatDays = (n: number): string => String(Math.round(n * 10) / 10);
