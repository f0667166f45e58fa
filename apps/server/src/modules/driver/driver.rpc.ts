import { DEFAULT_BUCKET, decide, ROLE } from "@workmetrics/domain";
import { COMMANDS } from "@workmetrics/domain/commands";
import { FAILURE_REASON_LABELS, type StopResult, type TripStop } from "@workmetrics/domain/commands/driver";
import { type SQL, sql } from "drizzle-orm";
import type { Tx } from "../../platform/db/database.ts";
import { readsOwnOnly, requireDocumentAccess } from "../../platform/documents/access.ts";
import { documentSpec, type Effect, type PrepareConvert, type PrepareSave } from "../../platform/documents/registry.ts";
import { writeEvent } from "../../platform/documents/store.ts";
import { runTransition } from "../../platform/documents/transition.ts";
import type { CommandDeps } from "../../platform/jobs/deps.ts";
import { type Caller, memberOf } from "../../platform/rest/access.ts";
import { RestError } from "../../platform/rest/rest-error.ts";
import { implement } from "../../platform/rest/rpc/command.ts";
import { keepObjects } from "../../platform/storage/objects.ts";

// Issue 22 "Driver": the driver's day and what happens at a stop, each command in the request's one transaction
// (and, through the Idempotency-Key the outbox replays with, run once). Delivering completes the delivery order
// through the documents engine as the back office's "Mark delivered" does (the `complete` transition: its
// permission, its own-only rule, its guard against a second handover), then keeps the proof beside it.

const fail = (status: number, message: string, field?: string) =>
  new RestError(
    status,
    status === 422 ? "validation_failed" : status === 403 ? "42501" : status === 404 ? "PGRST116" : "P0001",
    message,
    field ? [{ field, message }] : null,
  );

const spec = () => documentSpec("delivery_order");

// A command on the caller's trip: a role that completes deliveries (a driver: those assigned to them).
function requireDeliverer(caller: Caller, does: string): void {
  requireDocumentAccess(caller, spec(), "complete", does);
}

// Prices on the trip only for a role that reads what customers are billed (a driver does not).
const showsTotals = (caller: Caller) =>
  decide(memberOf(caller), { audience: "member", permission: "invoice.read", does: "read prices" }).allowed;

type Stop = {
  id: number;
  number: string | null;
  status: string;
  driver_id: string | null;
  received_by: string | null;
  received_at: string | null;
  arrived_at: string | null;
  failure_reason: StopResult["failure_reason"];
};

const label = (s: Pick<Stop, "number" | "id">) => s.number ?? `draft delivery order ${s.id}`;

async function lockStop(tx: Tx, caller: Caller, id: number, doing: string): Promise<Stop> {
  const res = await tx.execute(sql`select id, number, status, driver_id::text, received_by, received_at::text,
      arrived_at::text, failure_reason
    from delivery_order where workspace_id = ${caller.workspaceId}::uuid and id = ${id} for update`);
  const row = res.rows[0] as Stop | undefined;
  if (!row) throw fail(404, `There is no delivery order ${id} in this workspace`);
  if (readsOwnOnly(caller, spec()) && row.driver_id !== caller.userId) {
    throw fail(403, `${label(row)} is not assigned to you: only its driver may ${doing}`);
  }
  if (row.status === "cancelled") {
    throw fail(409, `${label(row)} was cancelled: do not deliver it (ask dispatch)`);
  }
  if (row.status === "draft") throw fail(409, `${label(row)} is still a draft: it is not ready to deliver`);
  if (row.received_by) {
    throw fail(409, `${label(row)} was already delivered to ${row.received_by} on ${row.received_at?.slice(0, 10)}`);
  }
  if (row.failure_reason) {
    throw fail(
      409,
      `${label(row)} was reported failed (${FAILURE_REASON_LABELS[row.failure_reason].toLowerCase()}): dispatch must assign it again`,
    );
  }
  return { ...row, id: Number(row.id) };
}

const STOP_RESULT = sql`id, number, status, arrived_at, received_by, received_at, failure_reason, pod_server_time,
  pod_signature, pod_photos`;

async function stopResult(tx: Tx, ws: string, id: number): Promise<StopResult> {
  const res = await tx.execute(sql`select ${STOP_RESULT} from delivery_order where workspace_id = ${ws}::uuid
    and id = ${id}`);
  return res.rows[0] as StopResult;
}

// The device's time, never later than the server's (a phone whose clock runs ahead does not date a handover in the
// future).
const deviceTime = (given: string, now: Date) => new Date(Math.min(Date.parse(given), now.getTime()));

