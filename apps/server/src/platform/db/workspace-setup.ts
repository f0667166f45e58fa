import { DEFAULT_BUCKET, DEFAULT_COMPANY, DEFAULT_ROLE_PERMISSIONS, SYSTEM_ROLES } from "@workmetrics/domain";
import { company, storageBucket, workspaceRole } from "@workmetrics/domain/db/schema";
import { seedChartOfAccounts } from "./chart-of-accounts.ts";
import type { Tx } from "./database.ts";

// What every new workspace starts with: one editable role per system role, the default company (spec §3), the
// bucket "My files" uses (members who may upload need not also be allowed to create buckets) and the chart of
// accounts (issue 10 §2).
// Returns the workspace role id for each system role id.
export async function setUpWorkspace(tx: Tx, workspaceId: string): Promise<Map<number, number>> {
  const rows = await tx
    .insert(workspaceRole)
    .values(
      SYSTEM_ROLES.map((r) => ({
        workspaceId,
        slug: r.slug,
        title: r.title,
        baseRoleId: r.id,
        isSystem: true,
        permissions: [...(DEFAULT_ROLE_PERMISSIONS[r.id] ?? [])],
      })),
    )
    .returning({ id: workspaceRole.id, baseRoleId: workspaceRole.baseRoleId });
  await tx.insert(company).values({ workspaceId, id: DEFAULT_COMPANY.id, name: DEFAULT_COMPANY.title });
  await tx.insert(storageBucket).values({ workspaceId, name: DEFAULT_BUCKET });
  await seedChartOfAccounts(tx, workspaceId);
  return new Map(rows.map((r) => [r.baseRoleId, r.id]));
}
