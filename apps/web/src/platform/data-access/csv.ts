// RFC 4180 CSV, small enough to keep in the browser bundle: quoted fields may hold commas, quotes ("") and
// line breaks; records end with CRLF or LF; a byte-order mark and the final line break are ignored.

export type CsvParseResult = { rows: string[][]; error: string | null };

export function parseCsv(text: string, delimiter = ","): CsvParseResult {
  const src = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false; // inside a quoted field
  let wasQuoted = false; // the current field started with a quote
  let line = 1;
  let quoteLine = 0;
  const endField = () => {
    row.push(field);
    field = "";
    wasQuoted = false;
  };
  const endRow = () => {
    endField();
    rows.push(row);
    row = [];
  };
  for (let i = 0; i < src.length; i++) {
    const c = src[i];
    if (quoted) {
      if (c === '"') {
        if (src[i + 1] === '"') {
          field += '"';
          i++;
        } else {
          quoted = false;
        }
      } else {
        if (c === "\n") line++;
        field += c;
      }
      continue;
    }
    if (c === '"' && field === "" && !wasQuoted) {
      quoted = true;
      wasQuoted = true;
      quoteLine = line;
    } else if (c === delimiter) {
      endField();
    } else if (c === "\r" && src[i + 1] === "\n") {
      // CRLF: the LF ends the record
    } else if (c === "\n" || c === "\r") {
      line++;
      endRow();
    } else if (wasQuoted) {
      return { rows, error: `Line ${line}: unexpected text after a closing quote` };
    } else {
      field += c;
    }
  }
  if (quoted) return { rows, error: `Line ${quoteLine}: a quoted field is never closed` };
  if (field !== "" || wasQuoted || row.length > 0) endRow();
  // Blank lines (a lone empty field) carry no record.
  return { rows: rows.filter((r) => !(r.length === 1 && r[0] === "")), error: null };
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
