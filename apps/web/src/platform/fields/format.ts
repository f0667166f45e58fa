import { formatMoney } from "@workmetrics/domain";

// Plain-text renderings by field kind, shared by the widgets, the CSV export and the page titles.

export function humanize(value: string): string {
  const s = value.replace(/[_-]+/g, " ").trim();
  return s.charAt(0).toUpperCase() + s.slice(1);
}

const DATE = new Intl.DateTimeFormat(undefined, { day: "numeric", month: "short", year: "numeric" });
const DATETIME = new Intl.DateTimeFormat(undefined, {
  day: "numeric",
  month: "short",
  year: "numeric",
  hour: "2-digit",
  minute: "2-digit",
});

// A "YYYY-MM-DD" date is a calendar day, not an instant: read it in local time so it never shifts a day.
export function parseDay(value: string): Date | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (m) return new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? null : d;
}

export function formatDate(value: unknown): string {
  if (typeof value !== "string" || !value) return "";
  const d = parseDay(value);
  return d ? DATE.format(d) : value;
}

export function formatDateTime(value: unknown): string {
  if (typeof value !== "string" || !value) return "";
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? value : DATETIME.format(d);
}

export function formatNumber(value: unknown, fractionDigits?: number): string {
  if (value === null || value === undefined || value === "") return "";
  const n = Number(value);
  if (!Number.isFinite(n)) return String(value);
  return n.toLocaleString(undefined, fractionDigits === undefined ? {} : { maximumFractionDigits: fractionDigits });
}

// An amount without its currency, always with two decimals ("705.30"), as a lines table shows money; a unit price
// may carry up to 4 (`maxDigits`).
export function formatCents(value: unknown, maxDigits = 2): string {
  if (value === null || value === undefined || value === "") return "";
  const n = Number(value);
  if (!Number.isFinite(n)) return String(value);
  return n.toLocaleString(undefined, { minimumFractionDigits: 2, maximumFractionDigits: maxDigits });
}

export function formatAmount(value: unknown, currency: string): string {
  if (value === null || value === undefined || value === "") return "";
  try {
    return formatMoney(String(value), currency);
  } catch {
    return String(value);
  }
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
