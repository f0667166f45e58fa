// Issue 21 §1: dates, numbers and money read the way the workspace's country writes them. There is no locale
// setting (yet): a workspace's locale follows its base currency — SGD → en-SG (31/12/2025, 1,234.50) — and a
// currency not listed here reads as Singapore English, the product's home. One formatter for the web and the
// server: both build it from the workspace's locale, so a list cell, a PDF and an e-mail agree.

export const DEFAULT_LOCALE = "en-SG";

const LOCALE_BY_CURRENCY: Record<string, string> = {
  SGD: "en-SG",
  MYR: "en-MY",
  IDR: "id-ID",
  THB: "th-TH",
  PHP: "en-PH",
  VND: "vi-VN",
  INR: "en-IN",
  HKD: "en-HK",
  CNY: "zh-CN",
  JPY: "ja-JP",
  AUD: "en-AU",
  NZD: "en-NZ",
  GBP: "en-GB",
  EUR: "en-IE",
  USD: "en-US",
  CAD: "en-CA",
};

// The workspace's locale: its own setting when it has one, else the one its base currency implies.
export function workspaceLocale(ws: { locale?: string | null; baseCurrency?: string | null }): string {
  const own = ws.locale?.trim();
  if (own && isLocale(own)) return own;
  return LOCALE_BY_CURRENCY[(ws.baseCurrency ?? "").toUpperCase()] ?? DEFAULT_LOCALE;
}

function isLocale(tag: string): boolean {
  try {
    return Intl.DateTimeFormat.supportedLocalesOf([tag]).length > 0;
  } catch {
    return false;
  }
}

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

// "YYYY-MM-DD" is a calendar day, not an instant: read and written in UTC so it never shifts a day; a timestamp
// is an instant, shown in the reader's time zone (the server's for a PDF).
function dayOf(value: string): Date | null {
  const m = DAY.exec(value.slice(0, 10));
  if (m && value.length === 10) return new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return null;
}

export type LocaleFormat = {
  locale: string;
  /** A day as the locale writes it in a table or a field: 31/12/2025 (en-SG), 12/31/2025 (en-US). */
  date(value: string | null | undefined): string;
  /** A day spelled out, as a letter or a printed document writes it: 31 Dec 2025 (en-SG), Dec 31, 2025 (en-US). */
  spelledDate(value: string | null | undefined): string;
  /** An instant with its time: 31/12/2025, 2:05 pm. */
  dateTime(value: string | null | undefined, timeZone?: string): string;
  /** A number with the locale's separators and at most `maxDigits` decimals (3 unless told). */
  number(value: unknown, maxDigits?: number): string;
  /** An amount with two decimals (a unit price up to `maxDigits`) and no currency: 1,234.50. */
  amount(value: unknown, maxDigits?: number): string;
  /** Money with its currency code first, as the app writes it: SGD 1,234.50, -SGD 5.00. */
  money(value: unknown, currency: string): string;
};

const cache = new Map<string, LocaleFormat>();

export function localeFormat(locale: string = DEFAULT_LOCALE): LocaleFormat {
  const hit = cache.get(locale);
  if (hit) return hit;
  const made = makeFormat(locale);
  cache.set(locale, made);
  return made;
}

function makeFormat(locale: string): LocaleFormat {
  const short = new Intl.DateTimeFormat(locale, { day: "2-digit", month: "2-digit", year: "numeric", timeZone: "UTC" });
  const spelled = new Intl.DateTimeFormat(locale, { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" });
  const instants = new Map<string, Intl.DateTimeFormat>(); // by time zone ("" the reader's)
  const amounts = new Map<number, Intl.NumberFormat>();
  const amountFormat = (maxDigits: number) => {
    let f = amounts.get(maxDigits);
    if (!f) {
      f = new Intl.NumberFormat(locale, {
        minimumFractionDigits: Math.min(2, maxDigits),
        maximumFractionDigits: maxDigits,
        signDisplay: "negative",
      });
      amounts.set(maxDigits, f);
    }
    return f;
  };
  const numbers = new Map<number, Intl.NumberFormat>();
  const numberFormat = (maxDigits: number) => {
    let f = numbers.get(maxDigits);
    if (!f) {
      f = new Intl.NumberFormat(locale, { maximumFractionDigits: maxDigits, signDisplay: "negative" });
      numbers.set(maxDigits, f);
    }
    return f;
  };
  // Decimal strings go to Intl as strings, so 12345678901234.125 keeps its digits (no float on the way).
  const numeric = (value: unknown): string | number | null => {
    if (value === null || value === undefined || value === "") return null;
    if (typeof value === "number") return Number.isFinite(value) ? value : null;
    const s = String(value).trim();
    return /^-?\d+(\.\d+)?$/.test(s) ? s : null;
  };
  const asIntl = (v: string | number) => v as unknown as number;

  const day = (value: string | null | undefined, f: Intl.DateTimeFormat): string => {
    if (!value) return "";
    const d = dayOf(value);
    if (d) return f.format(d);
    const t = new Date(value);
    return Number.isNaN(t.getTime()) ? value : f.format(new Date(Date.UTC(t.getFullYear(), t.getMonth(), t.getDate())));
  };

  return {
    locale,
    date: (value) => day(value, short),
    // en-SG and en-GB shorten September to "Sept"; every other month is three letters, as documents print them.
    spelledDate: (value) => day(value, spelled).replace(/\bSept\b/, "Sep"),
    dateTime(value, timeZone) {
      if (!value) return "";
      const d = new Date(value);
      if (Number.isNaN(d.getTime())) return value;
      let f = instants.get(timeZone ?? "");
      if (!f) {
        f = new Intl.DateTimeFormat(locale, {
          day: "2-digit",
          month: "2-digit",
          year: "numeric",
          hour: "numeric",
          minute: "2-digit",
          timeZone,
        });
        instants.set(timeZone ?? "", f);
      }
      return f.format(d);
    },
    number(value, maxDigits = 3) {
      const n = numeric(value);
      return n === null
        ? value === null || value === undefined
          ? ""
          : String(value)
        : numberFormat(maxDigits).format(asIntl(n));
    },
    amount(value, maxDigits = 2) {
      const n = numeric(value);
      return n === null
        ? value === null || value === undefined
          ? ""
          : String(value)
        : amountFormat(maxDigits).format(asIntl(n));
    },
    money(value, currency) {
      const n = numeric(value);
      if (n === null) return value === null || value === undefined ? "" : String(value);
      const text = amountFormat(2).format(asIntl(n));
      return text.startsWith("-") ? `-${currency} ${text.slice(1)}` : `${currency} ${text}`;
    },
  };
}
