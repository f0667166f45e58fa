import { decide } from "@workmetrics/domain";
import { COMMANDS } from "@workmetrics/domain/commands";
import type { ReportResult } from "@workmetrics/domain/reports";
import type { Tx } from "../../platform/db/database.ts";
import { type Caller, memberOf, refusalError } from "../../platform/rest/access.ts";
import { RestError } from "../../platform/rest/rest-error.ts";
import { implement } from "../../platform/rest/rpc/command.ts";
import { findReport, reportNames } from "./registry.ts";

// One report run as the caller: an unknown name is a 400 naming the known ones; the report's own requirement is
// checked before its parameters, so a refused member learns nothing more. The `report` command and the report PDF
// route both call it, so the printed copy is the screen's.
export async function runReport(
  tx: Tx,
  caller: Caller,
  name: string,
  params: Record<string, unknown>,
): Promise<ReportResult> {
  const report = findReport(name);
  if (!report) {
    throw new RestError(400, "PGRST100", `There is no report "${name}". Reports: ${reportNames().join(", ")}`);
  }
  const decision = decide(memberOf(caller), report.need);
  if (!decision.allowed) throw refusalError(decision);
  const parsed = report.params.safeParse(params);
  if (!parsed.success) {
    const details = parsed.error.issues.map((i) => ({ field: i.path.map(String).join("."), message: i.message }));
    throw new RestError(422, "validation_failed", details[0]?.message ?? "Invalid report parameters", details);
  }
  return report.run(tx, parsed.data, { ...caller, workspaceId: caller.workspaceId as string });
}

// POST /rest/v1/rpc/report {name, …params} → {columns, rows, totals} (DESIGN §2.3.1).
export const reportRpc = implement(COMMANDS.report, {
  async run(tx, args, caller) {
    const { name, ...params } = args;
    return runReport(tx, caller, name, params);
  },
});
