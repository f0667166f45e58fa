import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { customer, type Doc, ok, read, rpc } from "./documents-helpers.ts";
import { ownServer } from "./own-server-helpers.ts";
import { tokenFor } from "./rest-helpers.ts";

// Issue 12 "a cumulative percentage (or quantity) per line": a quantity surveyor measures 340 of 500 m²; the
// percentage follows, this claim is to date less before, the retention as for percentages; a quantity above the
// contract's or below what was claimed before is refused naming the line; a line may change between quantity and
// percentage from one claim to the next; a variation measured against its agreed quantity; the PDF's quantities.

const MANAGER = "manager@demo.test";
const own = ownServer();
let company = 0;

const message = (res: { body: unknown }) => (res.body as { message: string }).message;

// A submitted contract: 500 m² of tiling at 100 (50,000) and painting as a lump sum (20,000), SR.
async function contract(): Promise<Doc> {
  const so = await ok(MANAGER, "document_save", {
    type: "sales_order",
    header: { company_id: company },
    lines: [
      { description: "Tiling", unit: "m²", qty: "500", unit_price: "100", tax_code: "SR" },
      { description: "Painting", qty: "1", unit_price: "20000", tax_code: "SR" },
    ],
  });
  return ok(MANAGER, "document_transition", { type: "sales_order", id: so.id, action: "submit" });
}

async function draft(so: number): Promise<Doc> {
  const made = await rpc(MANAGER, "document_convert", { type: "sales_order", id: so, to: "progressive_claim" });
  expect(made.status, made.text).toBe(200);
  return read(MANAGER, "progressive_claim", (made.body as Doc).id);
}

// Saves the draft with each line's work done to date: { qty } measured, { pct } as a percentage.
type Done = { qty?: string; pct?: string };
const save = (d: Doc, done: Done[], extra: Array<Record<string, unknown>> = []) =>
  rpc(MANAGER, "document_save", {
    type: "progressive_claim",
    id: d.id,
    header: { company_id: d.company_id },
    lines: [
      ...d.lines.map((l, i) => ({
        description: l.description,
        unit: l.unit,
        source_line_id: l.source_line_id,
        prev_line_id: l.prev_line_id,
        contract_amount: l.contract_amount,
        tax_code: l.tax_code,
        ...(done[i]?.qty !== undefined ? { cumulative_qty: done[i].qty } : {}),
        ...(done[i]?.pct !== undefined ? { cumulative_percent: done[i].pct } : {}),
      })),
      ...extra,
    ],
  });

async function submit(d: Doc, done: Done[], extra: Array<Record<string, unknown>> = []): Promise<Doc> {
  const saved = await save(d, done, extra);
  expect(saved.status, saved.text).toBe(200);
  return ok(MANAGER, "document_transition", { type: "progressive_claim", id: d.id, action: "submit" });
}

const measures = (d: Doc) =>
  d.lines.map((l) => [
    l.contract_qty,
    l.prev_qty,
    l.cumulative_qty,
    l.cumulative_percent,
    l.amount_to_date,
    l.line_total,
  ]);

beforeAll(async () => {
  company = await customer(MANAGER);
}, 600_000);

