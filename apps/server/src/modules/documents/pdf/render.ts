import PDFDocument from "pdfkit";
import { ascender, type Face, printable, runs, useFace } from "./fonts.ts";
import type { Block, Cell, Column, Letterhead, Printable, TotalRow } from "./layout.ts";

// Draws a Printable on A4 with pdfkit's built-in Helvetica, and Noto for Chinese, Tamil and Arabic (fonts.ts): the letterhead on
// the first page, a running header on the others, tables that break across pages repeating their header row,
// "Page n of m" and a watermark on every page once the page count is known (bufferPages).

const A4 = { width: 595.28, height: 841.89 };
const MARGIN = { left: 42, right: 42, top: 64, bottom: 54 };
const CONTENT = A4.width - MARGIN.left - MARGIN.right;
const BOTTOM = A4.height - MARGIN.bottom;
const INK = "#1d1d1f";
const MUTED = "#5f6b76";
const RULE = "#d5dbe1";
const ZEBRA = "#f4f6f8";
const REGULAR = "Helvetica";
const BOLD = "Helvetica-Bold";
const LATIN = { regular: REGULAR, bold: BOLD };
const PAD = 4;
const MAX_ROW = BOTTOM - MARGIN.top - 40; // the tallest row: a page less its table header

type Doc = InstanceType<typeof PDFDocument>;

export { printable }; // the receipt printer's Courier and the tests

const HEX = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i;
export const colour = (value: string | null | undefined, fallback: string): string =>
  value && HEX.test(value.trim()) ? value.trim() : fallback;

const cellText = (c: Cell) => (typeof c === "string" ? c : c.text);

class Painter {
  readonly doc: Doc;
  y = MARGIN.top;

  constructor(
    readonly head: Letterhead,
    readonly page: Printable,
  ) {
    this.doc = new PDFDocument({
      size: "A4",
      margins: MARGIN,
      bufferPages: true,
      info: {
        Title: `${page.title} ${page.reference}`,
        Author: head.name,
        Creator: "Workmetrics",
      },
    });
    // Pages pdfkit adds itself (a long note running over) get the running header too.
    this.doc.on("pageAdded", () => {
      this.runningHeader();
      this.y = MARGIN.top;
    });
  }

  face(face: Face, bold: boolean) {
    return useFace(this.doc, face, bold, LATIN);
  }

  // One run in one font as before; a line in several scripts goes out run by run (pdfkit's continued text).
  text(value: string, x: number, y: number, opts: PDFKit.Mixins.TextOptions & { size?: number; bold?: boolean } = {}) {
    const { size = 9, bold = false, ...rest } = opts;
    const parts = runs(value);
    this.doc.fontSize(size);
    // pdfkit hangs each font from its own ascender: runs in several fonts share the tallest one's baseline.
    const top =
      parts.length > 1 ? { baseline: -(Math.max(...parts.map((r) => ascender(r.face, bold))) / 1000) * size } : {};
    parts.forEach((run, i) => {
      const extra = { ...this.face(run.face, bold), ...top };
      const last = i === parts.length - 1;
      if (i === 0) this.doc.text(run.text, x, y, { ...rest, ...extra, continued: !last });
      else this.doc.text(run.text, { ...rest, ...extra, continued: !last });
    });
  }

  // The tallest the text would be in any of its runs' fonts (Noto's lines are taller than Helvetica's).
  height(value: string, width: number, size = 9, bold = false): number {
    const parts = runs(value || " ");
    this.doc.fontSize(size);
    const text = parts.map((r) => r.text).join("") || " ";
    return Math.max(
      ...[...new Set(parts.map((r) => r.face))].map((face) => {
        this.face(face, bold);
        return this.doc.heightOfString(text, { width });
      }),
    );
  }

  width(value: string, size: number, bold: boolean): number {
    this.doc.fontSize(size);
    return runs(value).reduce((sum, run) => {
      this.face(run.face, bold);
      return sum + this.doc.widthOfString(run.text);
    }, 0);
  }

  // Room for `h` more points on this page, or a new page.
  need(h: number): boolean {
    if (this.y + h <= BOTTOM) return false;
    this.doc.addPage();
    return true;
  }

