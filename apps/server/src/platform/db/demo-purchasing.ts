import { createHash, randomUUID } from "node:crypto";
import { DEFAULT_BUCKET } from "@workmetrics/domain";
import { storageObject } from "@workmetrics/domain/db/schema";
import { dec, money } from "@workmetrics/domain/documents/decimal";
import { sql } from "drizzle-orm";
import { recordPayment } from "../../modules/documents/record-payment.ts";
import { documentSettingsSaveRpc } from "../../modules/documents/settings.rpc.ts";
import { answerForm, saveForm, sendForm } from "../../modules/partners/discount-form.store.ts";
import { registrationWorkspace, submitRegistration } from "../../modules/partners/registration.store.ts";
import { runConvert } from "../documents/convert.ts";
import { documentSpec } from "../documents/registry.ts";
import { saveDraft } from "../documents/save.ts";
import { runTransition } from "../documents/transition.ts";
import { SEED_DEPS } from "../jobs/deps.ts";
import type { Caller } from "../rest/access.ts";
import type { FileStore } from "../storage/disk.ts";
import type { Db, Tx } from "./database.ts";
import { demoCalendar, demoTeam, prng } from "./demo-trading.ts";

// Issue 11 "Demo data extends the quote-to-cash year with purchasing": after the year of trading (demo-trading.ts),
// the demo workspace buys over the same year through the engine's own commands (save, transition, convert,
// record_payment, the partners' stores): purchase orders in every status, receipts in parts with goods rejected at
// the door and the supplier's DO scan attached, supplier invoices paid in full and in part, two exceptions waiting in
// the three-way queue (priced above tolerance, billed before the goods came) and one released with its reason,
// transfers (one short on arrival, one in transit), loans (overdue, partly returned, converted to a sale), a
// confirmed and a pending supplier discount, two project registrations to review (the second a likely duplicate).
// A fixed script, dated relative to the database's today; the PRNG only chooses products, so the same day gives the
// same data. Only the demo workspace (Premium) gets it: the others keep a short seed and a quick cold start.

type Product = { id: number; cost: string };
type Line = { id: number; qty: string; left: string };

