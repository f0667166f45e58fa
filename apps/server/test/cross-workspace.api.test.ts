import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { inRequest, type Tx } from "../src/platform/db/database.ts";
import { asWorkspace } from "../src/platform/documents/as-workspace.ts";
import { saveDocument } from "../src/platform/documents/commands.ts";
import { documentSettings } from "../src/platform/documents/settings.ts";
import { type Caller, loadMember } from "../src/platform/rest/access.ts";
import { ownServer } from "./own-server-helpers.ts";

// Issue 20 §3: one transaction acts for a second workspace (the marketplace's accept: the seller's sales order and
// the buyer's purchase order together) through asWorkspace — re-scoped for its length, audited on both sides, and
// the other workspace's rows refused again outside it. Tested on the engine directly: no product command does this
// yet, and a test-only command does not belong in the product.

const own = ownServer();
let pro = "";
let owner = "";
let demoCustomer = 0;
let proSupplier = 0;

const one = async <T>(query: ReturnType<typeof sql>): Promise<T> =>
  (await own.db.execute(query)).rows[0] as unknown as T;

beforeAll(async () => {
  pro = (await one<{ id: string }>(sql`select id from workspace where slug = 'pro'`)).id;
  owner = (await one<{ id: string }>(sql`select id from "user" where email = 'owner@demo.test'`)).id;
  demoCustomer = Number(
    (await one<{ id: number }>(sql`select id from company where workspace_id = ${own.ws} order by id limit 1`)).id,
  );
  // A purchase order's company is a supplier (refused at save otherwise): pro's first, made one if need be.
  proSupplier = Number(
    (
      await one<{ id: number }>(
        sql`select id from company where workspace_id = ${pro} order by is_supplier desc, id limit 1`,
      )
    ).id,
  );
  await own.db.execute(sql`update company set is_supplier = true where workspace_id = ${pro} and id = ${proSupplier}`);
  // The two workspaces' settings differ, so a cache that ignored the workspace would answer the wrong one.
  await own.db.execute(sql`insert into document_setting (workspace_id, over_delivery_allowance) values (${pro}, 7)
    on conflict (workspace_id) do update set over_delivery_allowance = 7`);
});

// The demo owner's request transaction, as a command runs in it.
const asOwner = <T>(fn: (tx: Tx, caller: Caller) => Promise<T>): Promise<T> =>
  inRequest(own.db, { workspaceId: own.ws, userId: owner, role: "authenticated" }, async (tx) => {
    const caller: Caller = {
      kind: "member",
      userId: owner,
      workspaceId: own.ws,
      isOperator: false,
      ...(await loadMember(tx, owner, own.ws)),
    };
    return fn(tx, caller);
  });

const line = (marker: string) => [{ description: marker, qty: "2", unit_price: "15.00" }];
const scope = async (tx: Tx) =>
  ((await tx.execute(sql`select current_setting('app.workspace_id', true) as ws`)).rows[0] as { ws: string }).ws;

describe("asWorkspace: one transaction, two workspaces", () => {
  it("saves a draft in each workspace in one transaction, each audited with who acted from where", async () => {
    const marker = `cross ${randomUUID()}`;
    const { sale, purchase } = await asOwner(async (tx, caller) => {
      expect((await documentSettings(tx, own.ws)).over_delivery_allowance).toBe("0");
      const sale = (await saveDocument(tx, caller, {
        type: "quotation",
        header: { company_id: demoCustomer },
        lines: line(marker),
      })) as { id: number; workspace_id: string; total: string };
      const purchase = (await asWorkspace(tx, pro, caller, async (there) => {
        expect(await scope(tx)).toBe(pro);
        // The other workspace's settings, not the ones this transaction read for the first.
        expect((await documentSettings(tx, pro)).over_delivery_allowance).toBe("7");
        return saveDocument(tx, there, {
          type: "purchase_order",
          header: { company_id: proSupplier },
          lines: line(marker),
        });
      })) as { id: number; workspace_id: string; total: string };
      expect(await scope(tx)).toBe(own.ws);
      expect((await documentSettings(tx, own.ws)).over_delivery_allowance).toBe("0");
      // Outside asWorkspace the other workspace's row is refused again (row-level security, not only the filter).
      const seen = await tx.execute(sql`select id from purchase_order where id = ${purchase.id}`);
      expect(seen.rows).toEqual([]);
      return { sale, purchase };
    });
    expect(sale.workspace_id).toBe(own.ws);
    expect(purchase.workspace_id).toBe(pro);
    expect(purchase.total).toBe("32.70"); // 2 × 15.00 + 9% GST: the engine's totals in the other workspace

    // Both committed together, each in its own workspace.
    const po = await one<{ workspace_id: string }>(
      sql`select workspace_id from purchase_order where id = ${purchase.id}`,
    );
    expect(po.workspace_id).toBe(pro);
    // The buyer's side: the event names the acting user and the workspace acted from.
    const there = await own.db.execute(sql`select workspace_id, user_id, action, changes from document_event
      where workspace_id = ${pro} and doc_type = 'purchase_order' and doc_id = ${purchase.id} order by id`);
    expect(there.rows).toEqual([
      expect.objectContaining({
        workspace_id: pro,
        user_id: owner,
        changes: expect.objectContaining({ acted_from: own.ws }),
      }),
    ]);
    // The acting side: the same event, with the workspace acted in.
    const here = await own.db.execute(sql`select workspace_id, user_id, action, changes from document_event
      where workspace_id = ${own.ws} and doc_type = 'purchase_order' and doc_id = ${purchase.id}`);
    expect(here.rows).toEqual([
      expect.objectContaining({
        user_id: owner,
        action: (there.rows[0] as { action: string }).action,
        changes: { acted_in: pro },
      }),
    ]);
    // The first workspace's own event is as before: no cross-workspace mark.
    const mine = await own.db.execute(
      sql`select changes from document_event where doc_type = 'quotation' and doc_id = ${sale.id}`,
    );
    expect(JSON.stringify(mine.rows)).not.toContain("acted_");
  });

  it("refuses the other workspace's rows without a re-scope, and restores the scope when the work fails", async () => {
    await asOwner(async (tx) => {
      // Writing a row of the other workspace from this one is refused by row-level security.
      const write = tx.transaction(async (sp) => {
        await sp.execute(sql`insert into document_setting (workspace_id) values (${pro})
          on conflict (workspace_id) do update set over_billing_allowance = 1`);
      });
      await expect(write).rejects.toThrow();
      const read = await tx.execute(sql`select workspace_id from document_setting where workspace_id = ${pro}`);
      expect(read.rows).toEqual([]);
      // A failure inside leaves the transaction in the first workspace.
      const failing = asWorkspace(tx, pro, { kind: "member", userId: owner, workspaceId: own.ws } as Caller, () => {
        throw new Error("refused over there");
      });
      await expect(failing).rejects.toThrow("refused over there");
      expect(await scope(tx)).toBe(own.ws);
    });
  });
});
