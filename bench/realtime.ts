// Issue 20 §4: realtime fan-out latency to 200 sockets on /realtime/v1/websocket (the Phoenix protocol of
// @supabase/realtime-js, spoken here by plain `ws` clients so the figure is the server's, not 200 client libraries').
// 1. broadcast: one member's message to a room of SOCKETS members — from send to the last socket's receipt;
// 2. postgres_changes: a quotation saved through document_save (one command, committed) — from the command's answer
//    to the last of SOCKETS sockets subscribed to quotation changes (owners, admins and managers, who read every
//    quotation: one REST read per group of members that read alike, not per socket).
// PGlite by default; TEST_DATABASE_URL=postgres://… to measure on PostgreSQL. Figures printed, never asserted.
// Run: node --import tsx bench/realtime.ts
import WebSocket from "ws";
import { startTestServer } from "../apps/server/test/harness.ts";

const SOCKETS = Number(process.env.BENCH_SOCKETS ?? 200);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 30);
const PASSWORD = "demo-pass-2026";
const READERS = ["owner", "admin", "manager"].map((u) => `${u}@demo.test`);

const server = await startTestServer({ LOG_LEVEL: "silent", AUTH_RATE_LIMITS: "sign_in=100000/300" });
const config = (await (await fetch(`${server.url}/api/config`)).json()) as { anonKey: string };

async function tokenFor(email: string): Promise<string> {
  const res = await fetch(`${server.url}/auth/v1/token?grant_type=password`, {
    method: "POST",
    headers: { "content-type": "application/json", apikey: config.anonKey },
    body: JSON.stringify({ email, password: PASSWORD }),
  });
  if (!res.ok) throw new Error(`sign-in ${email}: ${res.status}`);
  return ((await res.json()) as { access_token: string }).access_token;
}

type Frame = [string | null, string | null, string, string, Record<string, unknown>];

type Sock = { ws: WebSocket; onFrame: (f: Frame) => void };

async function open(token: string, topic: string, channel: Record<string, unknown>): Promise<Sock> {
  const url = `${server.url.replace(/^http/, "ws")}/realtime/v1/websocket?apikey=${config.anonKey}&vsn=2.0.0`;
  const ws = new WebSocket(url);
  const sock: Sock = { ws, onFrame: () => undefined };
  await new Promise((resolve, reject) => {
    ws.once("open", resolve);
    ws.once("error", reject);
  });
  const joined = new Promise<void>((resolve, reject) => {
    sock.onFrame = (f) => {
      if (f[3] !== "phx_reply" || f[1] !== "1") return;
      if ((f[4] as { status: string }).status === "ok") resolve();
      else reject(new Error(JSON.stringify(f[4])));
    };
  });
  ws.on("message", (d) => sock.onFrame(JSON.parse(String(d)) as Frame));
  ws.send(JSON.stringify(["1", "1", `realtime:${topic}`, "phx_join", { config: channel, access_token: token }]));
  await joined;
  return sock;
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};
const line = (name: string, xs: number[]) =>
  console.log(
    `${name.padEnd(44)} p50 ${pct(xs, 50).toFixed(1).padStart(7)} ms   p90 ${pct(xs, 90).toFixed(1).padStart(7)} ms   max ${Math.max(
      ...xs,
    )
      .toFixed(1)
      .padStart(7)} ms`,
  );

// Resolves with the moment (performance.now()) the last socket saw a frame `match` accepts.
function allSee(socks: Sock[], match: (f: Frame) => boolean): Promise<number> {
  let left = socks.length;
  return new Promise((resolve) => {
    for (const s of socks) {
      s.onFrame = (f) => {
        if (!match(f)) return;
        s.onFrame = () => undefined;
        if (--left === 0) resolve(performance.now());
      };
    }
  });
}

try {
  const tokens = await Promise.all(READERS.map(tokenFor));
  console.log(
    `realtime fan-out on ${server.databaseUrl ? "PostgreSQL" : "PGlite"}: ${SOCKETS} sockets, ${ROUNDS} rounds, node ${process.version}`,
  );

  // 1. broadcast
  const room = await Promise.all(
    Array.from({ length: SOCKETS }, (_, i) => open(tokens[i % tokens.length], "bench-room", {})),
  );
  const sender = await open(tokens[0], "bench-room", { broadcast: { self: false } });
  const broadcast: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const done = allSee(room, (f) => f[3] === "broadcast" && (f[4].payload as { r: number }).r === r);
    const sent = performance.now();
    sender.ws.send(
      JSON.stringify([
        null,
        String(r + 10),
        "realtime:bench-room",
        "broadcast",
        {
          type: "broadcast",
          event: "tick",
          payload: { r },
        },
      ]),
    );
    broadcast.push((await done) - sent);
  }
  line(`broadcast → ${SOCKETS} sockets (send to last receipt)`, broadcast);
  for (const s of [...room, sender]) s.ws.close();

  // 2. postgres_changes
  const bindings = [{ event: "INSERT", schema: "public", table: "quotation" }];
  const watchers = await Promise.all(
    Array.from({ length: SOCKETS }, (_, i) =>
      open(tokens[i % tokens.length], "bench-docs", { postgres_changes: bindings }),
    ),
  );
  const company = (
    (await (
      await fetch(`${server.url}/rest/v1/company?select=id&is_customer=is.true&limit=1`, {
        headers: { apikey: config.anonKey, authorization: `Bearer ${tokens[1]}` },
      })
    ).json()) as Array<{ id: number }>
  )[0].id;
  const fromAnswer: number[] = [];
  const fromRequest: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    // One quotation per round, rounds one after another: any INSERT is this round's.
    const done = allSee(watchers, (f) => f[3] === "postgres_changes");
    const asked = performance.now();
    const res = await fetch(`${server.url}/rest/v1/rpc/document_save`, {
      method: "POST",
      headers: { "content-type": "application/json", apikey: config.anonKey, authorization: `Bearer ${tokens[2]}` },
      body: JSON.stringify({ type: "quotation", header: { company_id: company }, lines: [] }),
    });
    const answered = performance.now();
    if (!res.ok) throw new Error(`document_save: ${res.status} ${await res.text()}`);
    const last = await done;
    fromAnswer.push(last - answered);
    fromRequest.push(last - asked);
  }
  line(`postgres_changes → ${SOCKETS} sockets (answer to last)`, fromAnswer);
  line(`postgres_changes → ${SOCKETS} sockets (request to last)`, fromRequest);
  for (const s of watchers) s.ws.close();
} finally {
  await server.close();
}
