import { describe, expect, it } from "vitest";
import { BusinessDetails } from "./business-details.ts";

describe("BusinessDetails", () => {
  it("keeps what is given, normalised, and empty as null", () => {
    expect(
      BusinessDetails.parse({
        business_address: " 10 Anson Road\n#12-01\nSingapore 079903 ",
        uen: " 201912345k ",
        gst_registration_number: "m2-0123456-7",
      }),
    ).toEqual({
      business_address: "10 Anson Road\n#12-01\nSingapore 079903",
      uen: "201912345K",
      gst_registration_number: "M2-0123456-7",
    });
    expect(BusinessDetails.parse({ business_address: "", uen: "", gst_registration_number: "" })).toEqual({
      business_address: null,
      uen: null,
      gst_registration_number: null,
    });
    expect(BusinessDetails.parse({})).toEqual({ business_address: null, uen: null, gst_registration_number: null });
  });

  it.each([
    [{ uen: "12345" }, "uen", /^Enter a UEN like/],
    [{ gst_registration_number: "GST!" }, "gst_registration_number", /^Enter the GST registration number/],
    [{ business_address: "x".repeat(301) }, "business_address", /at most 300/],
  ])("refuses %j on its field", (input, field, message) => {
    const res = BusinessDetails.safeParse(input);
    expect(res.success).toBe(false);
    expect(res.error?.issues[0].path).toEqual([field]);
    expect(res.error?.issues[0].message).toMatch(message);
  });
});
