import { decideTransition } from "@workmetrics/domain/documents/machine";
import { SALES_ORDER } from "@workmetrics/domain/documents/types/sales-order";
import { DEFAULT_ROLE_PERMISSIONS } from "@workmetrics/domain/permissions";
import { ROLE } from "@workmetrics/domain/roles";
import { describe, expect, it } from "vitest";
import { act, draft, ok, read, rpc } from "./documents-helpers.ts";
import { restFetch } from "./rest-helpers.ts";

// Issue 10 §1 and §5: numbers gapless under concurrency; the commands refuse another workspace's documents as if
// they did not exist, and permissions as the access rule words them.

const ADMIN = "admin@demo.test";
const THEM = "owner@pro.test";

describe("numbering", () => {
  it("gives 20 parallel submits 20 consecutive numbers; a refused submit takes none", async () => {
    const drafts = await Promise.all(Array.from({ length: 20 }, () => draft(ADMIN)));
    const empty = await ok(ADMIN, "document_save", { type: "quotation", header: { company_id: 9 }, lines: [] });
    const started = performance.now();
    const answers = await Promise.all([
      ...drafts.map((d) => act(ADMIN, "quotation", d.id, "submit")),
      act(ADMIN, "quotation", empty.id, "submit"),
    ]);
    const ms = performance.now() - started;
    expect(answers.slice(0, 20).map((a) => a.status)).toEqual(drafts.map(() => 200));
    expect(answers[20].status).toBe(409);
    const numbers = answers.slice(0, 20).map((a) => (a.body as { number: string }).number);
    const seq = numbers.map((n) => Number(n.split("-")[2])).sort((a, b) => a - b);
    expect(new Set(numbers).size).toBe(20);
    expect(seq.at(-1)! - seq[0]).toBe(19);
    // The next one follows on: nothing was lost to the refusal or the races.
    const next = await ok(ADMIN, "document_transition", {
      type: "quotation",
      id: (await draft(ADMIN)).id,
      action: "submit",
    });
    expect(Number(next.number?.split("-")[2])).toBe(seq[19] + 1);
    console.log(`20 parallel quotation submits: ${ms.toFixed(0)} ms (${(ms / 20).toFixed(1)} ms each on average)`);
  });
});

describe("another workspace's documents", () => {
  it("cannot be transitioned, converted, saved over or read from pro: answered as not found", async () => {
    const quote = await draft(ADMIN);
    await ok(ADMIN, "document_transition", { type: "quotation", id: quote.id, action: "submit" });
    const before = await read(ADMIN, "quotation", quote.id);
    const attempts = [
      await act(THEM, "quotation", quote.id, "cancel"),
      await rpc(THEM, "document_convert", { type: "quotation", id: quote.id, to: "sales_order" }),
      await rpc(THEM, "document_save", { type: "quotation", id: quote.id, header: { company_id: 9 }, lines: [] }),
    ];
    for (const res of attempts) {
      expect(res.status, res.text).toBe(404);
      expect(res.body).toMatchObject({
        code: "PGRST116",
        message: `There is no quotation ${quote.id} in this workspace`,
      });
    }
    expect((await restFetch(THEM, `quotation?id=eq.${quote.id}`)).body).toEqual([]);
    expect((await restFetch(THEM, `quotation_line?quotation_id=eq.${quote.id}`)).body).toEqual([]);
    expect(await read(ADMIN, "quotation", quote.id)).toEqual(before);
  });

  it("cannot be referenced: a draft for demo's customer or product is refused in pro", async () => {
    const ours = await restFetch(ADMIN, "company?select=id&id=neq.9&order=id&limit=1");
    const company = (ours.body as Array<{ id: number }>)[0].id;
    const theirs = await rpc(THEM, "document_save", {
      type: "quotation",
      header: { company_id: company },
      lines: [{ description: "x", qty: "1", unit_price: "1" }],
    });
    // Ids come from one sequence per table, so demo's customer id names nothing in pro: the composite foreign key
    // (workspace_id, company_id) refuses it.
    expect(company).not.toBe(9);
    expect(theirs.status, theirs.text).toBe(409);
    expect(theirs.body).toMatchObject({ code: "23503" });
    const product = (await restFetch(ADMIN, "product?select=id&order=id.desc&limit=1")).body as Array<{ id: number }>;
    const line = await rpc(THEM, "document_save", {
      type: "quotation",
      header: { company_id: 9 },
      lines: [{ product_id: product[0].id, qty: "1" }],
    });
    expect(line.status).toBe(422);
    expect(line.body).toMatchObject({ message: "Line 1: there is no such product in this workspace" });
  });
});

describe("permissions", () => {
  it("a salesperson drafts an order but may not submit it, told as the access rule says", async () => {
    const order = await draft("sales@demo.test", "sales_order");
    const member = {
      kind: "member" as const,
      permissions: DEFAULT_ROLE_PERMISSIONS[ROLE.Salesperson] ?? [],
      features: ["erp"],
    };
    const d = decideTransition(SALES_ORDER, { status: "draft", today: "", header: {}, lines: [{}] }, "submit", member);
    expect(d.allowed).toBe(false);
    const res = await act("sales@demo.test", "sales_order", order.id, "submit");
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ code: "42501", message: !d.allowed && d.message });
    expect((await read("sales@demo.test", "sales_order", order.id)).status).toBe("draft");
  });
});