// A one-page PDF of the supplier's delivery order, as a scanner would leave it (what the files panel keeps).
export function deliveryOrderScan(supplier: string, doNumber: string, day: string, lines: string[]): Buffer {
  const esc = (s: string) => s.replace(/[\\()]/g, (c) => `\\${c}`);
  const text = [
    `BT /F1 16 Tf 36 250 Td (${esc(supplier)}) Tj ET`,
    `BT /F1 12 Tf 36 226 Td (DELIVERY ORDER ${esc(doNumber)}   ${day}) Tj ET`,
    ...lines.slice(0, 8).map((l, i) => `BT /F1 10 Tf 36 ${200 - i * 16} Td (${esc(l)}) Tj ET`),
    "BT /F1 9 Tf 36 40 Td (Received in good order and condition: ______________) Tj ET",
  ].join("\n");
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 420 297] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
    `<< /Length ${Buffer.byteLength(text)} >>\nstream\n${text}\nendstream`,
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
  ];
  let out = "%PDF-1.4\n";
  const offsets: number[] = [];
  objects.forEach((o, i) => {
    offsets.push(Buffer.byteLength(out));
    out += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out);
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const at of offsets) out += `${String(at).padStart(10, "0")} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, "latin1");
}

export async function seedPurchasing(tx: Tx, workspaceId: string, slug: string, files?: FileStore): Promise<void> {
  if (slug !== "demo") return;
  const ws = workspaceId;
  const date = await demoCalendar(tx);
  const who = await demoTeam(tx, ws, slug);
  const buyer = who("purchase_order.submit", "procurement");
  const approver = who("purchase_order.approve", "finance");
  const store = who("supplier_delivery_order.submit", "warehouse");
  const accounts = who("supplier_invoice.submit", "accounts");
  const finance = who("supplier_invoice.release", "finance");
  const payer = who("supplier_payment.create", "finance", "accounts");
  const mover = who("goods_transfer_form.submit", "warehouse");
  const lender = who("loan_form.submit", "warehouse", "manager");
  const seller = who("sales_order.submit", "manager");
  const admin = who("workspace.update", "admin");
  const asker = who("supplier_discount_form.create", "procurement");
  const supplierUser = who("supplier_discount_form.read", "supplier");
  const rnd = prng(0x5eed_b0b);
  await tx.execute(sql`select set_config('app.workspace_id', ${ws}, true)`);

  const rows = async <T>(q: ReturnType<typeof sql>) => (await tx.execute(q)).rows as T[];
  const products = (
    await rows<{ id: number; cost: string }>(sql`select id, cost::text as cost from product
      where workspace_id = ${ws}::uuid and active and is_stock_tracked and cost > 0 order by id`)
  ).map((p) => ({ id: Number(p.id), cost: p.cost }));
  const suppliers = (
    await rows<{ id: number; name: string }>(sql`select id, name from company
      where workspace_id = ${ws}::uuid and is_supplier order by id`)
  ).map((s) => ({ id: Number(s.id), name: s.name }));
  const customers = (
    await rows<{ id: number }>(sql`select c.id from company c where c.workspace_id = ${ws}::uuid and c.is_customer
      and exists (select 1 from contact k where k.workspace_id = c.workspace_id and k.company_id = c.id) order by c.id`)
  ).map((c) => Number(c.id));
  const services = (
    await rows<{ id: number }>(sql`select id from service where workspace_id = ${ws}::uuid
    order by id limit 1`)
  ).map((s) => Number(s.id));
  const [main, second] = (
    await rows<{ id: number }>(sql`select id from location where workspace_id = ${ws}::uuid order by id limit 2`)
  ).map((l) => Number(l.id));
  if (products.length < 12 || suppliers.length < 3 || customers.length === 0 || !second) return;
  const pickProducts = (n: number): Product[] => {
    const chosen = new Set<Product>();
    while (chosen.size < n) chosen.add(products[Math.floor(rnd() * products.length)]);
    return [...chosen];
  };
  const [pasir, tuas, changi] = suppliers;

  // ---- the commands, as the RPCs run them ----------------------------------------------------------------------
  const save = (
    caller: Caller,
    type: string,
    header: Record<string, unknown>,
    lines: Record<string, unknown>[],
    id?: number,
  ) => saveDraft(tx, caller, documentSpec(type), { id, header, lines });
  const act = (
    caller: Caller,
    type: string,
    id: number,
    action: string,
    reason?: string,
    values?: Record<string, unknown>,
  ) => runTransition(tx, caller, documentSpec(type), { id, action, reason: reason ?? null, values: values ?? null });
  const convert = (
    caller: Caller,
    type: string,
    id: number,
    to: string,
    header: Record<string, unknown>,
    lines?: { line_id: number; qty: string }[],
  ) => runConvert(tx, caller, documentSpec(type), documentSpec(to, "to"), { id, header, lines });
  const linesOf = (type: string, id: number, left: string) =>
    rows<Line>(sql`select id, qty::text as qty, (${sql.raw(left)})::text as "left" from ${sql.identifier(`${type}_line`)}
      where workspace_id = ${ws}::uuid and ${sql.identifier(`${type}_id`)} = ${id} order by line_no`);
  const total = async (type: string, id: number) =>
    (
      await rows<{ t: string }>(sql`select total::text as t from ${sql.identifier(type)}
      where workspace_id = ${ws}::uuid and id = ${id}`)
    )[0].t;

  // A purchase order of `n` products (`qty` each, or enough for `worth` in money), submitted unless a draft.
  const order = async (
    at: number,
    supplier: { id: number },
    n: number,
    opts: { qty?: number; worth?: number; draft?: boolean; location?: number; notes?: string } = {},
  ) => {
    const lines = pickProducts(n).map((p) => ({
      product_id: p.id,
      qty: String(
        opts.worth ? Math.ceil(opts.worth / n / Number(p.cost)) : (opts.qty ?? 10 * (1 + Math.floor(rnd() * 6))),
      ),
    }));
    const id = await save(
      buyer,
      "purchase_order",
      {
        company_id: supplier.id,
        doc_date: date(at),
        expected_date: date(Math.max(0, at - 7)),
        location_id: opts.location ?? main,
        notes: opts.notes ?? null,
      },
      lines,
    );
    if (!opts.draft) await act(buyer, "purchase_order", id, "submit");
    return id;
  };

  // A receipt of what is left (or half of it); `rejected`: that many of the first line refused at the door.
  let doSeq = 0;
  const receive = async (
    po: number,
    at: number,
    opts: { half?: boolean; rejected?: { qty: number; reason: string }; scan?: boolean } = {},
  ) => {
    const left = (await linesOf("purchase_order", po, "qty - qty_received")).filter((l) => dec(l.left).greaterThan(0));
    const lines = opts.half
      ? left.map((l) => ({ line_id: Number(l.id), qty: String(Math.max(1, Math.floor(Number(l.left) / 2))) }))
      : undefined;
    doSeq += 1;
    const supplierDo = `DO-${String(40_000 + doSeq * 37).padStart(6, "0")}`;
    const header = { doc_date: date(at), supplier_do_number: supplierDo };
    const id = await convert(store, "purchase_order", po, "supplier_delivery_order", header, lines);
    if (opts.rejected) {
      const [head] = await rows<Record<string, unknown>>(sql`select company_id, location_id from supplier_delivery_order
        where workspace_id = ${ws}::uuid and id = ${id}`);
      const drafted = await rows<Record<string, unknown>>(sql`select source_line_id, product_id, qty::text as qty,
          unit_price::text as unit_price from supplier_delivery_order_line
        where workspace_id = ${ws}::uuid and supplier_delivery_order_id = ${id} order by line_no`);
      const { qty, reason } = opts.rejected;
      await save(
        store,
        "supplier_delivery_order",
        { ...head, ...header },
        drafted.map((l, i) =>
          i === 0
            ? { ...l, qty: String(Math.max(1, Number(l.qty) - qty)), qty_rejected: String(qty), reject_reason: reason }
            : l,
        ),
        id,
      );
    }
    await act(store, "supplier_delivery_order", id, "submit");
    if (opts.scan) await attachScan(id, supplierDo, at);
    return id;
  };

  // A supplier invoice made from a receipt or straight from the order's lines; `markup`: the supplier charged that
  // much over the order's price (0.08: 8%).
  let invSeq = 0;
  const bill = async (from: "supplier_delivery_order" | "purchase_order", source: number, at: number, markup = 0) => {
    invSeq += 1;
    const number = `SI-${String(7000 + invSeq * 13)}`;
    const header = { doc_date: date(at), supplier_invoice_number: number };
    const id = await convert(accounts, from, source, "supplier_invoice", header);
    if (markup) {
      const [head] = await rows<Record<string, unknown>>(sql`select company_id from supplier_invoice
        where workspace_id = ${ws}::uuid and id = ${id}`);
      const drafted = await rows<Record<string, string | number | null>>(sql`select source_line_id, product_id,
          qty::text as qty, unit_price::text as unit_price, tax_code from supplier_invoice_line
        where workspace_id = ${ws}::uuid and supplier_invoice_id = ${id} order by line_no`);
      await save(
        accounts,
        "supplier_invoice",
        { ...head, ...header },
        drafted.map((l) => ({
          ...l,
          unit_price: money(
            dec(String(l.unit_price))
              .times(1 + markup)
              .toDecimalPlaces(2),
          ),
        })),
        id,
      );
    }
    await act(accounts, "supplier_invoice", id, "submit");
    return id;
  };

  // One supplier payment for several invoices, `share` of each invoice's total; `extra` kept as supplier credit.
  const pay = async (supplier: { id: number }, at: number, items: { id: number; share?: number }[], extra = "0") => {
    const allocations = [];
    for (const item of items) {
      const amount = money(
        dec(await total("supplier_invoice", item.id))
          .times(item.share ?? 1)
          .toDecimalPlaces(2),
      );
      allocations.push({ document_type: "supplier_invoice", document_id: item.id, amount });
    }
    const amount = money(allocations.reduce((s, a) => s.plus(a.amount), dec(extra)));
    await recordPayment(tx, payer, {
      type: "supplier_payment",
      company_id: supplier.id,
      amount,
      date: date(at),
      method: "bank_transfer",
      reference: `GIRO${date(at).replaceAll("-", "")}${supplier.id}`,
      notes: dec(extra).isZero() ? null : "Paid a round sum; the rest is kept as credit with the supplier",
      allocations,
    });
  };

  // The supplier's DO scan, kept where the document page's files panel keeps a receipt's files (the bytes written
  // as the storage module writes them; a file left behind by a failed seed costs disk, never correctness).
  const bucket = (
    await rows<{ id: number }>(sql`select id from storage_bucket where workspace_id = ${ws}::uuid
      and name = ${DEFAULT_BUCKET}`)
  )[0];
  const disk = files ?? null;
  const attachScan = async (receipt: number, supplierDo: string, at: number) => {
    if (!disk || !bucket) return;
    const [head] = await rows<{ supplier: string }>(sql`select c.name as supplier from supplier_delivery_order d
      join company c on c.workspace_id = d.workspace_id and c.id = d.company_id
      where d.workspace_id = ${ws}::uuid and d.id = ${receipt}`);
    const items = await rows<{ text: string }>(sql`select concat(p.sku, '  ', p.name, '  x ', l.qty::float8) as text
      from supplier_delivery_order_line l join product p on p.workspace_id = l.workspace_id and p.id = l.product_id
      where l.workspace_id = ${ws}::uuid and l.supplier_delivery_order_id = ${receipt} order by l.line_no`);
    const bytes = deliveryOrderScan(
      head.supplier,
      supplierDo,
      date(at),
      items.map((i) => i.text),
    );
    const version = randomUUID();
    await disk.put(disk.key(ws, DEFAULT_BUCKET, version), bytes);
    await tx.insert(storageObject).values({
      workspaceId: ws,
      bucketId: Number(bucket.id),
      name: `documents/supplier_delivery_order/${receipt}/${supplierDo}.pdf`,
      version,
      size: bytes.length,
      mimeType: "application/pdf",
      etag: createHash("md5").update(bytes).digest("hex"),
      owner: store.userId,
    });
  };

  // ---- a year of buying: each order received, billed and paid in full ---------------------------------------------
  const history: Array<{ at: number; supplier: { id: number }; terms: number }> = [
    { at: 330, supplier: tuas, terms: 60 },
    { at: 300, supplier: pasir, terms: 30 },
    { at: 270, supplier: changi, terms: 14 },
    { at: 240, supplier: tuas, terms: 60 },
    { at: 210, supplier: pasir, terms: 30 },
    { at: 180, supplier: pasir, terms: 30 },
    { at: 150, supplier: tuas, terms: 60 },
    { at: 120, supplier: changi, terms: 14 },
  ];
  const billed: Array<{ id: number; at: number; supplier: { id: number }; terms: number }> = [];
  for (const [i, h] of history.entries()) {
    const po = await order(h.at, h.supplier, 2 + (i % 3));
    // Every third order comes in two parts, the first with goods refused at the door.
    const parts =
      i % 3 === 1
        ? [
            await receive(po, h.at - 6, { half: true, rejected: { qty: 1, reason: "Carton crushed, goods dented" } }),
            await receive(po, h.at - 14, { scan: true }),
          ]
        : [await receive(po, h.at - 6, { scan: i % 2 === 0 })];
    for (const sdo of parts) {
      const at = h.at - (parts.length === 1 ? 8 : 16);
      billed.push({ id: await bill("supplier_delivery_order", sdo, at), at, supplier: h.supplier, terms: h.terms });
    }
  }
  // Entered twice by mistake: the second copy cancelled.
  {
    const po = await order(100, pasir, 2);
    const sdo = await receive(po, 96);
    const twice = await bill("supplier_delivery_order", sdo, 94);
    await act(
      accounts,
      "supplier_invoice",
      twice,
      "cancel",
      "Entered twice: the supplier sent the invoice by post too",
    );
    billed.push({ id: await bill("supplier_delivery_order", sdo, 94), at: 94, supplier: pasir, terms: 30 });
  }
  // Paid around the due date, a supplier's invoices due together paid at once; the latest partly, one overdue.
  const bySupplierRun = new Map<
    string,
    { supplier: { id: number }; at: number; items: { id: number; share?: number }[] }
  >();
  for (const [i, b] of billed.entries()) {
    const due = b.at - b.terms;
    if (b.id === billed[6]?.id) continue; // left unpaid: overdue
    const share = i === billed.length - 1 ? 0.5 : 1;
    const at = Math.max(1, Math.floor(Math.max(1, due) / 14) * 14);
    const key = `${b.supplier.id}:${at}`;
    const run = bySupplierRun.get(key) ?? { supplier: b.supplier, at, items: [] };
    run.items.push({ id: b.id, share });
    bySupplierRun.set(key, run);
  }
  let credit = false;
  for (const run of bySupplierRun.values()) {
    // One supplier is paid a round sum; what the invoices did not take stays as credit with them.
    const extra = !credit && run.at > 60 ? "150.00" : "0";
    if (extra !== "0") credit = true;
    await pay(run.supplier, run.at, run.items, extra);
  }

  // ---- the recent weeks: every status of an order, and the three-way queue ------------------------------------
  // Closed: half came, was billed, and the rest is no longer wanted.
  {
    const po = await order(80, changi, 2);
    const sdo = await receive(po, 75, { half: true, scan: true });
    await bill("supplier_delivery_order", sdo, 73);
    await act(buyer, "purchase_order", po, "close");
  }
  // Released: billed 5% over the order's price, released to pay by finance with the reason, then paid in part.
  {
    const po = await order(60, tuas, 2);
    const sdo = await receive(po, 55, { scan: true });
    const inv = await bill("supplier_delivery_order", sdo, 50, 0.05);
    await act(finance, "supplier_invoice", inv, "release", "Steel surcharge agreed with the supplier on the phone");
    await pay(tuas, 30, [{ id: inv, share: 0.4 }]);
  }
  // Cancelled before anything came.
  await act(buyer, "purchase_order", await order(45, pasir, 1), "cancel", "Ordered from the wrong supplier");
  // Exception waiting: priced 8% above the order (completed order: all received and billed).
  {
    const po = await order(30, tuas, 2);
    const sdo = await receive(po, 26, { scan: true });
    await bill("supplier_delivery_order", sdo, 22, 0.08);
  }
  // To bill: all received, the invoice not yet in.
  await receive(await order(25, pasir, 3), 20, { scan: true });
  // To receive and bill, received in part with goods refused at the door.
  await receive(await order(18, tuas, 2), 12, {
    half: true,
    rejected: { qty: 2, reason: "Wrong colour delivered" },
    scan: true,
  });
  // To receive: the supplier billed the whole order before the goods came (an exception until they do).
  await bill("purchase_order", await order(15, changi, 2), 10);
  // To receive and bill, nothing come yet; a draft still being written.
  await order(5, pasir, 2);
  await order(2, tuas, 3, { draft: true });
  // A direct invoice for a service, not yet submitted.
  if (services.length) {
    await save(accounts, "supplier_invoice", { company_id: changi.id, doc_date: date(1) }, [
      { service_id: services[0], qty: "1", unit_price: "180.00", description: "Forklift servicing at Tuas" },
    ]);
  }
  // Above the approval threshold: one approved by finance, one waiting for them.
  await documentSettingsSaveRpc.run(tx, { po_approval_threshold: "20000" }, admin, SEED_DEPS);
  const big = await order(8, tuas, 2, { worth: 24_000, notes: "Stock for the Marina Bay fit-out" });
  await act(approver, "purchase_order", big, "approve");
  await order(3, pasir, 3, { worth: 26_000, notes: "Year-end stock take top-up" });

  // ---- transfers and loans --------------------------------------------------------------------------------------
  const transfer = async (at: number, n: number) => {
    const lines = pickProducts(n).map((p) => ({ product_id: p.id, qty: String(2 + Math.floor(rnd() * 4)) }));
    const id = await save(
      mover,
      "goods_transfer_form",
      {
        from_location_id: main,
        to_location_id: second,
        doc_date: date(at),
      },
      lines,
    );
    await act(mover, "goods_transfer_form", id, "submit");
    return id;
  };
  {
    const id = await transfer(20, 2);
    const sent = await linesOf("goods_transfer_form", id, "qty");
    await act(mover, "goods_transfer_form", id, "receive", undefined, {
      qty_received: sent.map((l, i) => ({ line_id: Number(l.id), qty: i === 0 ? String(Number(l.qty) - 1) : l.qty })),
      shortfall_reason: "One carton missing from the lorry",
    });
  }
  await transfer(1, 2);
  const lend = async (at: number, dueIn: number, customer: number, n: number) => {
    const lines = pickProducts(n).map((p) => ({ product_id: p.id, qty: String(1 + Math.floor(rnd() * 3)) }));
    const id = await save(
      lender,
      "loan_form",
      {
        company_id: customer,
        doc_date: date(at),
        due_date: date(at - dueIn),
        location_id: main,
        deposit: "200.00",
      },
      lines,
    );
    await act(lender, "loan_form", id, "submit");
    return id;
  };
  await lend(40, 30, customers[0], 1); // due ten days ago, still out: overdue
  {
    const id = await lend(21, 35, customers[1 % customers.length], 2);
    const [first] = await linesOf("loan_form", id, "qty");
    await act(lender, "loan_form", id, "return", undefined, {
      qty_returned: [{ line_id: Number(first.id), qty: "1" }],
    });
  }
  {
    const id = await lend(14, 30, customers[2 % customers.length], 1);
    const so = await convert(seller, "loan_form", id, "sales_order", { doc_date: date(6) });
    await act(seller, "sales_order", so, "submit");
  }

  // ---- supplier discounts and project registrations -----------------------------------------------------------
  // The seed runs before any server: a demo link is mailed to nobody (no job is queued for it).
  const seedDeps = {
    jobs: { enqueue: async () => null },
    links: { publicUrl: "http://localhost", baseDomain: "localhost" },
  };
  const discount = async (supplier: { id: number }, percent: string, n: number) => {
    const { id } = await saveForm(tx, asker, {
      form: {
        company_id: supplier.id,
        contact_email: `sales@${supplier.id}.supplier.example`,
        discount_kind: "percent",
        discount_percent: percent,
        min_qty: "10",
        valid_from: date(10),
        valid_to: date(-180),
        message: "For our orders over the next six months",
      },
      items: pickProducts(n).map((p) => ({ product_id: p.id })),
    });
    await sendForm(tx, asker, { id, link_days: 14 }, seedDeps);
    return id;
  };
  const confirmed = await discount(tuas, "7.5", 3);
  const [me] = await rows<{ name: string }>(sql`select name from workspace where id = ${ws}::uuid`);
  await answerForm(
    tx,
    supplierUser,
    confirmed,
    { decision: "confirm", name: "Steven Ho", note: "Confirmed for 2026" },
    me.name,
  );
  await discount(pasir, "5", 2);

  // Reorder levels at the main warehouse (a plain resource, kept through /rest/v1): six products with a preferred
  // supplier, the first four set just above what is there now, so "To reorder" has work on the first morning.
  const watched = products.slice(0, 6);
  const onHand = new Map(
    (
      await rows<{ product_id: number; qty: string }>(sql`select product_id, sum(qty)::text as qty from stock_move
        where workspace_id = ${ws}::uuid and location_id = ${main}
          and product_id = any(${`{${watched.map((p) => p.id).join(",")}}`}::bigint[]) group by product_id`)
    ).map((r) => [Number(r.product_id), r.qty]),
  );
  await tx.execute(sql`insert into reorder_level (workspace_id, product_id, location_id, min_qty, reorder_qty, supplier_id)
    values ${sql.join(
      watched.map((p, i) => {
        const have = Math.max(0, Math.floor(Number(onHand.get(p.id) ?? "0")));
        const min = i < 4 ? have + 5 + i * 3 : Math.max(1, Math.floor(have / 4));
        return sql`(${ws}::uuid, ${p.id}, ${main}, ${String(min)}::numeric, ${String(min + 20)}::numeric,
          ${suppliers[i % suppliers.length].id})`;
      }),
      sql`, `,
    )}`);

  // Registrations arrive on the public page (its own request context); the seed's role is taken back after.
  // The workspace's own slug (a sandbox copy of the demo is seeded as "demo" under a slug of its own).
  const own = await tx.execute(sql`select slug from workspace where id = ${workspaceId}::uuid`);
  const site = await registrationWorkspace(tx as unknown as Db, String((own.rows[0] as { slug: string }).slug));
  const register = (body: Record<string, unknown>) => submitRegistration(tx as unknown as Db, site, body);
  await register({
    end_customer: "Sentosa Cove Residences",
    project_name: "Clubhouse lighting upgrade",
    site: "1 Cove Drive, Singapore 098497",
    expected_value: "48000",
    products_of_interest: "LED panels, emergency lighting",
    expected_close_date: date(-45),
    contact_name: "Jason Lim",
    contact_company: "Brightway Electrical Pte Ltd",
    contact_email: "jason@brightway.example",
  });
  await register({
    end_customer: "sentosa cove  residences",
    project_name: "Clubhouse Lighting Upgrade",
    site: "Sentosa Cove",
    expected_value: "52000",
    contact_name: "Mary Tan",
    contact_company: "Lumen Contracts",
    contact_email: "mary@lumen.example",
  });
  await tx.execute(sql`reset role`);
  await tx.execute(sql`reset statement_timeout`);
  await tx.execute(sql`select set_config('app.workspace_id', ${ws}, true), set_config('app.user_id', '', true),
    set_config('app.role', '', true)`);
}
