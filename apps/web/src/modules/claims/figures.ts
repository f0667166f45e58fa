import { DocumentError } from "@workmetrics/domain/documents/decimal";
import {
  type ClaimFigures,
  type ClaimLineInput,
  claimFigures,
  PROGRESSIVE_CLAIM,
} from "@workmetrics/domain/documents/types/progressive-claim";
import type { Row } from "../../platform/data-access/provider.ts";
import { isBlank, type LineDraft } from "../documents/lines.ts";
import { type Measure, measureOf, qtyOfPercent } from "./measure.ts";

// A claim's figures as the unsaved form has them: claimFigures — the function the server prices with — over the
// form's lines and the previous claim's figures the draft carries; and why the form cannot be claimed as it stands
// (the Claim action's own guard over those figures). Pure, so the figures panel, the Claim button and the banner
// above it read one answer, tested apart from the page.

const text = (v: unknown) => (v === null || v === undefined ? "" : String(v));

// The saved line a form line is (by its previous-claim or contract link), for its read-only previous figures.
export function savedLine(doc: Row | null, l: LineDraft, index: number): Row | undefined {
  const lines = (doc?.lines as Row[] | undefined) ?? [];
  const prev = l.extra.prev_line_id;
  if (prev != null && prev !== "") return lines.find((x) => String(x.prev_line_id) === String(prev));
  if (l.source_line_id != null) return lines.find((x) => Number(x.source_line_id) === l.source_line_id);
  const row = lines[index];
  return row && row.source_line_id == null && row.prev_line_id == null ? row : undefined;
}

// A form line with what the valuation shows of it: its contract, its work done to date and the previous claim's.
export type ClaimRow = {
  line: LineDraft;
  saved: Row | undefined;
  contract: string;
  percent: string;
  prevPercent: string;
  prevAmount: string;
  contractQty: string;
  qty: string;
  prevQty: string;
  measure: Measure;
  variation: boolean;
};

// `measures`: the measure the clerk chose per line key; until then, measured when the line carries a quantity.
export function claimRows(
  doc: Row | null,
  lines: readonly LineDraft[],
  measures: Readonly<Record<string, Measure>> = {},
): ClaimRow[] {
  const release = doc?.kind === "release";
  return lines.map((l, i) => {
    const saved = savedLine(doc, l, i);
    const contractQty = text(l.extra.contract_qty ?? saved?.contract_qty);
    const prevPercent = text(saved?.prev_percent ?? "0");
    return {
      line: l,
      saved,
      contract: text(l.extra.contract_amount ?? saved?.contract_amount ?? l.unit_price),
      percent: text(l.extra.cumulative_percent ?? saved?.cumulative_percent),
      prevPercent,
      prevAmount: text(saved?.prev_amount ?? "0"),
      contractQty,
      qty: text(l.extra.cumulative_qty),
      prevQty: text(saved?.prev_qty) || qtyOfPercent(contractQty, prevPercent),
      measure: measures[l.key] ?? measureOf(l.extra.cumulative_qty),
      variation: l.source_line_id == null && !release,
    };
  });
}

export type LiveClaim = { figures: ClaimFigures | null; error: string | null };

export function liveClaim(doc: Row | null, header: Readonly<Record<string, unknown>>, rows: ClaimRow[]): LiveClaim {
  const lines: ClaimLineInput[] = rows
    .filter((r) => !isBlank(r.line))
    .map((r) => ({
      description: r.line.description,
      unit: r.line.unit,
      contract_amount: r.contract || "0",
      cumulative_percent: r.percent || "0",
      prev_percent: r.prevPercent,
      prev_amount: r.prevAmount,
      contract_qty: r.contractQty || null,
      cumulative_qty: r.measure === "qty" ? r.qty || "0" : null,
      prev_qty: text(r.saved?.prev_qty) || null,
      tax_code: r.line.tax_code,
    }));
  try {
    const figures = claimFigures({
      kind: doc?.kind === "release" ? "release" : "progress",
      retention_percent: text(header.retention_percent ?? doc?.retention_percent) || "5",
      retention_cap_percent: text(header.retention_cap_percent ?? doc?.retention_cap_percent) || "5",
      previous: {
        gross_to_date: text(doc?.previous_gross) || "0",
        retention_to_date: text(doc?.previous_retention) || "0",
      },
      lines,
    });
    return { figures, error: null };
  } catch (err) {
    if (err instanceof DocumentError) return { figures: null, error: err.message };
    throw err;
  }
}

const SUBMIT = PROGRESSIVE_CLAIM.transitions.find((t) => t.action === "submit");

// Why the form, as it stands, cannot be claimed — its figures' refusal ("Line 1 …: the quantity done to date cannot
// be more than the contract's 500 m²"), or the Claim action's guard read over its figures ("Nothing is claimed…") —
// or null. What the server would answer once the form is saved and Claim is asked.
export function claimBlocked(
  doc: Row | null,
  header: Readonly<Record<string, unknown>>,
  lines: readonly LineDraft[],
): string | null {
  const rows = claimRows(doc, lines);
  const live = liveClaim(doc, header, rows);
  if (!live.figures) return live.error;
  const f = live.figures;
  return (
    SUBMIT?.guard?.({
      status: "draft",
      today: new Date().toISOString().slice(0, 10),
      header: {
        ...doc,
        ...header,
        kind: doc?.kind ?? "progress",
        total: f.total,
        this_claim_gross: f.this_claim_gross,
      },
      lines: rows.filter((r) => !isBlank(r.line)).map((r) => r.line.extra),
    }) ?? null
  );
}