  letterhead() {
    const { doc, head, page } = this;
    doc.rect(0, 0, A4.width, 6).fill(colour(head.primary, "#36a1cf"));
    let left = 30;
    const leftWidth = CONTENT * 0.55;
    if (head.logo) {
      try {
        doc.image(head.logo, MARGIN.left, left, { fit: [150, 52] });
        left += 58;
      } catch {
        // An image pdfkit cannot read prints no logo rather than no document.
      }
    }
    doc.fillColor(INK);
    this.text(head.name, MARGIN.left, left, { size: 12.5, bold: true, width: leftWidth });
    left += this.height(head.name, leftWidth, 12.5, true) + 2;
    doc.fillColor(MUTED);
    for (const line of head.lines) {
      this.text(line, MARGIN.left, left, { size: 8.5, width: leftWidth });
      left += this.height(line, leftWidth, 8.5);
    }

    const rx = MARGIN.left + leftWidth;
    const rw = CONTENT - leftWidth;
    let right = 30;
    doc.fillColor(colour(head.primary, "#36a1cf"));
    this.text(page.title, rx, right, { size: 20, bold: true, width: rw, align: "right" });
    right += this.height(page.title, rw, 20, true) + 2;
    doc.fillColor(INK);
    this.text(page.reference, rx, right, { size: 11, bold: true, width: rw, align: "right" });
    right += 16;
    if (page.status) {
      const label = page.status.toUpperCase();
      const w = this.width(label, 8, true) + 12;
      doc.roundedRect(MARGIN.left + CONTENT - w, right, w, 15, 3).fill(colour(head.secondary, "#134b63"));
      doc.fillColor("#ffffff");
      this.text(label, MARGIN.left + CONTENT - w, right + 4, { size: 8, bold: true, width: w, align: "center" });
      right += 20;
    }
    this.y = Math.max(left, right) + 10;
    doc
      .moveTo(MARGIN.left, this.y)
      .lineTo(MARGIN.left + CONTENT, this.y)
      .lineWidth(1)
      .strokeColor(colour(head.secondary, "#134b63"))
      .stroke();
    this.y += 14;
  }

  runningHeader() {
    const { doc, head, page } = this;
    doc.rect(0, 0, A4.width, 6).fill(colour(head.primary, "#36a1cf"));
    doc.fillColor(MUTED);
    this.text(head.name, MARGIN.left, 24, { size: 8.5, bold: true, width: CONTENT / 2, lineBreak: false });
    this.text(`${page.title} ${page.reference} (continued)`, MARGIN.left + CONTENT / 2, 24, {
      size: 8.5,
      width: CONTENT / 2,
      align: "right",
      lineBreak: false,
    });
    doc
      .moveTo(MARGIN.left, 40)
      .lineTo(MARGIN.left + CONTENT, 40)
      .lineWidth(0.5)
      .strokeColor(RULE)
      .stroke();
  }

  partyAndFacts() {
    const { doc, page, head } = this;
    const leftWidth = CONTENT * 0.55;
    let left = this.y;
    doc.fillColor(colour(head.secondary, "#134b63"));
    this.text(page.party.heading.toUpperCase(), MARGIN.left, left, { size: 7.5, bold: true, characterSpacing: 0.6 });
    left += 12;
    doc.fillColor(INK);
    this.text(page.party.name, MARGIN.left, left, { size: 10.5, bold: true, width: leftWidth - 10 });
    left += this.height(page.party.name, leftWidth - 10, 10.5, true) + 1;
    for (const line of page.party.lines) {
      this.text(line, MARGIN.left, left, { size: 9, width: leftWidth - 10 });
      left += this.height(line, leftWidth - 10, 9);
    }

    const fx = MARGIN.left + leftWidth;
    const fw = CONTENT - leftWidth;
    const labelW = fw * 0.45;
    let right = this.y;
    for (const [label, value] of page.facts) {
      const h = Math.max(this.height(value, fw - labelW - 6, 9, true), 11);
      doc.fillColor(MUTED);
      this.text(label, fx, right, { size: 8.5, width: labelW });
      doc.fillColor(INK);
      this.text(value, fx + labelW + 6, right, { size: 9, bold: true, width: fw - labelW - 6, align: "right" });
      right += h + 3;
    }
    this.y = Math.max(left, right) + 16;
  }

