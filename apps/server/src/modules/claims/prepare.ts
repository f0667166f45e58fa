import { DocumentError, dec, money, sum } from "@workmetrics/domain/documents/decimal";
import { toBase } from "@workmetrics/domain/documents/totals";
import {
  type ClaimKind,
  claimFigures,
  DEFAULT_RETENTION_CAP_PERCENT,
  DEFAULT_RETENTION_PERCENT,
  type ReleaseStage,
  releasable,
} from "@workmetrics/domain/documents/types/progressive-claim";
import { sql } from "drizzle-orm";
import type { Tx } from "../../platform/db/database.ts";
import { conflict, invalid } from "../../platform/documents/refusals.ts";
import type { PrepareConvert, PrepareSave, PriceDraft } from "../../platform/documents/registry.ts";
import { type Row, today } from "../../platform/documents/store.ts";
import { contractLines, previousClaim, projectOf, retentionOf } from "./contract.ts";

// A claim's say in the engine's save and convert (registry.ts PrepareConvert, PrepareSave, PriceDraft): its lines
// continue the previous claim's (Dolibarr's fk_prev_id) with what they had to date, a release claim releases what
// the contract's retention allows, and its figures are claimFigures' — the domain's one function — over them.

const given = (v: unknown) => v !== undefined && v !== null && v !== "";
const text = (v: unknown) => (given(v) ? String(v) : null);

type Shaped = { header: Row; lines: Row[] };

// A progress line's quantity and unit price as its contract line has them — the contract quantity it values
// (500 m²; 1 for a lump sum) at the contract amount's rate — so the lines read like the contract (the Flow tab's Qty).
// Its amounts are claimFigures', never quantity × price.
export function contractRate(contractAmount: unknown, contractQty: unknown): { qty: string; unit_price: string } {
  const amount = String(contractAmount ?? "0");
  const of = given(contractQty) ? dec(String(contractQty)) : null;
  if (!of?.greaterThan(0)) return { qty: "1", unit_price: amount };
  return { qty: of.toFixed(), unit_price: dec(amount).dividedBy(of).toDecimalPlaces(4).toFixed() };
}

const CLAIM_HEADER = "progressive_claim";

// The stored facts a save keeps whatever a client sends: what it was made from and its kind.
async function storedFacts(tx: Tx, ws: string, id: number): Promise<Row> {
  const res = await tx.execute(sql`select source_type, source_id, kind, release_stage, project_id,
      doc_date::text as doc_date, retention_percent::text as retention_percent,
      retention_cap_percent::text as retention_cap_percent, response_days, payment_days
    from ${sql.identifier(CLAIM_HEADER)} where workspace_id = ${ws}::uuid and id = ${id}`);
  return (res.rows[0] as Row | undefined) ?? {};
}

// A release of `stage` is allowed on the claim's date: practical completion reached, or the defects liability period
// over; the refusal names the project and the date.
export async function checkReleaseStage(tx: Tx, ws: string, header: Row, stage: ReleaseStage): Promise<void> {
  const project = await projectOf(tx, ws, header.project_id);
  if (!project) {
    throw conflict(
      "This contract has no project: the retention is released by the project's practical completion and defects liability dates",
    );
  }
  const on = String(header.doc_date ?? (await today(tx))).slice(0, 10);
  if (stage === "practical_completion") {
    const pc = project.practical_completion_date;
    if (!pc)
      throw conflict(`Record the practical completion date of project ${project.code} before releasing retention`);
    if (pc > on)
      throw conflict(`Project ${project.code} reaches practical completion on ${pc}: retention is released from then`);
    return;
  }
  const end = project.defects_liability_end_date;
  if (!end)
    throw conflict(`Record when the defects liability period of project ${project.code} ends before the final release`);
  if (end > on) {
    throw conflict(
      `The defects liability period of project ${project.code} ends on ${end}: the rest of the retention is released from then`,
    );
  }
}

const stageWords = (stage: ReleaseStage, share: string) =>
  stage === "practical_completion"
    ? `Release of retention at practical completion (${dec(share).toFixed()}%)`
    : "Release of retention at the end of the defects liability period";

