import { loanForm, loanFormLine } from "@workmetrics/domain/db/inventory-schema";
import { salesOrder, salesOrderLine } from "@workmetrics/domain/db/selling-schema";
import { costTotal, LOAN_OUT_RULE, LOAN_RETURN_RULE } from "@workmetrics/domain/documents/postings";
import { and, eq } from "drizzle-orm";
import type { Tx } from "../../platform/db/database.ts";
import { postJournal, reverseJournals } from "../../platform/documents/ledger.ts";
import { invalid } from "../../platform/documents/refusals.ts";
import type { Effect } from "../../platform/documents/registry.ts";
import { type RowOf, rowOf, rowsOf } from "../../platform/documents/rows.ts";
import { reverseStockMoves, type StockMove, writeStockMoves } from "../../platform/documents/stock.ts";
import { type Row, today } from "../../platform/documents/store.ts";
import type { Caller } from "../../platform/rest/access.ts";
import { outCosts, productCosts, refuseSystemLocations, systemLocationId } from "./system-locations.ts";

// Issue 11: what a loan form does besides its status. Lend (submit) moves each line from its location (or the
// header's) into the workspace's on-loan location at the product's cost: Dr 1220 Goods on Loan / Cr 1200. Return
// (the engine has added the quantities to qty_returned, each at most what is still out) moves them back at the
// cost they left at: Dr 1200 / Cr 1220. Cancel, while nothing has come back or been sold, reverses the loan.
// What the customer keeps is sold through a sales order made from the loan (document_convert, drawing qty_sold):
// submitting that order brings the kept goods back from on-loan into the loan's location (Dr 1200 / Cr 1220), where
// the order's delivery takes them out as any sale; cancelling the order sends them back on loan.

const LOAN = "loan_form";

// What the stock moves read of a loan and its lines.
type LoanHeader = Pick<RowOf<typeof loanForm>, "id" | "location_id">;
type LoanLine = Pick<RowOf<typeof loanFormLine>, "id" | "location_id"> & { product_id: number };

const homeOf = (line: LoanLine, header: LoanHeader) => line.location_id ?? header.location_id;

// The lines as lent: the submit's guard refuses a line without a product, so every line here has one.
function lent(rows: readonly Row[]): Array<RowOf<typeof loanFormLine> & { product_id: number }> {
  return rowsOf(loanFormLine, rows).map((l, i) => {
    if (l.product_id == null) throw invalid("Every line of a loan form lends a product", `lines.${i}.product_id`);
    return { ...l, product_id: l.product_id };
  });
}

async function backFromLoan(
  tx: Tx,
  caller: Caller,
  by: { type: string; id: number; number: string | null },
  header: LoanHeader,
  lines: ReadonlyArray<{ loanLine: LoanLine; qty: string; docLineId: number }>,
  verb: string,
): Promise<void> {
  const ws = caller.workspaceId as string;
  const onLoan = await systemLocationId(tx, ws, "on_loan");
  const cost = await outCosts(tx, ws, { type: LOAN, id: header.id }, onLoan);
  const back: StockMove[] = [];
  const moves: StockMove[] = lines.flatMap(({ loanLine, qty, docLineId }) => {
    const base = { product_id: loanLine.product_id, unit_cost: cost.get(loanLine.id) ?? "0", doc_line_id: docLineId };
    const home = { ...base, location_id: homeOf(loanLine, header), qty };
    back.push(home);
    return [{ ...base, location_id: onLoan, qty: `-${qty}` }, home];
  });
  if (moves.length === 0) return;
  await writeStockMoves(tx, caller, by, moves, verb);
  await postJournal(tx, caller, { ...by, date: await today(tx) }, LOAN_RETURN_RULE, { cost_total: costTotal(back) });
}

