import { describe, expect, it } from "vitest";
import { DataError } from "../data-access/errors.ts";
import { toastMessage } from "./toastable.ts";

const refusal = (status: number, code: string, message: string) => new DataError(status, code, message, null, null);

describe("a failed query's toast (issue 9 §2: a refusal shows once, on the page)", () => {
  it("leaves refusals to the page", () => {
    expect(toastMessage(refusal(403, "tier_required", "Projects need the Pro tier"))).toBeNull();
    expect(toastMessage(refusal(403, "42501", "You do not have permission to read roles"))).toBeNull();
    expect(toastMessage(refusal(401, "42501", "Sign in"))).toBeNull();
    expect(toastMessage(refusal(405, "PGRST105", "Not offered"))).toBeNull();
  });

  it("toasts every other failure", () => {
    expect(toastMessage(refusal(0, "network", "Cannot reach the server."))).toBe("Cannot reach the server.");
    expect(toastMessage(refusal(500, "XX000", "Something went wrong"))).toBe("Something went wrong");
    expect(toastMessage(refusal(400, "PGRST100", "Bad filter"))).toBe("Bad filter");
    expect(toastMessage(new Error("boom"))).toBe("boom");
    expect(toastMessage(null)).toBeNull();
  });
});
