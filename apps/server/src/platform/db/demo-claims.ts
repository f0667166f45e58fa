import { sql } from "drizzle-orm";
import { claimResponseRpc } from "../../modules/claims/response.rpc.ts";
import { recordPayment } from "../../modules/documents/record-payment.ts";
import { registerModules } from "../../modules/index.ts";
import { runConvert } from "../documents/convert.ts";
import { documentSpec } from "../documents/registry.ts";
import { saveDraft } from "../documents/save.ts";
import { loadLines, lockHeader, type Row } from "../documents/store.ts";
import { runTransition } from "../documents/transition.ts";
import { SEED_DEPS } from "../jobs/deps.ts";
import type { Caller } from "../rest/access.ts";
import type { Tx } from "./database.ts";
import { demoCalendar, demoTeam } from "./demo-trading.ts";

// Issue 12 demo: two projects billed by progressive claims, made through the engine's own commands (convert, save,
// transition, claim_response, record_payment) so the seed proves them. A Marina Bay office fit-out three claims in:
// each certified, the first two paid, the third partly (one response withholding for defects), a variation on the
// third, and a fourth claim drafted. A Toa Payoh clinic renovation finished: claimed to 100%, practical completion
// reached two months ago, the first half of its retention released by a release claim and the rest held until the
// defects liability period ends. Pro and Premium workspaces (the projects feature); Lite has none.

type Contract = { code: string; name: string; lines: Array<[string, string]> };

const FIT_OUT: Contract = {
  code: "PRJ-MBFO",
  name: "Marina Bay office fit-out, levels 12–14",
  lines: [
    ["Preliminaries and site management", "48000"],
    ["Partitions, ceilings and finishes", "252000"],
    ["M&E services: lighting, power and air-conditioning", "180000"],
  ],
};

const CLINIC: Contract = {
  code: "PRJ-TPYC",
  name: "Toa Payoh clinic renovation",
  lines: [
    ["Demolition and making good", "28000"],
    ["Renovation works: floors, walls, joinery", "96000"],
    ["Sanitary and plumbing", "26000"],
  ],
};

