import type { ResourceDef } from "@workmetrics/domain/resources/types";
import { countLabel, plural } from "./counts.ts";
import type { ImportReport } from "./importApi.ts";

// The CSV import dialog's counted words, each agreeing in number (issue 9 §2).
type Noun = Pick<ResourceDef, "title" | "plural">;

// "4 rows: 2 ready, 2 with problems."
export function previewSummary(total: number, bad: number): string {
  const ready = `${plural(total, "row")}: ${(total - bad).toLocaleString()} ready`;
  return `${ready}${bad ? `, ${bad.toLocaleString()} with problems` : ""}.`;
}

// The import button: every row, or only the good ones when bad rows are skipped.
export function importButtonLabel(total: number, bad: number, skip: boolean): string {
  return skip && bad > 0 ? `Import ${plural(total - bad, "good row")}` : `Import ${plural(total, "row")}`;
}

// "Fix the 1 row with problems or tick Skip bad rows"
export function blockedHint(bad: number): string {
  return `Fix the ${plural(bad, "row")} with problems or tick Skip bad rows`;
}

// "Imported 1 product; skipped 2 bad rows." or, when the server refused the file, why nothing was imported.
export function reportSummary(def: Noun, report: Pick<ImportReport, "imported" | "skipped">, refused: boolean): string {
  if (refused) {
    const have = report.skipped === 1 ? "has" : "have";
    return `Nothing was imported: ${plural(report.skipped, "row")} ${have} problems. Fix the file, or go back and tick "Skip bad rows".`;
  }
  const skipped = report.skipped ? `; skipped ${plural(report.skipped, "bad row")}` : "";
  return `Imported ${countLabel(def, report.imported)}${skipped}.`;
}

// The toast after a successful import: "Imported 1 product".
export const importedToast = (def: Noun, imported: number): string => `Imported ${countLabel(def, imported)}`;
