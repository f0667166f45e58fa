import { DATE_RANGE } from "@workmetrics/domain";
import dayjs, { type Dayjs } from "dayjs";

// Form state ↔ date picker values. The form keeps the strings the wire uses ("YYYY-MM-DD" for a date, local
// "YYYY-MM-DDTHH:mm" for a timestamp, which convert.ts turns into an ISO instant), so the schema checks them.

export type DateKind = "date" | "datetime";

// What an unfinished or impossible entry leaves in the form: not a date, so the schema names the field.
export const INVALID_DATE = "invalid-date";

const FORMAT: Record<DateKind, string> = { date: "YYYY-MM-DD", datetime: "YYYY-MM-DDTHH:mm" };
const WIRE = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2}))?$/;

const invalid = () => dayjs(Number.NaN);

// A form value as the picker's value: blank is null, anything else that is not a real day an invalid date.
export function toPickerValue(value: unknown): Dayjs | null {
  if (typeof value !== "string" || value === "") return null;
  const m = WIRE.exec(value);
  if (!m) return invalid();
  // Set part by part: dayjs("0001-01-01") reads year 1 as 1901, and 2026-02-30 must not roll into March.
  const d = dayjs(new Date(2000, 0, 1))
    .year(Number(m[1]))
    .month(Number(m[2]) - 1)
    .date(Number(m[3]))
    .hour(Number(m[4] ?? 0))
    .minute(Number(m[5] ?? 0));
  return d.format(FORMAT[m[4] === undefined ? "date" : "datetime"]) === value ? d : invalid();
}

// The picker's value as form state: blank is "", a half-typed or impossible date INVALID_DATE.
export function fromPickerValue(kind: DateKind, value: Dayjs | null): string {
  if (value === null) return "";
  return value.isValid() ? value.format(FORMAT[kind]) : INVALID_DATE;
}

// DESIGN §2.4: the pickers offer 1900-01-01 … 2099-12-31. Timestamps are bounded in UTC, as the schema checks them.
export function pickerRange(kind: DateKind): { min: Dayjs; max: Dayjs } {
  if (kind === "date") {
    return { min: toPickerValue(DATE_RANGE.min) as Dayjs, max: toPickerValue(DATE_RANGE.max) as Dayjs };
  }
  return { min: dayjs(`${DATE_RANGE.min}T00:00:00.000Z`), max: dayjs(`${DATE_RANGE.max}T23:59:59.999Z`) };
}
