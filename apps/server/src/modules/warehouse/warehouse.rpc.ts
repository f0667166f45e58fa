import { DEFAULT_BUCKET } from "@workmetrics/domain";
import { COMMANDS } from "@workmetrics/domain/commands";
import type { DocumentRow } from "@workmetrics/domain/commands/documents";
import type { ReceiptDue } from "@workmetrics/domain/commands/warehouse";
import { dec, plain } from "@workmetrics/domain/documents/decimal";
import { sql } from "drizzle-orm";
import type { Tx } from "../../platform/db/database.ts";
import { runConvert } from "../../platform/documents/convert.ts";
import { conflict, invalid } from "../../platform/documents/refusals.ts";
import { documentSpec } from "../../platform/documents/registry.ts";
import { saveDraft } from "../../platform/documents/save.ts";
import { insertRows, readDocument, writeEvent } from "../../platform/documents/store.ts";
import { lockDocument, runTransition } from "../../platform/documents/transition.ts";
import type { CommandDeps } from "../../platform/jobs/deps.ts";
import type { Caller } from "../../platform/rest/access.ts";
import { RestError } from "../../platform/rest/rest-error.ts";
import { implement } from "../../platform/rest/rpc/command.ts";
import { keepObject } from "../../platform/storage/objects.ts";
import { productCosts } from "../inventory/system-locations.ts";

// Issue 22 "Warehouse" (DESIGN §2.3.2): the warehouse app's commands. Each makes the documents the back office makes
// through the documents engine (conversion, draft, transitions and their effects), in the request's one transaction;
// Idempotency-Key makes a replay of any of them answer the first run's answer.

const read = (tx: Tx, caller: Caller, type: string, id: number) =>
  readDocument(tx, caller, documentSpec(type), id) as Promise<DocumentRow>;

const ws = (caller: Caller) => caller.workspaceId as string;

async function exists(tx: Tx, caller: Caller, table: "location" | "product", id: number, field: string, what: string) {
  const res = await tx.execute(
    sql`select 1 from ${sql.identifier(table)} where workspace_id = ${ws(caller)}::uuid and id = ${id}`,
  );
  if (res.rows.length === 0) throw invalid(`No ${what} ${id} in this workspace`, field);
}

// ---- receive -----------------------------------------------------------------------------------------------------

// The photo of the supplier's delivery order, in the workspace's files bucket under the receipt's folder (where its
// files panel and the supplier receipt files report look). The bytes are written before the rows commit: a refusal
// after this leaves an unreferenced file behind, which costs disk, never correctness.
async function keepReceiptPhoto(tx: Tx, caller: Caller, deps: CommandDeps, id: number, dataUrl: string) {
  const disk = deps.disk;
  if (!disk) throw new RestError(503, "storage_unavailable", "This server keeps no files: the photo cannot be stored");
  const m = /^data:(image\/(png|jpeg|webp));base64,(.+)$/.exec(dataUrl) as RegExpExecArray;
  const bytes = Buffer.from(m[3], "base64");
  const bucket = (
    await tx.execute(
      sql`select id from storage_bucket where workspace_id = ${ws(caller)}::uuid and name = ${DEFAULT_BUCKET}`,
    )
  ).rows[0] as { id: number | string } | undefined;
  if (!bucket) throw new RestError(503, "storage_unavailable", `This workspace has no "${DEFAULT_BUCKET}" bucket`);
  const name = `documents/supplier_delivery_order/${id}/supplier-delivery-order.${m[2] === "jpeg" ? "jpg" : m[2]}`;
  await keepObject(tx, disk, {
    workspaceId: ws(caller),
    bucket: DEFAULT_BUCKET,
    bucketId: Number(bucket.id),
    name,
    bytes,
    mimeType: m[1],
    owner: caller.userId,
  });
}

