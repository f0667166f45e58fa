import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { customer } from "./documents-helpers.ts";
import { ownServer } from "./own-server-helpers.ts";
import { restFetch } from "./rest-helpers.ts";

// Issue 20 §2, DESIGN §2.3.2: every /rest/v1/rpc command honours Idempotency-Key — a repeat returns the first answer
// and changes nothing, the same key with another body is refused, a malformed key is a 400.

const own = ownServer();
const SALES = "sales@demo.test";
const MANAGER = "manager@demo.test";

const send = (email: string, fn: string, args: unknown, key?: string) =>
  restFetch(email, `rpc/${fn}`, {
    method: "POST",
    body: JSON.stringify(args),
    headers: key === undefined ? {} : { "idempotency-key": key },
  });

// A quotation draft whose one line's description marks it, so the test can count what was made.
const quotation = async (marker: string) => ({
  type: "quotation",
  header: { company_id: await customer(SALES) },
  lines: [{ description: marker, qty: "1", unit_price: "12.50" }],
});

const made = async (marker: string) =>
  Number(
    (await own.q<{ n: string }>(sql`select count(*)::text as n from quotation_line where description = ${marker}`))[0]
      .n,
  );

describe("Idempotency-Key on /rest/v1/rpc", () => {
  it("replays the first answer of a repeat and makes one document", async () => {
    const marker = `idem ${randomUUID()}`;
    const args = await quotation(marker);
    const key = randomUUID();
    const first = await send(SALES, "document_save", args, key);
    expect(first.status, first.text).toBe(200);
    expect(first.headers.get("idempotent-replayed")).toBeNull();
    // The same arguments with their keys in another order are the same request.
    const again = await send(SALES, "document_save", { lines: args.lines, header: args.header, type: args.type }, key);
    expect(again.status, again.text).toBe(200);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.body).toEqual(first.body);
    expect(await made(marker)).toBe(1);
    // Without a key, the same request runs again.
    expect((await send(SALES, "document_save", args)).status).toBe(200);
    expect(await made(marker)).toBe(2);
  });

  it("runs concurrent duplicates once: the others wait and replay", async () => {
    const marker = `idem ${randomUUID()}`;
    const args = await quotation(marker);
    const key = randomUUID();
    const answers = await Promise.all(Array.from({ length: 4 }, () => send(SALES, "document_save", args, key)));
    for (const a of answers) expect(a.status, a.text).toBe(200);
    expect(new Set(answers.map((a) => (a.body as { id: number }).id)).size).toBe(1);
    expect(answers.filter((a) => a.headers.get("idempotent-replayed") === "true")).toHaveLength(3);
    expect(await made(marker)).toBe(1);
  });

  it("refuses the same key with another body or another command (422), and keeps the first answer", async () => {
    const marker = `idem ${randomUUID()}`;
    const args = await quotation(marker);
    const key = randomUUID();
    expect((await send(SALES, "document_save", args, key)).status).toBe(200);
    const other = await send(SALES, "document_save", { ...args, lines: [{ ...args.lines[0], qty: "2" }] }, key);
    expect(other.status).toBe(422);
    expect(other.body).toMatchObject({ code: "idempotency_key_reused", message: expect.stringMatching(/different/) });
    const otherFn = await send(SALES, "dashboard_summary", {}, key);
    expect(otherFn.status).toBe(422);
    expect((otherFn.body as { message: string }).message).toContain("document_save");
    expect(await made(marker)).toBe(1);
    expect((await send(SALES, "document_save", args, key)).headers.get("idempotent-replayed")).toBe("true");
  });

  it("keeps a key per user: another member's same key is their own request", async () => {
    const marker = `idem ${randomUUID()}`;
    const args = await quotation(marker);
    const key = randomUUID();
    expect((await send(SALES, "document_save", args, key)).status).toBe(200);
    const theirs = await send(MANAGER, "document_save", args, key);
    expect(theirs.status, theirs.text).toBe(200);
    expect(theirs.headers.get("idempotent-replayed")).toBeNull();
    expect(await made(marker)).toBe(2);
  });

  it("stores nothing for a command that failed: the key stays free", async () => {
    const key = randomUUID();
    const refused = await send(
      SALES,
      "document_transition",
      { type: "quotation", id: 999_999_999, action: "submit" },
      key,
    );
    expect(refused.status).toBe(404);
    const rows = await own.q(sql`select 1 from idempotency_key where key = ${key}`);
    expect(rows).toHaveLength(0);
    // The key was not taken, so a different request may use it.
    const marker = `idem ${randomUUID()}`;
    const saved = await send(SALES, "document_save", await quotation(marker), key);
    expect(saved.status, saved.text).toBe(200);
    expect(saved.headers.get("idempotent-replayed")).toBeNull();
  });

  it("frees a key after 24 hours and sweeps expired keys on the way", async () => {
    const marker = `idem ${randomUUID()}`;
    const args = await quotation(marker);
    const key = randomUUID();
    const stale = randomUUID();
    expect((await send(SALES, "document_save", args, key)).status).toBe(200);
    expect((await send(SALES, "dashboard_summary", {}, stale)).status).toBe(200);
    const rows = await own.q<{ expires_in: string }>(
      sql`select extract(epoch from expires_at - created_at)::int::text as expires_in from idempotency_key where key = ${key}`,
    );
    expect(rows[0]?.expires_in).toBe(String(24 * 3600));
    await own.q(
      sql`update idempotency_key set expires_at = now() - interval '1 second' where key in (${key}, ${stale})`,
    );
    const rerun = await send(SALES, "document_save", args, key);
    expect(rerun.status).toBe(200);
    expect(rerun.headers.get("idempotent-replayed")).toBeNull();
    expect(await made(marker)).toBe(2);
    expect(await own.q(sql`select 1 from idempotency_key where key = ${stale}`)).toHaveLength(0);
  });

  it("refuses a malformed key with a 400 and runs nothing", async () => {
    const marker = `idem ${randomUUID()}`;
    const args = await quotation(marker);
    for (const bad of ["x".repeat(256), "tab\there", "é"]) {
      const res = await send(SALES, "document_save", args, bad);
      expect(res.status, bad).toBe(400);
      expect(res.body).toMatchObject({ code: "idempotency_key_invalid" });
    }
    expect(await made(marker)).toBe(0);
    expect((await send(SALES, "document_save", args, "x".repeat(255))).status).toBe(200);
  });
});
