import { describe, expect, it } from "vitest";
import { headerMessages, shownOutstanding } from "./saveErrors.ts";
import { docType } from "./types.ts";

describe("a refused save's field messages", () => {
  const header = docType("quotation").header.fields;

  it("asks to choose a customer where zod says a number was expected and nothing came", () => {
    const out = headerMessages(
      {
        "header.company_id": "Invalid input: expected number, received undefined",
        "header.doc_date": "Invalid input: expected string, received null",
        "header.currency": "Currency must be 3 letters",
      },
      header,
    );
    expect(out.company_id).toBe("Choose a customer");
    expect(out.doc_date).toMatch(/is required$/);
    expect(out.currency).toBe("Currency must be 3 letters");
  });
});

describe("what an invoice still owes", () => {
  it("is not shown on a draft, and is once submitted", () => {
    expect(shownOutstanding({ status: "draft", outstanding: "0.00" }, true)).toBeUndefined();
    expect(shownOutstanding({ status: "unpaid", outstanding: "12.50" }, false)).toBe("12.50");
    expect(shownOutstanding({ status: "draft" }, false)).toBeUndefined();
    expect(shownOutstanding(null, false)).toBeUndefined();
  });
});