// Purchase orders that still wait for goods (To Receive and Bill, To Receive), lines with something left.
export const warehouseReceiptsDue = implement(COMMANDS.warehouse_receipts_due, {
  async run(tx, args, caller) {
    const at = args.location_id ? sql`and o.location_id = ${args.location_id}` : sql``;
    const search = args.search
      ? sql`and (o.number ilike ${`%${args.search}%`} or c.name ilike ${`%${args.search}%`})`
      : sql``;
    const res = await tx.execute(sql`select o.id, o.number, o.status, o.company_id as supplier_id,
        c.name as supplier, o.expected_date::text as expected_date,
        (o.expected_date is not null and o.expected_date < current_date) as overdue,
        o.location_id, loc.name as location,
        json_agg(json_build_object('line_id', l.id, 'line_no', l.line_no, 'product_id', l.product_id,
          'sku', l.sku, 'description', l.description, 'unit', l.unit, 'ordered', l.qty::text,
          'received', l.qty_received::text, 'remaining', greatest(l.qty - l.qty_received, 0)::text)
          order by l.line_no) as lines
      from purchase_order o
      join company c on c.workspace_id = o.workspace_id and c.id = o.company_id
      left join location loc on loc.workspace_id = o.workspace_id and loc.id = o.location_id
      join purchase_order_line l on l.workspace_id = o.workspace_id and l.purchase_order_id = o.id
        and l.product_id is not null and l.qty > l.qty_received
      where o.workspace_id = ${ws(caller)}::uuid and o.status in ('to_receive_and_bill', 'to_receive') ${at} ${search}
      group by o.workspace_id, o.id, c.name, loc.name
      order by (o.expected_date is null), o.expected_date, o.id
      limit 200`);
    const orders = (res.rows as Array<Record<string, unknown>>).map((r) => ({
      ...r,
      id: Number(r.id),
      supplier_id: Number(r.supplier_id),
      location_id: r.location_id == null ? null : Number(r.location_id),
      overdue: r.overdue === true || r.overdue === "t",
      lines: (typeof r.lines === "string" ? JSON.parse(r.lines) : r.lines) as ReceiptDue["lines"],
    })) as ReceiptDue[];
    return { orders };
  },
});

// The supplier delivery order made from the purchase order with these quantities and submitted (stock in, posted),
// exactly as the back office's receipt. More than is left on a line is refused without a reason.
export const warehouseReceive = implement(COMMANDS.warehouse_receive, {
  async run(tx, args, caller, deps) {
    const po = documentSpec("purchase_order");
    const order = await lockDocument(tx, caller, po, args.purchase_order_id, false);
    const byId = new Map(order.lines.map((l) => [Number(l.id), l]));
    const seen = new Set<number>();
    const lines = args.lines.filter((l) => dec(l.qty).greaterThan(0));
    if (lines.length === 0) throw invalid("Enter the quantity received of at least one line", "lines");
    for (const [i, l] of args.lines.entries()) {
      const line = byId.get(l.line_id);
      if (!line) throw invalid(`Line ${l.line_id} is not on ${order.header.number ?? "this order"}`, `lines.${i}`);
      if (seen.has(l.line_id)) throw invalid(`Line ${line.line_no} is given twice`, `lines.${i}.line_id`);
      seen.add(l.line_id);
      const left = dec(String(line.qty)).minus(dec(String(line.qty_received ?? "0")));
      if (dec(l.qty).greaterThan(left) && !args.over_reason?.trim()) {
        const message = `${plain(dec(l.qty))} of ${line.description} is more than the ${plain(left.isNegative() ? dec("0") : left)} left to receive on line ${line.line_no}: give the reason for receiving more than ordered`;
        throw invalid(message, "over_reason");
      }
    }
    const notes = args.over_reason?.trim() ? `Received more than ordered: ${args.over_reason.trim()}` : null;
    const header: Record<string, unknown> = {};
    if (args.location_id) header.location_id = args.location_id;
    if (args.supplier_do_number) header.supplier_do_number = args.supplier_do_number;
    if (notes) header.notes = notes;
    const sdo = documentSpec("supplier_delivery_order");
    const id = await runConvert(tx, caller, po, sdo, {
      id: args.purchase_order_id,
      lines: lines.map((l) => ({ line_id: l.line_id, qty: l.qty })),
      header,
    });
    await runTransition(tx, caller, sdo, { id, action: "submit" });
    if (args.photo) await keepReceiptPhoto(tx, caller, deps, id, args.photo);
    return read(tx, caller, "supplier_delivery_order", id);
  },
});