export const deliveryTrip = implement(COMMANDS.delivery_trip, {
  run: async (tx, args, caller) => {
    requireDeliverer(caller, "see a delivery trip");
    const ws = caller.workspaceId as string;
    const totals = showsTotals(caller);
    // One statement: the stops in their order, each with its lines, customer and contact.
    const res = await tx.execute(sql`select d.id, d.number, d.status, d.stop_seq, d.planned_date::text,
        c.name as company_name, coalesce(nullif(c.shipping_address, ''), c.billing_address) as address,
        k.name as contact_name, coalesce(nullif(k.phone, ''), c.phone) as phone, d.notes, d.arrived_at,
        d.received_by, d.received_at, d.failure_reason, d.failure_note,
        ${totals ? sql`d.total::text` : sql`null::text`} as total, d.currency,
        coalesce((select json_agg(json_build_object('description', l.description, 'sku', l.sku,
            'qty', trim_scale(l.qty)::text, 'unit', l.unit) order by l.line_no)
          from delivery_order_line l where l.workspace_id = d.workspace_id and l.delivery_order_id = d.id), '[]')
          as lines
      from delivery_order d
      join company c on c.workspace_id = d.workspace_id and c.id = d.company_id
      left join contact k on k.workspace_id = d.workspace_id and k.id = d.contact_id
      where d.workspace_id = ${ws}::uuid and d.driver_id = ${caller.userId}::uuid
        and d.planned_date = ${args.date}::date and d.status not in ('draft', 'cancelled')
      order by d.stop_seq nulls last, d.id`);
    const stops = (res.rows as Array<TripStop & { lines: unknown }>).map((r) => ({
      ...r,
      lines: typeof r.lines === "string" ? JSON.parse(r.lines) : r.lines,
    })) as TripStop[];
    return { date: args.date, shows_totals: totals, stops };
  },
});

export const deliveryReorder = implement(COMMANDS.delivery_reorder, {
  run: async (tx, args, caller) => {
    requireDeliverer(caller, "order a delivery trip");
    const ws = caller.workspaceId as string;
    if (new Set(args.ids).size !== args.ids.length) throw fail(422, "A stop is listed twice", "ids");
    const res = await tx.execute(sql`select id from delivery_order where workspace_id = ${ws}::uuid
        and driver_id = ${caller.userId}::uuid and planned_date = ${args.date}::date
        and status not in ('draft', 'cancelled')
      order by stop_seq nulls last, id for update`);
    const mine = (res.rows as Array<{ id: number }>).map((r) => Number(r.id));
    const stranger = args.ids.find((id) => !mine.includes(id));
    if (stranger !== undefined) {
      throw fail(422, `Delivery order ${stranger} is not one of your stops on ${args.date}`, "ids");
    }
    // Stops not named (dispatch added one meanwhile) keep their order after those named.
    const order = [...args.ids, ...mine.filter((id) => !args.ids.includes(id))];
    await tx.execute(sql`update delivery_order d set stop_seq = o.seq
      from unnest(${`{${order.join(",")}}`}::bigint[]) with ordinality as o(id, seq)
      where d.workspace_id = ${ws}::uuid and d.id = o.id`);
    return { date: args.date, ids: order };
  },
});

export const deliveryArrive = implement(COMMANDS.delivery_arrive, {
  run: async (tx, args, caller, deps) => {
    requireDeliverer(caller, "mark arrival at a stop");
    const ws = caller.workspaceId as string;
    const stop = await lockStop(tx, caller, args.id, "mark arrival at it");
    if (!stop.arrived_at) {
      const at = deviceTime(args.device_time, deps.clock());
      await tx.execute(sql`update delivery_order set arrived_at = ${at.toISOString()}::timestamptz
        where workspace_id = ${ws}::uuid and id = ${stop.id}`);
      await writeEvent(tx, caller, {
        type: "delivery_order",
        docId: stop.id,
        action: "arrive",
        from: stop.status,
        to: stop.status,
        changes: { arrived_at: [null, at.toISOString()] },
      });
    }
    return stopResult(tx, ws, stop.id);
  },
});

type Image = { bytes: Buffer; mime: string; ext: string };

function decodeImage(dataUrl: string): Image {
  const m = /^data:(image\/(png|jpeg|webp));base64,(.+)$/.exec(dataUrl) as RegExpExecArray;
  return { bytes: Buffer.from(m[3], "base64"), mime: m[1], ext: m[2] === "jpeg" ? "jpg" : m[2] };
}

