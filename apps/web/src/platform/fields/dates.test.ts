import { couponResource } from "@workmetrics/domain/resources/admin";
import { projectResource } from "@workmetrics/domain/resources/projects";
import type { FieldDef } from "@workmetrics/domain/resources/types";
import dayjs from "dayjs";
import { describe, expect, it } from "vitest";
import { toWire, validate } from "./convert.ts";
import { fromPickerValue, INVALID_DATE, pickerRange, toPickerValue } from "./dates.ts";

describe("toPickerValue / fromPickerValue", () => {
  it("reads a day and a local date-time and writes them back unchanged", () => {
    const day = toPickerValue("2026-12-31");
    expect(day?.isValid()).toBe(true);
    expect([day?.year(), day?.month(), day?.date(), day?.hour()]).toEqual([2026, 11, 31, 0]);
    expect(fromPickerValue("date", day ?? null)).toBe("2026-12-31");
    const at = toPickerValue("2026-03-05T09:07");
    expect([at?.hour(), at?.minute()]).toEqual([9, 7]);
    expect(fromPickerValue("datetime", at ?? null)).toBe("2026-03-05T09:07");
  });

  it("keeps years below 100 and before 1900 as typed", () => {
    // dayjs("0001-12-31") would say 1901: the year is typed digit by digit, 1 → 18 → 189 → 1899.
    expect(toPickerValue("0001-12-31")?.year()).toBe(1);
    expect(fromPickerValue("date", toPickerValue("0018-12-31"))).toBe("0018-12-31");
    expect(fromPickerValue("date", toPickerValue("1899-12-31"))).toBe("1899-12-31");
  });

  it("treats blank as empty and anything else that is not a real day as invalid", () => {
    expect(toPickerValue("")).toBeNull();
    expect(toPickerValue(undefined)).toBeNull();
    for (const bad of [INVALID_DATE, "2026-02-30", "2026-13-01", "31/12/2026", "2026-1-1"]) {
      expect(toPickerValue(bad)?.isValid(), bad).toBe(false);
    }
  });

  it("writes a cleared picker as blank and a half-typed one as INVALID_DATE", () => {
    expect(fromPickerValue("date", null)).toBe("");
    expect(fromPickerValue("date", dayjs(Number.NaN))).toBe(INVALID_DATE);
    expect(fromPickerValue("datetime", dayjs(Number.NaN))).toBe(INVALID_DATE);
  });

  it("bounds the pickers to 1900-01-01 … 2099-12-31 (timestamps in UTC, as the schema checks them)", () => {
    const day = pickerRange("date");
    expect([fromPickerValue("date", day.min), fromPickerValue("date", day.max)]).toEqual(["1900-01-01", "2099-12-31"]);
    const instant = pickerRange("datetime");
    expect(instant.min.toISOString()).toBe("1900-01-01T00:00:00.000Z");
    expect(instant.max.toISOString()).toBe("2099-12-31T23:59:59.999Z");
  });
});

describe("a picked date through the form's validation (the resource's own schema)", () => {
  const check = (fields: FieldDef[], values: Record<string, unknown>, schema = projectResource.insert) =>
    validate(schema, toWire(fields, values, "create"));
  const project = projectResource.fields;
  const base = { code: "P-1", name: "Fit-out" };

  it("passes a day in range as YYYY-MM-DD on the wire", () => {
    expect(toWire(project, { ...base, start_date: "2026-12-31" }, "create")).toMatchObject({
      start_date: "2026-12-31",
    });
    expect(check(project, { ...base, start_date: "2026-12-31", end_date: "2099-12-31" }).ok).toBe(true);
    expect(check(project, { ...base, start_date: "" }).ok).toBe(true);
  });

  it("names the field for a day out of range or not finished", () => {
    expect(check(project, { ...base, start_date: "1899-12-31" })).toEqual({
      ok: false,
      errors: { start_date: "Start must be between 1900 and 2099" },
    });
    expect(check(project, { ...base, end_date: "2100-01-01" })).toEqual({
      ok: false,
      errors: { end_date: "End must be between 1900 and 2099" },
    });
    expect(check(project, { ...base, start_date: INVALID_DATE })).toEqual({
      ok: false,
      errors: { start_date: "Start must be a valid date" },
    });
  });

  it("checks a date and time the same way", () => {
    const coupon = couponResource.fields;
    const values = { code: "SAVE", kind: "percent", value: "10", active: true };
    const at = (valid_from: string) => check(coupon, { ...values, valid_from }, couponResource.insert);
    expect(at("2026-03-05T09:00").ok).toBe(true);
    expect(at("1899-06-01T09:00")).toEqual({
      ok: false,
      errors: { valid_from: "Valid from must be between 1900 and 2099" },
    });
    expect(at(INVALID_DATE)).toEqual({
      ok: false,
      errors: { valid_from: "Valid from must be a valid date and time" },
    });
  });
});