describe("claims measured in quantity", () => {
  it("340 of 500 m² is 68%; then down refused, above the contract refused, a switch to % and back", async () => {
    const so = await contract();
    const first = await draft(so.id);
    // The contract's quantities come with the draft; nothing is measured yet.
    expect(first.lines.map((l) => [l.unit, l.contract_qty, l.cumulative_qty])).toEqual([
      ["m²", "500.000", null],
      [null, "1.000", null],
    ]);
    const one = await submit(first, [{ qty: "340" }, { pct: "25" }]);
    expect(measures(one)).toEqual([
      ["500.000", null, "340.000", "68.0000", "34000.00", "34000.00"],
      ["1.000", null, null, "25.0000", "5000.00", "5000.00"],
    ]);
    // Each line's quantity and price are its contract line's (500 m² at 100.00; the lump sum 1 at 20,000), as the
    // Flow tab shows them beside the contract line they come from — never a quantity of 1 for 500 m².
    expect(one.lines.map((l) => [l.qty, l.unit_price])).toEqual([
      ["500.000", "100.0000"],
      ["1.000", "20000.0000"],
    ]);
    expect(one).toMatchObject({
      this_claim_gross: "39000.00",
      retention_this_claim: "1950.00",
      subtotal: "37050.00",
      total: "40384.50",
    });

    // The next claim carries the measured quantity; a quantity below it or above the contract's names the line.
    const second = await draft(so.id);
    expect(measures(second)[0].slice(0, 3)).toEqual(["500.000", "340.000", "340.000"]);
    const down = await save(second, [{ qty: "300" }]);
    expect(down.status, down.text).toBe(422);
    expect(message(down)).toBe(
      "Line 1 (Tiling): the quantity done to date cannot go down to 300 m²; 340 m² was claimed before",
    );
    const over = await save(second, [{ qty: "500.5" }]);
    expect(over.status, over.text).toBe(422);
    expect(message(over)).toBe("Line 1 (Tiling): the quantity done to date cannot be more than the contract's 500 m²");
    // The lump sum has no quantity to measure against beyond its one: half of 1 is 50%.
    const lump = await save(second, [{ qty: "410" }, { qty: "0.5" }]);
    expect(lump.status, lump.text).toBe(200);
    expect((lump.body as Doc).lines[1]).toMatchObject({ cumulative_percent: "50.0000", amount_to_date: "10000.00" });
    // A percentage alone switches the line to percentages.
    const byPercent = await save(second, [{ pct: "80" }, { pct: "25" }]);
    expect(byPercent.status, byPercent.text).toBe(200);
    expect(measures(byPercent.body as Doc)[0]).toEqual(["500.000", "340.000", null, "80.0000", "40000.00", "6000.00"]);
    const two = await submit(second, [{ qty: "450" }, { pct: "25" }]);
    expect(measures(two)[0]).toEqual(["500.000", "340.000", "450.000", "90.0000", "45000.00", "11000.00"]);
    expect(two).toMatchObject({
      previous_gross: "39000.00",
      this_claim_gross: "11000.00",
      retention_to_date: "2500.00",
    });

    // By percentage after a measured claim: not below its 90%; measured after a percentage: not below its share.
    const third = await draft(so.id);
    const belowPercent = await save(third, [{ pct: "85" }]);
    expect(message(belowPercent)).toBe(
      "Line 1 (Tiling): the work done to date cannot go down to 85%; 90% was claimed before",
    );
    const three = await submit(third, [{ pct: "96" }, { pct: "25" }]);
    const fourth = await draft(so.id);
    const belowShare = await save(fourth, [{ qty: "470" }]);
    expect(message(belowShare)).toBe(
      "Line 1 (Tiling): the quantity done to date cannot go down to 470 m²; 480 m² was claimed before",
    );
    const all = await submit(fourth, [{ qty: "500" }, { pct: "100" }]);
    expect(all.gross_to_date).toBe("70000.00");
    expect(all.retention_to_date).toBe("3500.00"); // 5% of 70,000, the cap
    expect(all.lines[0]).toMatchObject({ cumulative_percent: "100.0000", amount_to_date: "50000.00" });
    expect(three.lines[0].cumulative_qty).toBeNull();
  });

  it("a variation measured against its agreed quantity, which stays as first claimed", async () => {
    const so = await contract();
    const d = await draft(so.id);
    const noQty = await save(
      d,
      [{ pct: "0" }, { pct: "0" }],
      [{ description: "VO-01 skirting", unit: "m", contract_amount: "3000", cumulative_qty: "30", tax_code: "SR" }],
    );
    expect(noQty.status, noQty.text).toBe(422);
    expect(message(noQty)).toBe(
      "Line 3 (VO-01 skirting) has no contract quantity to measure against: give its work done to date as a percentage",
    );
    const vo = {
      description: "VO-01 skirting",
      unit: "m",
      contract_amount: "3000",
      contract_qty: "60",
      tax_code: "SR",
    };
    const one = await submit(d, [{ pct: "0" }, { pct: "0" }], [{ ...vo, cumulative_qty: "30" }]);
    expect(one.lines[2]).toMatchObject({
      is_variation: true,
      qty: "60.000",
      unit_price: "50.0000",
      contract_qty: "60.000",
      cumulative_qty: "30.000",
      cumulative_percent: "50.0000",
      line_total: "1500.00",
    });
    const next = await draft(so.id);
    const carried = await save(next, [{}, {}, { qty: "45" }]);
    expect(carried.status, carried.text).toBe(200);
    expect((carried.body as Doc).lines[2]).toMatchObject({
      contract_qty: "60.000",
      prev_qty: "30.000",
      line_total: "750.00",
    });
    const moved = await rpc(MANAGER, "document_save", {
      type: "progressive_claim",
      id: next.id,
      header: { company_id: next.company_id },
      lines: next.lines.map((l, i) => ({
        description: l.description,
        prev_line_id: l.prev_line_id,
        source_line_id: l.source_line_id,
        contract_amount: l.contract_amount,
        tax_code: l.tax_code,
        ...(i === 2 ? { contract_qty: "80", cumulative_qty: "40" } : {}),
      })),
    });
    expect(moved.status, moved.text).toBe(422);
    expect(message(moved)).toBe("Line 3: the contract quantity of a variation claimed before cannot change (it is 60)");
  });

  it("prints the quantities beside the percentages on the claim PDF", async () => {
    const so = await contract();
    await submit(await draft(so.id), [{ qty: "340" }, { pct: "25" }]);
    const d = await submit(await draft(so.id), [{ qty: "400.5" }, { pct: "40" }]);
    const res = await fetch(`${own.server.url}/api/documents/progressive_claim/${d.id}/pdf`, {
      headers: { authorization: `Bearer ${await tokenFor(MANAGER)}` },
    });
    expect(res.status).toBe(200);
    const dir = process.env.PDF_OUT ?? mkdtempSync(path.join(os.tmpdir(), "workmetrics-claim-qty-"));
    const file = path.join(dir, `${d.number}-measured.pdf`);
    writeFileSync(file, Buffer.from(await res.arrayBuffer()));
    const text = execFileSync("pdftotext", ["-layout", file, "-"], { encoding: "utf8" }).replace(/\s+/g, " ");
    expect(text).toMatch(/Description Qty Contract Prev done Previous Done to date To date This claim/);
    // Tiling: 500 m², previous 340 m² (68%) 34,000.00, to date 400.5 m² (80.1%) 40,050.00, this claim 6,050.00.
    expect(text).toMatch(/Tiling 500 m² 50,000\.00 340 m² 34,000\.00 400\.5 m² 40,050\.00 6,050\.00/);
    expect(text).toMatch(/68%.*80\.1%/);
    // Painting, by percentage: no quantities, its percentages.
    expect(text).toMatch(/Painting 20,000\.00 25% 5,000\.00 40% 8,000\.00 3,000\.00/);
  });
});
