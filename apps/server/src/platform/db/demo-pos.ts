import { COMMANDS } from "@workmetrics/domain/commands";
import { sql } from "drizzle-orm";
import { posRefund, posSale, posSessionClose, posSessionOpen, posZReport } from "../../modules/pos/pos.rpc.ts";
import { SEED_DEPS } from "../jobs/deps.ts";
import type { Caller } from "../rest/access.ts";
import type { AnyRpc } from "../rest/rpc/command.ts";
import type { Tx } from "./database.ts";
import { demoTeam } from "./demo-trading.ts";

// Issue 22: the demo's counter has a day behind it — pos@'s morning session closed with its Z report (sales paid by
// cash with change, card and PayNow split, a line refunded, the drawer counted fifty cents short) and the owner's
// session still open with two sales. Made through the POS commands (what the RPCs run) after the year of trading, on
// goods the trading left in stock; no PRNG. POS staff open their own session in the app (the owner's is the owner's).

type Good = { id: number; price: string; tax_code: string };

const incl = (g: Good) => (Math.round(Number(g.price) * (g.tax_code === "SR" ? 109 : 100)) / 100).toFixed(2);

export async function seedPos(tx: Tx, ws: string, slug: string): Promise<void> {
  if (slug !== "demo") return;
  const who = await demoTeam(tx, ws, slug);
  const cashier = who("pos_session.create", "pos");
  const owner = who("pos_session.create", "owner");
  const rows = async <T>(q: ReturnType<typeof sql>) => (await tx.execute(q)).rows as T[];
  const [counter] = await rows<{ id: number }>(
    sql`select id from location where workspace_id = ${ws}::uuid and active order by id limit 1`,
  );
  if (!counter) return;
  // Past the first two of these (the POS API test's own), goods with stock at the counter.
  const goods = (
    await rows<Good & { stock: string }>(sql`select p.id, p.price::text as price, p.tax_code,
        coalesce((select sum(m.qty) from stock_move m where m.workspace_id = p.workspace_id and m.product_id = p.id
          and m.location_id = ${Number(counter.id)}), 0)::text as stock
      from product p where p.workspace_id = ${ws}::uuid and p.tax_code = 'SR' and p.is_stock_tracked and p.active
        and p.price > 5
      order by p.id offset 2 limit 12`)
  )
    .filter((g) => Number(g.stock) >= 10)
    .map((g) => ({ ...g, id: Number(g.id) }));
  if (goods.length < 4) return;

  const run = async (cmd: AnyRpc, caller: Caller, args: unknown) => {
    await tx.execute(sql`select set_config('app.workspace_id', ${caller.workspaceId}, true),
      set_config('app.user_id', ${caller.userId}, true)`);
    const decl = (COMMANDS as unknown as Record<string, { args: { parse(v: unknown): unknown } }>)[cmd.name];
    return (await cmd.run(tx, decl.args.parse(args), caller, SEED_DEPS)) as Record<string, unknown> & {
      id: number;
      lines?: Array<{ id: number }>;
      total?: string;
      expected_cash?: string;
    };
  };
  const line = (g: Good, qty: number, discount?: string) => ({
    product_id: g.id,
    qty: String(qty),
    unit_price_incl_gst: incl(g),
    ...(discount ? { discount_pct: discount } : {}),
  });
  const cash = (amount: string | number) => ({ method: "cash", amount: String(amount) });

  // The morning: opened with S$150, three sales, a line refunded, closed fifty cents short.
  const morning = await run(posSessionOpen, cashier, { location_id: Number(counter.id), opening_float: "150.00" });
  const first = await run(posSale, cashier, {
    session_id: morning.id,
    lines: [line(goods[0], 2), line(goods[1], 1)],
    payments: [cash(Math.ceil(Number(incl(goods[0])) * 2 + Number(incl(goods[1]))) + 10)],
  });
  await run(posSale, cashier, {
    session_id: morning.id,
    lines: [line(goods[2], 1, "5")],
    payments: [{ method: "card", amount: "1.00", reference: "VISA 4242" }, cash(1000)],
  });
  await run(posSale, cashier, {
    session_id: morning.id,
    lines: [line(goods[3], 3)],
    payments: [{ method: "paynow", amount: "10.00", reference: "PayNow 8841" }, cash(1000)],
  });
  const sold = first.lines?.[0]?.id;
  if (sold) {
    await run(posRefund, cashier, {
      order_id: first.id,
      session_id: morning.id,
      lines: [{ source_line_id: sold, qty: "1" }],
      method: "cash",
    });
  }
  const z = await run(posZReport, cashier, { session_id: morning.id });
  await run(posSessionClose, cashier, {
    session_id: morning.id,
    counted_cash: (Number(z.expected_cash) - 0.5).toFixed(2),
  });

  // The owner minding the counter now: a session open with two sales.
  const now = await run(posSessionOpen, owner, { location_id: Number(counter.id), opening_float: "100.00" });
  await run(posSale, owner, {
    session_id: now.id,
    lines: [line(goods[1], 2)],
    payments: [{ method: "card", amount: (Number(incl(goods[1])) * 2).toFixed(2), reference: "MC 5100" }],
  });
  await run(posSale, owner, { session_id: now.id, lines: [line(goods[2], 1)], payments: [cash(1000)] });
}
