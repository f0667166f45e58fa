import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { type OcrLine, recognizeImage } from "./ocr.ts";

// Issue 24: the text of a stored PDF or image, each line with how sure the reading is (0..1). A PDF's own text
// layer is read first (exact: confidence 1); a page without one (a scan saved as PDF) is rendered with pdf.js onto
// a canvas and read by OCR, as images are.

const require = createRequire(path.join(import.meta.dirname, "read.ts"));

export type ScanText = {
  text: string;
  lines: OcrLine[];
  source: "text_layer" | "ocr" | "mixed";
  pages: number;
  ms: number;
};

export const SCAN_MIME_TYPES = ["application/pdf", "image/png", "image/jpeg", "image/webp", "image/bmp"] as const;
const MAX_PAGES = 5;

export class UnreadableScan extends Error {}

export async function readDocumentText(bytes: Buffer, mimeType: string): Promise<ScanText> {
  const started = Date.now();
  const mime = mimeType.split(";")[0].trim().toLowerCase();
  if (mime === "application/pdf" || bytes.subarray(0, 5).toString("latin1") === "%PDF-") {
    const read = await readPdf(bytes);
    return { ...read, ms: Date.now() - started };
  }
  if (!(SCAN_MIME_TYPES as readonly string[]).includes(mime)) {
    throw new UnreadableScan(`A ${mime || "file of unknown type"} cannot be read: upload a PDF, PNG, JPEG or WebP`);
  }
  const page = await recognizeImage(bytes);
  return { text: joinLines(page.lines), lines: page.lines, source: "ocr", pages: 1, ms: Date.now() - started };
}

const joinLines = (lines: OcrLine[]) => lines.map((l) => l.text).join("\n");

type PdfJs = typeof import("pdfjs-dist/legacy/build/pdf.mjs");
let pdfjs: Promise<PdfJs> | null = null;
const loadPdfJs = () => {
  pdfjs ??= import("pdfjs-dist/legacy/build/pdf.mjs");
  return pdfjs;
};

type TextItem = { str: string; transform: number[]; width: number; height: number };

async function readPdf(bytes: Buffer): Promise<Omit<ScanText, "ms">> {
  const { getDocument } = await loadPdfJs();
  const root = path.dirname(require.resolve("pdfjs-dist/package.json"));
  let doc: Awaited<ReturnType<typeof getDocument>["promise"]>;
  try {
    doc = await getDocument({
      data: new Uint8Array(bytes),
      isEvalSupported: false,
      disableFontFace: true,
      useSystemFonts: false,
      standardFontDataUrl: `${pathToFileURL(path.join(root, "standard_fonts")).href}/`,
      verbosity: 0,
    }).promise;
  } catch {
    throw new UnreadableScan("The PDF cannot be opened: it is damaged or protected by a password");
  }
  try {
    const lines: OcrLine[] = [];
    let ocrPages = 0;
    const pages = Math.min(doc.numPages, MAX_PAGES);
    for (let n = 1; n <= pages; n++) {
      const page = await doc.getPage(n);
      const content = await page.getTextContent();
      const pageLines = textLayerLines(content.items as TextItem[]);
      if (
        pageLines
          .map((l) => l.text)
          .join("")
          .replace(/\s/g, "").length >= 20
      ) {
        lines.push(...pageLines);
        continue;
      }
      // No text layer worth the name: render the page (about 200 dpi) and read it.
      const { createCanvas } = await import("@napi-rs/canvas");
      const viewport = page.getViewport({ scale: 200 / 72 });
      const canvas = createCanvas(Math.ceil(viewport.width), Math.ceil(viewport.height));
      const ctx = canvas.getContext("2d");
      ctx.fillStyle = "#fff";
      ctx.fillRect(0, 0, canvas.width, canvas.height);
      await page.render({ canvas: canvas as never, canvasContext: ctx as never, viewport }).promise;
      const read = await recognizeImage(canvas.toBuffer("image/png"));
      lines.push(...read.lines);
      ocrPages++;
    }
    const source = ocrPages === 0 ? "text_layer" : ocrPages === pages ? "ocr" : "mixed";
    return { text: joinLines(lines), lines, source, pages };
  } finally {
    await doc.destroy();
  }
}

// A text layer's pieces into lines: same baseline (within a third of the text height) → one line, left to right,
// a gap wider than two spaces kept as two spaces (columns stay apart for the extractors).
export function textLayerLines(items: TextItem[]): OcrLine[] {
  const pieces = items
    .filter((i) => typeof i.str === "string" && i.str.trim() !== "")
    .map((i) => ({ str: i.str, x: i.transform[4], y: i.transform[5], w: i.width, h: Math.abs(i.transform[3]) || 10 }));
  pieces.sort((a, b) => b.y - a.y || a.x - b.x);
  const rows: (typeof pieces)[] = [];
  for (const p of pieces) {
    const row = rows.find((r) => Math.abs(r[0].y - p.y) <= Math.max(2, r[0].h / 3));
    if (row) row.push(p);
    else rows.push([p]);
  }
  rows.sort((a, b) => b[0].y - a[0].y);
  return rows.map((row) => {
    row.sort((a, b) => a.x - b.x);
    let text = "";
    let end = Number.NEGATIVE_INFINITY;
    for (const p of row) {
      if (text !== "") text += p.x - end > p.h * 1.2 ? "  " : p.x - end > p.h * 0.15 ? " " : "";
      text += p.str.trim();
      end = p.x + p.w;
    }
    const words = text.split(/\s+/).map((w) => ({ text: w, confidence: 1 }));
    return { text, confidence: 1, words };
  });
}