// ---- pick ----------------------------------------------------------------------------------------------------------

export const pickListMake = implement(COMMANDS.pick_list_make, {
  async run(tx, args, caller) {
    if (args.location_id) await exists(tx, caller, "location", args.location_id, "location_id", "location");
    const spec = documentSpec("pick_list");
    const id = await runConvert(tx, caller, documentSpec(args.source_type), spec, {
      id: args.source_id,
      ...(args.location_id ? { header: { location_id: args.location_id } } : {}),
    });
    await runTransition(tx, caller, spec, { id, action: "submit" });
    return read(tx, caller, "pick_list", id);
  },
});

export const pickListPick = implement(COMMANDS.pick_list_pick, {
  async run(tx, args, caller) {
    const spec = documentSpec("pick_list");
    const doc = await lockDocument(tx, caller, spec, args.id);
    if (doc.snapshot.status !== "picking") {
      const label = spec.machine.statuses[doc.snapshot.status]?.label.toLowerCase() ?? doc.snapshot.status;
      throw conflict(`${doc.header.number ?? "This pick list"} is ${label}: nothing more can be picked on it`);
    }
    const line = doc.lines.find((l) => Number(l.id) === args.line_id);
    if (!line) throw invalid(`Line ${args.line_id} is not on ${doc.header.number ?? "this pick list"}`, "line_id");
    if (dec(args.qty_picked).greaterThan(dec(String(line.qty)))) {
      throw invalid(
        `Only ${plain(dec(String(line.qty)))} of ${line.description} are to be picked on line ${line.line_no}`,
        "qty_picked",
      );
    }
    await tx.execute(sql`update pick_list_line set qty_picked = ${args.qty_picked}::numeric
      where workspace_id = ${ws(caller)}::uuid and id = ${args.line_id}`);
    await writeEvent(tx, caller, {
      type: "pick_list",
      docId: args.id,
      action: "pick",
      from: "picking",
      to: "picking",
      changes: { line_no: line.line_no, qty_picked: args.qty_picked },
    });
    return read(tx, caller, "pick_list", args.id);
  },
});

export const pickListFinish = implement(COMMANDS.pick_list_finish, {
  async run(tx, args, caller) {
    await runTransition(tx, caller, documentSpec("pick_list"), { id: args.id, action: "finish" });
    return read(tx, caller, "pick_list", args.id);
  },
});

// ---- move ----------------------------------------------------------------------------------------------------------

// A goods transfer form of one line, dispatched and received in full in the same transaction.
export const warehouseMove = implement(COMMANDS.warehouse_move, {
  async run(tx, args, caller) {
    if (args.from_location_id === args.to_location_id) {
      throw invalid("Scan two different locations: the product moves from one to the other", "to_location_id");
    }
    if (!dec(args.qty).greaterThan(0)) throw invalid("The quantity to move must be more than 0", "qty");
    await exists(tx, caller, "product", args.product_id, "product_id", "product");
    const spec = documentSpec("goods_transfer_form");
    const id = await saveDraft(tx, caller, spec, {
      header: {
        from_location_id: args.from_location_id,
        to_location_id: args.to_location_id,
        ...(args.notes ? { notes: args.notes } : {}),
      },
      lines: [{ product_id: args.product_id, qty: args.qty }],
    });
    await runTransition(tx, caller, spec, { id, action: "submit" });
    await runTransition(tx, caller, spec, { id, action: "receive" });
    return read(tx, caller, "goods_transfer_form", id);
  },
});

// ---- count ---------------------------------------------------------------------------------------------------------

