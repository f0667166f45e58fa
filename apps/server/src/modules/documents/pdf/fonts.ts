import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import * as fontkit from "fontkit";

// Font fallback by script for the PDFs. Latin (English, Malay) prints in pdfkit's built-in Helvetica as before; Chinese
// (Simplified), Tamil and Arabic print in Noto fonts shipped as npm packages (no apt, no network), registered on a
// document only when its text needs them — pdfkit embeds the glyphs a document uses and nothing else (a subset).
// fontkit shapes the runs (Arabic joining forms, Tamil conjuncts); an Arabic run is laid out whole so it reads right
// to left, inside a left-to-right line.

export type Face = "latin" | "han" | "tamil" | "arabic";

const require = createRequire(join(import.meta.dirname, "fonts.ts"));
const packageDir = (name: string) => dirname(require.resolve(name));

const FILES: Record<Exclude<Face, "latin">, { regular: () => string; bold: () => string }> = {
  han: {
    regular: () => join(packageDir("@embedpdf/fonts-sc"), "..", "fonts", "NotoSansHans-Regular.otf"),
    bold: () => join(packageDir("@embedpdf/fonts-sc"), "..", "fonts", "NotoSansHans-Bold.otf"),
  },
  tamil: {
    regular: () => join(packageDir("@fontsource/noto-sans-tamil"), "files", "noto-sans-tamil-tamil-400-normal.woff"),
    bold: () => join(packageDir("@fontsource/noto-sans-tamil"), "files", "noto-sans-tamil-tamil-700-normal.woff"),
  },
  arabic: {
    regular: () => join(packageDir("@fontsource/noto-sans-arabic"), "files", "noto-sans-arabic-arabic-400-normal.woff"),
    bold: () => join(packageDir("@fontsource/noto-sans-arabic"), "files", "noto-sans-arabic-arabic-700-normal.woff"),
  },
};

type Loaded = { data: Buffer; font: fontkit.Font };
const loaded = new Map<string, Loaded>();
const load = (face: Exclude<Face, "latin">, bold: boolean): Loaded => {
  const key = `${face}-${bold ? "bold" : "regular"}`;
  let hit = loaded.get(key);
  if (!hit) {
    const data = readFileSync(FILES[face][bold ? "bold" : "regular"]());
    hit = { data, font: fontkit.create(data) as fontkit.Font };
    loaded.set(key, hit);
  }
  return hit;
};

// The standard fonts speak Windows-1252.
const CP1252_EXTRA = new Set("€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ");
export const inLatin = (ch: string): boolean => {
  const code = ch.codePointAt(0) ?? 0;
  return code === 10 || (code >= 32 && code < 127) || (code >= 160 && code <= 255) || CP1252_EXTRA.has(ch);
};

const SCRIPTS: [Exclude<Face, "latin">, RegExp][] = [
  ["han", /[\p{Script=Han}\p{Script=Bopomofo}\u3000-\u303f\uff00-\uffef]/u],
  ["tamil", /\p{Script=Tamil}/u],
  ["arabic", /\p{Script=Arabic}/u],
];
const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;

// The face a character asks for, or null for a neutral (spaces, punctuation) that takes its neighbours' face.
const strongFace = (ch: string): Face | null => {
  for (const [face, re] of SCRIPTS) if (re.test(ch)) return face;
  if (LETTER_OR_DIGIT.test(ch)) return "latin";
  return null;
};

export type Run = { face: Face; text: string };

const covers = (face: Face, ch: string): boolean =>
  face === "latin" ? inLatin(ch) : load(face, false).font.hasGlyphForCodePoint(ch.codePointAt(0) ?? 0);

// Splits a line into runs of one face each. A neutral between two characters of one face joins them; any other neutral
// prints in Helvetica (so an Arabic run never carries a trailing space to its wrong end). A character no font has
// prints as "?". Latin next to Chinese joins the Chinese run (Noto Sans Hans has Latin), so a mixed name is one run.
export const runs = (value: string): Run[] => {
  const chars = [...value.replace(/\r\n?/g, "\n").replace(/\t/g, " ")];
  if (chars.every(inLatin)) return [{ face: "latin", text: chars.join("") }];
  const strong = chars.map(strongFace);
  const faces: Face[] = chars.map((ch, i) => {
    let face = strong[i];
    if (face === null) {
      let before: Face | null = null;
      for (let j = i - 1; j >= 0 && before === null; j--) before = strong[j] ?? null;
      let after: Face | null = null;
      for (let j = i + 1; j < chars.length && after === null; j++) after = strong[j] ?? null;
      face = before !== null && before === after && before !== "latin" && covers(before, ch) ? before : "latin";
    }
    return face;
  });
  // Latin beside Chinese prints in the Chinese font when it has every glyph: one run, one baseline, one line wrapper.
  if (faces.includes("han") && faces.every((f, i) => f === "han" || (f === "latin" && covers("han", chars[i] ?? "")))) {
    return [{ face: "han", text: chars.join("") }];
  }
  const out: Run[] = [];
  chars.forEach((ch, i) => {
    let face = faces[i] ?? "latin";
    let text = ch;
    if (!covers(face, ch)) {
      const other = (["latin", "han", "tamil", "arabic"] as Face[]).find((f) => covers(f, ch));
      if (other) face = other;
      else {
        face = "latin";
        text = "?";
      }
    }
    const last = out[out.length - 1];
    if (last && last.face === face) last.text += text;
    else out.push({ face, text });
  });
  return out;
};

// How far a face's tallest letters rise above the baseline, in thousandths of the font size (Helvetica's AFM: 718).
export const ascender = (face: Face, bold: boolean): number => {
  if (face === "latin") return 718;
  const { font } = load(face, bold);
  return (font.ascent * 1000) / font.unitsPerEm;
};

// Helvetica's text as before: anything it cannot print prints as "?" (the document info, which takes no font).
export const printable = (text: string): string =>
  [...text.replace(/\r\n?/g, "\n").replace(/\t/g, " ")].map((ch) => (inLatin(ch) ? ch : "?")).join("");

type Doc = PDFKit.PDFDocument;
const registered = new WeakMap<Doc, Set<string>>();

// Sets the face on the document (registering the font the first time this document uses it) and returns the options a
// run needs: an Arabic run is shaped whole (pdfkit lays out word by word unless features are given, which would put
// the words of a right-to-left run in left-to-right order).
export const useFace = (doc: Doc, face: Face, bold: boolean, latin: { regular: string; bold: string }) => {
  if (face === "latin") {
    doc.font(bold ? latin.bold : latin.regular);
    return {};
  }
  const name = `wm-${face}-${bold ? "bold" : "regular"}`;
  let set = registered.get(doc);
  if (!set) {
    set = new Set();
    registered.set(doc, set);
  }
  if (!set.has(name)) {
    doc.registerFont(name, load(face, bold).data);
    set.add(name);
  }
  doc.font(name);
  return face === "arabic" ? { features: ["rlig", "calt"] as PDFKit.Mixins.OpenTypeFeatures[] } : {};
};
