import { z } from "zod";
import { DATE_RANGE } from "../brand.ts";
import { isCalendarDay } from "../resources/define.ts";

// What a command accepts for a day, an amount or a quantity (issue 21 §2): the probe posted journals on 9999-12-31,
// a payment of "NaN", "Infinity" and 1e20 (a 500, then the database's own overflow message), and received
// 0.000000001 on a transfer, stored as 0. Each is now a 422 naming the field, with the same rules as the forms:
// days between 1900 and 2099 (DESIGN §2.4), plain decimals no longer nor finer than the column keeps.

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const PLAIN_DECIMAL = /^-?\d+(\.\d+)?$/;

export const dayArg = (what = "The date") =>
  z
    .string({ error: `${what} must be a date like 2026-03-31` })
    .regex(DAY, `${what} must be a date like 2026-03-31`)
    .refine(isCalendarDay, `${what} is not a real date`)
    .refine(
      (v) => !isCalendarDay(v) || (v >= DATE_RANGE.min && v <= DATE_RANGE.max),
      `${what} must be between ${DATE_RANGE.min.slice(0, 4)} and ${DATE_RANGE.max.slice(0, 4)}`,
    );

// A decimal as JSON sends it (a string, or a finite number) kept as the string the database stores; `scale` is the
// column's decimals and `digits` its precision, so nothing is rounded away or overflows in the database. `scale`
// null: the command checks the decimals itself, with words of its own (a payment's "has more than 2 decimals").
export const decimalArg = (what: string, scale: number | null, digits: number) =>
  z.union([z.string(), z.number()], { error: `${what} must be a number like 12.50` }).transform((v, ctx) => {
    const text = typeof v === "number" ? (Number.isFinite(v) ? String(v) : "") : v.trim();
    if (!PLAIN_DECIMAL.test(text)) {
      ctx.addIssue({ code: "custom", message: `${what} must be a number like 12.50` });
      return z.NEVER;
    }
    const [whole, fraction = ""] = text.replace(/^-/, "").split(".");
    if (scale !== null && fraction.replace(/0+$/, "").length > scale) {
      ctx.addIssue({ code: "custom", message: `${what} can have at most ${scale} decimals` });
      return z.NEVER;
    }
    if (whole.replace(/^0+/, "").length > digits - (scale ?? 2)) {
      ctx.addIssue({ code: "custom", message: `${what} is too large` });
      return z.NEVER;
    }
    return text;
  });

// Money numeric(14,2) (its cents checked by the commands, in their words) and quantities numeric(14,3), as
// document-columns.ts stores them.
export const amountArg = (what = "The amount") => decimalArg(what, null, 14);
export const qtyArg = (what = "The quantity") => decimalArg(what, 3, 14);
