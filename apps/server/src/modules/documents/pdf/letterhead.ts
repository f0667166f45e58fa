import { BRAND } from "@workmetrics/domain";
import { sql } from "drizzle-orm";
import type { Tx } from "../../../platform/db/database.ts";
import type { Letterhead } from "./layout.ts";

// The workspace as its documents print it: name, logo (a data URL on the workspace row, migration 0007), brand
// colours, and what a Singapore tax invoice must name of the seller — address, UEN and GST registration number
// (migration 0022, kept in Workspace settings → Business details).

const DETAILS: Array<{ key: string; label: string }> = [
  { key: "business_address", label: "" },
  { key: "uen", label: "UEN " },
  { key: "gst_registration_number", label: "GST Reg. No. " },
];

const IMAGE = /^data:image\/(png|jpeg);base64,([A-Za-z0-9+/=]+)$/;

export type Workspace = { id: string; name: string; baseCurrency: string; head: Letterhead };

export async function loadWorkspace(tx: Tx, workspaceId: string): Promise<Workspace> {
  const res = await tx.execute(sql`select to_jsonb(w) as row from workspace w where w.id = ${workspaceId}::uuid`);
  const row = ((res.rows[0] as { row: Record<string, unknown> } | undefined)?.row ?? {}) as Record<string, unknown>;
  const text = (key: string) => (typeof row[key] === "string" && (row[key] as string).trim()) || null;
  const lines: string[] = [];
  for (const d of DETAILS) {
    const value = text(d.key);
    if (value) lines.push(...`${d.label}${value}`.split("\n").filter((l) => l.trim()));
  }
  const logo = IMAGE.exec(text("logo") ?? "");
  const name = text("name") ?? "Workmetrics";
  return {
    id: workspaceId,
    name,
    baseCurrency: text("base_currency") ?? "SGD",
    head: {
      name,
      lines,
      logo: logo ? Buffer.from(logo[2], "base64") : null,
      primary: text("primary_color") ?? BRAND.primary,
      secondary: text("secondary_color") ?? BRAND.secondary,
    },
  };
}