// The proof's files, in the workspace's files bucket under the delivery order's folder (its files panel lists them;
// reading them needs the workspace's file.read, as every file). The bytes are written before the rows commit: a
// refusal after this leaves an unreferenced file behind, which costs disk, never correctness.
async function keepProofFiles(
  tx: Tx,
  caller: Caller,
  deps: CommandDeps,
  id: number,
  files: Array<{ name: string; image: Image }>,
): Promise<string[]> {
  const disk = deps.disk;
  if (!disk) throw new RestError(503, "storage_unavailable", "This server keeps no files: the proof cannot be stored");
  const ws = caller.workspaceId as string;
  const bucket = (
    await tx.execute(sql`select id from storage_bucket where workspace_id = ${ws}::uuid and name = ${DEFAULT_BUCKET}`)
  ).rows[0] as { id: number } | undefined;
  if (!bucket) throw new RestError(503, "storage_unavailable", `This workspace has no "${DEFAULT_BUCKET}" bucket`);
  // The workspace's storage quota counts them (keepObjects refuses the lot, keeping nothing, when they do not fit).
  const kept = files.map((f) => ({
    workspaceId: ws,
    bucket: DEFAULT_BUCKET,
    bucketId: Number(bucket.id),
    name: `documents/delivery_order/${id}/proof/${f.name}.${f.image.ext}`,
    bytes: f.image.bytes,
    mimeType: f.image.mime,
    owner: caller.userId,
    replace: true,
  }));
  await keepObjects(tx, disk, kept);
  const names = kept.map((f) => f.name);
  return names;
}

const place = (lat?: number | null, lng?: number | null, accuracy?: number | null): SQL =>
  sql`pod_lat = ${lat ?? null}, pod_lng = ${lng ?? null}, pod_accuracy_m = ${accuracy == null ? null : Math.round(accuracy * 10) / 10}`;

export const deliveryDeliver = implement(COMMANDS.delivery_deliver, {
  run: async (tx, args, caller, deps) => {
    requireDeliverer(caller, "deliver");
    const ws = caller.workspaceId as string;
    const stop = await lockStop(tx, caller, args.id, "deliver it");
    if ((args.lat == null) !== (args.lng == null))
      throw fail(422, "Give both latitude and longitude, or neither", "lat");
    const now = deps.clock();
    const at = deviceTime(args.device_time, now);
    // The handover through the engine: its permission, own-only rule and guard, its audit row.
    await runTransition(tx, caller, spec(), {
      id: stop.id,
      action: "complete",
      values: { received_by: args.received_by, received_at: at.toISOString() },
    });
    const [signature, ...photos] = await keepProofFiles(tx, caller, deps, stop.id, [
      { name: "signature", image: decodeImage(args.signature) },
      ...args.photos.map((p, i) => ({ name: `photo-${i + 1}`, image: decodeImage(p) })),
    ]);
    await tx.execute(sql`update delivery_order set ${place(args.lat, args.lng, args.accuracy)},
        pod_device_time = ${args.device_time}::timestamptz, pod_server_time = ${now.toISOString()}::timestamptz,
        arrived_at = coalesce(arrived_at, ${at.toISOString()}::timestamptz),
        pod_signature = ${signature}, pod_photos = ${JSON.stringify(photos)}::jsonb
      where workspace_id = ${ws}::uuid and id = ${stop.id}`);
    return stopResult(tx, ws, stop.id);
  },
});

export const deliveryFail = implement(COMMANDS.delivery_fail, {
  run: async (tx, args, caller, deps) => {
    requireDeliverer(caller, "report a failed delivery");
    const ws = caller.workspaceId as string;
    const stop = await lockStop(tx, caller, args.id, "report it failed");
    const now = deps.clock();
    await tx.execute(sql`update delivery_order set failure_reason = ${args.reason},
        failure_note = ${args.note || null}, failed_at = ${now.toISOString()}::timestamptz,
        ${place(args.lat, args.lng, args.accuracy)}, pod_device_time = ${args.device_time}::timestamptz,
        pod_server_time = ${now.toISOString()}::timestamptz
      where workspace_id = ${ws}::uuid and id = ${stop.id}`);
    const reason = FAILURE_REASON_LABELS[args.reason];
    await writeEvent(tx, caller, {
      type: "delivery_order",
      docId: stop.id,
      action: "fail",
      from: stop.status,
      to: stop.status,
      reason: args.note ? `${reason}: ${args.note}` : reason,
      changes: { failure_reason: [null, args.reason] },
    });
    return stopResult(tx, ws, stop.id);
  },
});

