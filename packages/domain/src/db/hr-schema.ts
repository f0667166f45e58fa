import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  check,
  date,
  index,
  numeric,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { sameWorkspace, tenantColumns, tenantKeys, timestamps } from "./columns.ts";
import { authUser, user, workspace } from "./platform-schema.ts";

// Issue 21 §4 "HR" (Pro; DESIGN §2.3.2): employees, leave types with a yearly entitlement, leave requests approved
// by the employee's manager, and the workspace's public holidays. A request's `days` is computed by the server
// (working days Monday to Friday between its dates, less the public holidays) and only `leave_decide` moves its
// status; balances are computed from the requests whenever they are read, never stored.

// Singapore's work passes (MOM): citizens and permanent residents need none.
export const WORK_PASS_TYPES = [
  "citizen",
  "permanent_resident",
  "employment_pass",
  "s_pass",
  "work_permit",
  "dependant_pass",
  "other",
] as const;

export const LEAVE_STATUSES = ["pending", "approved", "rejected", "cancelled"] as const;
export type LeaveStatus = (typeof LEAVE_STATUSES)[number];

export const employee = pgTable(
  "employee",
  {
    ...tenantColumns,
    userId: uuid("user_id"), // the employee's sign-in, when they have one
    name: text("name").notNull(),
    jobTitle: text("job_title"),
    department: text("department"),
    managerId: bigint("manager_id", { mode: "number" }),
    startDate: date("start_date"),
    endDate: date("end_date"), // the last day of service, once they leave
    workPassType: text("work_pass_type", { enum: WORK_PASS_TYPES }),
    workPassExpiry: date("work_pass_expiry"),
    email: text("email"),
    phone: text("phone"),
    emergencyContactName: text("emergency_contact_name"),
    emergencyContactPhone: text("emergency_contact_phone"),
    ...timestamps,
  },
  (t) => [
    ...tenantKeys("employee", t, workspace),
    uniqueIndex("employee_user_key").on(t.workspaceId, t.userId),
    index("employee_manager_idx").on(t.workspaceId, t.managerId),
    sameWorkspace("employee_user_fk", [t.workspaceId, t.userId], user),
    sameWorkspace("employee_manager_fk", [t.workspaceId, t.managerId], { workspaceId: t.workspaceId, id: t.id }),
    check("employee_not_own_manager", sql`${t.managerId} is null or ${t.managerId} <> ${t.id}`),
    check(
      "employee_dates_in_order",
      sql`${t.endDate} is null or ${t.startDate} is null or ${t.endDate} >= ${t.startDate}`,
    ),
  ],
).enableRLS();

export const leaveType = pgTable(
  "leave_type",
  {
    ...tenantColumns,
    name: text("name").notNull(),
    daysPerYear: numeric("days_per_year", { precision: 5, scale: 1 }).notNull(),
    active: boolean("active").notNull().default(true),
    ...timestamps,
  },
  (t) => [
    ...tenantKeys("leave_type", t, workspace),
    uniqueIndex("leave_type_name_key").on(t.workspaceId, t.name),
    check("leave_type_days_range", sql`${t.daysPerYear} >= 0 and ${t.daysPerYear} <= 366`),
  ],
).enableRLS();

export const leaveRequest = pgTable(
  "leave_request",
  {
    ...tenantColumns,
    employeeId: bigint("employee_id", { mode: "number" }).notNull(),
    leaveTypeId: bigint("leave_type_id", { mode: "number" }).notNull(),
    userId: uuid("user_id"), // the employee's sign-in when asked: whose own request it is (the owner column)
    startDate: date("start_date").notNull(),
    endDate: date("end_date").notNull(),
    halfDay: boolean("half_day").notNull().default(false),
    days: numeric("days", { precision: 5, scale: 1 }).notNull(),
    status: text("status", { enum: LEAVE_STATUSES }).notNull().default("pending"),
    reason: text("reason"),
    decidedBy: uuid("decided_by").references(() => authUser.id),
    decidedAt: timestamp("decided_at", { withTimezone: true }),
    decisionReason: text("decision_reason"),
    createdBy: uuid("created_by").references(() => authUser.id),
    ...timestamps,
  },
  (t) => [
    ...tenantKeys("leave_request", t, workspace),
    index("leave_request_employee_idx").on(t.workspaceId, t.employeeId, t.startDate),
    index("leave_request_dates_idx").on(t.workspaceId, t.startDate, t.endDate),
    sameWorkspace("leave_request_employee_fk", [t.workspaceId, t.employeeId], employee),
    sameWorkspace("leave_request_type_fk", [t.workspaceId, t.leaveTypeId], leaveType),
    check("leave_request_dates_in_order", sql`${t.endDate} >= ${t.startDate}`),
    check("leave_request_days_positive", sql`${t.days} > 0`),
    check("leave_request_half_day_one_day", sql`not ${t.halfDay} or ${t.endDate} = ${t.startDate}`),
  ],
).enableRLS();

export const publicHoliday = pgTable(
  "public_holiday",
  {
    ...tenantColumns,
    date: date("date").notNull(),
    name: text("name").notNull(),
    ...timestamps,
  },
  (t) => [
    ...tenantKeys("public_holiday", t, workspace),
    uniqueIndex("public_holiday_date_key").on(t.workspaceId, t.date),
  ],
).enableRLS();
