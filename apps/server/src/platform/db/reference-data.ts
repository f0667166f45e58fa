import { CHANNELS, SYSTEM_ROLES, TIERS } from "@workmetrics/domain";
import { channel, role, tier } from "@workmetrics/domain/db/schema";
import { sql } from "drizzle-orm";
import { seedChartOfAccounts } from "./chart-of-accounts.ts";
import type { Db } from "./database.ts";

// A row already as declared is left alone: no new row version nor row lock at every start (issue 20 §3).
const changed = (t: typeof role | typeof channel) =>
  sql`(${t.slug}, ${t.title}) is distinct from (excluded.slug, excluded.title)`;

// Spec §3, §6, §9: reference rows with their fixed ids, brought up to date on every start; and every workspace's
// chart of accounts gets the accounts it lacks (issue 10 §2).
export async function upsertReferenceData(db: Db): Promise<void> {
  await db.transaction(async (tx) => {
    for (const t of TIERS) {
      const row = {
        id: t.id,
        slug: t.slug,
        title: t.title,
        monthlyPrice: t.monthlyPrice,
        yearlyPrice: t.yearlyPrice,
        minUsers: t.minUsers,
        maxUsers: t.maxUsers,
        features: t.features,
        storageQuotaMb: t.storageQuotaMb,
      };
      // Prices are set by the platform operator once they exist; only create them here.
      await tx.insert(tier).values(row).onConflictDoNothing();
    }
    for (const r of SYSTEM_ROLES) {
      await tx
        .insert(role)
        .values(r)
        .onConflictDoUpdate({ target: role.id, set: { slug: r.slug, title: r.title }, setWhere: changed(role) });
    }
    for (const c of CHANNELS) {
      await tx
        .insert(channel)
        .values({ ...c })
        .onConflictDoUpdate({ target: channel.id, set: { slug: c.slug, title: c.title }, setWhere: changed(channel) });
    }
    await seedChartOfAccounts(tx);
  });
}