const submit: Effect = async (tx, caller, spec, doc, step) => {
  const ws = caller.workspaceId as string;
  const header = rowOf(loanForm, doc.header);
  const lines = lent(doc.lines);
  await refuseSystemLocations(
    tx,
    ws,
    [
      { id: header.location_id, field: "location_id" },
      ...lines.map((l, i) => ({ id: l.location_id, field: `lines.${i}.location_id` })),
    ],
    "lent from",
  );
  const onLoan = await systemLocationId(tx, ws, "on_loan");
  const cost = await productCosts(
    tx,
    ws,
    lines.map((l) => l.product_id),
  );
  const out: StockMove[] = [];
  const moves: StockMove[] = lines.flatMap((l) => {
    const base = { product_id: l.product_id, unit_cost: cost.get(l.product_id) ?? "0", doc_line_id: l.id };
    const away = { ...base, location_id: onLoan, qty: l.qty };
    out.push(away);
    return [{ ...base, location_id: homeOf(l, header), qty: `-${l.qty}` }, away];
  });
  const ref = { type: spec.machine.type, id: header.id };
  await writeStockMoves(tx, caller, ref, moves, "lend");
  await postJournal(tx, caller, { ...ref, number: step.number, date: header.doc_date }, LOAN_OUT_RULE, {
    cost_total: costTotal(out),
  });
};

const giveBack: Effect = async (tx, caller, spec, doc, step) => {
  const given = step.quantities?.qty_returned ?? {};
  const header = rowOf(loanForm, doc.header);
  const lines = lent(doc.lines)
    .filter((l) => given[l.id])
    .map((l) => ({ loanLine: l, qty: given[l.id], docLineId: l.id }));
  const by = { type: spec.machine.type, id: header.id, number: header.number };
  await backFromLoan(tx, caller, by, header, lines, "take back");
};

const cancel: Effect = async (tx, caller, spec, doc, step) => {
  if (step.from === spec.machine.initial) return;
  const header = rowOf(loanForm, doc.header);
  const ref = { type: spec.machine.type, id: header.id };
  await reverseStockMoves(tx, caller, ref);
  await reverseJournals(tx, caller, { ...ref, number: header.number, date: await today(tx) });
};

export const LOAN_FORM_EFFECTS = { submit, return: giveBack, cancel };

// A sales order made from a loan: on submit its lines' goods come back from on-loan into the loan's locations, so
// its deliveries take them out like any stock.
export const soldFromLoan: Effect = async (tx, caller, spec, doc, step) => {
  const order = rowOf(salesOrder, doc.header);
  if (order.source_type !== LOAN || order.source_id == null) return;
  const ws = caller.workspaceId as string;
  const loanId = order.source_id;
  const [header] = await tx
    .select({ id: loanForm.id, location_id: loanForm.locationId })
    .from(loanForm)
    .where(and(eq(loanForm.workspaceId, ws), eq(loanForm.id, loanId)));
  if (!header) throw invalid(`The loan form this sales order was made from is not in this workspace`);
  const loanLines = new Map<number, LoanLine>();
  const rows = await tx
    .select({ id: loanFormLine.id, product_id: loanFormLine.productId, location_id: loanFormLine.locationId })
    .from(loanFormLine)
    .where(and(eq(loanFormLine.workspaceId, ws), eq(loanFormLine.loanFormId, loanId)));
  // A loan's lines all lend a product (its submit's guard).
  for (const r of rows) if (r.product_id != null) loanLines.set(r.id, { ...r, product_id: r.product_id });
  const lines = rowsOf(salesOrderLine, doc.lines).flatMap((l) => {
    const loanLine = l.source_line_id == null ? undefined : loanLines.get(l.source_line_id);
    return l.product_id != null && loanLine ? [{ loanLine, qty: l.qty, docLineId: l.id }] : [];
  });
  const by = { type: spec.machine.type, id: order.id, number: step.number ?? order.number };
  await backFromLoan(tx, caller, by, header, lines, "sell from the loan");
};

// Cancelling that sales order sends the goods back on loan (and reverses its entry); a draft moved nothing.
export const unsoldFromLoan: Effect = async (tx, caller, spec, doc, step) => {
  const order = rowOf(salesOrder, doc.header);
  if (order.source_type !== LOAN || step.from === spec.machine.initial) return;
  const ref = { type: spec.machine.type, id: order.id };
  await reverseStockMoves(tx, caller, ref);
  await reverseJournals(tx, caller, { ...ref, number: order.number, date: await today(tx) });
};
