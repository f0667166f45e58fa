import { authOneTimeToken, authUser, user, workspace } from "@workmetrics/domain/db/schema";
import { and, eq, isNotNull, lt, sql } from "drizzle-orm";
import { randomToken, sha256 } from "../../platform/auth/crypto.ts";
import { hashPassword } from "../../platform/auth/password.ts";
import type { Db, Tx } from "../../platform/db/database.ts";
import { DEMO_WORKSPACE, seedWorkspace } from "../../platform/db/demo-seed.ts";
import type { FileStore } from "../../platform/storage/disk.ts";

// Issue 21 §3 (DESIGN §2.3.2 "Try-it sandbox"): GET /demo makes a workspace of its own for the visitor — a copy of
// the demo data (Premium, the whole team, a year of trading) under a fresh slug — signs them in as its owner, and a
// sweep removes it 24 hours later, every row and file of it.

export const SANDBOX_HOURS = 24;
export const SANDBOX_SWEEP = "sweep.sandboxes";
// How many sandboxes may live at once: each is a full demo workspace (a few thousand rows), so a flood of visitors
// cannot fill the database; past it, GET /demo says to try again later.
export const SANDBOX_CAP = 200;

export type Sandbox = { workspaceId: string; slug: string; ownerId: string; ownerEmail: string; signInToken: string };

// "try-" and eight letters or digits: a slug no sign-up can take (sign-up slugs are checked against taken ones, and
// this prefix names sandboxes in the operator's workspace list).
const sandboxSlug = () =>
  `try-${randomToken(12)
    .toLowerCase()
    .replace(/[^a-z0-9]/g, "")
    .slice(0, 8)
    .padEnd(8, "x")}`;

export async function liveSandboxes(db: Db): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(workspace)
    .where(isNotNull(workspace.sandboxExpiresAt));
  return row.n;
}

export async function createSandbox(db: Db, opts: { files?: FileStore; now?: Date }): Promise<Sandbox> {
  const now = opts.now ?? new Date();
  const slug = sandboxSlug();
  const domain = `${slug}.sandbox.workmetrics.test`;
  // Nobody signs in to a sandbox with a password: the visitor arrives by a one-time link, the others never do.
  const passwordHash = await hashPassword(randomToken(24));
  const signInToken = randomToken(32);
  return db.transaction(async (tx) => {
    const workspaceId = await seedWorkspace(
      tx,
      { ...DEMO_WORKSPACE, slug, domain, name: `${DEMO_WORKSPACE.name} (sandbox)` },
      "demo",
      {
        trading: true,
        files: opts.files,
        passwordHash,
        now,
        extra: { sandboxExpiresAt: new Date(now.getTime() + SANDBOX_HOURS * 3600_000) },
      },
    );
    const ownerEmail = `owner@${domain}`;
    const [owner] = await tx.select({ id: authUser.id }).from(authUser).where(eq(authUser.email, ownerEmail));
    await tx.insert(authOneTimeToken).values({
      userId: owner.id,
      tokenType: "magiclink",
      tokenHash: sha256(signInToken),
      codeHash: sha256(randomToken(32)), // no typed code signs in to a sandbox
      relatesTo: ownerEmail,
      expiresAt: sql`now() + interval '5 minutes'`,
    });
    return { workspaceId, slug, ownerId: owner.id, ownerEmail, signInToken };
  });
}

// Every public table that holds a workspace's rows, children before the tables they reference (their foreign keys),
// so one ordered pass of deletes removes a workspace. Read from the catalogue: a table added later is covered.
async function tenantTablesInDeleteOrder(tx: Tx): Promise<string[]> {
  const tables = (
    await tx.execute(sql`select c.relname as name from pg_attribute a
      join pg_class c on c.oid = a.attrelid join pg_namespace n on n.oid = c.relnamespace
      where a.attname = 'workspace_id' and not a.attisdropped and c.relkind in ('r', 'p') and n.nspname = 'public'
        and c.relname <> 'workspace' and not c.relispartition`)
  ).rows.map((r) => String((r as { name: string }).name));
  const edges = (
    await tx.execute(sql`select distinct c.relname as child, p.relname as parent from pg_constraint k
      join pg_class c on c.oid = k.conrelid join pg_class p on p.oid = k.confrelid
      join pg_namespace n on n.oid = c.relnamespace
      where k.contype = 'f' and n.nspname = 'public' and c.oid <> p.oid`)
  ).rows as Array<{ child: string; parent: string }>;
  const set = new Set(tables);
  const children = new Map<string, Set<string>>(tables.map((t) => [t, new Set()]));
  for (const e of edges) if (set.has(e.child) && set.has(e.parent)) children.get(e.parent)!.add(e.child);
  // Depth-first: a table is placed after every table referencing it; a cycle is broken where it closes (its
  // deletes are retried below until nothing is left).
  const order: string[] = [];
  const state = new Map<string, "visiting" | "done">();
  const visit = (t: string) => {
    if (state.get(t)) return;
    state.set(t, "visiting");
    for (const c of [...children.get(t)!].sort()) visit(c);
    state.set(t, "done");
    order.push(t);
  };
  for (const t of [...tables].sort()) visit(t);
  return order;
}

// Removes a whole workspace: its rows in every table, its members' sign-in accounts and its stored files. One
// transaction: it goes entirely or not at all (and is tried again at the next sweep).
export async function removeWorkspace(db: Db, workspaceId: string, removeFiles?: (id: string) => Promise<void>) {
  await db.transaction(async (tx) => {
    await tx.execute(sql`select set_config('app.workspace_id', ${workspaceId}, true),
      set_config('app.removing_workspace', ${workspaceId}, true)`);
    const members = await tx.select({ id: user.id }).from(user).where(eq(user.workspaceId, workspaceId));
    const order = await tenantTablesInDeleteOrder(tx);
    // Triggers that keep per-workspace sums (journal_month, row_count) may write again while their sources go;
    // a second pass takes what they wrote. A cycle of references that one pass cannot untie fails loudly.
    for (let pass = 0; pass < 3; pass++) {
      let failed = 0;
      for (const table of order) {
        await tx.execute(sql`savepoint remove_table`);
        try {
          await tx.execute(sql`delete from ${sql.identifier(table)} where workspace_id = ${workspaceId}::uuid`);
          await tx.execute(sql`release savepoint remove_table`);
        } catch (err) {
          await tx.execute(sql`rollback to savepoint remove_table`);
          if (pass === 2) throw err;
          failed++;
        }
      }
      if (failed === 0 && pass > 0) break;
    }
    await tx.update(workspace).set({ userId: null }).where(eq(workspace.id, workspaceId));
    await tx.delete(workspace).where(eq(workspace.id, workspaceId));
    for (const m of members) await tx.delete(authUser).where(eq(authUser.id, m.id));
  });
  await removeFiles?.(workspaceId);
}

// The sweep (a scheduled job, app.ts): every sandbox past its time, one by one. Returns how many went.
export async function sweepSandboxes(db: Db, removeFiles?: (id: string) => Promise<void>): Promise<number> {
  const due = await db
    .select({ id: workspace.id })
    .from(workspace)
    .where(and(isNotNull(workspace.sandboxExpiresAt), lt(workspace.sandboxExpiresAt, sql`now()`)));
  for (const w of due) await removeWorkspace(db, w.id, removeFiles);
  return due.length;
}

// What the sweep removes of a workspace's files: its folder in the file store.
export const sandboxFiles = (files: FileStore) => (id: string) => files.removeWorkspace(id);