// Stock-tracked products that have moved through the location or have a bin there, in bin order; no quantities.
export const stockCountSheet = implement(COMMANDS.stock_count_sheet, {
  async run(tx, args, caller) {
    await exists(tx, caller, "location", args.location_id, "location_id", "location");
    const res = await tx.execute(sql`select p.id as product_id, p.name, p.sku, p.unit, b.bin
      from product p
      left join product_bin b on b.workspace_id = p.workspace_id and b.product_id = p.id
        and b.location_id = ${args.location_id}
      where p.workspace_id = ${ws(caller)}::uuid and p.is_stock_tracked
        and (b.id is not null or exists (select 1 from stock_move m where m.workspace_id = p.workspace_id
          and m.product_id = p.id and m.location_id = ${args.location_id}))
      order by (b.bin is null), b.bin, p.name, p.id
      limit 2000`);
    return {
      location_id: args.location_id,
      products: (
        res.rows as Array<{
          product_id: number | string;
          name: string;
          sku: string | null;
          unit: string | null;
          bin: string | null;
        }>
      ).map((r) => ({ ...r, product_id: Number(r.product_id) })),
    };
  },
});

// The count written and submitted (numbered SC-…): each line's system quantity read now, under the products' locks
// taken by nothing else here — a move after this is the manager's to weigh when applying.
export const stockCountSubmit = implement(COMMANDS.stock_count_submit, {
  async run(tx, args, caller) {
    await exists(tx, caller, "location", args.location_id, "location_id", "location");
    const seen = new Set<number>();
    for (const [i, l] of args.lines.entries()) {
      if (seen.has(l.product_id)) throw invalid(`Product ${l.product_id} is counted twice`, `lines.${i}.product_id`);
      seen.add(l.product_id);
    }
    const ids = `{${[...seen].join(",")}}`;
    const res = await tx.execute(sql`select p.id, p.name, p.sku, p.unit, p.is_stock_tracked,
        coalesce((select sum(m.qty) from stock_move m where m.workspace_id = p.workspace_id and m.product_id = p.id
          and m.location_id = ${args.location_id}), 0)::text as system_qty
      from product p where p.workspace_id = ${ws(caller)}::uuid and p.id = any(${ids}::bigint[])`);
    type P = { id: number | string; name: string; sku: string | null; unit: string | null; system_qty: string };
    const found = new Map((res.rows as P[]).map((r) => [Number(r.id), r]));
    const cost = await productCosts(tx, ws(caller), [...seen]);
    const lines = args.lines.map((l, i) => {
      const p = found.get(l.product_id);
      if (!p) throw invalid(`No product ${l.product_id} in this workspace`, `lines.${i}.product_id`);
      if (dec(l.counted_qty).isNegative())
        throw invalid("A counted quantity cannot be below 0", `lines.${i}.counted_qty`);
      const unitCost = cost.get(l.product_id) ?? "0";
      return {
        workspace_id: ws(caller),
        line_no: i + 1,
        product_id: l.product_id,
        sku: p.sku,
        description: p.name,
        unit: p.unit,
        qty: l.counted_qty,
        unit_price: unitCost,
        unit_cost: unitCost,
        tax_code: "OS",
        location_id: args.location_id,
        system_qty: p.system_qty,
        counted_qty: l.counted_qty,
        difference: plain(dec(l.counted_qty).minus(dec(p.system_qty))),
      };
    });
    const spec = documentSpec("stock_count");
    const [row] = await insertRows(
      tx,
      spec.header,
      [
        {
          workspace_id: ws(caller),
          status: "draft",
          location_id: args.location_id,
          notes: args.notes ?? null,
          created_by: caller.userId,
        },
      ],
      true,
    );
    const id = Number(row.id);
    await insertRows(
      tx,
      spec.lines,
      lines.map((l) => ({ ...l, stock_count_id: id })),
    );
    await writeEvent(tx, caller, { type: "stock_count", docId: id, action: "create", from: null, to: "draft" });
    await runTransition(tx, caller, spec, { id, action: "submit" });
    const done = await tx.execute(sql`select number, status from stock_count
      where workspace_id = ${ws(caller)}::uuid and id = ${id}`);
    const head = done.rows[0] as { number: string | null; status: string };
    return { id, number: head.number, status: head.status, location_id: args.location_id, lines: lines.length };
  },
});
