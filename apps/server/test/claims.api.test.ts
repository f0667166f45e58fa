import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { customer, type Doc, ok, read, rpc } from "./documents-helpers.ts";
import { ownServer } from "./own-server-helpers.ts";
import { restFetch, tokenFor } from "./rest-helpers.ts";

// Issue 12 "Progressive claims": claims made from a contract (a submitted sales order) with cumulative percentages;
// the anchor 30% → 70% → 100% on 100,000 at 5% retention capped at 5%; the cap never exceeded; variations; release
// claims and their refusals; Dolibarr's bugs (DOCUMENTS.md) each shown done right; SOP Act dates; the payment
// response; receipts paying a claim; cancel rules; postings on 1100/1110/4010/2200; the retention schedule; the
// PDF; gating (Lite) and isolation (another workspace sees none of it).

const MANAGER = "manager@demo.test";
const THEM = "owner@pro.test";
const LITE = "owner@lite.test";
const own = ownServer();
const { q } = own;
let company = 0;

const message = (res: { body: unknown }) => (res.body as { message: string }).message;
const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

// A project of the demo workspace with the given dates.
async function project(code: string, dates: { pc?: string | null; dlp?: string | null } = {}): Promise<number> {
  const rows = await q<{ id: string }>(sql`insert into project (workspace_id, code, name, company_id,
      practical_completion_date, defects_liability_end_date, retention_release_percent)
    values (${own.ws}::uuid, ${code}, ${`Project ${code}`}, ${company}, ${dates.pc ?? null}::date, ${dates.dlp ?? null}::date, 50)
    returning id::text as id`);
  return Number(rows[0].id);
}

// A submitted contract of the given line amounts (services by description, SR).
async function contract(amounts: string[], projectId: number | null = null): Promise<Doc> {
  const so = await ok(MANAGER, "document_save", {
    type: "sales_order",
    header: { company_id: company, project_id: projectId },
    lines: amounts.map((a, i) => ({ description: `Works package ${i + 1}`, qty: "1", unit_price: a, tax_code: "SR" })),
  });
  return ok(MANAGER, "document_transition", { type: "sales_order", id: so.id, action: "submit" });
}

const convert = (so: number, header: Record<string, unknown> = {}, email = MANAGER) =>
  rpc(email, "document_convert", { type: "sales_order", id: so, to: "progressive_claim", header });

// A draft claim of the contract with each line's cumulative percentage (and extra variation lines).
async function claimDraft(so: number, percents: string[], extra: Array<Record<string, unknown>> = [], header = {}) {
  const made = await convert(so, header);
  expect(made.status, made.text).toBe(200);
  const d = await read(MANAGER, "progressive_claim", (made.body as Doc).id);
  return save(d, percents, extra);
}

async function save(d: Doc, percents: string[], extra: Array<Record<string, unknown>> = []) {
  return rpc(MANAGER, "document_save", {
    type: "progressive_claim",
    id: d.id,
    header: { company_id: d.company_id, project_id: d.project_id },
    lines: [
      ...d.lines.map((l, i) => ({
        description: l.description,
        source_line_id: l.source_line_id,
        prev_line_id: l.prev_line_id,
        contract_amount: l.contract_amount,
        cumulative_percent: percents[i] ?? l.cumulative_percent,
        tax_code: l.tax_code,
      })),
      ...extra,
    ],
  });
}

const submit = (id: number) => rpc(MANAGER, "document_transition", { type: "progressive_claim", id, action: "submit" });

async function claim(so: number, percents: string[], extra: Array<Record<string, unknown>> = [], header = {}) {
  const saved = await claimDraft(so, percents, extra, header);
  expect(saved.status, saved.text).toBe(200);
  const res = await submit((saved.body as Doc).id);
  expect(res.status, res.text).toBe(200);
  return res.body as Doc;
}

const journal = (id: number) =>
  q<{ account_code: string; debit: string; credit: string }>(sql`
    select l.account_code, l.debit::text as debit, l.credit::text as credit
    from journal_entry e join journal_line l on l.workspace_id = e.workspace_id and l.entry_id = e.id
    where e.workspace_id = ${own.ws}::uuid and e.source_type = 'progressive_claim' and e.source_id = ${id}
    order by e.id, l.line_no`);

