import { expect } from "vitest";
import { rpc } from "./documents-helpers.ts";
import { restFetch } from "./rest-helpers.ts";

// Shared by the reports-*.api.test.ts files: a report run as a client runs it (POST rpc/report, which must answer),
// and a customer or supplier made through REST for the report to sum.

export type Report = {
  columns: Array<{ key: string; label: string; kind: string }>;
  rows: Array<Record<string, string | number | null>>;
  totals: Record<string, string | number>;
  key?: string;
  drill?: Array<Record<string, unknown> | null>;
};

export async function report(email: string, args: Record<string, unknown>): Promise<Report> {
  const res = await rpc(email, "report", args);
  expect(res.status, res.text).toBe(200);
  return res.body as Report;
}

export async function company(email: string, name: string, kind: "is_customer" | "is_supplier"): Promise<number> {
  const res = await restFetch(email, "company", {
    method: "POST",
    body: JSON.stringify({ name, [kind]: true }),
    headers: { prefer: "return=representation" },
  });
  expect(res.status, res.text).toBe(201);
  return (res.body as Array<{ id: number }>)[0].id;
}