export async function seedClaims(tx: Tx, workspaceId: string, slug: string): Promise<void> {
  if (slug !== "demo" && slug !== "pro") return;
  registerModules();
  const ws = workspaceId;
  const date = await demoCalendar(tx);
  const who = await demoTeam(tx, ws, slug);
  const pm = who("progressive_claim.submit", "manager");
  const seller = who("sales_order.submit", "manager");
  const cashier = who("receipt.create", "finance", "accounts");
  await tx.execute(sql`select set_config('app.workspace_id', ${ws}, true)`);
  const customers = (
    await tx.execute(sql`select id from company where workspace_id = ${ws}::uuid and is_customer order by id limit 2`)
  ).rows.map((r) => Number((r as { id: number }).id));
  if (customers.length === 0) return;
  const customerB = customers[1] ?? customers[0];

  const project = async (c: Contract, company: number, start: number, pc: number | null, dlp: number | null) => {
    const res = await tx.execute(sql`insert into project (workspace_id, code, name, company_id, status, start_date,
        practical_completion_date, defects_liability_end_date, retention_release_percent, budget, description)
      values (${ws}::uuid, ${c.code}, ${c.name}, ${company}, ${pc === null ? "active" : "completed"}, ${date(start)}::date,
        ${pc === null ? null : date(pc)}::date, ${dlp === null ? null : date(dlp)}::date, 50,
        ${c.lines.reduce((s, [, a]) => s + Number(a), 0)}, 'Billed by progressive claims with 5% retention')
      on conflict (workspace_id, code) do nothing returning id`);
    return Number((res.rows[0] as { id: number } | undefined)?.id ?? 0);
  };

  const contract = async (c: Contract, company: number, projectId: number, daysAgo: number) => {
    const id = await saveDraft(tx, seller, documentSpec("sales_order"), {
      header: { company_id: company, project_id: projectId, doc_date: date(daysAgo), notes: `Contract: ${c.name}` },
      lines: c.lines.map(([description, amount]) => ({ description, qty: "1", unit_price: amount, tax_code: "SR" })),
    });
    await runTransition(tx, seller, documentSpec("sales_order"), { id, action: "submit" });
    return id;
  };

  const spec = documentSpec("progressive_claim");
  const claimOf = async (
    so: number,
    daysAgo: number,
    percents: string[],
    opts: { submit?: boolean; header?: Row; variations?: Row[] } = {},
  ) => {
    const id = await runConvert(tx, pm, documentSpec("sales_order"), spec, { id: so, header: opts.header ?? {} });
    const header = (await lockHeader(tx, spec, ws, id, false)) as Row;
    const lines = await loadLines(tx, spec, ws, id);
    await saveDraft(tx, pm, spec, {
      id,
      header: { company_id: header.company_id, project_id: header.project_id, doc_date: date(daysAgo) },
      lines: [
        ...lines.map((l, i) => ({
          description: l.description,
          source_line_id: l.source_line_id,
          prev_line_id: l.prev_line_id,
          contract_amount: l.contract_amount,
          cumulative_percent: percents[i] ?? l.cumulative_percent,
          tax_code: l.tax_code,
        })),
        ...(opts.variations ?? []),
      ],
    });
    if (opts.submit !== false) await runTransition(tx, pm, spec, { id, action: "submit" });
    return id;
  };
  const respond = async (id: number, daysAgo: number, certified: "all" | string, reasons?: string) => {
    const h = (await lockHeader(tx, spec, ws, id, false)) as Row;
    await claimResponseRpc.run(
      tx,
      {
        id,
        certified_amount: certified === "all" ? String(h.total) : certified,
        withheld_reasons: reasons ?? null,
        response_date: date(daysAgo),
      },
      pm,
      SEED_DEPS,
    );
  };
  const pay = async (id: number, company: number, daysAgo: number, amount?: string, by: Caller = cashier) => {
    const h = (await lockHeader(tx, spec, ws, id, false)) as Row;
    const paid = amount ?? String(h.outstanding);
    await recordPayment(tx, by, {
      type: "receipt",
      company_id: company,
      amount: paid,
      date: date(daysAgo),
      method: "bank_transfer",
      reference: `Progress payment ${h.number}`,
      allocations: [{ document_type: "progressive_claim", document_id: id, amount: paid }],
    });
  };

  // The fit-out: three claims certified, two paid, the third partly; a fourth drafted.
  const fitOut = await project(FIT_OUT, customers[0], 140, null, null);
  if (fitOut) {
    const so = await contract(FIT_OUT, customers[0], fitOut, 135);
    const pc1 = await claimOf(so, 100, ["100", "25", "10"], { header: { response_days: 21, payment_days: 30 } });
    await respond(pc1, 88, "all");
    await pay(pc1, customers[0], 70);
    const pc2 = await claimOf(so, 70, ["100", "55", "40"]);
    await respond(pc2, 58, "120000.00", "Ceiling works on level 13 not to specification: withheld until rectified");
    await pay(pc2, customers[0], 35);
    const pc3 = await claimOf(so, 40, ["100", "80", "70"], {
      variations: [
        {
          description: "VO-01 Additional glass partitions, level 14",
          contract_amount: "36000",
          cumulative_percent: "50",
        },
      ],
    });
    await respond(pc3, 28, "all");
    await pay(pc3, customers[0], 10, "50000.00");
    await claimOf(so, 2, ["100", "90", "85", "100"], { submit: false });
  }

  // The clinic: claimed to 100%, practical completion two months ago, the first half of the retention released.
  const clinic = await project(CLINIC, customerB, 200, 60, -305);
  if (clinic) {
    const so = await contract(CLINIC, customerB, clinic, 195);
    const c1 = await claimOf(so, 150, ["100", "40", "30"]);
    await respond(c1, 138, "all");
    await pay(c1, customerB, 120);
    const c2 = await claimOf(so, 75, ["100", "100", "100"]);
    await respond(c2, 66, "all");
    await pay(c2, customerB, 40);
    // Claimed last fortnight, certified, not yet due.
    const release = await claimOf(so, 12, [], { header: { kind: "release" } });
    await respond(release, 5, "all");
  }
}