const figures = (d: Doc) => ({
  gross_to_date: d.gross_to_date,
  previous_gross: d.previous_gross,
  this_claim_gross: d.this_claim_gross,
  retention_to_date: d.retention_to_date,
  retention_this_claim: d.retention_this_claim,
  subtotal: d.subtotal,
  tax_total: d.tax_total,
  total: d.total,
});

beforeAll(async () => {
  company = await customer(MANAGER);
}, 600_000);

describe("progressive claims", () => {
  it("30% → 70% → 100% on 100,000 at 5% capped at 5%: retention 1,500 → 3,500 → 5,000 (1,500 / 2,000 / 1,500)", async () => {
    const so = await contract(["60000", "40000"]);
    const first = await claim(so.id, ["30", "30"]);
    expect(first).toMatchObject({
      status: "claimed",
      number: expect.stringMatching(/^PC-\d{4}-\d{5}$/),
      contract_sum: "100000.00",
      retention_percent: "5.00",
      retention_cap_percent: "5.00",
    });
    expect(figures(first)).toEqual({
      gross_to_date: "30000.00",
      previous_gross: "0.00",
      this_claim_gross: "30000.00",
      retention_to_date: "1500.00",
      retention_this_claim: "1500.00",
      subtotal: "28500.00",
      tax_total: "2565.00",
      total: "31065.00",
    });
    expect(first.lines.map((l) => [l.prev_percent, l.cumulative_percent, l.amount_to_date, l.line_total])).toEqual([
      ["0.0000", "30.0000", "18000.00", "18000.00"],
      ["0.0000", "30.0000", "12000.00", "12000.00"],
    ]);
    const second = await claim(so.id, ["70", "70"]);
    expect(second.previous_claim_id).toBe(first.id);
    expect(second.lines.map((l) => l.prev_percent)).toEqual(["30.0000", "30.0000"]);
    expect(figures(second)).toMatchObject({
      gross_to_date: "70000.00",
      previous_gross: "30000.00",
      this_claim_gross: "40000.00",
      retention_to_date: "3500.00",
      retention_this_claim: "2000.00",
      subtotal: "38000.00",
      tax_total: "3420.00",
      total: "41420.00",
    });
    const third = await claim(so.id, ["100", "100"]);
    // Dolibarr #14524: the final claim's retention is on the contract total (5% of 100,000), not on its own 30,000.
    expect(figures(third)).toMatchObject({
      gross_to_date: "100000.00",
      this_claim_gross: "30000.00",
      retention_to_date: "5000.00",
      retention_this_claim: "1500.00",
      subtotal: "28500.00",
    });
    // Postings: Dr 1100 total + Dr 1110 retention / Cr 4010 this claim / Cr 2200 GST.
    expect(await journal(second.id)).toEqual([
      { account_code: "1100", debit: "41420.00", credit: "0.00" },
      { account_code: "1110", debit: "2000.00", credit: "0.00" },
      { account_code: "4010", debit: "0.00", credit: "40000.00" },
      { account_code: "2200", debit: "0.00", credit: "3420.00" },
    ]);
    const held = await q<{ n: string }>(sql`select coalesce(sum(l.debit - l.credit), 0)::text as n
      from journal_line l join journal_entry e on e.workspace_id = l.workspace_id and e.id = l.entry_id
      where l.workspace_id = ${own.ws}::uuid and l.account_code = '1110' and e.source_type = 'progressive_claim'
        and e.source_id = any(${`{${[first.id, second.id, third.id].join(",")}}`}::bigint[])`);
    expect(held[0].n).toBe("5000.00");
    // Nothing left to claim: a fourth claim at 100% claims nothing.
    const fourth = await claimDraft(so.id, ["100", "100"]);
    const none = await submit((fourth.body as Doc).id);
    expect(none.status).toBe(409);
    expect(message(none)).toBe("Nothing is claimed: raise the work done to date on at least one line");
    // Cancel the first while later claims stand: refused, naming the later one.
    const early = await rpc(MANAGER, "document_transition", {
      type: "progressive_claim",
      id: first.id,
      action: "cancel",
    });
    expect(early.status).toBe(409);
    expect(message(early)).toBe(`${second.number} was claimed after this claim: cancel it first`);
    // The last one can be cancelled: its entry reversed.
    const undo = await rpc(MANAGER, "document_transition", {
      type: "progressive_claim",
      id: third.id,
      action: "cancel",
    });
    expect(undo.status, undo.text).toBe(200);
    const lines = await journal(third.id);
    const net = lines.reduce((s, l) => s + Math.round((Number(l.debit) - Number(l.credit)) * 100), 0);
    expect(lines.length).toBe(8);
    expect(net).toBe(0);
  });

  it("the retention never exceeds its cap, however many claims at whatever percentages", async () => {
    // 8% retention capped at 3% of the contract: the cap binds early.
    const so = await contract(["12345.67", "7654.33"]);
    let pct = 0;
    let held = 0;
    let first = true;
    const seen: string[] = [];
    for (const step of [7.5, 13.125, 0.333, 21, 9.9, 30, 18.142]) {
      pct = Math.min(100, Math.round((pct + step) * 1000) / 1000);
      const d = await claim(
        so.id,
        [String(pct), String(pct)],
        [],
        first ? { retention_percent: "8", retention_cap_percent: "3" } : {},
      );
      first = false;
      held += Math.round(Number(d.retention_this_claim) * 100);
      seen.push(String(d.retention_to_date));
      expect(Number(d.retention_to_date)).toBeLessThanOrEqual(600);
      expect(held).toBe(Math.round(Number(d.retention_to_date) * 100));
      expect(Number(d.retention_this_claim)).toBeGreaterThanOrEqual(0);
    }
    expect(pct).toBe(100);
    expect(seen.at(-1)).toBe("600.00");
  });

  it("the work done to date cannot go down or pass 100%, naming the line", async () => {
    const so = await contract(["50000"]);
    await claim(so.id, ["40"]);
    const down = await claimDraft(so.id, ["35"]);
    expect(down.status).toBe(422);
    expect(message(down)).toBe(
      "Line 1 (Works package 1): the work done to date cannot go down to 35%; 40% was claimed before",
    );
    const over = await claimDraft(so.id, ["100.5"]);
    expect(over.status).toBe(422);
    expect(over.body).toMatchObject({
      message: "Done to date % cannot be more than 100",
      details: [expect.objectContaining({ field: "lines.0.cumulative_percent" })],
    });
  });

  it("variations add to the contract sum from their claim on and are carried to later claims", async () => {
    const so = await contract(["100000"]);
    const a = await claim(
      so.id,
      ["50"],
      [{ description: "VO1 extra piling", contract_amount: "20000", cumulative_percent: "50" }],
    );
    expect(a).toMatchObject({ contract_sum: "120000.00", gross_to_date: "60000.00", retention_to_date: "3000.00" });
    expect(a.lines[1]).toMatchObject({ is_variation: true, contract_amount: "20000.00", line_total: "10000.00" });
    const made = await convert(so.id);
    const next = await read(MANAGER, "progressive_claim", (made.body as Doc).id);
    expect(next.lines.map((l) => [l.description, l.cumulative_percent, l.is_variation])).toEqual([
      ["Works package 1", "50.0000", false],
      ["VO1 extra piling", "50.0000", true],
    ]);
    // The variation's agreed amount is fixed once claimed.
    const changed = await rpc(MANAGER, "document_save", {
      type: "progressive_claim",
      id: next.id,
      header: { company_id: company },
      lines: [
        { source_line_id: next.lines[0].source_line_id, cumulative_percent: "100" },
        { prev_line_id: next.lines[1].prev_line_id, description: "VO1 extra piling", contract_amount: "25000" },
      ],
    });
    expect(changed.status).toBe(422);
    expect(message(changed)).toBe(
      "Line 2: the contract amount of a variation claimed before cannot change (it is 20000.00)",
    );
    // Dropping it is refused: a claim carries every line of the one before.
    const dropped = await rpc(MANAGER, "document_save", {
      type: "progressive_claim",
      id: next.id,
      header: { company_id: company },
      lines: [{ source_line_id: next.lines[0].source_line_id, cumulative_percent: "100" }],
    });
    expect(dropped.status).toBe(422);
    expect(message(dropped)).toBe(
      `Line 2 of ${a.number} (VO1 extra piling) is missing: a claim carries every line of the one before`,
    );
    const saved = await save(next, ["100", "100"]);
    expect(saved.status, saved.text).toBe(200);
    const done = (await submit(next.id)).body as Doc;
    // The cap follows the contract sum with its variations: 5% of 120,000.
    expect(done).toMatchObject({
      gross_to_date: "120000.00",
      this_claim_gross: "60000.00",
      retention_to_date: "6000.00",
    });
  });

  it("release claims: the practical-completion share, then the rest after the defects liability period", async () => {
    const dlpEnd = day(30);
    const pid = await project(`PC-REL-${Date.now()}`, { pc: null, dlp: dlpEnd });
    const so = await contract(["80000"], pid);
    const none = await convert(so.id, { kind: "release" });
    expect(none.status).toBe(409);
    expect(message(none)).toMatch(
      /^Record the practical completion date of project PC-REL-\d+ before releasing retention$/,
    );
    // The claim page asks first: the same refusal, so Release retention is offered disabled with it.
    const check = (id: number) => rpc(MANAGER, "claim_release_check", { sales_order_id: id });
    expect((await check(so.id)).body).toEqual({ refused: message(none), never: false });
    await claim(so.id, ["100"]); // 4,000 held
    await q(
      sql`update project set practical_completion_date = ${day(-1)}::date where workspace_id = ${own.ws}::uuid and id = ${pid}`,
    );
    expect((await check(so.id)).body).toEqual({ stage: "practical_completion", amount: "2000.00" });
    const made = await convert(so.id, { kind: "release" });
    expect(made.status, made.text).toBe(200);
    const draftRelease = made.body as Doc;
    expect(draftRelease).toMatchObject({
      kind: "release",
      release_stage: "practical_completion",
      contract_sum: "80000.00",
      subtotal: "2000.00",
    });
    expect(draftRelease.lines[0].description).toBe("Release of retention at practical completion (50%)");
    // More than is held: refused.
    const greedy = await rpc(MANAGER, "document_save", {
      type: "progressive_claim",
      id: draftRelease.id,
      header: { company_id: company },
      lines: [{ description: "Release", contract_amount: "4000.01" }],
    });
    expect(greedy.status).toBe(409);
    expect(message(greedy)).toBe("Only 4000.00 of retention is held on this contract; 4000.01 cannot be released");
    const released = (await submit(draftRelease.id)).body as Doc;
    expect(released).toMatchObject({
      status: "claimed",
      retention_this_claim: "-2000.00",
      tax_total: "180.00",
      total: "2180.00",
    });
    // GST on the retention when it is billed: Dr 1100 2,180 / Cr 1110 2,000 / Cr 2200 180.
    expect(await journal(released.id)).toEqual([
      { account_code: "1100", debit: "2180.00", credit: "0.00" },
      { account_code: "1110", debit: "0.00", credit: "2000.00" },
      { account_code: "2200", debit: "0.00", credit: "180.00" },
    ]);
    // The rest waits for the end of the defects liability period; the refusal names the date.
    const early = await convert(so.id, { kind: "release" });
    expect(early.status).toBe(409);
    expect(message(early)).toMatch(
      new RegExp(
        `^The defects liability period of project PC-REL-\\d+ ends on ${dlpEnd}: the rest of the retention is released from then$`,
      ),
    );
    // The schedule: held 4,000, released 2,000, the rest due at the end of the defects liability period.
    const schedule = await rpc(MANAGER, "report", { name: "retention_schedule", project_id: pid });
    expect(schedule.status, schedule.text).toBe(200);
    expect((schedule.body as { rows: unknown[] }).rows).toEqual([
      expect.objectContaining({
        contract: so.number,
        contract_sum: "80000.00",
        held: "4000.00",
        released: "2000.00",
        balance: "2000.00",
        due_at_completion: "0.00",
        due_at_end: "2000.00",
        defects_liability_end_date: dlpEnd,
      }),
    ]);
    // A progress claim whose retention was released cannot be cancelled before the release.
    await q(
      sql`update project set defects_liability_end_date = ${day(-1)}::date where workspace_id = ${own.ws}::uuid and id = ${pid}`,
    );
    const rest = await convert(so.id, { kind: "release" });
    expect(rest.status, rest.text).toBe(200);
    expect(rest.body as Doc).toMatchObject({ release_stage: "final", subtotal: "2000.00" });
    await submit((rest.body as Doc).id);
    const nothing = await convert(so.id, { kind: "release" });
    expect(nothing.status).toBe(409);
    expect(message(nothing)).toBe(
      `The retention of ${so.number} due at the end of the defects liability period is released already`,
    );
    expect((await check(so.id)).body).toEqual({ refused: message(nothing), never: false });
    // A contract without a project never releases retention: the page offers no Release retention at all.
    const bare = await contract(["1000"]);
    await claim(bare.id, ["50"]);
    const refused = await convert(bare.id, { kind: "release" });
    expect(refused.status).toBe(409);
    expect((await check(bare.id)).body).toEqual({ refused: message(refused), never: true });
  });

  it("SOP Act dates, the payment response, receipts paying a claim, and a paid claim cannot be cancelled", async () => {
    const so = await contract(["10000"]);
    const made = await claimDraft(so.id, ["50"], [], { response_days: 30, payment_days: 10 });
    const d = (await submit((made.body as Doc).id)).body as Doc;
    const date = String(d.doc_date);
    const plus = (iso: string, n: number) =>
      new Date(Date.parse(`${iso}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
    // s11: the contract's 30 days are cut to 21; s8: 10 days after the response is due.
    expect(d).toMatchObject({ response_due: plus(date, 21), due_date: plus(date, 31), outstanding: d.total });
    // Silent contract: 14 and 14.
    const silent = await claim((await contract(["1000"])).id, ["10"]);
    expect(silent).toMatchObject({
      response_due: plus(String(silent.doc_date), 14),
      due_date: plus(String(silent.doc_date), 28),
    });

    const bare = await rpc(MANAGER, "document_transition", { type: "progressive_claim", id: d.id, action: "certify" });
    expect(bare.status).toBe(409);
    const noReason = await rpc(MANAGER, "claim_response", { id: d.id, certified_amount: "5000.00" });
    expect(noReason.status).toBe(422);
    expect(message(noReason)).toBe("Give the reasons for withholding 177.50 (SOP Act s11)");
    const tooMuch = await rpc(MANAGER, "claim_response", { id: d.id, certified_amount: "99999" });
    expect(tooMuch.status).toBe(422);
    const certified = await rpc(MANAGER, "claim_response", {
      id: d.id,
      certified_amount: "5000.00",
      withheld_reasons: "Snagging on level 3 not complete",
    });
    expect(certified.status, certified.text).toBe(200);
    expect(certified.body).toMatchObject({
      status: "certified",
      certified_amount: "5000.00",
      withheld_amount: "177.50",
      withheld_reasons: "Snagging on level 3 not complete",
    });
    const again = await rpc(MANAGER, "claim_response", { id: d.id, certified_amount: "5177.50" });
    expect(again.status).toBe(409);

    // Dolibarr #38849: what is owed on a claim is its own total, never less the contract's whole retention.
    expect(d.outstanding).toBe(d.total);
    const pay = await rpc("finance@demo.test", "record_payment", {
      type: "receipt",
      company_id: company,
      amount: "5000.00",
      method: "bank_transfer",
      allocations: [{ document_type: "progressive_claim", document_id: d.id, amount: "5000.00" }],
    });
    expect(pay.status, pay.text).toBe(200);
    const after = await read(MANAGER, "progressive_claim", d.id);
    expect(after).toMatchObject({ status: "partly_paid", outstanding: "177.50" });
    const cancel = await rpc(MANAGER, "document_transition", { type: "progressive_claim", id: d.id, action: "cancel" });
    expect(cancel.status).toBe(409);
  });

  it("Dolibarr's bugs: retention on the amount before GST, on every claim alike, GST half-up on the claim less retention", async () => {
    // #26831: retention is a share of the work before GST (HT), never of the total with GST (TTC).
    // #28235/#38848: retention is held on every claim by the same rule, not only on the one marked final.
    // #38853: totals and GST add up — GST on (this claim − retention), half-up to cents; Dr = Cr.
    const so = await contract(["33333.33"]);
    const a = await claim(so.id, ["33.335"]);
    // 33,333.33 × 33.335% = 11,111.665… → 11,111.67; retention 5% = 555.58; net 10,556.09; GST 950.0481 → 950.05.
    expect(figures(a)).toEqual({
      gross_to_date: "11111.67",
      previous_gross: "0.00",
      this_claim_gross: "11111.67",
      retention_to_date: "555.58",
      retention_this_claim: "555.58",
      subtotal: "10556.09",
      tax_total: "950.05",
      total: "11506.14",
    });
    const b = await claim(so.id, ["66.67"]);
    expect(b.retention_this_claim).toBe(
      (Math.round(Number(b.gross_to_date) * 5) / 100 - Number(a.retention_to_date)).toFixed(2),
    );
    for (const id of [a.id, b.id]) {
      const lines = await journal(id);
      const dr = lines.reduce((s, l) => s + Math.round(Number(l.debit) * 100), 0);
      const cr = lines.reduce((s, l) => s + Math.round(Number(l.credit) * 100), 0);
      expect(dr).toBe(cr);
    }
  });

  it("prints the cumulative table with the SOP Act words", async () => {
    const so = await contract(["20000"]);
    await claim(so.id, ["25"]);
    const d = await claim(so.id, ["60"]);
    const res = await fetch(`${own.server.url}/api/documents/progressive_claim/${d.id}/pdf`, {
      headers: { authorization: `Bearer ${await tokenFor(MANAGER)}` },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("application/pdf");
    const dir = process.env.PDF_OUT ?? mkdtempSync(path.join(os.tmpdir(), "workmetrics-claim-"));
    const file = path.join(dir, `${d.number}.pdf`);
    writeFileSync(file, Buffer.from(await res.arrayBuffer()));
    const text = execFileSync("pdftotext", ["-layout", file, "-"], { encoding: "utf8" }).replace(/\s+/g, " ");
    expect(text).toContain("Progress Payment Claim");
    expect(text).toContain(String(d.number));
    // The line: contract, previous 25% and 5,000.00, to date 60% and 12,000.00, this claim 7,000.00.
    expect(text).toMatch(/Works package 1 20,000\.00 25% 5,000\.00 60% 12,000\.00 7,000\.00/);
    expect(text).toContain("Less previous claims");
    expect(text).toContain("Retention this claim");
    expect(text).toContain(
      "This is a payment claim made under the Building and Construction Industry Security of Payment Act 2004",
    );
    expect(text).toContain("(SOP Act s11)");
  });

  it("gating and isolation: Lite is refused with the tier message; another workspace sees none of it", async () => {
    const lite = await restFetch(LITE, "progressive_claim?select=id");
    expect(lite.status).toBe(403);
    expect(message(lite)).toBe("Progressive claims need the Pro tier. Upgrade to Pro to use projects.");
    const report = await rpc(LITE, "report", { name: "retention_schedule" });
    expect(report.status).toBe(403);
    const theirs = await restFetch(THEM, "progressive_claim?select=id");
    expect(theirs.status).toBe(200);
    expect(theirs.body).toEqual([]);
    const lines = await restFetch(THEM, "progressive_claim_line?select=id");
    expect(lines.body).toEqual([]);
    const sched = await rpc(THEM, "report", { name: "retention_schedule" });
    expect(sched.status, sched.text).toBe(200);
    expect((sched.body as { rows: unknown[] }).rows).toEqual([]);
    const ours = await q<{ n: number }>(sql`select count(*)::int as n from progressive_claim`);
    expect(ours[0].n).toBeGreaterThan(0);
  });
});
