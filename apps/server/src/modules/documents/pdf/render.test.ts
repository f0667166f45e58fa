import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { Cell, Letterhead, Printable } from "./layout.ts";
import { renderPdf } from "./render.ts";

// The page layout on its own, read back with poppler (pdftotext, pdfinfo) as a reader would see it.

const dir = mkdtempSync(path.join(os.tmpdir(), "workmetrics-render-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let n = 0;
function read(pdf: Buffer): { text: string; raw: string; pages: number } {
  const file = path.join(dir, `${++n}.pdf`);
  writeFileSync(file, pdf);
  const text = execFileSync("pdftotext", ["-layout", file, "-"], { encoding: "utf8" });
  // -layout leaves rotated text (the watermark) out; -raw keeps it.
  const raw = execFileSync("pdftotext", ["-raw", file, "-"], { encoding: "utf8" });
  const pages = Number(/Pages:\s+(\d+)/.exec(execFileSync("pdfinfo", [file], { encoding: "utf8" }))?.[1]);
  return { text, raw, pages };
}

const head: Letterhead = {
  name: "Harbourline Trading Pte Ltd",
  lines: ["8 Robinson Road", "UEN 201912345K", "GST Reg. No. M2-1234567-8"],
  logo: null,
  primary: "#36a1cf",
  secondary: "#134b63",
};

const page = (rows: Cell[][], extra: Partial<Printable> = {}): Printable => ({
  title: "Tax Invoice",
  reference: "INV-2026-00012",
  status: null,
  watermark: null,
  party: { heading: "Bill to", name: "Printwell Pte Ltd", lines: ["1 Anson Road"] },
  facts: [["Date", "3 Nov 2026"]],
  body: [
    {
      kind: "table",
      columns: [
        { label: "#", width: 5 },
        { label: "Description", width: 60, wrap: true },
        { label: "Amount", width: 20, align: "right" },
      ],
      rows,
    },
    { kind: "totals", rows: [{ label: "Total", value: "SGD 1,000.00", strong: true }] },
  ],
  filename: "x.pdf",
  ...extra,
});

describe("renderPdf", () => {
  it("prints the letterhead, the party and the facts on an A4 page", async () => {
    const pdf = await renderPdf(head, page([["1", "Hex bolts", "10.00"]]));
    expect(pdf.subarray(0, 5).toString()).toBe("%PDF-");
    const { text, pages } = read(pdf);
    expect(pages).toBe(1);
    for (const words of [...head.lines, "Tax Invoice", "INV-2026-00012", "Printwell Pte Ltd", "3 Nov 2026"]) {
      expect(text).toContain(words);
    }
    expect(text).toContain("Page 1 of 1");
    expect(execFileSync("pdfinfo", [path.join(dir, `${n}.pdf`)], { encoding: "utf8" })).toMatch(
      /Page size:\s+595\.28 x 841\.89 pts \(A4\)/,
    );
  });

  it("breaks a long table over pages, repeating its header, and numbers every page", async () => {
    const rows = Array.from({ length: 120 }, (_, i) => [String(i + 1), `Line ${i + 1}`, "1.00"]);
    const { text, raw, pages } = read(await renderPdf(head, page(rows, { watermark: "DRAFT" })));
    expect(pages).toBeGreaterThanOrEqual(3);
    expect(text.match(/Description/g)?.length).toBe(pages);
    for (let p = 1; p <= pages; p++) expect(text).toContain(`Page ${p} of ${pages}`);
    for (const r of rows) expect(text).toMatch(new RegExp(`\\b${r[1]}\\b`));
    expect(text).toContain("INV-2026-00012 (continued)");
    expect(raw.match(/DRAFT/g)?.length).toBe(pages); // the watermark on every page
  });

  it("cuts a description taller than a page instead of spilling it over the next", async () => {
    const rows = [
      ["1", "word ".repeat(4000), "1.00"],
      ["2", "After", "2.00"],
    ];
    const { text, pages } = read(await renderPdf(head, page(rows)));
    expect(pages).toBeLessThanOrEqual(3);
    expect(text).toContain("After");
    expect(text).toContain("…");
  });
});

describe("renderPdf in Singapore's scripts", () => {
  it("prints Chinese, Tamil and Arabic in embedded, subset Noto fonts — not as '?' — and stays small", async () => {
    const pdf = await renderPdf(
      { ...head, name: "陈氏贸易 Pte Ltd" },
      page(
        [
          ["1", "螺栓 M8 hex bolt", "10.00"],
          ["2", "திருகு ஆணி (Tamil)", "20.00"],
          ["3", "مسمار ملولب M8", "30.00"],
          ["4", "Skru mesin, Malay", "40.00"],
        ],
        { party: { heading: "Bill to", name: "陈氏贸易", lines: ["1 Anson Road"] } },
      ),
    );
    const { text, raw } = read(pdf);
    const file = path.join(dir, `${n}.pdf`);
    expect(text).not.toMatch(/\?/);
    expect(text).toContain("陈氏贸易 Pte Ltd");
    expect(text).toContain("螺栓 M8 hex bolt");
    expect(text).toContain("திருகு ஆணி (Tamil)");
    expect(text).toContain("Skru mesin, Malay");
    // The Arabic words are joined (shaped) and run right to left: on the page the first word is the rightmost, so
    // pdftotext, reading the page left to right, gives them last word first (less its direction marks).
    expect(raw.replace(/[\u202a-\u202e]/g, "")).toMatch(/ملولب مسمار\s*M8/);
    const fonts = execFileSync("pdffonts", [file], { encoding: "utf8" });
    for (const name of [
      "NotoSansHans-Bold",
      "NotoSansHans-Regular",
      "NotoSansTamil-Regular",
      "NotoSansArabic-Regular",
    ]) {
      expect(fonts).toMatch(new RegExp(`[A-Z]{6}\\+${name}\\s.*\\byes\\s+yes\\s+yes\\b`)); // embedded, subset, unicode
    }
    // Subset: the Chinese font alone is 8 MB; the document carries only the glyphs it prints.
    expect(pdf.length).toBeLessThan(200_000);
  }, 60_000); // subsetting an 8 MB CJK font is slow on a loaded machine

  it("registers no Noto font on a document in Latin only", async () => {
    const pdf = await renderPdf(head, page([["1", "Hex bolts — Café", "10.00"]]));
    read(pdf);
    expect(execFileSync("pdffonts", [path.join(dir, `${n}.pdf`)], { encoding: "utf8" })).not.toMatch(/Noto/);
  });
});