// The lines and header a claim of `contractId` has once shaped against the contract as it is now: the terms and
// previous figures written, each line's previous percentage and amount from the line it continues, every line of
// the previous claim present, contract lines at the contract's amounts.
export async function shapeClaim(
  tx: Tx,
  ws: string,
  input: { id: number | null; contractId: number; kind: ClaimKind; header: Row; lines: Row[] },
): Promise<Shaped> {
  const prev = await previousClaim(tx, ws, input.contractId, input.id);
  const header: Row = {
    ...input.header,
    discount_percent: null,
    discount_amount: null,
    previous_claim_id: input.kind === "progress" ? (prev?.header.id ?? null) : null,
    previous_gross: prev ? String(prev.header.gross_to_date) : "0",
    previous_retention: prev ? String(prev.header.retention_to_date) : "0",
    // A release names the contract sum its retention was held on (the latest progress claim's).
    ...(input.kind === "release" ? { contract_sum: prev ? String(prev.header.contract_sum) : "0" } : {}),
  };
  if (input.kind === "release") {
    const held = await retentionOf(tx, ws, input.contractId, input.id);
    const left = dec(held.retained).minus(dec(held.released));
    const asked = sum(input.lines.map((l, i) => dec(String(l.contract_amount ?? "0"), `The amount on line ${i + 1}`)));
    if (asked.greaterThan(left)) {
      throw conflict(`Only ${money(left)} of retention is held on this contract; ${money(asked)} cannot be released`);
    }
    const lines = input.lines.map((l) => ({
      ...l,
      qty: "1",
      unit_price: String(l.contract_amount ?? "0"),
      cumulative_percent: "0",
      prev_percent: "0",
      prev_amount: "0",
      contract_qty: null,
      cumulative_qty: null,
      prev_qty: null,
      is_variation: false,
      prev_line_id: null,
    }));
    return { header, lines };
  }
  // The contract's terms are the first claim's, carried by every later one.
  if (prev) {
    header.retention_percent = prev.header.retention_percent;
    header.retention_cap_percent = prev.header.retention_cap_percent;
    header.response_days = prev.header.response_days ?? null;
    header.payment_days = prev.header.payment_days ?? null;
  } else {
    header.retention_percent = text(header.retention_percent) ?? DEFAULT_RETENTION_PERCENT;
    header.retention_cap_percent = text(header.retention_cap_percent) ?? DEFAULT_RETENTION_CAP_PERCENT;
  }
  const contract = new Map((await contractLines(tx, ws, input.contractId)).map((l) => [Number(l.id), l]));
  const prevLines = new Map((prev?.lines ?? []).map((l) => [Number(l.id), l]));
  const prevBySource = new Map(
    (prev?.lines ?? []).filter((l) => l.source_line_id != null).map((l) => [Number(l.source_line_id), l]),
  );
  const continued = new Set<number>();
  const lines = input.lines.map((l, i) => {
    const n = i + 1;
    let before: Row | undefined;
    if (given(l.prev_line_id)) {
      before = prevLines.get(Number(l.prev_line_id));
      if (!before)
        throw invalid(`Line ${n} continues a line that is not on the previous claim`, `lines.${i}.prev_line_id`);
    } else if (given(l.source_line_id)) {
      before = prevBySource.get(Number(l.source_line_id));
    }
    if (before) {
      if (continued.has(Number(before.id))) {
        throw invalid(`Line ${n} continues a line another line already continues`, `lines.${i}`);
      }
      continued.add(Number(before.id));
    }
    const source = given(l.source_line_id) ? contract.get(Number(l.source_line_id)) : undefined;
    if (given(l.source_line_id) && !source) {
      throw invalid(`Line ${n} is not a line of this contract`, `lines.${i}.source_line_id`);
    }
    // A contract line is worth what the contract says; a variation what the clerk agreed, fixed once claimed.
    let amount = source ? String(source.net_amount) : text(l.contract_amount);
    if (before && !source) {
      const was = String(before.contract_amount);
      if (given(l.contract_amount) && !dec(String(l.contract_amount)).equals(dec(was))) {
        throw invalid(
          `Line ${n}: the contract amount of a variation claimed before cannot change (it is ${money(was)})`,
          `lines.${i}.contract_amount`,
        );
      }
      amount = was;
    }
    if (amount == null) throw invalid(`Give the contract amount of line ${n}`, `lines.${i}.contract_amount`);
    // Likewise its quantity: the contract line's, or the variation's as first claimed.
    let contractQty = source ? text(source.qty) : text(l.contract_qty);
    if (before && !source && given(before.contract_qty)) {
      if (given(l.contract_qty) && !dec(String(l.contract_qty)).equals(dec(String(before.contract_qty)))) {
        throw invalid(
          `Line ${n}: the contract quantity of a variation claimed before cannot change (it is ${dec(String(before.contract_qty)).toFixed()})`,
          `lines.${i}.contract_qty`,
        );
      }
      contractQty = String(before.contract_qty);
    }
    // Measured when a quantity is given; a percentage alone switches the line to percentages; neither: as before.
    const cumulativeQty = given(l.cumulative_qty)
      ? String(l.cumulative_qty)
      : given(l.cumulative_percent)
        ? null
        : (text(before?.cumulative_qty) ?? null);
    return {
      ...l,
      ...(source
        ? {
            product_id: source.product_id ?? null,
            service_id: source.service_id ?? null,
            tax_code: source.tax_code,
            description: given(l.description) ? l.description : source.description,
          }
        : {}),
      ...contractRate(amount, contractQty),
      contract_amount: amount,
      cumulative_percent: text(l.cumulative_percent) ?? (before ? String(before.cumulative_percent) : "0"),
      prev_percent: before ? String(before.cumulative_percent) : "0",
      prev_amount: before ? String(before.amount_to_date) : "0",
      contract_qty: contractQty,
      cumulative_qty: cumulativeQty,
      prev_qty: text(before?.cumulative_qty),
      amount_to_date: null, // priceClaim's; present here so a draft's save writes it too
      is_variation: !source,
      prev_line_id: before ? Number(before.id) : null,
    };
  });
  const missing = (prev?.lines ?? []).find((l) => !continued.has(Number(l.id)));
  if (missing && prev) {
    throw invalid(
      `Line ${missing.line_no} of ${prev.header.number} (${missing.description}) is missing: a claim carries every line of the one before`,
      "lines",
    );
  }
  return { header, lines };
}

