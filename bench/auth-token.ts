// Issue 3: throughput of POST /auth/v1/token for the password and refresh_token grants, on a fresh server with the
// demo data (rate limits lifted, as a load test is one IP). PGlite by default; set TEST_DATABASE_URL to a
// PostgreSQL admin URL to measure on PostgreSQL. Run: node --import tsx bench/auth-token.ts
import autocannon, { type Result } from "autocannon";
import { startTestServer } from "../apps/server/test/harness.ts";

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const PASSWORD = "demo-pass-2026";
const EMAILS = ["owner", "admin", "manager", "sales", "driver", "warehouse", "pos"].map((u) => `${u}@demo.test`);

const server = await startTestServer({
  LOG_LEVEL: "silent",
  AUTH_RATE_LIMITS: "sign_in=10000000/300,token_refresh=10000000/300",
});
const tokenUrl = (grant: string) => `${server.url}/auth/v1/token?grant_type=${grant}`;

async function signIn(email: string): Promise<string> {
  const res = await fetch(tokenUrl("password"), {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, password: PASSWORD }),
  });
  if (!res.ok) throw new Error(`sign-in failed: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { refresh_token: string }).refresh_token;
}

function report(name: string, r: Result): void {
  const ok = r["2xx"];
  console.log(
    `${name.padEnd(22)} ${(ok / r.duration).toFixed(1).padStart(8)} req/s   p50 ${String(r.latency.p50).padStart(5)} ms   p99 ${String(r.latency.p99).padStart(5)} ms   (${ok} ok, ${r.non2xx} non-2xx, ${r.errors} errors)`,
  );
}

try {
  await signIn(EMAILS[0]); // warm up: argon2, JIT, connection pool
  console.log(
    `auth token bench on ${server.databaseUrl ? "PostgreSQL" : "PGlite"}: ${CONNECTIONS} connections, ${DURATION} s each, node ${process.version}`,
  );

  // Password grant: every request verifies an argon2id hash (m=19456 KiB, t=2) and opens a session.
  let i = 0;
  const password = await autocannon({
    url: server.url,
    connections: CONNECTIONS,
    duration: DURATION,
    requests: [
      {
        method: "POST",
        path: "/auth/v1/token?grant_type=password",
        headers: { "content-type": "application/json" },
        setupRequest: (req) => ({
          ...req,
          body: JSON.stringify({ email: EMAILS[i++ % EMAILS.length], password: PASSWORD }),
        }),
      },
    ],
  });
  report("password grant", password);

  // Refresh grant: each request spends a refresh token and returns the next, so tokens circulate through a pool
  // (one in flight per connection, plus slack); no request replays a spent token.
  const pool: string[] = [];
  for (let n = 0; n < CONNECTIONS * 2; n++) pool.push(await signIn(EMAILS[n % EMAILS.length]));
  const refresh = await autocannon({
    url: server.url,
    connections: CONNECTIONS,
    duration: DURATION,
    requests: [
      {
        method: "POST",
        path: "/auth/v1/token?grant_type=refresh_token",
        headers: { "content-type": "application/json" },
        setupRequest: (req) => {
          const token = pool.shift();
          return token ? { ...req, body: JSON.stringify({ refresh_token: token }) } : undefined;
        },
        onResponse: (status, body) => {
          if (status === 200) pool.push((JSON.parse(body) as { refresh_token: string }).refresh_token);
        },
      },
    ],
  });
  report("refresh_token grant", refresh);
} finally {
  await server.close();
}
