import { sql } from "drizzle-orm";
import type { Tx } from "../../platform/db/database.ts";
import type { Row } from "../../platform/documents/store.ts";

// What a claim reads of its contract (the sales order it is made from) and of the claims before it: the latest
// submitted progress claim (the chain is linear — each submitted claim names the one before it, and an earlier one
// cannot be cancelled while a later one stands), what retention the contract's claims held and released, and the
// project's completion dates. Every statement names the workspace (first wall) under RLS (second).

// A claim counts once it has left draft, until it is cancelled.
const COUNTED = sql`status not in ('draft', 'cancelled')`;

export type PreviousClaim = { header: Row; lines: Row[] } | null;

// The latest submitted progress claim of the contract, other than `except` (the claim being saved or submitted).
export async function previousClaim(
  tx: Tx,
  ws: string,
  contractId: number,
  except: number | null,
): Promise<PreviousClaim> {
  const res = await tx.execute(sql`select c.id, c.number, c.retention_percent::text as retention_percent,
      c.retention_cap_percent::text as retention_cap_percent, c.response_days, c.payment_days,
      c.gross_to_date::text as gross_to_date, c.retention_to_date::text as retention_to_date,
      c.contract_sum::text as contract_sum
    from progressive_claim c
    where c.workspace_id = ${ws}::uuid and c.source_type = 'sales_order' and c.source_id = ${contractId}
      and c.kind = 'progress' and c.status not in ('draft', 'cancelled') and c.id <> ${except ?? 0}
      and not exists (select 1 from progressive_claim n where n.workspace_id = c.workspace_id
        and n.previous_claim_id = c.id and n.kind = 'progress' and n.status not in ('draft', 'cancelled')
        and n.id <> ${except ?? 0})
    order by c.id desc limit 1`);
  const header = res.rows[0] as Row | undefined;
  if (!header) return null;
  const lines = await tx.execute(sql`select id, line_no, product_id, service_id, sku, description, unit, tax_code,
      contract_amount::text as contract_amount, cumulative_percent::text as cumulative_percent,
      amount_to_date::text as amount_to_date, contract_qty::text as contract_qty,
      cumulative_qty::text as cumulative_qty, is_variation, source_line_id
    from progressive_claim_line where workspace_id = ${ws}::uuid and progressive_claim_id = ${Number(header.id)}
    order by line_no`);
  return { header, lines: lines.rows as Row[] };
}

// Retention held by the contract's submitted progress claims and released by its submitted release claims.
export async function retentionOf(
  tx: Tx,
  ws: string,
  contractId: number,
  except: number | null,
): Promise<{ retained: string; released: string; released_at_completion: string }> {
  const res = await tx.execute(sql`select
      coalesce(sum(retention_this_claim) filter (where kind = 'progress'), 0)::text as retained,
      coalesce(-sum(retention_this_claim) filter (where kind = 'release'), 0)::text as released,
      coalesce(-sum(retention_this_claim) filter (where kind = 'release' and release_stage = 'practical_completion'),
        0)::text as released_at_completion
    from progressive_claim where workspace_id = ${ws}::uuid and source_type = 'sales_order'
      and source_id = ${contractId} and ${COUNTED} and id <> ${except ?? 0}`);
  return res.rows[0] as { retained: string; released: string; released_at_completion: string };
}

export type ContractProject = {
  id: number;
  code: string;
  name: string;
  practical_completion_date: string | null;
  defects_liability_end_date: string | null;
  retention_release_percent: string;
};

export async function projectOf(tx: Tx, ws: string, projectId: unknown): Promise<ContractProject | null> {
  if (projectId == null) return null;
  const res = await tx.execute(sql`select id, code, name, practical_completion_date::text as practical_completion_date,
      defects_liability_end_date::text as defects_liability_end_date,
      retention_release_percent::text as retention_release_percent
    from project where workspace_id = ${ws}::uuid and id = ${Number(projectId)}`);
  return (res.rows[0] as ContractProject | undefined) ?? null;
}

// The contract's lines: what each is worth after its discounts (the sales order's net amount), and its quantity.
export async function contractLines(tx: Tx, ws: string, contractId: number): Promise<Row[]> {
  const res = await tx.execute(sql`select id, line_no, product_id, service_id, sku, description, unit, tax_code,
      net_amount::text as net_amount, qty::text as qty
    from sales_order_line where workspace_id = ${ws}::uuid and sales_order_id = ${contractId} order by line_no`);
  return res.rows as Row[];
}

// A submitted claim of the contract made after this one (naming it as its previous), if any.
export async function laterClaim(tx: Tx, ws: string, claimId: number): Promise<string | null> {
  const res = await tx.execute(sql`select number from progressive_claim where workspace_id = ${ws}::uuid
      and previous_claim_id = ${claimId} and ${COUNTED} order by id limit 1`);
  return ((res.rows[0] as { number: string } | undefined)?.number as string | undefined) ?? null;
}

// A submitted release claim of the contract, if any (it releases what the progress claims held).
export async function releaseClaim(tx: Tx, ws: string, contractId: number): Promise<string | null> {
  const res = await tx.execute(sql`select number from progressive_claim where workspace_id = ${ws}::uuid
      and source_type = 'sales_order' and source_id = ${contractId} and kind = 'release' and ${COUNTED}
    order by id limit 1`);
  return ((res.rows[0] as { number: string } | undefined)?.number as string | undefined) ?? null;
}
