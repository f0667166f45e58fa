import { createHash, randomBytes } from "node:crypto";
import { findResource } from "@workmetrics/domain/resources";
import { CATALOG } from "@workmetrics/domain/resources/catalog";
import type { CalendarEvent } from "@workmetrics/domain/resources/challenge";
import { type SQL, sql } from "drizzle-orm";
import type { Db, Tx } from "../../platform/db/database.ts";
import { type Caller, readScope } from "../../platform/rest/access.ts";

// Issue 12: /dashboard/team-challenge/calendar and each member's .ics feed. Every event comes from a document (or a
// challenge) the member may read: each source's rows are narrowed by the engine's own read scope (readScope: the
// domain's access rule, with "own" rows for a salesperson's quotations or a driver's deliveries), and a source the
// member may not read at all is left out, never shown empty by mistake. Drafts are not yet plans: a delivery shows
// once submitted (until it is received), a delivery instruction once released.

type Source = {
  kind: CalendarEvent["kind"];
  resource: string;
  day: SQL; // the date the event falls on
  where: SQL; // which rows are events
  title: (d: SQL) => SQL;
};

const num = sql`coalesce(d.number, 'Draft ' || d.id)`;
const company = sql`(select c.name from company c where c.workspace_id = d.workspace_id and c.id = d.company_id)`;

const SOURCES: Source[] = [
  {
    kind: "delivery",
    resource: "delivery_order",
    day: sql`d.doc_date`,
    where: sql`d.status not in ('draft', 'cancelled') and d.received_at is null`,
    title: () => sql`'Delivery ' || ${num} || ' to ' || ${company}`,
  },
  {
    kind: "delivery",
    resource: "delivery_instruction",
    day: sql`d.planned_date`,
    where: sql`d.status in ('released', 'picked') and d.planned_date is not null`,
    title: () => sql`'Planned delivery ' || ${num} || ' to ' || ${company}`,
  },
  {
    kind: "quotation_expiry",
    resource: "quotation",
    day: sql`d.valid_until`,
    where: sql`d.status = 'sent' and d.valid_until is not null`,
    title: () => sql`'Quotation ' || ${num} || ' expires (' || ${company} || ')'`,
  },
  {
    kind: "invoice_due",
    resource: "invoice",
    day: sql`d.due_date`,
    where: sql`d.status not in ('draft', 'cancelled', 'paid') and d.due_date is not null and d.outstanding > 0`,
    title: () => sql`'Invoice ' || ${num} || ' due: ' || ${company} || ' owes ' || d.outstanding::text`,
  },
  {
    kind: "bill_due",
    resource: "supplier_invoice",
    day: sql`d.due_date`,
    where: sql`d.status not in ('draft', 'cancelled', 'paid') and d.due_date is not null and d.outstanding > 0`,
    title: () => sql`'Bill ' || ${num} || ' due to ' || ${company} || ': ' || d.outstanding::text`,
  },
  {
    kind: "loan_due",
    resource: "loan_form",
    day: sql`d.due_date`,
    where: sql`d.status in ('out', 'partly_returned', 'overdue')`,
    title: () => sql`'Loan ' || ${num} || ' due back from ' || ${company}`,
  },
  {
    kind: "po_expected",
    resource: "purchase_order",
    day: sql`d.expected_date`,
    where: sql`d.status not in ('draft', 'cancelled', 'closed', 'completed') and d.expected_date is not null`,
    title: () => sql`'PO ' || ${num} || ' expected from ' || ${company}`,
  },
];

const catalog = CATALOG as Record<string, { route: string | null } | undefined>;

// A source's rows the caller may read, or null when they may read none of it.
function scopeOf(resource: string, caller: Caller): SQL | null {
  const def = findResource(resource);
  if (!def) return null;
  try {
    return readScope(def, caller, sql`d`) ?? sql`true`;
  } catch {
    return null;
  }
}

