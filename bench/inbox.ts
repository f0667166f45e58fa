// Issue 24: the inbox under load, on a fresh server with the basic demo data and a local fake of Meta's Graph API.
// 1. Webhook intake: signed POST /webhooks/meta, each with a new WhatsApp message, for BENCH_DURATION seconds —
//    accepted requests per second, and stored messages per second counted until the job queue has drained them.
// 2. The inbox list over BENCH_MESSAGES generated messages (default 200,000; 1000000 for the figure) in
//    conversations of 20 messages: conversation_list as a manager (every conversation) and as a salesperson (their
//    own and the unassigned), filtered to the unassigned, and one conversation's thread.
// PGlite by default; TEST_DATABASE_URL=postgres://… for PostgreSQL. Run: node --import tsx bench/inbox.ts
import autocannon, { type Result } from "autocannon";
import { sql } from "drizzle-orm";
import { type FakeMeta, sign, startFakeMeta, waWebhook } from "../apps/server/test/fake-meta-graph.ts";
import { startTestServer } from "../apps/server/test/harness.ts";
import { useServer } from "../apps/server/test/http.ts";
import { getAnonKey, tokenFor } from "../apps/server/test/rest-helpers.ts";

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 200_000);
const SECRET = "bench-meta-secret";
const PHONE_ID = "109876540000001";
const TOKEN = `EAAGbench${"b".repeat(40)}`;

const fake: FakeMeta = await startFakeMeta();
fake.grant(TOKEN, { [PHONE_ID]: { display_phone_number: "+65 6000 1111", verified_name: "Bench" } });
const server = await startTestServer({ LOG_LEVEL: "silent", META_GRAPH_URL: fake.url, META_APP_SECRET: SECRET });
useServer(server.url);
const db = server.running.database.db;
const jobs = server.running.app.jobs;

function report(name: string, r: Result): void {
  const ok = r["2xx"];
  console.log(
    `${name.padEnd(34)} ${(ok / r.duration).toFixed(1).padStart(8)} req/s   p50 ${String(r.latency.p50).padStart(5)} ms   p99 ${String(r.latency.p99).padStart(5)} ms   (${ok} ok, ${r.non2xx} non-2xx, ${r.errors} errors)`,
  );
}

async function rpcHeaders(email: string) {
  return {
    "content-type": "application/json",
    apikey: await getAnonKey(),
    authorization: `Bearer ${await tokenFor(email)}`,
  };
}

const count = async (q: ReturnType<typeof sql>) => Number((await db.execute(q)).rows[0]?.n ?? 0);

