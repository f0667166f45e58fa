import { createClient } from "@supabase/supabase-js";
import { describe, expect, it } from "vitest";
import { callCommand } from "./commands.ts";
import { DataError } from "./data-access/errors.ts";

// The typed client over supabase-js as the apps build it: what goes on the wire, and what a refusal becomes.
type Sent = { url: string; method: string; headers: Headers; body: unknown };

function clientAnswering(status: number, answer: unknown) {
  const sent: Sent[] = [];
  const fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    sent.push({
      url: String(input),
      method: init?.method ?? "GET",
      headers: new Headers(init?.headers),
      body: init?.body ? JSON.parse(String(init.body)) : null,
    });
    return new Response(JSON.stringify(answer), { status, headers: { "content-type": "application/json" } });
  };
  const client = createClient("http://demo.localhost:3000", "anon-key", {
    global: { fetch },
    auth: { persistSession: false, autoRefreshToken: false },
    // Node 20 has no WebSocket; these calls never open one.
    realtime: { transport: class {} as never },
  });
  return { client, sent };
}

describe("callCommand", () => {
  it("posts the arguments to /rest/v1/rpc/<name> and answers the body", async () => {
    const answer = { rows: [], total: 0 };
    const { client, sent } = clientAnswering(200, answer);
    await expect(callCommand(client, "stock_levels", { search: "bolt", limit: 20 })).resolves.toEqual(answer);
    expect(sent).toHaveLength(1);
    expect(sent[0].method).toBe("POST");
    expect(new URL(sent[0].url).pathname).toBe("/rest/v1/rpc/stock_levels");
    expect(sent[0].body).toEqual({ search: "bolt", limit: 20 });
    expect(sent[0].headers.has("idempotency-key")).toBe(false);
  });

  it("sends the Idempotency-Key an offline outbox made when the user acted", async () => {
    const { client, sent } = clientAnswering(200, { exists: true, path: null });
    await callCommand(client, "calendar_feed", { regenerate: true }, { idempotencyKey: "k-123" });
    expect(sent[0].headers.get("idempotency-key")).toBe("k-123");
  });

  it("throws a refusal as a DataError with the server's message and fields", async () => {
    const { client } = clientAnswering(422, {
      code: "validation_failed",
      message: "Give the date paid",
      details: [{ field: "date", message: "Give the date paid" }],
      hint: null,
    });
    const err = await callCommand(client, "commission_pay", { statement_id: 1, date: "" }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DataError);
    expect((err as DataError).status).toBe(422);
    expect((err as DataError).message).toBe("Give the date paid");
    expect((err as DataError).fields.date).toBe("Give the date paid");
  });
});
