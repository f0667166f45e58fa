import { readFileSync } from "node:fs";
import path from "node:path";
import { createClient, type RealtimeChannel, type SupabaseClient } from "@supabase/supabase-js";
import { afterAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import type { Json } from "./http.ts";

// Issue 25 "done when": through nginx on a running `npm run cluster`, a sign-in, an invoice saved and submitted, and
// a realtime message sent on one instance and received on another. Opt-in (it needs the cluster, not part of CI):
//   SEED=basic npm run cluster && CLUSTER_URL=http://localhost:8080 npx vitest run --project api apps/server/test/cluster.api.test.ts

const BASE = process.env.CLUSTER_URL;
const DIR = path.join(path.resolve(import.meta.dirname, "../../..", process.env.DATA_DIR ?? "data"), "cluster");
const PASSWORD = "demo-pass-2026";
const clients: SupabaseClient[] = [];
afterAll(async () => {
  for (const c of clients) await c.removeAllChannels();
});

async function json(url: string, init: RequestInit = {}): Promise<{ status: number; body: Json; headers: Headers }> {
  const res = await fetch(url, init);
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null, headers: res.headers };
}

describe.skipIf(!BASE)("the cluster through nginx (npm run cluster)", () => {
  let anon = "";
  let token = "";
  const headers = () => ({ apikey: anon, authorization: `Bearer ${token}`, "content-type": "application/json" });

  it("spreads requests over its instances, each naming itself", async () => {
    const seen = new Set<string>();
    for (let i = 0; i < 12; i++) seen.add((await json(`${BASE}/api/health`)).body.instance);
    expect(seen.size).toBeGreaterThanOrEqual(2);
    expect((await fetch(`${BASE}/metrics`)).status).toBe(404); // the operator's, never through the front
  });

  it("signs in, and saves and submits an invoice", async () => {
    anon = (await json(`${BASE}/api/config`)).body.anonKey;
    const signIn = await json(`${BASE}/auth/v1/token?grant_type=password`, {
      method: "POST",
      headers: { apikey: anon, "content-type": "application/json" },
      body: JSON.stringify({ email: "owner@demo.test", password: PASSWORD }),
    });
    expect(signIn.status).toBe(200);
    token = signIn.body.access_token;
    const company = (
      await json(`${BASE}/rest/v1/company?select=id&is_customer=is.true&limit=1`, { headers: headers() })
    ).body[0].id;
    const product = (await json(`${BASE}/rest/v1/product?select=id&price=gt.0&limit=1`, { headers: headers() })).body[0]
      .id;
    const saved = await json(`${BASE}/rest/v1/rpc/document_save`, {
      method: "POST",
      headers: { ...headers(), "idempotency-key": crypto.randomUUID() },
      body: JSON.stringify({
        type: "invoice",
        header: { company_id: company },
        lines: [{ product_id: product, qty: "1" }],
      }),
    });
    expect(saved.status).toBe(200);
    const submitted = await json(`${BASE}/rest/v1/rpc/document_transition`, {
      method: "POST",
      headers: { ...headers(), "idempotency-key": crypto.randomUUID() },
      body: JSON.stringify({ type: "invoice", id: saved.body.id, action: "submit" }),
    });
    expect(submitted.status).toBe(200);
    expect(submitted.body.number).toBeTruthy();
    // Read your write: the list right after (replica or primary) has it.
    const lsn = submitted.headers.get("x-wal-lsn") ?? "";
    const list = await json(`${BASE}/rest/v1/invoice?select=number&id=eq.${saved.body.id}`, {
      headers: { ...headers(), "x-read-lsn": lsn },
    });
    expect(list.body).toEqual([{ number: submitted.body.number }]);
  });

  it("delivers a broadcast sent on one instance to a member on another", async () => {
    const instances = JSON.parse(readFileSync(path.join(DIR, "instances.json"), "utf8")) as Array<{ port: number }>;
    expect(instances.length).toBeGreaterThanOrEqual(2);
    const member = async (port: number) => {
      const client = createClient(`http://127.0.0.1:${port}`, anon, {
        auth: { persistSession: false, autoRefreshToken: false },
        realtime: { transport: WebSocket as never, timeout: 10_000 },
      });
      await client.realtime.setAuth(token);
      clients.push(client);
      return client;
    };
    const joined = (channel: RealtimeChannel) =>
      new Promise<RealtimeChannel>((resolve, reject) =>
        channel.subscribe((status, err) =>
          status === "SUBSCRIBED" ? resolve(channel) : status !== "CLOSED" && reject(err ?? new Error(status)),
        ),
      );
    const topic = `cluster-${Date.now()}`;
    const got = new Promise<unknown>((resolve) => {
      void member(instances[1].port).then((b) =>
        joined(b.channel(topic).on("broadcast", { event: "hello" }, (m) => resolve(m.payload))).then(() =>
          sendOnFirst(),
        ),
      );
    });
    const sendOnFirst = async () => {
      const a = await joined((await member(instances[0].port)).channel(topic));
      await a.send({ type: "broadcast", event: "hello", payload: { from: "first" } });
    };
    expect(await Promise.race([got, new Promise((r) => setTimeout(() => r("nothing"), 10_000))])).toEqual({
      from: "first",
    });
  });
});
