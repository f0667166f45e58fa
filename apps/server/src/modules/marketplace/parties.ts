import { sql } from "drizzle-orm";
import type { Tx } from "../../platform/db/database.ts";
import { asWorkspace } from "../../platform/documents/as-workspace.ts";
import type { Caller } from "../../platform/rest/access.ts";
import { RestError } from "../../platform/rest/rest-error.ts";

// Issue 23: what the marketplace's commands need of the other party. Every look or write in the other workspace goes
// through asWorkspace (platform/documents/as-workspace.ts, issue 20): the one audited path that re-scopes the
// request's transaction to another workspace and back.

export const fail = (status: number, message: string, field?: string) =>
  new RestError(
    status,
    status === 422 ? "validation_failed" : status === 403 ? "42501" : status === 409 ? "conflict" : "PGRST116",
    message,
    field ? [{ field, message }] : null,
  );

export const wsOf = (caller: Caller): string => caller.workspaceId as string;

// Whether a workspace's tier includes the marketplace (read in that workspace: a workspace row is its own).
export async function hasMarketplace(tx: Tx, caller: Caller, workspaceId: string): Promise<boolean> {
  return asWorkspace(tx, workspaceId, caller, async () => {
    const res = await tx.execute(sql`select 'marketplace' = any(t.features) as ok, w.suspended_at is null as live
      from workspace w join tier t on t.id = w.tier_id where w.id = ${workspaceId}::uuid`);
    const row = res.rows[0] as { ok: boolean; live: boolean } | undefined;
    return Boolean(row?.ok && row.live);
  });
}

// The name a party shows the other: its published seller profile's, else its workspace's.
export async function partyName(tx: Tx, workspaceId: string): Promise<{ name: string; uen: string | null }> {
  const res = await tx.execute(sql`select coalesce(
      (select a.display_name from marketplace_account a where a.workspace_id = w.id), w.name) as name, w.uen
    from workspace w where w.id = ${workspaceId}::uuid`);
  const row = res.rows[0] as { name: string; uen: string | null } | undefined;
  if (!row) throw fail(404, "This workspace is not found");
  return row;
}

// A change both parties' realtime feeds announce (DESIGN §2.3.2): one document_event row in each workspace, so the
// members of each who read the row receive it (realtime reads it as them, through /rest/v1's rule).
export async function announce(
  tx: Tx,
  caller: Caller,
  other: string,
  type: string,
  id: number,
  action: string,
  status: string | null,
  changes: Record<string, unknown> | null = null,
): Promise<void> {
  const row = (ws: string) => sql`insert into document_event
      (workspace_id, doc_type, doc_id, action, to_status, user_id, changes)
    values (${ws}::uuid, ${type}, ${id}, ${action}, ${status}, ${caller.userId}::uuid,
      ${changes ? JSON.stringify(changes) : null}::jsonb)`;
  await tx.execute(row(wsOf(caller)));
  await asWorkspace(tx, other, caller, async () => {
    await tx.execute(row(other));
  });
}

// The company standing for the other party in a workspace's own books (made once, found by the marketplace's note
// in its `notes`… kept simple: by name), as a customer or a supplier.
export async function companyFor(
  tx: Tx,
  ws: string,
  name: string,
  uen: string | null,
  as: "customer" | "supplier",
): Promise<number> {
  const flag = as === "customer" ? sql`is_customer` : sql`is_supplier`;
  const found = await tx.execute(sql`select id from company where workspace_id = ${ws}::uuid and name = ${name}
    order by ${flag} desc, id limit 1`);
  const row = found.rows[0] as { id: number } | undefined;
  if (row) {
    await tx.execute(sql`update company set ${flag} = true where workspace_id = ${ws}::uuid and id = ${row.id}
      and not ${flag}`);
    return Number(row.id);
  }
  const made = await tx.execute(sql`insert into company (workspace_id, name, uen, is_customer, is_supplier)
    values (${ws}::uuid, ${name}, ${uen}, ${as === "customer"}, ${as === "supplier"}) returning id`);
  return Number((made.rows[0] as { id: number }).id);
}
