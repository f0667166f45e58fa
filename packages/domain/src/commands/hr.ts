import { z } from "zod";
import { LEAVE_STATUSES } from "../db/hr-schema.ts";
import { dbId, decimal, defineCommand, id, instant } from "./define.ts";

// Issue 21 §4 "HR" (modules/hr on the server; HR feature, Pro; DESIGN §2.3.2). Every member asks and cancels their
// own leave; the employee's manager (or a role holding leave_request.approve) decides it, never their own.

const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "Give a date as YYYY-MM-DD");

export const LeaveRequestSave = z
  .object({
    employee_id: id.optional(), // someone else's leave: leave_request.create; absent, the caller's own
    leave_type_id: id,
    start_date: day,
    end_date: day,
    half_day: z.boolean().default(false),
    reason: z.string().trim().max(1000).nullish(),
  })
  .refine((v) => v.end_date >= v.start_date, {
    message: "The leave must end on or after it starts",
    path: ["end_date"],
  })
  .refine((v) => !v.half_day || v.end_date === v.start_date, {
    message: "A half day starts and ends on the same day",
    path: ["half_day"],
  })
  .refine((v) => v.start_date.slice(0, 4) === v.end_date.slice(0, 4), {
    message: "Leave across the new year counts against two years' balances: ask for each year's days separately",
    path: ["end_date"],
  });
export type LeaveRequestSaveInput = z.input<typeof LeaveRequestSave>;

export const leaveRequestView = z.object({
  id: dbId,
  employee_id: dbId,
  employee_name: z.string(),
  leave_type_id: dbId,
  leave_type_name: z.string(),
  start_date: z.string(),
  end_date: z.string(),
  half_day: z.boolean(),
  days: decimal,
  status: z.enum(LEAVE_STATUSES),
  reason: z.string().nullable(),
  decided_by_name: z.string().nullable(),
  decided_at: instant.nullable(),
  decision_reason: z.string().nullable(),
});
export type LeaveRequestView = z.output<typeof leaveRequestView>;

export const leaveRequestSave = defineCommand({
  name: "leave_request_save",
  args: LeaveRequestSave,
  result: leaveRequestView,
  permission: null, // one's own; for someone else leave_request.create, decided inside
  does: "ask for leave",
  feature: "hr",
});

export const leaveDecide = defineCommand({
  name: "leave_decide",
  args: z.object({
    id,
    decision: z.enum(["approve", "reject"], { error: "Decide approve or reject" }),
    reason: z.string().trim().max(1000).nullish(),
  }),
  result: leaveRequestView,
  permission: null, // the employee's manager, or leave_request.approve: decided inside
  does: "decide leave requests",
  feature: "hr",
});

export const leaveCancel = defineCommand({
  name: "leave_cancel",
  args: z.object({ id, reason: z.string().trim().max(1000).nullish() }),
  result: leaveRequestView,
  permission: null, // the requester, while pending; leave_request.approve, any pending or approved
  does: "cancel leave requests",
  feature: "hr",
});

// The pending requests the caller may decide: their reports', or everyone's with leave_request.approve.
export const leaveToDecide = defineCommand({
  name: "leave_to_decide",
  args: z.object({}).optional(),
  result: z.array(leaveRequestView),
  permission: null,
  does: "decide leave requests",
  feature: "hr",
});

export const leaveBalanceRow = z.object({
  employee_id: dbId,
  employee_name: z.string(),
  leave_type_id: dbId,
  leave_type_name: z.string(),
  entitlement: decimal, // the type's days a year
  taken: decimal, // approved, starting in the year
  pending: decimal, // asked, not yet decided
  remaining: decimal, // entitlement less taken and pending
});
export type LeaveBalanceRow = z.output<typeof leaveBalanceRow>;

// Balances per employee and leave type for a year: everyone's with leave_request.read, else one's own and one's
// reports'.
export const leaveBalances = defineCommand({
  name: "leave_balances",
  args: z.object({ year: z.number().int().min(2000, "Give a year from 2000").max(2100, "Give a year up to 2100") }),
  result: z.object({ year: z.number(), rows: z.array(leaveBalanceRow) }),
  permission: null,
  does: "read leave balances",
  feature: "hr",
});

export const HR_COMMANDS = [leaveRequestSave, leaveDecide, leaveCancel, leaveToDecide, leaveBalances] as const;
