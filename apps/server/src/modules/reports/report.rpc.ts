import { decide } from "@workmetrics/domain";
import { z } from "zod";
import { memberOf, refusalError } from "../../platform/rest/access.ts";
import { RestError } from "../../platform/rest/rest-error.ts";
import { defineRpc } from "../../platform/rest/rpc/command.ts";
import { findReport, reportNames } from "./registry.ts";

// POST /rest/v1/rpc/report {name, …params} → {columns, rows, totals}. An unknown name is a 400 naming the known
// ones; the report's own requirement is checked before its parameters, so a refused member learns nothing more.
export const reportRpc = defineRpc({
  name: "report",
  args: z.looseObject({ name: z.string().min(1).max(64) }),
  permission: null,
  async run(tx, args, caller) {
    const { name, ...params } = args;
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
  },
});
