import { CHART_OF_ACCOUNTS } from "@workmetrics/domain/documents/postings";
import { sql } from "drizzle-orm";
import type { Tx } from "./database.ts";

// Issue 10 §2: every workspace's chart of accounts starts as the Singapore SMB set (DOCUMENTS.md §2). A new workspace
// gets it when it is set up; at every start each workspace gets the accounts it lacks, so a code added to
// CHART_OF_ACCOUNTS reaches existing workspaces too. Accounts a finance role renamed are left as they are.
export async function seedChartOfAccounts(tx: Tx, workspaceId: string | null = null): Promise<void> {
  const chart = JSON.stringify(CHART_OF_ACCOUNTS.map((a) => ({ ...a, contra: a.contra ?? false })));
  await tx.execute(sql`
    insert into account (workspace_id, code, name, type, root, contra)
    select w.id, c.code, c.name, c.type, c.root, c.contra
    from workspace w
    cross join json_to_recordset(${chart}::json) as c(code text, name text, type text, root text, contra boolean)
    where ${workspaceId}::uuid is null or w.id = ${workspaceId}::uuid
    on conflict (workspace_id, code) do nothing`);
}
