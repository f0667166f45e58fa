import type { TestProject } from "vitest/node";
import { startTestServer } from "./harness.ts";
import { seedCacheEnabled } from "./seed-cache.ts";

declare module "vitest" {
  export interface ProvidedContext {
    baseUrl: string;
    databaseUrl: string;
  }
}

// One real server for the whole suite, seeded with the demo data (DESIGN §3.2).
export default async function setup(project: TestProject) {
  // Generous auth rate limits: every suite signs in from 127.0.0.1. auth-rate-limit.api.test.ts checks the defaults
  // on a server of its own.
  // The tests play the reverse proxy from loopback (X-Forwarded-Proto: https), so loopback is trusted here.
  // The demo's template (seed-cache.ts) made here, before any test file: made by the first file that asks, its
  // minute of seeding counted against that file's hook timeout, and the other files waiting for it against theirs —
  // too close to the limit when CI runs two suites at once on two cores. Before the suite's server: a server's mail
  // outbox is the last started one's, and this one is closed.
  if (seedCacheEnabled()) await (await startTestServer({ SEED: "demo" })).close();
  const server = await startTestServer({
    TRUST_PROXY: "127.0.0.1,::1,::ffff:127.0.0.1",
    AUTH_RATE_LIMITS:
      "sign_in=100000/300,token_refresh=100000/300,verify=100000/300,otp=100000/300,email_sent=100000/3600,mfa=100000/60",
  });
  project.provide("baseUrl", server.url);
  project.provide("databaseUrl", server.databaseUrl ?? "");
  return () => server.close();
}
