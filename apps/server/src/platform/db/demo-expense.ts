import { sql } from "drizzle-orm";
import { registerModules } from "../../modules/index.ts";
import { documentSpec } from "../documents/registry.ts";
import { saveDraft } from "../documents/save.ts";
import { runTransition } from "../documents/transition.ts";
import type { Tx } from "./database.ts";
import { demoCalendar, demoTeam } from "./demo-trading.ts";

// Issue 24 demo: a few expense claims of the demo workspace's staff (Premium's "shipping and expense") in each state,
// made through the engine's own commands (save, transition) so the seed proves them: a salesperson's claim still a
// draft, a driver's waiting for approval, the warehouse's approved and owed, a reimbursed one and a rejected one.
// No receipt photos: the seed keeps no files.

type Receipt = [merchant: string, daysAgo: number, amount: string, account: string, tax?: "SR" | "OS"];

export async function seedExpense(tx: Tx, workspaceId: string, slug: string): Promise<void> {
  if (slug !== "demo") return;
  registerModules();
  const ws = workspaceId;
  const date = await demoCalendar(tx);
  const who = await demoTeam(tx, ws, slug);
  await tx.execute(sql`select set_config('app.workspace_id', ${ws}, true)`);
  const spec = documentSpec("expense_claim");
  const approver = who("expense_claim.approve", "manager");
  const payer = who("expense_claim.pay", "finance", "accounts");
  const claim = async (claimant: string, notes: string, receipts: Receipt[]) => {
    const c = who("expense_claim.create", claimant);
    const id = await saveDraft(tx, c, spec, {
      header: { notes, doc_date: date(Math.min(...receipts.map((r) => r[1]))) },
      lines: receipts.map(([merchant, daysAgo, amount, account, tax]) => ({
        merchant,
        expense_date: date(daysAgo),
        amount,
        account_code: account,
        tax_code: tax ?? "SR",
      })),
    });
    return { id, c };
  };

  await claim("sales", "Client visits, Jurong", [
    ["Grab", 2, "18.60", "6400"],
    ["Toast Box, Jem", 2, "12.40", "6410"],
  ]);

  const parked = await claim("driver", "Deliveries to Changi North", [
    ["HDB car park, Changi Village", 4, "3.60", "6400", "OS"],
    ["ERP gantry, PIE", 4, "2.00", "6400", "OS"],
  ]);
  await runTransition(tx, parked.c, spec, { id: parked.id, action: "submit" });

  const supplies = await claim("warehouse", "Packing supplies for the Tuas store", [
    ["Popular Bookstore", 9, "46.30", "6420"],
    ["SingPost, Tuas", 8, "21.80", "6430"],
  ]);
  await runTransition(tx, supplies.c, spec, { id: supplies.id, action: "submit" });
  await runTransition(tx, approver, spec, { id: supplies.id, action: "approve" });

  const trip = await claim("sales", "Trade fair at Marina Bay Sands", [
    ["ComfortDelGro Taxi", 20, "32.70", "6400"],
    ["Din Tai Fung, MBS", 20, "86.00", "6410"],
    ["Marina Bay Sands car park", 20, "15.00", "6400", "OS"],
  ]);
  await runTransition(tx, trip.c, spec, { id: trip.id, action: "submit" });
  await runTransition(tx, approver, spec, { id: trip.id, action: "approve" });
  await runTransition(tx, payer, spec, {
    id: trip.id,
    action: "reimburse",
    values: { payment_reference: "FAST transfer 0112" },
  });

  const lunch = await claim("procurement", "Supplier lunch", [["Jumbo Seafood, Riverside", 12, "240.00", "6410"]]);
  await runTransition(tx, lunch.c, spec, { id: lunch.id, action: "submit" });
  await runTransition(tx, approver, spec, {
    id: lunch.id,
    action: "reject",
    reason: "Supplier entertainment needs the director's approval first; attach it and submit again",
  });
}
