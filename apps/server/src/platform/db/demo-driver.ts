import { sql } from "drizzle-orm";
import { runConvert } from "../documents/convert.ts";
import { documentSpec } from "../documents/registry.ts";
import { saveDraft } from "../documents/save.ts";
import { runTransition } from "../documents/transition.ts";
import type { Tx } from "./database.ts";
import { demoCalendar, demoTeam } from "./demo-trading.ts";

// Issue 22: the demo driver's trip today — four delivery orders of submitted sales orders to customers with an
// address, dispatched to driver@ for the database's today in a planned order, so the driver app opens on a working
// day. Made through the document commands (what the RPCs run) after the year of trading; no PRNG, so nothing else
// in the seed moves.
const NOTES = [
  "Loading bay at the back: call the storeman before unloading",
  null,
  "Deliver before 3 pm; site closes early on Fridays",
  "Fragile: keep the cartons upright",
];

const ADDRESSES = [
  "10 Bayfront Avenue, Loading Bay B2, Singapore 018956",
  "25 Tuas Avenue 4, Singapore 639375",
  "238 Orchard Road, Service Entrance, Singapore 238851",
  "1 Changi Business Park Crescent, Singapore 486025",
];

export async function seedDriverTrip(tx: Tx, ws: string, slug: string): Promise<void> {
  if (slug !== "demo") return;
  const date = await demoCalendar(tx);
  const who = await demoTeam(tx, ws, slug);
  const manager = who("sales_order.submit", "manager");
  const warehouse = who("delivery_order.submit", "warehouse", "manager");
  const driver = who("delivery_order.complete", "driver");
  const rows = async <T>(q: ReturnType<typeof sql>) => (await tx.execute(q)).rows as T[];
  const [main] = await rows<{ id: number }>(
    sql`select id from location where workspace_id = ${ws}::uuid order by id limit 1`,
  );
  // The customers a driver goes to need an address to find: the demo's get one where they have none.
  const customers = await rows<{ id: number; contact: number | null }>(sql`select c.id, (select k.id from contact k
      where k.workspace_id = c.workspace_id and k.company_id = c.id order by k.is_primary desc, k.id limit 1) as contact
    from company c where c.workspace_id = ${ws}::uuid and c.is_customer and c.active order by c.id limit 4`);
  for (const [i, c] of customers.entries()) {
    await tx.execute(sql`update company set shipping_address = ${ADDRESSES[i % ADDRESSES.length]}
      where workspace_id = ${ws}::uuid and id = ${Number(c.id)} and coalesce(shipping_address, '') = ''`);
  }
  // Goods with stock at the main warehouse after the year's trading.
  const goods = await rows<{ id: number }>(sql`select p.id from product p where p.workspace_id = ${ws}::uuid
      and p.active and p.is_stock_tracked and coalesce((select sum(m.qty) from stock_move m
        where m.workspace_id = p.workspace_id and m.product_id = p.id and m.location_id = ${main?.id ?? 0}), 0) >= 20
    order by p.id limit 8`);
  if (!main || customers.length === 0 || goods.length < 2) return;
  const today = date(0);
  for (let i = 0; i < 4; i++) {
    const c = customers[i % customers.length];
    const lines = [0, 1].map((k) => ({
      product_id: Number(goods[(i * 2 + k) % goods.length].id),
      qty: String(2 + ((i + k) % 4)),
    }));
    const order = await saveDraft(tx, manager, documentSpec("sales_order"), {
      header: { company_id: Number(c.id), contact_id: c.contact == null ? null : Number(c.contact), doc_date: today },
      lines,
    });
    await runTransition(tx, manager, documentSpec("sales_order"), { id: order, action: "submit" });
    const id = await runConvert(tx, warehouse, documentSpec("sales_order"), documentSpec("delivery_order", "to"), {
      id: order,
      header: { doc_date: today, location_id: Number(main.id), driver_id: driver.userId, notes: NOTES[i] },
    });
    await runTransition(tx, warehouse, documentSpec("delivery_order"), { id, action: "submit" });
    await tx.execute(sql`update delivery_order set planned_date = ${today}::date, stop_seq = ${i + 1}
      where workspace_id = ${ws}::uuid and id = ${id}`);
  }
}
