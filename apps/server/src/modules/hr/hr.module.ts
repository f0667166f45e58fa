import { registerRpc } from "../../platform/rest/rpc/registry.ts";
import { leaveBalances, leaveCancel, leaveDecide, leaveRequestSave, leaveToDecide } from "./leave.rpc.ts";

// Issue 21 §4 "HR" (Pro): employees, leave types and public holidays go through the generic engine; leave requests
// through these commands. Approved leave shows on the team calendar (modules/challenge/calendar.ts).
export function registerHr(): void {
  registerRpc(leaveRequestSave, leaveDecide, leaveCancel, leaveToDecide, leaveBalances);
}
