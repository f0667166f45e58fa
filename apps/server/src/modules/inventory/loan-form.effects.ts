import { costTotal, LOAN_OUT_RULE, LOAN_RETURN_RULE } from "@workmetrics/domain/documents/postings";
import { sql } from "drizzle-orm";
import type { Tx } from "../../platform/db/database.ts";
import { postJournal, reverseJournals } from "../../platform/documents/ledger.ts";
import { invalid } from "../../platform/documents/refusals.ts";
import type { Effect } from "../../platform/documents/registry.ts";
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
const homeOf = (line: Row, header: Row) => Number(line.location_id ?? header.location_id);

async function backFromLoan(
  tx: Tx,
  caller: Caller,
  by: { type: string; id: number; number: string | null },
  loanId: number,
  header: Row,
  lines: ReadonlyArray<{ loanLine: Row; qty: string; docLineId: number }>,
  verb: string,
): Promise<void> {
  const ws = caller.workspaceId as string;
  const onLoan = await systemLocationId(tx, ws, "on_loan");
  const cost = await outCosts(tx, ws, { type: LOAN, id: loanId }, onLoan);
  const back: StockMove[] = [];
  const moves: StockMove[] = lines.flatMap(({ loanLine, qty, docLineId }) => {
    const base = {
      product_id: Number(loanLine.product_id),
      unit_cost: cost.get(Number(loanLine.id)) ?? "0",
      doc_line_id: docLineId,
    };
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
  await refuseSystemLocations(
    tx,
    ws,
    [
      { id: doc.header.location_id, field: "location_id" },
      ...doc.lines.map((l, i) => ({ id: l.location_id, field: `lines.${i}.location_id` })),
    ],
    "lent from",
  );
  const onLoan = await systemLocationId(tx, ws, "on_loan");
  const cost = await productCosts(
    tx,
    ws,
    doc.lines.map((l) => l.product_id),
  );
  const out: StockMove[] = [];
  const moves: StockMove[] = doc.lines.flatMap((l) => {
    const base = {
      product_id: Number(l.product_id),
      unit_cost: cost.get(Number(l.product_id)) ?? "0",
      doc_line_id: Number(l.id),
    };
    const lent = { ...base, location_id: onLoan, qty: String(l.qty) };
    out.push(lent);
    return [{ ...base, location_id: homeOf(l, doc.header), qty: `-${l.qty}` }, lent];
  });
  const ref = { type: spec.machine.type, id: Number(doc.header.id) };
  await writeStockMoves(tx, caller, ref, moves, "lend");
  await postJournal(tx, caller, { ...ref, number: step.number, date: String(doc.header.doc_date) }, LOAN_OUT_RULE, {
    cost_total: costTotal(out),
  });
};

const giveBack: Effect = async (tx, caller, spec, doc, step) => {
  const given = step.quantities?.qty_returned ?? {};
  const lines = doc.lines
    .filter((l) => given[String(l.id)])
    .map((l) => ({ loanLine: l, qty: given[String(l.id)], docLineId: Number(l.id) }));
  const id = Number(doc.header.id);
  const by = { type: spec.machine.type, id, number: (doc.header.number as string | null) ?? null };
  await backFromLoan(tx, caller, by, id, doc.header, lines, "take back");
};

const cancel: Effect = async (tx, caller, spec, doc, step) => {
  if (step.from === spec.machine.initial) return;
  const ref = { type: spec.machine.type, id: Number(doc.header.id) };
  await reverseStockMoves(tx, caller, ref);
  await reverseJournals(tx, caller, {
    ...ref,
    number: (doc.header.number as string | null) ?? null,
    date: await today(tx),
  });
};

export const LOAN_FORM_EFFECTS = { submit, return: giveBack, cancel };

// A sales order made from a loan: on submit its lines' goods come back from on-loan into the loan's locations, so
// its deliveries take them out like any stock.
export const soldFromLoan: Effect = async (tx, caller, spec, doc, step) => {
  if (doc.header.source_type !== LOAN || doc.header.source_id == null) return;
  const ws = caller.workspaceId as string;
  const loanId = Number(doc.header.source_id);
  const loan = await tx.execute(
    sql`select id, location_id from loan_form where workspace_id = ${ws}::uuid and id = ${loanId}`,
  );
  const header = loan.rows[0] as Row | undefined;
  if (!header) throw invalid(`The loan form this sales order was made from is not in this workspace`);
  const loanLines = new Map(
    (
      await tx.execute(sql`select id, product_id, location_id from loan_form_line
      where workspace_id = ${ws}::uuid and loan_form_id = ${loanId}`)
    ).rows.map((r) => [Number((r as Row).id), r as Row]),
  );
  const lines = doc.lines
    .filter((l) => l.product_id != null && l.source_line_id != null && loanLines.has(Number(l.source_line_id)))
    .map((l) => ({
      loanLine: loanLines.get(Number(l.source_line_id)) as Row,
      qty: String(l.qty),
      docLineId: Number(l.id),
    }));
  const by = {
    type: spec.machine.type,
    id: Number(doc.header.id),
    number: step.number ?? (doc.header.number as string | null) ?? null,
  };
  await backFromLoan(tx, caller, by, loanId, header, lines, "sell from the loan");
};

// Cancelling that sales order sends the goods back on loan (and reverses its entry); a draft moved nothing.
export const unsoldFromLoan: Effect = async (tx, caller, spec, doc, step) => {
  if (doc.header.source_type !== LOAN || step.from === spec.machine.initial) return;
  const ref = { type: spec.machine.type, id: Number(doc.header.id) };
  await reverseStockMoves(tx, caller, ref);
  await reverseJournals(tx, caller, {
    ...ref,
    number: (doc.header.number as string | null) ?? null,
    date: await today(tx),
  });
};