  tableHeader(columns: Column[], widths: number[]) {
    const { doc, head } = this;
    const h = 18;
    doc.rect(MARGIN.left, this.y, CONTENT, h).fill(colour(head.primary, "#36a1cf"));
    doc.fillColor("#ffffff");
    let x = MARGIN.left;
    columns.forEach((c, i) => {
      this.text(c.label, x + PAD, this.y + 5, {
        size: 8,
        bold: true,
        width: widths[i] - 2 * PAD,
        align: c.align ?? "left",
        lineBreak: false,
      });
      x += widths[i];
    });
    this.y += h;
  }

  table(block: Extract<Block, { kind: "table" }>) {
    const { doc } = this;
    const share = block.columns.reduce((s, c) => s + c.width, 0);
    const widths = block.columns.map((c) => (CONTENT * c.width) / share);
    if (block.heading) {
      this.need(50);
      doc.fillColor(colour(this.head.secondary, "#134b63"));
      this.text(block.heading, MARGIN.left, this.y, { size: 10, bold: true });
      this.y += 16;
    }
    // Each row's height up front: the header goes to the next page when its first row would not fit under it.
    const rowHeights = block.rows.map((row) => {
      const heights = row.map((cell, i) => {
        const col = block.columns[i];
        const w = widths[i] - 2 * PAD;
        if (!col.wrap) return 11 + (typeof cell !== "string" && cell.note ? 10 : 0);
        const note = typeof cell === "string" || !cell.note ? 0 : this.height(cell.note, w, 7.5) + 1;
        return this.height(cellText(cell), w, 9) + note;
      });
      // A row never outgrows a page: a description longer than that is cut with an ellipsis.
      return Math.min(Math.max(...heights) + 2 * PAD, MAX_ROW);
    });
    this.need(18 + (rowHeights[0] ?? 22));
    this.tableHeader(block.columns, widths);
    if (block.rows.length === 0) {
      doc.fillColor(MUTED);
      this.text(block.empty ?? "Nothing to show", MARGIN.left + PAD, this.y + 6, { size: 9 });
      this.y += 22;
      return;
    }
    block.rows.forEach((row, r) => {
      const h = rowHeights[r];
      if (this.need(h)) this.tableHeader(block.columns, widths);
      if (r % 2 === 1) doc.rect(MARGIN.left, this.y, CONTENT, h).fill(ZEBRA);
      let x = MARGIN.left;
      row.forEach((cell, i) => {
        const col = block.columns[i];
        const w = widths[i] - 2 * PAD;
        const text = cellText(cell);
        const note = typeof cell !== "string" && cell.note ? cell.note : null;
        const noteHeight = note ? Math.min(this.height(note, w, 7.5), 20) + 1 : 0;
        const room = h - 2 * PAD - noteHeight;
        doc.fillColor(INK);
        this.text(text, x + PAD, this.y + PAD, {
          size: 9,
          width: w,
          align: col.align ?? "left",
          ...(col.wrap ? { height: room, ellipsis: true } : { lineBreak: false, ellipsis: true, height: 11 }),
        });
        if (note) {
          const top = col.wrap ? Math.min(this.height(text, w, 9), room) : 11;
          doc.fillColor(MUTED);
          this.text(note, x + PAD, this.y + PAD + top + 1, {
            size: 7.5,
            width: w,
            align: col.align ?? "left",
            height: noteHeight,
            ellipsis: true,
          });
        }
        x += widths[i];
      });
      this.y += h;
      doc
        .moveTo(MARGIN.left, this.y)
        .lineTo(MARGIN.left + CONTENT, this.y)
        .lineWidth(0.5)
        .strokeColor(RULE)
        .stroke();
    });
    this.y += 10;
  }

  totals(rows: TotalRow[]) {
    const { doc, head } = this;
    const w = 260;
    const x = MARGIN.left + CONTENT - w;
    const heights = rows.map((r) => (r.strong ? 20 : 15));
    this.need(heights.reduce((a, b) => a + b, 0) + 6);
    rows.forEach((r, i) => {
      const h = heights[i];
      if (r.strong) {
        doc.rect(x, this.y, w, h).fill(colour(head.secondary, "#134b63"));
        doc.fillColor("#ffffff");
      } else {
        doc.fillColor(INK);
      }
      const size = r.strong ? 10 : 9;
      const top = this.y + (h - size) / 2;
      this.text(r.label, x + 6, top, { size, bold: r.strong, width: w * 0.55 - 6, lineBreak: false, ellipsis: true });
      this.text(r.value, x + w * 0.55, top, {
        size,
        bold: true,
        width: w * 0.45 - 6,
        align: "right",
        lineBreak: false,
      });
      this.y += h;
    });
    this.y += 14;
  }

