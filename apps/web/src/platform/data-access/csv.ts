import Papa from "papaparse";

// RFC 4180 CSV through papaparse (issue 21 §2: a well-kept parser rather than our own): quoted fields may hold
// commas, quotes ("") and line breaks; records end with CRLF or LF; a byte-order mark and blank lines are ignored.

export type CsvParseResult = { rows: string[][]; error: string | null };

const QUOTE_ERRORS: Record<string, string> = {
  InvalidQuotes: "unexpected text after a closing quote",
  MissingQuotes: "a quoted field is never closed",
};

export function parseCsv(text: string, delimiter = ","): CsvParseResult {
  const src = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const parsed = Papa.parse<string[]>(src, { delimiter, skipEmptyLines: false });
  const rows = parsed.data.filter((r) => !(r.length === 1 && r[0] === ""));
  const bad =
    parsed.errors.find((e) => e.code === "InvalidQuotes") ?? parsed.errors.find((e) => e.code === "MissingQuotes");
  if (!bad) return { rows, error: null };
  // The line the quote opened on: line breaks before it, inside quoted fields too, as a text editor counts them.
  const at = src.lastIndexOf('"', Math.max(0, (bad.index ?? 0) - 1));
  const line = (src.slice(0, Math.max(0, at)).match(/\r\n|\r|\n/g)?.length ?? 0) + 1;
  return { rows, error: `Line ${line}: ${QUOTE_ERRORS[bad.code]}` };
}

// Cells a spreadsheet would run as a formula get a leading apostrophe (CSV injection), unless they are numbers.
function neutralise(value: string): string {
  if (/^[=+\-@\t\r]/.test(value) && !/^[-+]?\d+(\.\d+)?$/.test(value)) return `'${value}`;
  return value;
}

export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return "";
  const s = neutralise(typeof value === "object" ? JSON.stringify(value) : String(value));
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export function toCsv(rows: readonly (readonly unknown[])[]): string {
  return rows.map((r) => r.map(csvCell).join(",")).join("\r\n") + (rows.length ? "\r\n" : "");
}
