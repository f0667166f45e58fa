import { COMMANDS } from "@workmetrics/domain/commands";
import { DocumentError, dec, plain } from "@workmetrics/domain/documents/decimal";
import {
  DEFAULT_PREFIXES,
  isNumberedType,
  NUMBERED_TYPES,
  normalizePrefix,
  type PrefixSettings,
  prefixConflict,
  prefixError,
  prefixFor,
} from "@workmetrics/domain/documents/numbering";
import { sql } from "drizzle-orm";
import type { z } from "zod";
import type { Tx } from "../../platform/db/database.ts";
import { invalid } from "../../platform/documents/refusals.ts";
import { type DocumentSettings, documentSettings } from "../../platform/documents/settings.ts";
import type { Caller } from "../../platform/rest/access.ts";
import { implement } from "../../platform/rest/rpc/command.ts";

// Issue 10 §1–2: a workspace's document settings — number prefixes per type, the over-delivery and over-billing
// allowances (%), negative stock allowed or not. Read by any member who reads the workspace (document_settings);
// saved by whoever may change the workspace's settings, owners and admins by default (document_settings_save). A
// save gives only what changes; a prefix set back to its default is dropped from the row. Issue 11 adds the purchase
// order approval threshold and the three-way check's tolerances (null clears the threshold or the money cap).

type Answer = DocumentSettings & { defaults: typeof DEFAULT_PREFIXES };

const answer = (s: DocumentSettings): Answer => ({ ...s, defaults: DEFAULT_PREFIXES });

export const documentSettingsRpc = implement(COMMANDS.document_settings, {
  run: async (tx, _args, caller) => answer(await documentSettings(tx, caller.workspaceId as string)),
});

type SaveArgs = z.output<typeof COMMANDS.document_settings_save.args>;

// A number a clerk typed, or a refusal on its field ("abc" is not a 500).
function number(value: string, what: string, field: string) {
  try {
    return dec(value, what);
  } catch (err) {
    if (err instanceof DocumentError) throw invalid(err.message, field);
    throw err;
  }
}

function allowance(value: string, field: string): string {
  const n = number(value, "The allowance", field);
  if (n.isNegative() || n.greaterThan(1000)) throw invalid("An allowance is a percentage from 0 to 1000", field);
  if (n.decimalPlaces() > 2) throw invalid("An allowance has at most two decimals", field);
  return plain(n);
}

// An amount in money (the approval threshold, the three-way cap): 0 or more, cents at most; null or "" clears it.
function amount(value: string | null | undefined, now: string | null, field: string): string | null {
  if (value === undefined) return now;
  if (value === null || value.trim() === "") return null;
  const n = number(value, "The amount", field);
  if (n.isNegative()) throw invalid("An amount cannot be negative", field);
  if (n.decimalPlaces() > 2) throw invalid("An amount has at most two decimals", field);
  if (n.greaterThan("999999999999")) throw invalid("That amount is too large", field);
  return plain(n);
}

const tolerance = (value: string | undefined, now: string, field: string) =>
  value == null ? now : allowance(value, field);

// The default warehouse a clerk chose: one of the workspace's active ordinary locations (not In transit or On loan,
// where goods cannot be sent from or received into), or null to choose none.
async function defaultLocation(tx: Tx, ws: string, id: number | null): Promise<number | null> {
  if (id === null) return null;
  const res = await tx.execute(sql`select l.active, s.kind from location l
    left join system_location s on s.workspace_id = l.workspace_id and s.location_id = l.id
    where l.workspace_id = ${ws}::uuid and l.id = ${id}`);
  const row = res.rows[0] as { active: boolean; kind: string | null } | undefined;
  if (!row) throw invalid("There is no such location", "default_location_id");
  if (row.kind) throw invalid("Goods are not sent from or received into In transit or On loan", "default_location_id");
  if (!row.active) throw invalid("That location is inactive; choose an active one", "default_location_id");
  return id;
}

