import type { OcrLine } from "./ocr.ts";

// Issue 24: what a supplier invoice or a receipt says, from its text lines (read.ts). Pure functions: each field is
// `{ value, confidence }`, the confidence (0..1) being the reading's own (the line's OCR confidence, 1 for a PDF's
// text layer) times how sure the rule that found it is (a labelled "Invoice No:" more than a guess).

export type Field<T> = { value: T; confidence: number };
export type ScanLine = Pick<OcrLine, "text" | "confidence">;

export type InvoiceLine = {
  description: Field<string>;
  qty: Field<number>;
  unit_price: Field<number>;
  amount: Field<number>;
};

export type InvoiceFields = {
  supplier_name?: Field<string>;
  supplier_uen?: Field<string>;
  invoice_number?: Field<string>;
  invoice_date?: Field<string>; // ISO yyyy-mm-dd
  due_date?: Field<string>;
  currency?: Field<string>;
  subtotal?: Field<number>;
  gst?: Field<number>;
  total?: Field<number>;
  lines: InvoiceLine[];
};

export type ReceiptFields = {
  merchant?: Field<string>;
  merchant_uen?: Field<string>;
  receipt_number?: Field<string>;
  date?: Field<string>;
  subtotal?: Field<number>;
  gst?: Field<number>;
  total?: Field<number>;
  currency?: Field<string>;
};

const round2 = (n: number) => Math.round(n * 100) / 100;
const conf = (line: ScanLine, rule: number) => round2(Math.max(0, Math.min(1, line.confidence * rule)));
const field = <T>(value: T, line: ScanLine, rule: number): Field<T> => ({ value, confidence: conf(line, rule) });

export const toLines = (text: string): ScanLine[] =>
  text
    .split(/\r?\n/)
    .map((t) => t.trim())
    .filter((t) => t !== "")
    .map((t) => ({ text: t, confidence: 1 }));

// ---------------------------------------------------------------- numbers, dates, identifiers

// An amount as printed: "1,234.56", "S$ 1,234.56", "$12.30", "(12.00)"; OCR's O for 0 inside digits mended.
const AMOUNT = /(?<![\w.])-?(?:S?\$\s?)?(\d{1,3}(?:[,.\s]\d{3})+|\d+)[.,](\d{2})(?![\d])/g;
export function amountsIn(text: string): number[] {
  const mended = text.replace(/(?<=\d[.,]?\d?)[Oo](?![A-Za-z])|(?<![A-Za-z])[Oo](?=\d)/g, "0");
  const out: number[] = [];
  for (const m of mended.matchAll(AMOUNT)) {
    const whole = m[1].replace(/[,\s]/g, "");
    out.push(Number(`${whole}.${m[2]}`));
  }
  return out;
}

const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];
const iso = (y: number, m: number, d: number): string | null => {
  if (y < 100) y += 2000;
  if (m < 1 || m > 12 || d < 1 || d > 31 || y < 1990 || y > 2099) return null;
  const date = new Date(Date.UTC(y, m - 1, d));
  if (date.getUTCDate() !== d) return null;
  return date.toISOString().slice(0, 10);
};

// The first date in a piece of text: dd/mm/yyyy (Singapore's order), dd-mm-yy, yyyy-mm-dd, "12 Nov 2026",
// "Nov 12, 2026", "12-Nov-2026".
export function dateIn(text: string): string | null {
  const t = text.replace(/(?<=\d)[Oo]|[Oo](?=\d)/g, "0");
  const patterns: Array<[RegExp, (m: RegExpExecArray) => string | null]> = [
    [/\b(\d{4})-(\d{1,2})-(\d{1,2})\b/, (m) => iso(+m[1], +m[2], +m[3])],
    [/\b(\d{1,2})\s*[/.-]\s*(\d{1,2})\s*[/.-]\s*(\d{4}|\d{2})\b/, (m) => iso(+m[3], +m[2], +m[1])],
    [
      /\b(\d{1,2})(?:st|nd|rd|th)?[\s-]+([A-Za-z]{3,9})\.?,?[\s-]+(\d{4})\b/,
      (m) => {
        const mo = MONTHS.indexOf(m[2].slice(0, 3).toLowerCase());
        return mo < 0 ? null : iso(+m[3], mo + 1, +m[1]);
      },
    ],
    [
      /\b([A-Za-z]{3,9})\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})\b/,
      (m) => {
        const mo = MONTHS.indexOf(m[1].slice(0, 3).toLowerCase());
        return mo < 0 ? null : iso(+m[3], mo + 1, +m[2]);
      },
    ],
  ];
  for (const [re, make] of patterns) {
    const m = re.exec(t);
    if (m) {
      const d = make(m);
      if (d) return d;
    }
  }
  return null;
}