// Only a user whose role is Driver, active in this workspace, is given deliveries (issue 22).
export async function requireDriver(tx: Tx, ws: string, userId: string, field = "driver_id"): Promise<string> {
  const res = await tx.execute(sql`select name, role_id, active from "user"
    where workspace_id = ${ws}::uuid and id::text = ${userId}`);
  const u = res.rows[0] as { name: string; role_id: number | null; active: boolean } | undefined;
  if (!u) throw fail(422, "Driver: choose a user of this workspace", field);
  if (Number(u.role_id) !== ROLE.Driver) {
    throw fail(422, `${u.name} is not a driver: only users with the Driver role can be assigned deliveries`, field);
  }
  if (!u.active) throw fail(422, `${u.name} is no longer active: choose an active driver`, field);
  return u.name;
}

export const deliveryDispatch = implement(COMMANDS.delivery_dispatch, {
  run: async (tx, args, caller) => {
    const ws = caller.workspaceId as string;
    const driverName = await requireDriver(tx, ws, args.driver_id);
    const ids = [...new Set(args.ids)];
    const res = await tx.execute(sql`select id, number, status, driver_id::text, planned_date::text, received_by
      from delivery_order where workspace_id = ${ws}::uuid and id = any(${`{${ids.join(",")}}`}::bigint[])
      order by id for update`);
    const rows = res.rows as Array<{
      id: number;
      number: string | null;
      status: string;
      driver_id: string | null;
      planned_date: string | null;
      received_by: string | null;
    }>;
    const found = new Map(rows.map((r) => [Number(r.id), r]));
    const missing = ids.find((id) => !found.has(id));
    if (missing !== undefined) throw fail(404, `There is no delivery order ${missing} in this workspace`);
    for (const id of ids) {
      const r = found.get(id) as (typeof rows)[number];
      if (r.status === "draft") throw fail(409, `Delivery order ${id} is a draft: submit it before dispatching it`);
      if (r.status === "cancelled") throw fail(409, `${r.number ?? id} is cancelled: it is not dispatched`);
      if (r.received_by) throw fail(409, `${r.number} was already delivered to ${r.received_by}`);
    }
    const last = (
      await tx.execute(sql`select coalesce(max(stop_seq), 0)::int as n from delivery_order
        where workspace_id = ${ws}::uuid and driver_id = ${args.driver_id}::uuid and planned_date = ${args.date}::date
          and not (id = any(${`{${ids.join(",")}}`}::bigint[]))`)
    ).rows[0] as { n: number };
    for (const [i, id] of ids.entries()) {
      const r = found.get(id) as (typeof rows)[number];
      await tx.execute(sql`update delivery_order set driver_id = ${args.driver_id}::uuid,
          planned_date = ${args.date}::date, stop_seq = ${Number(last.n) + i + 1}, arrived_at = null,
          failure_reason = null, failure_note = null, failed_at = null
        where workspace_id = ${ws}::uuid and id = ${id}`);
      await writeEvent(tx, caller, {
        type: "delivery_order",
        docId: id,
        action: "dispatch",
        from: r.status,
        to: r.status,
        changes: { driver_id: [r.driver_id, args.driver_id], planned_date: [r.planned_date, args.date] },
      });
    }
    return { dispatched: ids.length, driver_name: driverName, date: args.date };
  },
});

// The delivery order's own driver field, on a draft (document_save), when made (document_convert) and when changed
// (the assign_driver action): a Driver only. Assigning again after a failure sends it back on the road: the
// failure is cleared (the history keeps it).
export const checkDriverOnSave: PrepareSave = async (tx, caller, _spec, draft) => {
  const driver = draft.header.driver_id;
  if (driver) await requireDriver(tx, caller.workspaceId as string, String(driver), "header.driver_id");
  return { header: draft.header, lines: draft.lines };
};

export const checkDriverOnConvert: PrepareConvert = async (tx, caller, _source, draft) => {
  const driver = draft.header.driver_id;
  if (driver) await requireDriver(tx, caller.workspaceId as string, String(driver), "header.driver_id");
  return draft;
};

export const assignDriverEffect: Effect = async (tx, caller, _spec, doc) => {
  const ws = caller.workspaceId as string;
  await requireDriver(tx, ws, String(doc.header.driver_id), "values.driver_id");
  await tx.execute(sql`update delivery_order set arrived_at = null, failure_reason = null, failure_note = null,
      failed_at = null
    where workspace_id = ${ws}::uuid and id = ${Number(doc.header.id)}`);
};