// What a release claim of the contract dated `on` releases — the stage asked, else the practical-completion share
// until it is released, then the rest — or the refusal (409) naming what is missing: the project, its date, or
// retention left to release. Convert and claim_release_check both ask here, so the button says what convert would.
export async function releaseOf(
  tx: Tx,
  ws: string,
  contract: { id: number; number: string; project_id: unknown },
  on: string,
  asked?: ReleaseStage,
): Promise<{ stage: ReleaseStage; amount: string; share: string }> {
  const held = await retentionOf(tx, ws, contract.id, null);
  const stage: ReleaseStage = asked ?? (dec(held.released_at_completion).isZero() ? "practical_completion" : "final");
  await checkReleaseStage(tx, ws, { project_id: contract.project_id, doc_date: on }, stage);
  const project = await projectOf(tx, ws, contract.project_id);
  const share = project?.retention_release_percent ?? "50";
  const amount = releasable(stage, {
    retained: held.retained,
    released: stage === "practical_completion" ? held.released_at_completion : held.released,
    share_percent: share,
  });
  if (!dec(amount).greaterThan(0)) {
    throw conflict(
      dec(held.retained).isZero()
        ? `No retention is held on ${contract.number}: nothing can be released`
        : `The retention of ${contract.number} due ${stage === "final" ? "at the end of the defects liability period" : "at practical completion"} is released already`,
    );
  }
  return { stage, amount, share };
}

// document_convert sales_order → progressive_claim: the previous claim's lines to date (or the contract's at 0%),
// or, for header.kind "release", one line releasing what the stage allows.
export const prepareClaimConvert: PrepareConvert = async (tx, caller, source, draft) => {
  const ws = caller.workspaceId as string;
  const contractId = Number(source.doc.header.id);
  const kind: ClaimKind = draft.header.kind === "release" ? "release" : "progress";
  const header: Row = { ...draft.header, kind, doc_date: await today(tx) };
  if (kind === "release") {
    const { stage, amount, share } = await releaseOf(
      tx,
      ws,
      { id: contractId, number: String(source.doc.header.number), project_id: header.project_id },
      String(header.doc_date),
      draft.header.release_stage as ReleaseStage | undefined,
    );
    const taxCode = String(source.doc.lines[0]?.tax_code ?? "SR");
    return shapeClaim(tx, ws, {
      id: null,
      contractId,
      kind,
      header: { ...header, release_stage: stage },
      lines: [{ description: stageWords(stage, share), contract_amount: amount, tax_code: taxCode }],
    });
  }
  const prev = await previousClaim(tx, ws, contractId, null);
  // What a claim line carries of the line it starts from (the previous claim's, or the contract's).
  const item = (l: Row): Row => ({
    product_id: l.product_id ?? null,
    service_id: l.service_id ?? null,
    sku: l.sku ?? null,
    description: l.description,
    unit: l.unit ?? null,
    tax_code: l.tax_code,
  });
  const lines: Row[] = prev
    ? prev.lines.map((l) => ({
        ...item(l),
        contract_amount: l.contract_amount,
        contract_qty: l.contract_qty ?? null,
        ...(given(l.cumulative_qty)
          ? { cumulative_qty: l.cumulative_qty }
          : { cumulative_percent: l.cumulative_percent }),
        source_line_id: l.source_line_id ?? null,
        prev_line_id: Number(l.id),
      }))
    : (await contractLines(tx, ws, contractId)).map((l) => ({
        ...item(l),
        source_line_id: Number(l.id),
        cumulative_percent: "0",
      }));
  return shapeClaim(tx, ws, { id: null, contractId, kind, header: { ...header, release_stage: null }, lines });
};