try {
  const admin = await rpcHeaders("admin@demo.test");
  const made = await fetch(`${server.url}/rest/v1/rpc/channel_connect`, {
    method: "POST",
    headers: admin,
    body: JSON.stringify({ channel: "whatsapp", external_id: PHONE_ID, access_token: TOKEN }),
  });
  if (!made.ok) throw new Error(`channel_connect: ${made.status} ${await made.text()}`);
  const accountId = Number(((await made.json()) as { id: number }).id);
  console.log(
    `inbox bench on ${server.databaseUrl ? "PostgreSQL" : "PGlite"}: ${CONNECTIONS} connections, ${DURATION} s, node ${process.version}`,
  );

  // 1. Webhook intake — 50 senders, a new wamid per request.
  let n = 0;
  const before = await count(sql`select count(*)::int as n from conversation_message`);
  const t0 = Date.now();
  const intake = await autocannon({
    url: server.url,
    connections: CONNECTIONS,
    duration: DURATION,
    requests: [
      {
        method: "POST",
        path: "/webhooks/meta",
        setupRequest: (req) => {
          const i = n++;
          const from = `659000${String(i % 50).padStart(4, "0")}`;
          const body = JSON.stringify(
            waWebhook([
              {
                phoneNumberId: PHONE_ID,
                contacts: [{ wa_id: from, profile: { name: `Bench sender ${i % 50}` } }],
                messages: [
                  {
                    from,
                    id: `wamid.bench${i}`,
                    timestamp: String(Math.floor(Date.now() / 1000)),
                    type: "text",
                    text: { body: `Order ${i}` },
                  },
                ],
              },
            ]),
          );
          return {
            ...req,
            body,
            headers: { "content-type": "application/json", "x-hub-signature-256": sign(SECRET, body) },
          };
        },
      },
    ],
  });
  report("webhook accepted (200)", intake);
  await jobs.drained(600_000);
  const seconds = (Date.now() - t0) / 1000;
  const stored = (await count(sql`select count(*)::int as n from conversation_message`)) - before;
  console.log(
    `${"webhook to stored message".padEnd(34)} ${(stored / seconds).toFixed(1).padStart(8)} msg/s   (${stored} stored of ${intake["2xx"]} accepted, ${seconds.toFixed(1)} s until the queue drained)`,
  );

  // 2. The inbox list over many messages.
  const [{ ws }] = (await db.execute(sql`select id::text as ws from workspace where slug = 'demo'`)).rows as Array<{
    ws: string;
  }>;
  const [{ sales }] = (await db.execute(sql`select id::text as sales from "user" where email = 'sales@demo.test'`))
    .rows as Array<{ sales: string }>;
  const conversations = Math.max(1, Math.floor(MESSAGES / 20));
  const g0 = Date.now();
  await db.execute(sql`insert into conversation (workspace_id, channel_account_id, external_thread_id, title, status,
      assignee_id, last_message_at, last_inbound_at, last_message_preview, unread)
    select ${ws}::uuid, ${accountId}, '6580' || lpad(g::text, 7, '0'), 'Generated customer ' || g,
      (array['open','pending','resolved'])[1 + g % 3],
      case when g % 4 = 0 then ${sales}::uuid else null end,
      now() - make_interval(mins => g), now() - make_interval(mins => g), 'Generated message', g % 3
    from generate_series(1, ${conversations}) g`);
  await db.execute(sql`insert into conversation_message (workspace_id, conversation_id, direction, kind, body, external_id,
      status, created_at)
    select ${ws}::uuid, c.id, case when m % 2 = 0 then 'in' else 'out' end, 'text', 'Generated message ' || m,
      'wamid.gen.' || c.id || '.' || m, case when m % 2 = 0 then 'received' else 'read' end,
      now() - make_interval(mins => m)
    from conversation c cross join generate_series(1, 20) m
    where c.workspace_id = ${ws}::uuid and c.external_thread_id like '6580%'`);
  await db.execute(sql`analyze conversation`);
  await db.execute(sql`analyze conversation_message`);
  const total = await count(sql`select count(*)::int as n from conversation_message`);
  console.log(
    `generated ${conversations} conversations, ${total} messages in all, in ${((Date.now() - g0) / 1000).toFixed(1)} s`,
  );
  const [{ id: threadId }] = (
    await db.execute(sql`select id from conversation where workspace_id = ${ws}::uuid
    and external_thread_id like '6580%' order by id limit 1`)
  ).rows as Array<{ id: number }>;

  const bench = async (name: string, email: string, fn: string, args: unknown) => {
    const headers = await rpcHeaders(email);
    const r = await autocannon({
      url: server.url,
      connections: CONNECTIONS,
      duration: DURATION,
      requests: [{ method: "POST", path: `/rest/v1/rpc/${fn}`, headers, body: JSON.stringify(args) }],
    });
    report(name, r);
  };
  await bench("list, manager (all, newest 50)", "manager@demo.test", "conversation_list", { limit: 50 });
  await bench("list, salesperson (own+unassigned)", "sales@demo.test", "conversation_list", { limit: 50 });
  await bench("list, unassigned and open", "manager@demo.test", "conversation_list", {
    unassigned: true,
    status: "open",
    limit: 50,
  });
  await bench("list, search by name", "manager@demo.test", "conversation_list", { search: "customer 4242", limit: 50 });
  await bench("thread (20 messages)", "manager@demo.test", "conversation_thread", {
    conversation_id: Number(threadId),
  });
} finally {
  await server.close();
  await fake.close();
}