// Singapore UENs: businesses (8 digits + letter), local companies (year + 5 digits + letter), other entities
// (T/S/R + 2 digits + 2-letter type + 4 digits + letter).
const UEN = /\b(\d{8}[A-Z]|(?:19|20)\d{7}[A-Z]|[TSR]\d{2}[A-Z]{2}\d{4}[A-Z])\b/;
export function uenIn(text: string): string | null {
  const m = UEN.exec(text.toUpperCase().replace(/(?<=\d)O|O(?=\d{3})/g, "0"));
  return m ? m[1] : null;
}

// ---------------------------------------------------------------- labelled values

const after = (text: string, label: RegExp): string | null => {
  const m = label.exec(text);
  return m ? text.slice(m.index + m[0].length).replace(/^[\s:.#-]+/, "") : null;
};

function labelled<T>(
  lines: ScanLine[],
  label: RegExp,
  read: (rest: string, line: ScanLine) => T | null,
  opts: { last?: boolean; not?: RegExp } = {},
): Field<T> | undefined {
  const order = opts.last ? [...lines].reverse() : lines;
  for (const line of order) {
    if (opts.not?.test(line.text)) continue;
    const rest = after(line.text, label);
    if (rest == null) continue;
    const v = read(rest, line);
    if (v != null && v !== "") return field(v, line, 0.98);
  }
  return undefined;
}

// The last amount after a label; a whole number of three digits or more where the print has cents is read as
// cents lost their point ("11195" for 111.95: OCR drops a small dot), as printed totals carry cents.
const lastAmount = (rest: string): number | null => {
  const a = amountsIn(rest);
  if (a.length) return a.at(-1) as number;
  const whole = /(?<![\d.,%])(\d{3,7})(?![\d.,%])\s*$/.exec(rest.replace(/(?<=\d)[Oo]/g, "0"));
  return whole ? Number(whole[1]) / 100 : null;
};

const COMPANY =
  /\b(pte\.?\s*ltd\.?|private limited|limited|ltd\.?|llp|llc|inc\.?|sdn\.?\s*bhd\.?|enterprise|trading|co\.)\s*$/i;
const NOT_A_NAME = /\b(tax invoice|invoice|receipt|bill to|ship to|date|uen|gst|tel|fax|email|page)\b/i;

function nameAtTop(lines: ScanLine[]): Field<string> | undefined {
  const top = lines.slice(0, 8);
  const company = top.find((l) => COMPANY.test(l.text) && !/\b(bill|ship|sold)\s+to\b/i.test(l.text));
  if (company) return field(cleanName(company.text), company, 0.95);
  const first = top.find((l) => /[A-Za-z]{3}/.test(l.text) && !NOT_A_NAME.test(l.text));
  return first ? field(cleanName(first.text), first, 0.6) : undefined;
}
// Marks OCR leaves at either end of a line ("- Eastern Packaging", "Safety gloves .").
export const tidy = (s: string) =>
  s
    .trim()
    .replace(/^[^A-Za-z0-9(]+/, "")
    .replace(/[^A-Za-z0-9).]+$|(?<=[A-Za-z0-9)])\s+[.,:;'"-]+$/, "")
    .trim();
const cleanName = (s: string) =>
  tidy(s)
    .replace(/^(from|supplier|merchant)\s*[:-]\s*/i, "")
    .replace(/\s{2,}.*$/, "")
    .trim();

function uenField(lines: ScanLine[]): Field<string> | undefined {
  const byLabel = labelled(lines, /\b(uen|co\.?\s*reg(istration)?\.?\s*no|company\s+reg(istration)?\s*no)\b\.?/i, (r) =>
    uenIn(r),
  );
  if (byLabel) return byLabel;
  const gst = labelled(lines, /\bgst\s*reg(istration)?\.?\s*(no|number)?\b\.?/i, (r) => uenIn(r));
  if (gst) return { value: gst.value, confidence: round2(gst.confidence * 0.9) };
  for (const l of lines.slice(0, 12)) {
    const u = uenIn(l.text);
    if (u) return field(u, l, 0.7);
  }
  return undefined;
}

const DOC_NO = /[A-Z0-9][A-Z0-9/-]{2,}/i;
const docNumber = (rest: string) => {
  const m = DOC_NO.exec(rest.trim());
  return m && /\d/.test(m[0]) ? m[0].replace(/[.,;:]+$/, "") : null;
};

function currencyField(lines: ScanLine[]): Field<string> | undefined {
  for (const l of lines) {
    const m = /\b(SGD|USD|MYR|EUR|GBP|AUD|CNY|JPY|HKD|IDR|THB)\b/.exec(l.text.toUpperCase());
    if (m) return field(m[1], l, 0.9);
  }
  if (lines.some((l) => /S\$/.test(l.text))) return { value: "SGD", confidence: 0.8 };
  return undefined;
}

const SUBTOTAL = /\bsub[\s-]*total\b|\btotal\s+(before|excl(uding)?\.?)\s+gst\b|\bamount\s+before\s+gst\b/i;
const GST_LINE = /\b(gst|g\.s\.t\.|vat)\b(?!\s*reg)/i;
const TOTAL =
  /\b(grand\s+total|total\s+(amount\s+)?(due|payable)|amount\s+due|total\s+(incl(uding)?\.?\s+gst|sgd)|total)\b/i;

function totals(lines: ScanLine[]) {
  const subtotal = labelled(lines, SUBTOTAL, lastAmount, { last: true });
  const gst = labelled(lines, GST_LINE, lastAmount, {
    last: true,
    not: /\breg(istration)?\b|\btotal\b|\bexcl/i,
  });
  const total = labelled(lines, TOTAL, lastAmount, { last: true, not: /sub[\s-]*total|before\s+gst|excl/i });
  return { subtotal, gst, total };
}

// ---------------------------------------------------------------- invoice lines

// A line of the invoice's table: a description, then qty, unit price and amount where qty × price = amount (to the
// cent), or a description with one amount where no qty is printed.
export function invoiceLines(lines: ScanLine[]): InvoiceLine[] {
  const out: InvoiceLine[] = [];
  for (const line of lines) {
    if (SUBTOTAL.test(line.text) || TOTAL.test(line.text) || GST_LINE.test(line.text)) continue;
    const m =
      /^(.*?[A-Za-z].*?)\s+(\d+(?:\.\d{1,3})?)\s*(?:x\s*|pcs\s+|units?\s+|ea\s+)?(?:S?\$\s?)?(\d{1,3}(?:,\d{3})*\.\d{2,4}|\d+\.\d{2,4})\s+(?:S?\$\s?)?(\d{1,3}(?:[,.]\d{3})*\.\d{2}|\d+\.\d{2}|\d{3,})\s*$/i.exec(
        line.text.replace(/(?<=\d)[Oo](?=[\d.,])/g, "0"),
      );
    if (!m) continue;
    const qty = Number(m[2]);
    const price = Number(m[3].replace(/,/g, ""));
    // An amount whose point OCR lost ("10640" for 106.40) is read in cents.
    const amount = /[.,]\d{2}$/.test(m[4]) ? Number(m[4].replace(/[.,](?=\d{3})/g, "")) : Number(m[4]) / 100;
    const adds = Math.abs(round2(qty * price) - amount) <= 0.011;
    const rule = adds ? 0.98 : 0.6;
    const description = tidy(m[1].replace(/^\d{1,3}[.)]?\s+(?=[A-Za-z])/, ""));
    out.push({
      description: field(description, line, rule),
      qty: field(qty, line, rule),
      unit_price: field(price, line, rule),
      amount: field(amount, line, rule),
    });
  }
  return out;
}

// ---------------------------------------------------------------- the two extractors

export function extractInvoiceFields(input: string | ScanLine[]): InvoiceFields {
  const lines = typeof input === "string" ? toLines(input) : input;
  const dateRe = /\b(invoice\s+date|inv\.?\s+date|date\s+of\s+invoice|tax\s+date|date)\b/i;
  return {
    supplier_name: nameAtTop(lines),
    supplier_uen: uenField(lines),
    invoice_number: labelled(
      lines,
      /\b(tax\s+)?(invoice|inv)\.?\s*(no\.?|number|num\.?|#)(?=[\s:.#]|$)|\binvoice\s*:|\binvoice\s+(?=[A-Z0-9-]*\d)/i,
      docNumber,
    ),
    invoice_date: labelled(lines, dateRe, dateIn, { not: /\bdue\b/i }),
    due_date: labelled(lines, /\b(due\s*date|payment\s*due|due\s+by|due\s+on|due)\b/i, dateIn),
    currency: currencyField(lines),
    ...totals(lines),
    lines: invoiceLines(lines),
  };
}

export function extractReceiptFields(input: string | ScanLine[]): ReceiptFields {
  const lines = typeof input === "string" ? toLines(input) : input;
  let date = labelled(lines, /\b(date|dated)\b/i, dateIn);
  if (!date) {
    for (const l of lines) {
      const d = dateIn(l.text);
      if (d) {
        date = field(d, l, 0.8);
        break;
      }
    }
  }
  return {
    merchant: nameAtTop(lines),
    merchant_uen: uenField(lines),
    receipt_number: labelled(
      lines,
      /\b(receipt|rcpt|invoice|inv|bill|trans(action)?|txn)\.?\s*(no\.?|number|num\.?|#)(?=[\s:.#]|$)/i,
      docNumber,
    ),
    date,
    currency: currencyField(lines),
    ...totals(lines),
  };
}

// ---------------------------------------------------------------- arithmetic

export const GST_RATE = 0.09;

// Why a person should look before trusting the figures: each reason in words. Empty when everything adds up.
export function arithmeticProblems(f: {
  subtotal?: Field<number>;
  gst?: Field<number>;
  total?: Field<number>;
  lines?: InvoiceLine[];
}): string[] {
  const money = (n: number) => n.toFixed(2);
  const problems: string[] = [];
  const lines = f.lines ?? [];
  for (const [i, l] of lines.entries()) {
    if (Math.abs(round2(l.qty.value * l.unit_price.value) - l.amount.value) > 0.011) {
      problems.push(
        `Line ${i + 1}: ${l.qty.value} × ${money(l.unit_price.value)} is ${money(round2(l.qty.value * l.unit_price.value))}, not ${money(l.amount.value)}`,
      );
    }
  }
  const sumLines = round2(lines.reduce((s, l) => s + l.amount.value, 0));
  if (lines.length && f.subtotal && Math.abs(sumLines - f.subtotal.value) > 0.011) {
    problems.push(`The lines add up to ${money(sumLines)}, but the subtotal reads ${money(f.subtotal.value)}`);
  }
  const net = f.subtotal?.value ?? (lines.length ? sumLines : undefined);
  if (net != null && f.gst && Math.abs(round2(net * GST_RATE) - f.gst.value) > 0.02) {
    problems.push(`GST reads ${money(f.gst.value)}, but 9% of ${money(net)} is ${money(round2(net * GST_RATE))}`);
  }
  if (net != null && f.total && Math.abs(round2(net + (f.gst?.value ?? 0)) - f.total.value) > 0.011) {
    problems.push(
      `${money(net)}${f.gst ? ` + GST ${money(f.gst.value)}` : ""} is ${money(round2(net + (f.gst?.value ?? 0)))}, but the total reads ${money(f.total.value)}`,
    );
  }
  if (!f.total) problems.push("No total could be read");
  return problems;
}