// document_save of a claim: only a draft made from its contract; its kind and contract stay what they were.
export const prepareClaimSave: PrepareSave = async (tx, caller, _spec, draft) => {
  const ws = caller.workspaceId as string;
  if (draft.id == null) {
    throw invalid(
      "A progressive claim is made from its contract: open the submitted sales order and choose Make progressive claim",
      "source_id",
    );
  }
  const stored = await storedFacts(tx, ws, draft.id);
  const kind = (stored.kind ?? "progress") as ClaimKind;
  // Terms not sent are the draft's own.
  const terms = ["retention_percent", "retention_cap_percent", "response_days", "payment_days"];
  const kept = Object.fromEntries(
    terms.filter((k) => draft.header[k] === undefined).map((k) => [k, stored[k] ?? null]),
  );
  const header: Row = {
    ...draft.header,
    ...kept,
    kind,
    release_stage: stored.release_stage ?? null,
    project_id: stored.project_id ?? draft.header.project_id ?? null,
  };
  return shapeClaim(tx, ws, { id: draft.id, contractId: Number(stored.source_id), kind, header, lines: draft.lines });
};

// The figures (claimFigures) written on the header and lines; GST on the claim less its retention.
export const priceClaim: PriceDraft = (header, lines) => {
  try {
    const figures = claimFigures({
      kind: header.kind === "release" ? "release" : "progress",
      retention_percent: String(header.retention_percent ?? DEFAULT_RETENTION_PERCENT),
      retention_cap_percent: String(header.retention_cap_percent ?? DEFAULT_RETENTION_CAP_PERCENT),
      previous: {
        gross_to_date: String(header.previous_gross ?? "0"),
        retention_to_date: String(header.previous_retention ?? "0"),
      },
      lines: lines.map((l) => ({
        description: text(l.description),
        unit: text(l.unit),
        contract_amount: String(l.contract_amount ?? "0"),
        cumulative_percent: String(l.cumulative_percent ?? "0"),
        prev_percent: text(l.prev_percent),
        prev_amount: text(l.prev_amount),
        contract_qty: text(l.contract_qty),
        cumulative_qty: text(l.cumulative_qty),
        prev_qty: text(l.prev_qty),
        tax_code: text(l.tax_code) ?? "SR",
      })),
    });
    const rate = given(header.rate) ? String(header.rate) : "1";
    return {
      header: {
        ...header,
        rate,
        discount_percent: null,
        discount_amount: "0.00",
        contract_sum: header.kind === "release" ? String(header.contract_sum ?? "0") : figures.contract_sum,
        gross_to_date: figures.gross_to_date,
        previous_gross: figures.previous_gross,
        this_claim_gross: figures.this_claim_gross,
        retention_cap: figures.retention_cap,
        retention_to_date: figures.retention_to_date,
        previous_retention: figures.previous_retention,
        retention_this_claim: figures.retention_this_claim,
        subtotal: figures.subtotal,
        net_total: figures.subtotal,
        tax_total: figures.tax_total,
        total: figures.total,
        base_total: toBase(figures.total, rate),
      },
      lines: lines.map((l, i) => ({
        ...l,
        ...(header.kind === "release"
          ? { qty: "1", unit_price: String(l.contract_amount ?? "0") }
          : contractRate(l.contract_amount, l.contract_qty)),
        discount_percent: "0",
        tax_code: figures.tax_code,
        cumulative_percent: figures.lines[i].cumulative_percent,
        amount_to_date: figures.lines[i].amount_to_date,
        line_total: figures.lines[i].line_total,
        net_amount: figures.lines[i].line_total,
      })),
    };
  } catch (err) {
    if (err instanceof DocumentError) throw invalid(err.message);
    throw err;
  }
};