export async function calendarEvents(tx: Tx, caller: Caller, from: string, to: string): Promise<CalendarEvent[]> {
  const events: CalendarEvent[] = [];
  const challenges = scopeOf("team_challenge", caller);
  if (challenges) {
    const res = await tx.execute(sql`select d.id, d.name, d.start_date::text as start, d.end_date::text as end
      from team_challenge d where ${challenges} and d.status = 'active'
        and d.start_date <= ${to}::date and d.end_date >= ${from}::date
      order by d.start_date, d.id`);
    for (const r of res.rows as Array<{ id: number; name: string; start: string; end: string }>) {
      events.push({
        id: `team_challenge-${r.id}`,
        kind: "challenge",
        type: "team_challenge",
        doc_id: Number(r.id),
        title: `Challenge: ${r.name}`,
        start: r.start,
        end: r.end,
        url: `/dashboard/team-challenge?challenge=${r.id}`,
      });
    }
  }
  events.push(...(await leaveEvents(tx, caller, from, to)));
  for (const s of SOURCES) {
    const scope = scopeOf(s.resource, caller);
    if (!scope) continue;
    const res = await tx.execute(sql`select d.id, ${s.day}::text as day, ${s.title(sql`d`)} as title
      from ${sql.identifier(s.resource)} d
      where ${scope} and ${s.where} and ${s.day} between ${from}::date and ${to}::date
      order by ${s.day}, d.id limit 2000`);
    const route = catalog[s.resource]?.route;
    for (const r of res.rows as Array<{ id: number; day: string; title: string }>) {
      events.push({
        id: `${s.resource}-${r.id}`,
        kind: s.kind,
        type: s.resource,
        doc_id: Number(r.id),
        title: r.title,
        start: r.day,
        end: r.day,
        url: `/dashboard/${route}/${r.id}`,
      });
    }
  }
  return events;
}

// Issue 21 §4: the team leave calendar — approved leave the caller may read (everyone's for HR, their own) and
// their reports' (a manager plans around them), and the workspace's public holidays.
async function leaveEvents(tx: Tx, caller: Caller, from: string, to: string): Promise<CalendarEvent[]> {
  const events: CalendarEvent[] = [];
  const leave = scopeOf("leave_request", caller);
  if (leave) {
    const res = await tx.execute(sql`select d.id, e.name, t.name as type, d.half_day, d.start_date::text as start,
        d.end_date::text as end
      from leave_request d
      join employee e on e.workspace_id = d.workspace_id and e.id = d.employee_id
      join leave_type t on t.workspace_id = d.workspace_id and t.id = d.leave_type_id
      where d.workspace_id = ${caller.workspaceId}::uuid and d.status = 'approved'
        and d.start_date <= ${to}::date and d.end_date >= ${from}::date
        and (${leave} or exists (select 1 from employee m where m.workspace_id = e.workspace_id
          and m.id = e.manager_id and m.user_id = ${caller.userId}::uuid))
      order by d.start_date, d.id limit 2000`);
    for (const r of res.rows as Array<{ id: number; name: string; type: string; half_day: boolean } & Span>) {
      events.push({
        id: `leave_request-${r.id}`,
        kind: "leave",
        type: "leave_request",
        doc_id: Number(r.id),
        title: `On leave: ${r.name} (${r.type}${r.half_day ? ", half day" : ""})`,
        start: r.start,
        end: r.end,
        url: "/dashboard/hr",
      });
    }
  }
  const holidays = scopeOf("public_holiday", caller);
  if (holidays) {
    const res = await tx.execute(sql`select d.id, d.name, d.date::text as start, d.date::text as end
      from public_holiday d where ${holidays} and d.date between ${from}::date and ${to}::date order by d.date`);
    for (const r of res.rows as Array<{ id: number; name: string } & Span>) {
      events.push({
        id: `public_holiday-${r.id}`,
        kind: "holiday",
        type: "public_holiday",
        doc_id: Number(r.id),
        title: `Public holiday: ${r.name}`,
        start: r.start,
        end: r.end,
        url: "/dashboard/public-holidays",
      });
    }
  }
  return events;
}

