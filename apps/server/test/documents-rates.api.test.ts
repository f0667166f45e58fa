import { describe, expect, it } from "vitest";
import { customer, ok, rpc } from "./documents-helpers.ts";
import { restFetch } from "./rest-helpers.ts";

// Issue 10 §1: a document's currency and rate — base currency at 1; another currency at its project's currency
// factor (locked: whatever the client sends; unlocked: the default); no factor and no rate: refused, not booked at 1.

const ADMIN = "admin@demo.test";
const line = [{ description: "Freight", qty: "1", unit_price: "100", tax_code: "ZR" }];

async function projectWithFactors(): Promise<number> {
  const code = `FX-${Date.now().toString(36)}`;
  const made = await restFetch(ADMIN, "project", {
    method: "POST",
    headers: { prefer: "return=representation" },
    body: JSON.stringify({ code, name: "Export job" }),
  });
  expect(made.status, made.text).toBe(201);
  const id = (made.body as Array<{ id: number }>)[0].id;
  for (const f of [
    { currency: "USD", factor: "1.350000", locked: true },
    { currency: "EUR", factor: "1.450000", locked: false },
  ]) {
    const res = await restFetch(ADMIN, "currency_factor", {
      method: "POST",
      body: JSON.stringify({ project_id: id, ...f }),
    });
    expect(res.status, res.text).toBe(201);
  }
  return id;
}

describe("document currency and exchange rate", () => {
  it("takes the rate from the project's currency factor, locked or as a default, and refuses a currency without one", async () => {
    const company_id = await customer(ADMIN);
    const project_id = await projectWithFactors();
    const save = (header: Record<string, unknown>) =>
      rpc(ADMIN, "document_save", { type: "quotation", header: { company_id, ...header }, lines: line });

    const base = await ok(ADMIN, "document_save", {
      type: "quotation",
      header: { company_id, rate: "3" },
      lines: line,
    });
    expect(base).toMatchObject({ currency: "SGD", rate: "1.000000", total: "100.00", base_total: "100.00" });

    const locked = await ok(ADMIN, "document_save", {
      type: "quotation",
      header: { company_id, project_id, currency: "USD", rate: "9" },
      lines: line,
    });
    expect(locked).toMatchObject({ currency: "USD", rate: "1.350000", total: "100.00", base_total: "135.00" });

    const byDefault = await ok(ADMIN, "document_save", {
      type: "quotation",
      header: { company_id, project_id, currency: "EUR" },
      lines: line,
    });
    expect(byDefault).toMatchObject({ rate: "1.450000", base_total: "145.00" });
    const overridden = await ok(ADMIN, "document_save", {
      type: "quotation",
      header: { company_id, project_id, currency: "EUR", rate: "1.5" },
      lines: line,
    });
    expect(overridden).toMatchObject({ rate: "1.500000", base_total: "150.00" });

    const none = await save({ currency: "JPY" });
    expect(none.status).toBe(422);
    expect((none.body as { message: string }).message).toBe(
      "Give the exchange rate from JPY to SGD: the document has no project for JPY",
    );
    const given = await ok(ADMIN, "document_save", {
      type: "quotation",
      header: { company_id, currency: "JPY", rate: "0.0089" },
      lines: line,
    });
    expect(given).toMatchObject({ rate: "0.008900", base_total: "0.89" });
  });
});
