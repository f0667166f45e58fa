import type { Requirement } from "@workmetrics/domain";
import type { ReportResult } from "@workmetrics/domain/reports";
import type { z } from "zod";
import type { Tx } from "../../platform/db/database.ts";
import type { Caller } from "../../platform/rest/access.ts";

// DESIGN §2.3.1 `report {name, …params}`: one command answers every report; a report is registered once with its
// parameters, what it needs of a member (the one access rule) and one tenant-scoped query. Later issues add reports
// by registering them here (trial balance, P&L, GST F5 …).
export type ReportDef<P> = {
  name: string;
  params: z.ZodType<P>;
  need: Requirement;
  run(tx: Tx, params: P, caller: Caller & { workspaceId: string }): Promise<ReportResult>;
};

type AnyReport = ReportDef<unknown>;

const REPORTS = new Map<string, AnyReport>();

export const defineReport = <P>(def: ReportDef<P>): AnyReport => def as AnyReport;

export function registerReport(...defs: AnyReport[]): void {
  for (const d of defs) {
    if (REPORTS.has(d.name)) throw new Error(`The report ${d.name} is registered twice`);
    REPORTS.set(d.name, d);
  }
}

export const findReport = (name: string): AnyReport | undefined => REPORTS.get(name);
export const reportNames = (): string[] => [...REPORTS.keys()].sort();
