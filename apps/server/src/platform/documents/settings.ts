import { plain } from "@workmetrics/domain/documents/decimal";
import type { PrefixSettings } from "@workmetrics/domain/documents/numbering";
import type { QtyField } from "@workmetrics/domain/documents/quantities";
import { type SQL, sql } from "drizzle-orm";
import type { Tx } from "../db/database.ts";

// A workspace's document settings (issue 10 §1–2): number prefixes, the over-delivery and over-billing allowances
// (% of a line's quantity) and whether stock may go below zero. One row per workspace, absent until first saved:
// the defaults (DESIGN §2.3.1's prefixes, 0%, no negative stock) apply until then.

export type DocumentSettings = {
  prefixes: PrefixSettings;
  over_delivery_allowance: string;
  over_billing_allowance: string;
  allow_negative_stock: boolean;
  // Purchasing (issue 11): the base-currency total above which a purchase order needs approval (null: none does);
  // the three-way check's tolerances, % over on quantity and price, and a cap in money on either (null: none).
  po_approval_threshold: string | null;
  match_qty_tolerance: string;
  match_price_tolerance: string;
  match_amount_tolerance: string | null;
  // Issue 21 §1: the workspace's default warehouse for deliveries and receipts (null: none chosen).
  default_location_id: number | null;
};

export const DEFAULT_DOCUMENT_SETTINGS: DocumentSettings = {
  prefixes: {},
  over_delivery_allowance: "0",
  over_billing_allowance: "0",
  allow_negative_stock: false,
  po_approval_threshold: null,
  match_qty_tolerance: "0",
  match_price_tolerance: "0",
  match_amount_tolerance: null,
  default_location_id: null,
};

// Read once per transaction and workspace (numbering and every drawn line ask for them); `fresh` after saving them.
// Keyed by workspace too: a transaction may act for a second workspace (asWorkspace, issue 20 §3).
const cached = new WeakMap<object, Map<string, Promise<DocumentSettings>>>();

const cachedFor = (tx: Tx, ws: string): Promise<DocumentSettings> | undefined => cached.get(tx)?.get(ws);

function keep(tx: Tx, ws: string, settings: Promise<DocumentSettings>): void {
  if (!("rollback" in tx)) return;
  const known = cached.get(tx) ?? new Map<string, Promise<DocumentSettings>>();
  known.set(ws, settings);
  cached.set(tx, known);
}

export function documentSettings(tx: Tx, ws: string, fresh = false): Promise<DocumentSettings> {
  const known = cachedFor(tx, ws);
  if (known && !fresh) return known;
  const read = readSettings(tx, ws);
  keep(tx, ws, read);
  return read;
}

// The prefixes when this transaction has read the workspace's settings already, else undefined.
export async function knownPrefixes(tx: Tx, ws: string): Promise<PrefixSettings | undefined> {
  return (await cachedFor(tx, ws))?.prefixes;
}

// A stored prefixes value (jsonb: an object, or its text on some drivers).
export const readPrefixes = (v: unknown): PrefixSettings =>
  ((typeof v === "string" ? JSON.parse(v) : v) ?? {}) as PrefixSettings;

async function readSettings(tx: Tx, ws: string): Promise<DocumentSettings> {
  const res = await tx.execute(sql`select ${settingsJson(ws)} as s`);
  return parseSettings((res.rows[0] as { s: unknown }).s);
}

// The workspace's settings row as one JSON value (null when never saved), numbers as text: a column of any read.
export const settingsJson = (ws: string): SQL => sql`(select json_build_object('prefixes', prefixes,
      'over_delivery_allowance', over_delivery_allowance::text, 'over_billing_allowance', over_billing_allowance::text,
      'allow_negative_stock', allow_negative_stock, 'po_approval_threshold', po_approval_threshold::text,
      'match_qty_tolerance', match_qty_tolerance::text, 'match_price_tolerance', match_price_tolerance::text,
      'match_amount_tolerance', match_amount_tolerance::text, 'default_location_id', default_location_id)
    from document_setting where workspace_id = ${ws}::uuid)`;

// Keeps the workspace's settings read along another statement (settingsJson) as this transaction's.
export function primeSettings(tx: Tx, ws: string, json: unknown): void {
  if (!cachedFor(tx, ws)) keep(tx, ws, Promise.resolve(parseSettings(json)));
}

export const settingsKnown = (tx: Tx, ws: string): boolean => cachedFor(tx, ws) !== undefined;

function parseSettings(json: unknown): DocumentSettings {
  const row = (typeof json === "string" ? JSON.parse(json) : json) as
    | (Omit<DocumentSettings, "prefixes"> & { prefixes: unknown })
    | null;
  if (!row) return DEFAULT_DOCUMENT_SETTINGS;
  return {
    prefixes: readPrefixes(row.prefixes),
    over_delivery_allowance: plain(row.over_delivery_allowance), // "5", not "5.00"
    over_billing_allowance: plain(row.over_billing_allowance),
    allow_negative_stock: Boolean(row.allow_negative_stock),
    po_approval_threshold: row.po_approval_threshold == null ? null : plain(row.po_approval_threshold),
    match_qty_tolerance: plain(row.match_qty_tolerance),
    match_price_tolerance: plain(row.match_price_tolerance),
    match_amount_tolerance: row.match_amount_tolerance == null ? null : plain(row.match_amount_tolerance),
    default_location_id: row.default_location_id == null ? null : Number(row.default_location_id),
  };
}

// The allowance a drawn quantity gets: deliveries and receipts the over-delivery %, billing the over-billing %;
// returns and credits none (nobody returns more than was delivered).
export function allowanceFor(settings: DocumentSettings, field: QtyField): string {
  if (field === "qty_delivered" || field === "qty_received") return settings.over_delivery_allowance;
  if (field === "qty_billed") return settings.over_billing_allowance;
  return "0";
}