type Span = { start: string; end: string };

// ---- the .ics feed ----------------------------------------------------------------------------------------------

export const hashFeedToken = (token: string) => createHash("sha256").update(token).digest("hex");

// The caller's feed token, made now (replacing the old one, which stops answering at once).
export async function newFeedToken(tx: Tx, caller: Caller): Promise<string> {
  const token = randomBytes(24).toString("hex");
  await tx.execute(sql`insert into calendar_feed (workspace_id, user_id, token_hash)
    values (${caller.workspaceId}::uuid, ${caller.userId}::uuid, ${hashFeedToken(token)})
    on conflict (workspace_id, user_id) do update set token_hash = excluded.token_hash, updated_at = now()`);
  return token;
}

export async function hasFeed(tx: Tx, caller: Caller): Promise<boolean> {
  const res = await tx.execute(sql`select 1 from calendar_feed
    where workspace_id = ${caller.workspaceId}::uuid and user_id = ${caller.userId}::uuid`);
  return res.rows.length > 0;
}

// Whose feed a token opens (the platform connection: the token names the workspace).
export async function feedOwner(db: Db, token: string): Promise<{ workspace_id: string; user_id: string } | null> {
  if (!/^[0-9a-f]{48}$/.test(token)) return null;
  const res = await db.execute(sql`select workspace_id::text, user_id::text from calendar_feed
    where token_hash = ${hashFeedToken(token)}`);
  return (res.rows[0] as { workspace_id: string; user_id: string } | undefined) ?? null;
}

// RFC 5545: CRLF line ends, lines folded at 75 octets, text escaped; all-day events (DTSTART;VALUE=DATE, DTEND the
// day after the last).
const icsText = (s: string) =>
  s.replace(/\\/g, "\\\\").replace(/;/g, "\\;").replace(/,/g, "\\,").replace(/\r?\n/g, "\\n");

function fold(line: string): string {
  const bytes = Buffer.from(line, "utf8");
  if (bytes.length <= 75) return line;
  const parts: string[] = [];
  let start = 0;
  let limit = 75;
  while (start < bytes.length) {
    let end = Math.min(start + limit, bytes.length);
    while (end < bytes.length && (bytes[end] & 0xc0) === 0x80) end--; // never split a UTF-8 character
    parts.push(bytes.subarray(start, end).toString("utf8"));
    start = end;
    limit = 74; // continuation lines begin with a space
  }
  return parts.join("\r\n ");
}

const compact = (day: string) => day.replaceAll("-", "");
const dayAfter = (day: string) => {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
};

export function icsCalendar(events: CalendarEvent[], opts: { name: string; origin: string; host: string }): string {
  const stamp = `${new Date().toISOString().replace(/[-:]/g, "").slice(0, 15)}Z`;
  const lines = [
    "BEGIN:VCALENDAR",
    "VERSION:2.0",
    "PRODID:-//Workmetrics//Calendar//EN",
    "CALSCALE:GREGORIAN",
    "METHOD:PUBLISH",
    `X-WR-CALNAME:${icsText(opts.name)}`,
  ];
  for (const e of events) {
    lines.push(
      "BEGIN:VEVENT",
      `UID:${e.id}@${opts.host.replace(/:\d+$/, "")}`, // the workspace's host without a port: stable
      `DTSTAMP:${stamp}`,
      `DTSTART;VALUE=DATE:${compact(e.start)}`,
      `DTEND;VALUE=DATE:${compact(dayAfter(e.end))}`,
      `SUMMARY:${icsText(e.title)}`,
      `URL:${opts.origin}${e.url}`,
      "END:VEVENT",
    );
  }
  lines.push("END:VCALENDAR");
  return `${lines.map(fold).join("\r\n")}\r\n`;
}
