import { createRequire } from "node:module";
import path from "node:path";
import { createWorker, OEM, type Worker } from "tesseract.js";

// Issue 24 "OCR": tesseract.js reads images offline. Its engine (tesseract.js-core's wasm) is loaded from
// node_modules by the worker thread tesseract.js starts; the English model comes from the npm package
// @tesseract.js-data/eng (a local path, never a URL), and nothing is cached or fetched: cacheMethod "none".
// One worker per process, started on first use and kept warm; recognitions queue on it one at a time (OCR is
// CPU-heavy and a thread of its own, so a request waits for its turn without blocking the event loop).

const require = createRequire(path.join(import.meta.dirname, "ocr.ts"));

export type OcrWord = { text: string; confidence: number }; // confidence 0..1
export type OcrLine = { text: string; confidence: number; words: OcrWord[] };
export type OcrPage = { text: string; confidence: number; lines: OcrLine[] };

function languageDir(): string {
  const data = require("@tesseract.js-data/eng") as { langPath: string };
  return data.langPath;
}

// Specks and smudges read as marks ("i", ":", "Co", "~~"): an unsure word with no digit and no run of three
// letters is dropped. A digit is always kept (a quantity of 3 read unsure is still a 3).
const speck = (w: OcrWord) => w.confidence < 0.5 && !/\d/.test(w.text) && !/[A-Za-z]{3}/.test(w.text);

let warm: Promise<Worker> | null = null;
let queue: Promise<unknown> = Promise.resolve();

function worker(): Promise<Worker> {
  if (!warm) {
    warm = createWorker("eng", OEM.LSTM_ONLY, {
      langPath: languageDir(),
      corePath: path.dirname(require.resolve("tesseract.js-core/package.json")),
      gzip: true,
      cacheMethod: "none",
      errorHandler: () => {},
    }).catch((err: unknown) => {
      warm = null;
      throw err;
    });
  }
  return warm;
}

// Reads one image (PNG, JPEG, WebP, BMP bytes). Lines keep their words' confidences (0..1).
export function recognizeImage(image: Buffer): Promise<OcrPage> {
  const run = queue.then(async () => {
    const w = await worker();
    const { data } = await w.recognize(image, {}, { text: true, blocks: true });
    const lines: OcrLine[] = [];
    for (const block of data.blocks ?? []) {
      for (const para of block.paragraphs) {
        for (const line of para.lines) {
          const words = line.words
            .map((wd) => ({ text: wd.text, confidence: wd.confidence / 100 }))
            .filter((wd) => wd.text.trim() !== "" && !speck(wd));
          if (words.length === 0) continue;
          lines.push({
            text: words.map((wd) => wd.text).join(" "),
            confidence: words.reduce((s, wd) => s + wd.confidence, 0) / words.length,
            words,
          });
        }
      }
    }
    return { text: data.text, confidence: data.confidence / 100, lines };
  });
  queue = run.catch(() => undefined);
  return run;
}

// Stops the process's worker (tests, shutdown); the next recognition starts a new one.
export async function stopOcr(): Promise<void> {
  const w = warm;
  warm = null;
  if (w) await (await w).terminate();
}
