import { COMMANDS, type CommandName } from "@workmetrics/domain/commands";
import { beforeAll, describe, expect, it } from "vitest";
import { rpc } from "./documents-helpers.ts";
import { ownServer } from "./own-server-helpers.ts";
import { restFetch } from "./rest-helpers.ts";

// Issue 20 §2: a sample of commands called on the real server, each answer checked against the result schema of
// its declaration in packages/domain/src/commands — what the web's typed client promises its callers. The type
// check holds the server's code to the declarations; this holds the answers as they travel (JSON, each engine's
// types: int8, numeric, timestamps) to them, on PGlite and on PostgreSQL. A server of its own with the demo's year
// of trading, so the answers have rows to check (entries, statements, challenges, history).

ownServer({ SEED: "demo" });

const OWNER = "owner@demo.test";
const SUPPLIER = "supplier@demo.test";

type Ids = { invoice: number; product: number; entry: number; customer: number; item: number };
let ids: Ids;

async function first(path: string): Promise<number> {
  const res = await restFetch(OWNER, path);
  expect(res.status, res.text).toBe(200);
  const [row] = res.body as Array<{ id: number }>;
  expect(row, path).toBeDefined();
  return row.id;
}

const today = new Date().toISOString().slice(0, 10);
const monthAgo = new Date(Date.now() - 30 * 86_400_000).toISOString().slice(0, 10);

// What each sampled command is called with (its declared arguments), and by whom.
type Sample = { [N in CommandName]: { name: N; as?: string; args: (ids: Ids) => unknown } }[CommandName];
const SAMPLES: Sample[] = [
  { name: "dashboard_summary", args: () => ({}) },
  { name: "stock_levels", args: () => ({ limit: 5 }) },
  { name: "stock_card", args: (i) => ({ product_id: i.product, limit: 5 }) },
  { name: "stock_on_hand", args: (i) => ({ product_ids: [i.product] }) },
  { name: "document_list_totals", args: () => ({ type: "invoice", filters: [["status", "neq.draft"]] }) },
  { name: "document_history", args: (i) => ({ type: "invoice", id: i.invoice }) },
  { name: "document_actions", args: (i) => ({ type: "invoice", id: i.invoice }) },
  { name: "document_labels", args: (i) => ({ type: "invoice", id: i.invoice }) },
  {
    name: "document_save",
    args: (i) => ({
      type: "quotation",
      header: { company_id: i.customer, doc_date: today },
      lines: [{ product_id: i.item, qty: "1" }],
    }),
  },
  { name: "document_settings", args: () => ({}) },
  { name: "journal_list", args: () => ({ limit: 5 }) },
  { name: "journal_get", args: (i) => ({ id: i.entry }) },
  { name: "account_balances", args: () => ({}) },
  { name: "books_settings_get", args: () => ({}) },
  {
    name: "opening_balances",
    args: () => ({ as_of: monthAgo, rows: [{ account_code: "1000", debit: "10.00" }, { account_code: "nope" }] }),
  },
  { name: "commission_rules", args: () => ({}) },
  { name: "commission_statements", args: () => ({}) },
  { name: "team_challenges", args: () => ({}) },
  { name: "calendar_events", args: () => ({ from: monthAgo, to: today }) },
  { name: "calendar_feed", args: () => ({}) },
  { name: "memo_inbox", args: () => ({ limit: 5 }) },
  { name: "report", args: () => ({ name: "ar_ageing", as_of: today }) },
  { name: "report", args: () => ({ name: "trial_balance", from: monthAgo, to: today }) },
  // A bad row refuses the whole file: the answer says so and nothing is written.
  { name: "csv_import", args: () => ({ resource: "product", rows: [{ name: "" }] }) },
  { name: "supplier_discount_forms_mine", as: SUPPLIER, args: () => ({}) },
];

describe("command answers match their declarations (issue 20 §2)", () => {
  beforeAll(async () => {
    ids = {
      invoice: await first("invoice?select=id&status=neq.draft&order=id&limit=1"),
      product: await first("product?select=id&is_stock_tracked=is.true&order=id&limit=1"),
      entry: await first("journal_entry?select=id&order=id&limit=1"),
      customer: await first("company?select=id&is_customer=is.true&order=id&limit=1"),
      item: await first("product?select=id&price=gt.0&order=id&limit=1"),
    };
  });

  it.each(SAMPLES.map((s, i) => [`${s.name} #${i}`, s] as const))("%s", async (_label, sample) => {
    const decl = COMMANDS[sample.name];
    const args = sample.args(ids);
    // The sample itself is what the client may send.
    expect(decl.args.safeParse(args).success, `${sample.name}: its arguments`).toBe(true);
    const res = await rpc(sample.as ?? OWNER, sample.name, args);
    expect(res.status, `${sample.name}: ${res.text}`).toBe(200);
    const parsed = decl.result.safeParse(res.body);
    const issues = parsed.success
      ? []
      : parsed.error.issues.slice(0, 5).map((x) => `${x.path.join(".")}: ${x.message}`);
    expect(issues, `${sample.name} answered ${res.text.slice(0, 400)}`).toEqual([]);
  });

  it("samples answers that are not empty, so the schemas are tested on rows", async () => {
    const levels = await rpc(OWNER, "stock_levels", { limit: 5 });
    expect((levels.body as { rows: unknown[] }).rows.length).toBeGreaterThan(0);
    const history = await rpc(OWNER, "document_history", { type: "invoice", id: ids.invoice });
    expect((history.body as unknown[]).length).toBeGreaterThan(0);
  });

  it("a drifted answer fails its schema (the check can fail)", async () => {
    const res = await rpc(OWNER, "stock_levels", { limit: 1 });
    const body = res.body as { rows: Array<Record<string, unknown>>; total: number };
    const drifted = { ...body, rows: body.rows.map((r) => ({ ...r, on_hand: Number(r.on_hand) })) };
    expect(COMMANDS.stock_levels.result.safeParse(drifted).success).toBe(false);
  });
});