async function saveSettings(tx: Tx, caller: Caller, args: SaveArgs): Promise<Answer> {
  const ws = caller.workspaceId as string;
  const now = await documentSettings(tx, ws);
  const prefixes: PrefixSettings = { ...now.prefixes };
  for (const [type, given] of Object.entries(args.prefixes ?? {})) {
    if (!isNumberedType(type)) throw invalid(`There is no numbered document type "${type}"`, `prefixes.${type}`);
    const prefix = given == null ? "" : normalizePrefix(given);
    if (prefix === "" || prefix === DEFAULT_PREFIXES[type]) {
      delete prefixes[type];
      continue;
    }
    const problem = prefixError(prefix);
    if (problem) throw invalid(problem, `prefixes.${type}`);
    prefixes[type] = prefix;
  }
  // A prefix given now that another type already prints is refused for the type given (the clerk's change).
  for (const type of Object.keys(args.prefixes ?? {})) {
    if (!isNumberedType(type)) continue;
    const mine = prefixFor(type, prefixes);
    const other = NUMBERED_TYPES.find((t) => t !== type && prefixFor(t, prefixes) === mine);
    if (other) {
      const name = (t: string) => t.replaceAll("_", " ");
      throw invalid(
        `${mine} is already the prefix of ${name(other)}; choose another for ${name(type)}`,
        `prefixes.${type}`,
      );
    }
  }
  const clash = prefixConflict(prefixes);
  if (clash) throw invalid(clash, "prefixes");
  const next: DocumentSettings = {
    prefixes,
    over_delivery_allowance:
      args.over_delivery_allowance == null
        ? now.over_delivery_allowance
        : allowance(args.over_delivery_allowance, "over_delivery_allowance"),
    over_billing_allowance:
      args.over_billing_allowance == null
        ? now.over_billing_allowance
        : allowance(args.over_billing_allowance, "over_billing_allowance"),
    allow_negative_stock: args.allow_negative_stock ?? now.allow_negative_stock,
    po_approval_threshold: amount(args.po_approval_threshold, now.po_approval_threshold, "po_approval_threshold"),
    match_qty_tolerance: tolerance(args.match_qty_tolerance, now.match_qty_tolerance, "match_qty_tolerance"),
    match_price_tolerance: tolerance(args.match_price_tolerance, now.match_price_tolerance, "match_price_tolerance"),
    match_amount_tolerance: amount(args.match_amount_tolerance, now.match_amount_tolerance, "match_amount_tolerance"),
    default_location_id:
      args.default_location_id === undefined
        ? now.default_location_id
        : await defaultLocation(tx, ws, args.default_location_id),
  };
  await tx.execute(sql`insert into document_setting (workspace_id, prefixes, over_delivery_allowance,
      over_billing_allowance, allow_negative_stock, po_approval_threshold, match_qty_tolerance, match_price_tolerance,
      match_amount_tolerance, default_location_id, updated_by, updated_at)
    values (${ws}::uuid, ${JSON.stringify(next.prefixes)}::jsonb, ${next.over_delivery_allowance}::numeric,
      ${next.over_billing_allowance}::numeric, ${next.allow_negative_stock}, ${next.po_approval_threshold}::numeric,
      ${next.match_qty_tolerance}::numeric, ${next.match_price_tolerance}::numeric,
      ${next.match_amount_tolerance}::numeric, ${next.default_location_id}::bigint, ${caller.userId}::uuid, now())
    on conflict (workspace_id) do update set prefixes = excluded.prefixes,
      over_delivery_allowance = excluded.over_delivery_allowance,
      over_billing_allowance = excluded.over_billing_allowance,
      allow_negative_stock = excluded.allow_negative_stock, po_approval_threshold = excluded.po_approval_threshold,
      match_qty_tolerance = excluded.match_qty_tolerance, match_price_tolerance = excluded.match_price_tolerance,
      match_amount_tolerance = excluded.match_amount_tolerance, default_location_id = excluded.default_location_id,
      updated_by = excluded.updated_by,
      updated_at = now()`);
  return answer(await documentSettings(tx, ws, true));
}

export const documentSettingsSaveRpc = implement(COMMANDS.document_settings_save, {
  run: (tx, args, caller) => saveSettings(tx, caller, args),
});
