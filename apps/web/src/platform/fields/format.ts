import { DEFAULT_LOCALE, type LocaleFormat, localeFormat } from "@workmetrics/domain/locale";

// Plain-text renderings by field kind, shared by the widgets, the CSV export and the page titles.

export function humanize(value: string): string {
  const s = value.replace(/[_-]+/g, " ").trim();
  return s.charAt(0).toUpperCase() + s.slice(1);
}

// Issue 21 §1: every date, number and amount on screen reads in the workspace's locale (en-SG for an SGD
// workspace: 31/12/2025, 1,234.50), through the one formatter the server's PDFs and e-mails use too. The session
// sets it when the member's workspace is known (`setDisplayLocale`); before that — the public pages, the sign-in —
// it is Singapore English, the product's home, never the browser's own (a US-English browser wrote 12/31/2025).
let display: LocaleFormat = localeFormat(DEFAULT_LOCALE);

export function setDisplayLocale(locale: string): void {
  if (display.locale !== locale) display = localeFormat(locale);
}

export function displayLocale(): string {
  return display.locale;
}

// A "YYYY-MM-DD" date is a calendar day, not an instant: read it in local time so it never shifts a day.
export function parseDay(value: string): Date | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (m) return new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? null : d;
}

// A day as a list cell or a field shows it: 31/12/2025 (en-SG).
export function formatDate(value: unknown): string {
  if (typeof value !== "string" || !value) return "";
  return display.date(value);
}

// A day spelled out, where a sentence names it: 31 Dec 2025 (en-SG).
export function formatSpelledDate(value: unknown): string {
  if (typeof value !== "string" || !value) return "";
  return display.spelledDate(value);
}

export function formatDateTime(value: unknown): string {
  if (typeof value !== "string" || !value) return "";
  return display.dateTime(value);
}

export function formatNumber(value: unknown, fractionDigits?: number): string {
  if (value === null || value === undefined || value === "") return "";
  return display.number(value, fractionDigits);
}

// An amount without its currency, always with two decimals ("705.30"), as a lines table shows money; a unit price
// may carry up to 4 (`maxDigits`).
export function formatCents(value: unknown, maxDigits = 2): string {
  if (value === null || value === undefined || value === "") return "";
  return display.amount(value, maxDigits);
}

// Money with its currency code, as the app writes it: "SGD 1,234.50".
export function formatAmount(value: unknown, currency: string): string {
  if (value === null || value === undefined || value === "") return "";
  return display.money(value, currency);
}

// Spec §4: statuses use cyan, yellow, blue, green, red, purple and gray; which status gets which is ours.
export type StatusColor = "cyan" | "yellow" | "blue" | "green" | "red" | "purple" | "gray";
const STATUS_COLORS: Record<string, StatusColor> = {
  draft: "gray",
  inactive: "gray",
  archived: "gray",
  new: "cyan",
  planning: "cyan",
  open: "cyan",
  planned: "cyan",
  sent: "blue",
  submitted: "blue",
  in_progress: "blue",
  active: "green",
  approved: "green",
  confirmed: "green",
  completed: "green",
  done: "green",
  paid: "green",
  pending: "yellow",
  on_hold: "yellow",
  partial: "yellow",
  overdue: "red",
  cancelled: "red",
  rejected: "red",
  closed: "purple",
  published: "purple",
};
export const STATUS_HEX: Record<StatusColor, string> = {
  cyan: "#00acc1",
  yellow: "#f9a825",
  blue: "#1e88e5",
  green: "#43a047",
  red: "#e53935",
  purple: "#8e24aa",
  gray: "#757575",
};

export function statusColor(status: string): string {
  return STATUS_HEX[STATUS_COLORS[status.toLowerCase()] ?? "gray"];
}
