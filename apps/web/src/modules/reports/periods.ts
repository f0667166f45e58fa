// The reports page's periods (issue 12): presets named as an accountant says them, the previous period of equal
// length for "Compare with previous period", and GST quarters. Pure, on ISO dates (UTC arithmetic, no time zones).

export type Period = { from: string; to: string };

export const PRESETS = [
  { key: "this_month", label: "This month" },
  { key: "last_month", label: "Last month" },
  { key: "this_quarter", label: "This quarter" },
  { key: "last_quarter", label: "Last quarter" },
  { key: "this_year", label: "This year" },
  { key: "last_year", label: "Last year" },
] as const;

export type PresetKey = (typeof PRESETS)[number]["key"];

const iso = (d: Date) => d.toISOString().slice(0, 10);
const utc = (y: number, m: number, d: number) => new Date(Date.UTC(y, m, d));
const parts = (day: string) => {
  const [y, m, d] = day.split("-").map(Number);
  return { y, m: m - 1, d };
};

export const DAY = /^\d{4}-\d{2}-\d{2}$/;

export function isDay(value: string | null | undefined): value is string {
  if (!value || !DAY.test(value)) return false;
  const { y, m, d } = parts(value);
  return iso(utc(y, m, d)) === value;
}

// The first and last day of `months` calendar months starting at month index `m` of year `y`.
const months = (y: number, m: number, count: number): Period => ({
  from: iso(utc(y, m, 1)),
  to: iso(utc(y, m + count, 0)),
});

export function preset(key: PresetKey, today: string): Period {
  const { y, m } = parts(today);
  const q = Math.floor(m / 3) * 3;
  switch (key) {
    case "this_month":
      return months(y, m, 1);
    case "last_month":
      return months(y, m - 1, 1);
    case "this_quarter":
      return months(y, q, 3);
    case "last_quarter":
      return months(y, q - 3, 3);
    case "this_year":
      return months(y, 0, 12);
    case "last_year":
      return months(y - 1, 0, 12);
  }
}

// The preset a period is, if any (so the picker shows it selected).
export function presetOf(p: Period, today: string): PresetKey | null {
  return (
    PRESETS.find((x) => {
      const q = preset(x.key, today);
      return q.from === p.from && q.to === p.to;
    })?.key ?? null
  );
}

// The period just before `p`: whole calendar months give the same number of months before (Q2 → Q1, a year → the
// year before, March → February whatever their lengths); any other period, the same number of days before.
export function previousPeriod(p: Period): Period {
  const a = parts(p.from);
  const b = parts(p.to);
  const wholeMonths = a.d === 1 && iso(utc(b.y, b.m + 1, 0)) === p.to;
  if (wholeMonths) {
    const count = (b.y - a.y) * 12 + (b.m - a.m) + 1;
    return months(a.y, a.m - count, count);
  }
  const start = utc(a.y, a.m, a.d);
  const days = Math.round((utc(b.y, b.m, b.d).getTime() - start.getTime()) / 86_400_000) + 1;
  return { from: iso(new Date(start.getTime() - days * 86_400_000)), to: iso(new Date(start.getTime() - 86_400_000)) };
}

// The date one year (for as-of reports: the same day a year before; 29 February → 28 February).
export function previousDate(day: string): string {
  const { y, m, d } = parts(day);
  const last = utc(y - 1, m + 1, 0).getUTCDate();
  return iso(utc(y - 1, m, Math.min(d, last)));
}

// GST quarters (calendar quarters: a GST-registered business may have others, but most file these).
export type Quarter = { year: number; q: 1 | 2 | 3 | 4 };

export const quarterPeriod = ({ year, q }: Quarter): Period => months(year, (q - 1) * 3, 3);

export function quarterOf(day: string): Quarter {
  const { y, m } = parts(day);
  return { year: y, q: (Math.floor(m / 3) + 1) as Quarter["q"] };
}

// The last `count` quarters up to the one holding `today`, the latest first.
export function recentQuarters(today: string, count = 8): Quarter[] {
  const out: Quarter[] = [];
  let { year, q } = quarterOf(today);
  for (let i = 0; i < count; i++) {
    out.push({ year, q });
    if (q === 1) {
      year -= 1;
      q = 4;
    } else q = (q - 1) as Quarter["q"];
  }
  return out;
}

export const quarterLabel = ({ year, q }: Quarter): string => `Q${q} ${year}`;