  note(heading: string, text: string) {
    const { doc, head } = this;
    this.need(34);
    doc.fillColor(colour(head.secondary, "#134b63"));
    this.text(heading.toUpperCase(), MARGIN.left, this.y, { size: 7.5, bold: true, characterSpacing: 0.6 });
    this.y += 12;
    doc.fillColor(INK);
    // A long note flows on over pages by itself (pageAdded draws their running header).
    this.text(text, MARGIN.left, this.y, { size: 9, width: CONTENT });
    this.y = doc.y + 12;
  }

  signature(block: Extract<Block, { kind: "signature" }>) {
    const { doc } = this;
    this.need(block.heading ? 84 : 70);
    if (block.heading) {
      doc.fillColor(INK);
      this.text(block.heading, MARGIN.left, this.y, { size: 9, bold: true });
      this.y += 16;
    }
    const gap = 18;
    const w = (CONTENT - gap * (block.fields.length - 1)) / block.fields.length;
    const line = this.y + 38;
    block.fields.forEach((label, i) => {
      const x = MARGIN.left + i * (w + gap);
      doc
        .moveTo(x, line)
        .lineTo(x + w, line)
        .lineWidth(0.8)
        .strokeColor(INK)
        .stroke();
      if (block.image && block.imageAt === i) {
        try {
          doc.image(block.image, x, line - 36, { fit: [w, 34], valign: "bottom" });
        } catch {
          // An image pdfkit cannot read prints the box without it, as a logo does.
        }
      }
      const value = block.values?.[i];
      if (value) {
        doc.fillColor(INK);
        this.text(value, x, line - 14, { size: 10, width: w, lineBreak: false, ellipsis: true });
      }
      doc.fillColor(MUTED);
      this.text(label, x, line + 4, { size: 8.5, width: w });
    });
    this.y = line + 26;
  }

  // Once every page exists: the footer and the watermark on each.
  finish() {
    const { doc, head, page } = this;
    const { start, count } = doc.bufferedPageRange();
    for (let i = start; i < start + count; i++) {
      doc.switchToPage(i);
      doc.page.margins.bottom = 0; // text below the bottom margin would otherwise open a new page
      if (page.watermark) {
        doc.save();
        doc.rotate(-35, { origin: [A4.width / 2, A4.height / 2] });
        doc.font(BOLD).fontSize(110).fillColor("#c62828").fillOpacity(0.1);
        doc.text(page.watermark, 0, A4.height / 2 - 55, { width: A4.width, align: "center", lineBreak: false });
        doc.restore();
      }
      const y = A4.height - 34;
      doc
        .moveTo(MARGIN.left, y - 6)
        .lineTo(MARGIN.left + CONTENT, y - 6)
        .lineWidth(0.5)
        .strokeColor(RULE)
        .stroke();
      doc.fillColor(MUTED).fillOpacity(1);
      this.text(`${head.name} · ${page.title} ${page.reference}`, MARGIN.left, y, {
        size: 7.5,
        width: CONTENT * 0.7,
        lineBreak: false,
        ellipsis: true,
      });
      this.text(`Page ${i - start + 1} of ${count}`, MARGIN.left + CONTENT * 0.7, y, {
        size: 7.5,
        width: CONTENT * 0.3,
        align: "right",
        lineBreak: false,
      });
    }
  }
}

export function renderPdf(head: Letterhead, page: Printable): Promise<Buffer> {
  const p = new Painter(head, page);
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    p.doc.on("data", (c: Buffer) => chunks.push(c));
    p.doc.on("end", () => resolve(Buffer.concat(chunks)));
    p.doc.on("error", reject);
  });
  p.letterhead();
  p.partyAndFacts();
  for (const block of page.body) {
    if (block.kind === "table") p.table(block);
    else if (block.kind === "totals") p.totals(block.rows);
    else if (block.kind === "text") p.note(block.heading, block.text);
    else p.signature(block);
  }
  p.finish();
  p.doc.end();
  return done;
}
