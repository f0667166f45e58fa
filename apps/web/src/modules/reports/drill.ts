import type { ReportDrill } from "@workmetrics/domain/reports";
import { CATALOG, type CatalogEntry } from "@workmetrics/domain/resources/catalog";

// Where a report figure leads (issue 12 drill-down): another report with its parameters (its own address, so the
// way back is the browser's), a document's page (/dashboard/<route>/<id>), or the printed copy of what has no page of
// its own (a supplier payment's remittance advice). null: nowhere to go (a stock move with no document behind it).

export type DrillTarget = { kind: "report" | "page"; to: string } | { kind: "pdf"; href: string } | null;

// What prints without a page (the document PDF route's registered printers).
const PRINTED = new Set(["supplier_payment"]);

export function reportSearch(params: Record<string, string>): string {
  return new URLSearchParams(Object.entries(params).filter(([, v]) => v !== "")).toString();
}

export function drillTarget(drill: ReportDrill | null | undefined, base: string): DrillTarget {
  if (!drill) return null;
  if ("report" in drill) return { kind: "report", to: `${base}/reports/${drill.report}?${reportSearch(drill.params)}` };
  const { type, id } = drill.document;
  const route = (CATALOG as Record<string, CatalogEntry>)[type]?.route;
  if (route) return { kind: "page", to: `${base}/${route}/${id}` };
  if (PRINTED.has(type)) return { kind: "pdf", href: `/api/documents/${type}/${id}/pdf` };
  return null;
}
