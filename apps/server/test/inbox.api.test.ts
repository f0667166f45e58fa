import { createClient, type RealtimeChannel, type SupabaseClient } from "@supabase/supabase-js";
import { COMMANDS, type CommandName } from "@workmetrics/domain/commands";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { realtimeOf } from "../src/platform/realtime/realtime.route.ts";
import { ok, rpc } from "./documents-helpers.ts";
import { type FakeMeta, sign, startFakeMeta, waWebhook } from "./fake-meta-graph.ts";
import { ownServer } from "./own-server-helpers.ts";
import { getAnonKey, restFetch, tokenFor } from "./rest-helpers.ts";

// Issue 24 "Inbox" (DESIGN §2.3.2) against a local fake of Meta's Graph API v20.0 (fake-meta-graph.ts): connecting a
// WhatsApp number checks its token first and keeps it sealed; /webhooks/meta refuses a bad or missing signature and
// stores nothing, stores every entry and change of a batch, once however often Meta redelivers it; replies are sent
// by a job, statuses that beat the send's own commit still land; salespeople read their own and the unassigned
// conversations; another workspace, a Pro workspace and anonymous callers reach none of it, realtime included.

const ADMIN = "admin@demo.test";
const MANAGER = "manager@demo.test";
const SALES = "sales@demo.test";
const DRIVER = "driver@demo.test";
const PRO = "admin@pro.test";
const ORCHARD = "owner@orchard.test";
const SECRET = "test-meta-app-secret";
const VERIFY = "test-verify-token";
const PHONE_ID = "109876543210001";
const TOKEN = `EAAGfake${"x".repeat(40)}`;

const env: Record<string, string> = { META_APP_SECRET: SECRET, META_VERIFY_TOKEN: VERIFY };
let fake: FakeMeta;
beforeAll(async () => {
  fake = await startFakeMeta();
  env.META_GRAPH_URL = fake.url;
  fake.grant(TOKEN, { [PHONE_ID]: { display_phone_number: "+65 6000 0000", verified_name: "Demo Trading" } });
});
const own = ownServer(env);
const clients: SupabaseClient[] = [];
afterAll(async () => {
  for (const c of clients) await c.removeAllChannels();
  await fake?.close();
});

const msg = (r: { body: unknown }) => (r.body as { message: string }).message;
const drained = () => own.server.running.app.jobs.drained(20_000);
const uniq = () => `${Date.now()}${Math.floor(Math.random() * 1000)}`;
const post = (body: unknown, signature?: string | null) => {
  const raw = typeof body === "string" ? body : JSON.stringify(body);
  const headers: Record<string, string> = { "content-type": "application/json" };
  const sig = signature === undefined ? sign(SECRET, raw) : signature;
  if (sig) headers["x-hub-signature-256"] = sig;
  return fetch(`${own.server.url}/webhooks/meta`, { method: "POST", headers, body: raw });
};
const text = (from: string, id: string, body: string, extra: Record<string, unknown> = {}) => ({
  from,
  id,
  timestamp: String(Math.floor(Date.now() / 1000)),
  type: "text",
  text: { body },
  ...extra,
});
const stored = async (wamid: string) =>
  own.q<{ id: number; conversation_id: number; body: string; kind: string; status: string }>(
    sql`select id, conversation_id, body, kind, status from conversation_message where external_id = ${wamid}`,
  );
const userId = async (email: string) =>
  (await own.q<{ id: string }>(sql`select id::text from "user" where email = ${email}`))[0].id;

type Conv = { id: number; assignee_id: string | null; assignee_name: string | null; title: string; company_id: number };

async function realtimeMember(email: string) {
  const client = createClient(own.server.url, await getAnonKey(), {
    auth: { persistSession: false, autoRefreshToken: false },
    realtime: { transport: WebSocket as never, timeout: 10_000 },
  });
  await client.realtime.setAuth(await tokenFor(email));
  clients.push(client);
  return client;
}
const joined = (channel: RealtimeChannel) =>
  new Promise<RealtimeChannel>((resolve, reject) => {
    channel.subscribe((status, err) => {
      if (status === "SUBSCRIBED") resolve(channel);
      else if (status !== "CLOSED") reject(err ?? new Error(status));
    });
  });

let accountId = 0;
// A contact of the demo workspace with a phone, to be matched by its WhatsApp number.
let known: { id: number; company_id: number; number: string };

describe("channel accounts", () => {
  it("checks the token against the Graph API before keeping it, and keeps it sealed", async () => {
    const bad = await rpc(ADMIN, "channel_connect", {
      channel: "whatsapp",
      external_id: PHONE_ID,
      access_token: `EAAGwrong${"y".repeat(30)}`,
    });
    expect(bad.status, bad.text).toBe(422);
    expect(msg(bad)).toMatch(/token was not accepted.*Invalid OAuth access token/);
    expect(JSON.stringify(bad.body)).not.toContain("EAAGwrong");
    const wrongId = await rpc(ADMIN, "channel_connect", {
      channel: "whatsapp",
      external_id: "555555",
      access_token: TOKEN,
    });
    expect(wrongId.status).toBe(422);
    expect((await own.q(sql`select 1 from channel_account`)).length).toBe(0);

    const made = await ok(ADMIN, "channel_connect", {
      channel: "whatsapp",
      external_id: PHONE_ID,
      access_token: TOKEN,
    });
    expect(made).toMatchObject({
      channel_id: 1,
      status: "connected",
      has_token: true,
      display_name: "Demo Trading · +65 6000 0000",
    });
    expect(JSON.stringify(made)).not.toContain(TOKEN);
    accountId = Number(made.id);
    const rows = await own.q<{ access_token: string }>(sql`select access_token from channel_account`);
    expect(rows[0].access_token.startsWith("v1.")).toBe(true);
    expect(rows[0].access_token).not.toContain(TOKEN.slice(0, 12));
    const listed = await ok(MANAGER, "channel_accounts", {});
    expect(JSON.stringify(listed)).not.toContain(TOKEN);
    // channel_account is no /rest/v1 resource: the row with the sealed token is never served.
    expect((await restFetch(ADMIN, "channel_account?select=*")).status).toBe(404);
  });

  it("is connected by owners and admins of a Premium workspace only, and one number answers one workspace", async () => {
    const args = { channel: "whatsapp", external_id: PHONE_ID, access_token: TOKEN };
    const sales = await rpc(SALES, "channel_connect", args);
    expect(sales.status).toBe(403);
    expect(msg(sales)).toMatch(/permission to connect channel accounts/);
    const pro = await rpc(PRO, "channel_connect", args);
    expect(pro.status).toBe(403);
    expect(msg(pro)).toMatch(/Premium/);
    const other = await rpc(ORCHARD, "channel_connect", args);
    expect(other.status, other.text).toBe(409);
    expect(msg(other)).toMatch(/already connected to another workspace/);
    expect((await restFetch(null, "rpc/channel_accounts", { method: "POST", body: "{}" })).status).toBe(401);
  });
});

describe("/webhooks/meta", () => {
  it("answers Meta's handshake with the verify token only", async () => {
    const q = (t: string) =>
      fetch(`${own.server.url}/webhooks/meta?hub.mode=subscribe&hub.verify_token=${t}&hub.challenge=1158201444`);
    const good = await q(VERIFY);
    expect(good.status).toBe(200);
    expect(await good.text()).toBe("1158201444");
    expect((await q("nope")).status).toBe(403);
  });

  it("refuses a missing or wrong signature and stores nothing", async () => {
    const wamid = `wamid.bad${uniq()}`;
    const body = waWebhook([{ phoneNumberId: PHONE_ID, messages: [text("6591110000", wamid, "hello")] }]);
    expect((await post(body, null)).status).toBe(401);
    expect((await post(body, sign("another-secret", JSON.stringify(body)))).status).toBe(403);
    expect((await post(body, "sha256=00")).status).toBe(403);
    // Signed, then one byte changed: the raw bytes are what is signed.
    const raw = JSON.stringify(body);
    expect((await post(raw.replace("hello", "hellO"), sign(SECRET, raw))).status).toBe(403);
    await drained();
    expect(await stored(wamid)).toEqual([]);
  });

  it("stores every entry and change of a batch, matches a known number to its contact, copies media at once", async () => {
    const [c] = await own.q<{ id: number; company_id: number }>(
      sql`select id, company_id from contact where company_id <> 9 order by id limit 1`,
    );
    const number = `6598${uniq().slice(-6)}`;
    await own.q(
      sql`update contact set phone = ${`+${number.slice(0, 2)} ${number.slice(2, 6)} ${number.slice(6)}`} where id = ${c.id}`,
    );
    known = { ...c, number };
    fake.media.set("media-photo-1", { bytes: Buffer.from("\x89PNG fake image bytes"), mime: "image/png" });
    const u = uniq();
    const stranger = `6597${u.slice(-6)}`;
    const body = waWebhook(
      [
        {
          phoneNumberId: PHONE_ID,
          contacts: [{ wa_id: stranger, profile: { name: `Stranger ${u}` } }],
          messages: [text(stranger, `wamid.a${u}`, "Do you have 20 pallets of A4 paper?")],
        },
        {
          phoneNumberId: PHONE_ID,
          contacts: [{ wa_id: number, profile: { name: "Known Buyer" } }],
          messages: [
            text(number, `wamid.b${u}`, "Hi, quotation please"),
            {
              from: number,
              id: `wamid.c${u}`,
              type: "image",
              image: { id: "media-photo-1", mime_type: "image/png", caption: "this one" },
            },
          ],
        },
        {
          phoneNumberId: PHONE_ID,
          messages: [
            {
              from: number,
              id: `wamid.d${u}`,
              type: "location",
              location: { latitude: 1.29, longitude: 103.85, name: "Our warehouse" },
            },
            text(number, `wamid.e${u}`, "and delivery to here", { context: { from: PHONE_ID, id: `wamid.b${u}` } }),
            { from: number, id: `wamid.f${u}`, type: "reaction", reaction: { message_id: `wamid.b${u}`, emoji: "👍" } },
          ],
        },
      ],
      2,
    );
    const res = await post(body);
    expect(res.status).toBe(200);
    await drained();
    for (const k of "abcdef") expect(await stored(`wamid.${k}${u}`), k).toHaveLength(1);
    const [a] = await stored(`wamid.a${u}`);
    const [b] = await stored(`wamid.b${u}`);
    const convs = await own.q<{ id: number; contact_id: number; company_id: number; title: string; unread: number }>(
      sql`select id, contact_id, company_id, title, unread from conversation where id in (${a.conversation_id}, ${b.conversation_id})`,
    );
    const mine = convs.find((x) => x.id === b.conversation_id);
    expect(mine).toMatchObject({ contact_id: c.id, company_id: c.company_id, unread: 5 });
    const theirs = convs.find((x) => x.id === a.conversation_id);
    expect(theirs?.title).toBe(`Stranger ${u}`);
    const [newContact] = await own.q<{ name: string; phone: string }>(
      sql`select name, phone from contact where id = ${theirs?.contact_id}`,
    );
    expect(newContact).toEqual({ name: `Stranger ${u}`, phone: `+${stranger}` });
    const [img] = await own.q<{ kind: string; body: string; size: number; mime_type: string }>(
      sql`select m.kind, m.body, f.size, f.mime_type from conversation_message m
        join conversation_attachment f on f.message_id = m.id where m.external_id = ${`wamid.c${u}`}`,
    );
    expect(img).toMatchObject({ kind: "image", body: "this one", mime_type: "image/png" });
    expect(Number(img.size)).toBeGreaterThan(10);
    const thread = await ok(SALES, "conversation_thread", { conversation_id: b.conversation_id });
    const msgs = thread.messages as Array<Record<string, unknown>>;
    expect(msgs.find((m) => m.external_id === `wamid.e${u}`)?.reply_to_body).toBe("Hi, quotation please");
    expect(msgs.find((m) => m.external_id === `wamid.f${u}`)).toMatchObject({ kind: "reaction", reaction: "👍" });
    expect(msgs.find((m) => m.external_id === `wamid.d${u}`)?.body).toContain("Our warehouse");
    expect(thread.window_open).toBe(true);
    expect(thread.company).toMatchObject({ id: c.company_id });
  });

  it("stores a redelivered webhook's message once", async () => {
    const wamid = `wamid.r${uniq()}`;
    const body = waWebhook([{ phoneNumberId: PHONE_ID, messages: [text(known.number, wamid, "again?")] }]);
    for (let i = 0; i < 3; i++) expect((await post(body)).status).toBe(200);
    await drained();
    expect((await post(body)).status).toBe(200);
    await drained();
    expect(await stored(wamid)).toHaveLength(1);
  });
});

describe("answering", () => {
  let conv: Conv;

  it("is taken by one person; a second taker is told who has it", async () => {
    const list = await ok(SALES, "conversation_list", { unassigned: true });
    conv = (list.rows as Conv[]).find((r) => r.company_id === known.company_id) as Conv;
    expect(conv).toBeTruthy();
    const taken = await ok(SALES, "conversation_assign", { conversation_id: conv.id, user_id: await userId(SALES) });
    expect(taken.assignee_id).toBe(await userId(SALES));
    const second = await rpc(MANAGER, "conversation_assign", {
      conversation_id: conv.id,
      user_id: await userId(MANAGER),
      expected_assignee_id: null,
    });
    expect(second.status).toBe(409);
    expect(msg(second)).toBe(`${taken.assignee_name} has already taken this conversation`);
  });

  it("sends a reply through the Graph API, and statuses that came before the send's commit still land", async () => {
    const thread = await ok(SALES, "conversation_thread", { conversation_id: conv.id });
    const lastSeen = Number((thread.messages as Array<{ id: number }>).at(-1)?.id);
    fake.beforeAnswer = async (m) => {
      // Meta's delivery and read statuses for this wamid, stored before the send job records the wamid.
      for (const status of ["delivered", "read"]) {
        const body = waWebhook([
          {
            phoneNumberId: PHONE_ID,
            statuses: [
              { id: m.wamid, status, timestamp: String(Math.floor(Date.now() / 1000)), recipient_id: known.number },
            ],
          },
        ]);
        expect((await post(body)).status).toBe(200);
      }
      await own.server.running.app.jobs.drained(10_000, ["inbox.meta_webhook"]);
      const early = await own.q(sql`select status from conversation_early_status where external_id = ${m.wamid}`);
      expect(early).toHaveLength(2);
    };
    const sent = await ok(SALES, "conversation_reply", {
      conversation_id: conv.id,
      body: "Yes — 20 pallets in stock. Quotation coming.",
      seen_message_id: lastSeen,
    });
    expect(sent.status).toBe("queued");
    await drained();
    fake.beforeAnswer = null;
    const out = fake.sent.at(-1);
    expect(out?.body).toMatchObject({
      to: known.number,
      type: "text",
      text: { body: "Yes — 20 pallets in stock. Quotation coming." },
    });
    const [row] = await own.q<{ status: string; external_id: string; read_at: unknown }>(
      sql`select status, external_id, read_at from conversation_message where id = ${sent.id}`,
    );
    expect(row).toMatchObject({ status: "read", external_id: out?.wamid });
    expect(row.read_at).toBeTruthy();
    expect(await own.q(sql`select 1 from conversation_early_status where external_id = ${out?.wamid}`)).toEqual([]);
  });

  it("warns when a newer customer message arrived than the writer saw", async () => {
    const before = await ok(SALES, "conversation_thread", { conversation_id: conv.id });
    const seen = Number((before.messages as Array<{ id: number }>).at(-1)?.id);
    await post(
      waWebhook([{ phoneNumberId: PHONE_ID, messages: [text(known.number, `wamid.n${uniq()}`, "Actually 25")] }]),
    );
    await drained();
    const stale = await rpc(SALES, "conversation_reply", {
      conversation_id: conv.id,
      body: "ok",
      seen_message_id: seen,
    });
    expect(stale.status).toBe(409);
    expect(msg(stale)).toMatch(/newer message arrived/);
  });

  it("sends a quotation's PDF into the conversation and links it", async () => {
    const q = await ok(SALES, "document_save", {
      type: "quotation",
      header: { company_id: known.company_id },
      lines: [],
    });
    const sent = await ok(SALES, "conversation_reply", {
      conversation_id: conv.id,
      document: { type: "quotation", id: q.id },
    });
    expect(sent).toMatchObject({ kind: "document", document_type: "quotation" });
    await drained();
    expect(fake.uploads.at(-1)).toMatchObject({ phoneNumberId: PHONE_ID, type: "application/pdf" });
    expect(fake.sent.at(-1)?.body).toMatchObject({ type: "document", document: { id: expect.stringMatching(/^up-/) } });
    const linked = await ok(SALES, "document_conversations", { document_type: "quotation", document_id: q.id });
    expect((linked as unknown as Conv[]).map((c) => c.id)).toEqual([conv.id]);
    const thread = await ok(SALES, "conversation_thread", { conversation_id: conv.id });
    expect(
      (thread.documents as Array<{ id: number; linked: boolean }>).find((d) => Number(d.id) === Number(q.id))?.linked,
    ).toBe(true);
  });

  it("outside the 24-hour window sends approved templates only", async () => {
    await own.q(sql`update conversation set last_inbound_at = now() - interval '2 days' where id = ${conv.id}`);
    const refused = await rpc(SALES, "conversation_reply", { conversation_id: conv.id, body: "hello?" });
    expect(refused.status).toBe(422);
    expect(msg(refused)).toMatch(/more than 24 hours ago.*only approved templates/);
    const t = await ok(SALES, "conversation_reply", {
      conversation_id: conv.id,
      template: { name: "order_follow_up", language: "en", params: ["Q-1", "Friday"] },
    });
    expect(t.kind).toBe("template");
    await drained();
    expect(fake.sent.at(-1)?.body).toMatchObject({
      type: "template",
      template: {
        name: "order_follow_up",
        components: [
          {
            type: "body",
            parameters: [
              { type: "text", text: "Q-1" },
              { type: "text", text: "Friday" },
            ],
          },
        ],
      },
    });
  });

  it("makes a quotation from the conversation with the products and quantities the customer wrote, linked", async () => {
    await own.q(sql`update conversation set last_inbound_at = now() where id = ${conv.id}`);
    const [p] = await own.q<{ id: number; name: string }>(
      sql`select id, name from product where active and length(name) > 6 order by id limit 1`,
    );
    const body = waWebhook([
      {
        phoneNumberId: PHONE_ID,
        messages: [text(known.number, `wamid.q${uniq()}`, `Please quote 7 ${p.name} by Friday`)],
      },
    ]);
    expect((await post(body)).status).toBe(200);
    await drained();
    const made = await ok(SALES, "conversation_quotation", { conversation_id: conv.id });
    expect(made).toMatchObject({ lines: 1, matched: [p.name] });
    const lines = await own.q<{ product_id: number; qty: string; company_id: number }>(
      sql`select l.product_id, trim_scale(l.qty)::text as qty, q.company_id from quotation_line l
        join quotation q on q.workspace_id = l.workspace_id and q.id = l.quotation_id where q.id = ${made.id}`,
    );
    expect(lines).toEqual([{ product_id: p.id, qty: "7", company_id: known.company_id }]);
    const linked = await ok(SALES, "document_conversations", { document_type: "quotation", document_id: made.id });
    expect((linked as unknown as Conv[]).map((c) => c.id)).toEqual([conv.id]);
    const driver = await rpc(DRIVER, "conversation_quotation", { conversation_id: conv.id });
    expect(driver.status).toBe(403);
  });

  it("keeps private notes, status and labels", async () => {
    const n = await ok(SALES, "conversation_note", {
      conversation_id: conv.id,
      body: "Customer prefers delivery after 2pm",
    });
    expect(n).toMatchObject({ direction: "note", status: "note" });
    const before = fake.sent.length;
    const st = await ok(SALES, "conversation_set_status", {
      conversation_id: conv.id,
      status: "pending",
      labels: ["vip", "bulk"],
    });
    expect(st).toMatchObject({ status: "pending", labels: ["vip", "bulk"] });
    await drained();
    expect(fake.sent.length).toBe(before); // a note is never sent
    const empty = await rpc(SALES, "conversation_note", { conversation_id: conv.id, body: " " });
    expect(empty.status).toBe(422);
    expect(msg(empty)).toBe("Write the note");
  });

  it("canned replies are the workspace's: managers write them, salespeople read them, nobody else sees them", async () => {
    const title = `Price list ${uniq()}`;
    const made = await restFetch(MANAGER, "canned_reply", {
      method: "POST",
      headers: { prefer: "return=representation" },
      body: JSON.stringify({ title, body: "Our price list: https://example.test/prices" }),
    });
    expect(made.status, made.text).toBe(201);
    expect(
      ((await restFetch(SALES, "canned_reply?select=title")).body as Array<{ title: string }>).map((r) => r.title),
    ).toContain(title);
    expect(
      (await restFetch(SALES, "canned_reply", { method: "POST", body: JSON.stringify({ title: "x", body: "y" }) }))
        .status,
    ).toBe(403);
    expect((await restFetch(ORCHARD, "canned_reply?select=title")).body).toEqual([]);
    expect((await restFetch(PRO, "canned_reply?select=title")).status).toBe(403);
  });

  it("a refused token marks the account as needing re-authorising and fails the message with Meta's words", async () => {
    await own.q(sql`update conversation set last_inbound_at = now() where id = ${conv.id}`);
    fake.failNextSend = { status: 401, code: 190, message: "Error validating access token: Session has expired" };
    const m = await ok(SALES, "conversation_reply", { conversation_id: conv.id, body: "ping" });
    await drained();
    const [row] = await own.q<{ status: string; error: string }>(
      sql`select status, error from conversation_message where id = ${m.id}`,
    );
    expect(row.status).toBe("failed");
    expect(row.error).toMatch(/Session has expired/);
    const accounts = (await ok(ADMIN, "channel_accounts", {})) as unknown as Array<{ id: number; status: string }>;
    expect(accounts.find((a) => Number(a.id) === accountId)?.status).toBe("needs_reauth");
    const blocked = await rpc(SALES, "conversation_reply", { conversation_id: conv.id, body: "again" });
    expect(blocked.status).toBe(422);
    expect(msg(blocked)).toMatch(/Meta refused this account's token/);
    expect((await ok(SALES, "conversation_thread", { conversation_id: conv.id })).channel_status).toBe("needs_reauth");
    // Reconnecting with a good token makes it connected again.
    await ok(ADMIN, "channel_connect", { channel: "whatsapp", external_id: PHONE_ID, access_token: TOKEN });
  });
});

describe("Facebook pages", () => {
  it("stores a Messenger message from a signed page webhook and answers it on the page", async () => {
    const PAGE = "200300400500600";
    const PAGE_TOKEN = `EAAGpage${"p".repeat(40)}`;
    fake.grant(PAGE_TOKEN, { [PAGE]: { name: "Demo Trading on Facebook" } });
    const page = await ok(ADMIN, "channel_connect", {
      channel: "facebook",
      external_id: PAGE,
      access_token: PAGE_TOKEN,
    });
    expect(page).toMatchObject({ channel_id: 2, display_name: "Demo Trading on Facebook" });
    const psid = `7${uniq()}`;
    const mid = `m_${uniq()}`;
    const body = {
      object: "page",
      entry: [
        {
          id: PAGE,
          time: Date.now(),
          messaging: [
            {
              sender: { id: psid },
              recipient: { id: PAGE },
              timestamp: Date.now(),
              message: { mid, text: "Do you deliver to Sentosa?" },
            },
          ],
        },
      ],
    };
    expect((await post(body)).status).toBe(200);
    expect((await post(body)).status).toBe(200);
    await drained();
    const [m] = await stored(mid);
    expect(m).toMatchObject({ body: "Do you deliver to Sentosa?", kind: "text" });
    expect(await stored(mid)).toHaveLength(1);
    const reply = await ok(MANAGER, "conversation_reply", {
      conversation_id: m.conversation_id,
      body: "Yes, on Tuesdays.",
    });
    await drained();
    expect(fake.sent.at(-1)?.body).toMatchObject({ recipient: { id: psid }, message: { text: "Yes, on Tuesdays." } });
    const [row] = await own.q<{ status: string }>(sql`select status from conversation_message where id = ${reply.id}`);
    expect(row.status).toBe("sent");
    const tpl = await rpc(MANAGER, "conversation_reply", {
      conversation_id: m.conversation_id,
      template: { name: "x_y" },
    });
    expect(tpl.status).toBe(422);
  });
});

describe("who reads what", () => {
  it("answers what the commands declare (the typed client's promise), on either database", async () => {
    const [c] = await own.q<{ id: number }>(sql`select id from conversation order by last_message_at desc limit 1`);
    const calls: Array<[CommandName, string, unknown]> = [
      ["channel_accounts", ADMIN, {}],
      ["conversation_list", MANAGER, { limit: 5 }],
      ["conversation_thread", MANAGER, { conversation_id: c.id }],
      ["document_conversations", MANAGER, { document_type: "quotation", document_id: 1 }],
    ];
    for (const [name, as, args] of calls) {
      const res = await rpc(as, name, args);
      expect(res.status, res.text).toBe(200);
      const parsed = COMMANDS[name].result.safeParse(res.body);
      expect(parsed.success ? [] : parsed.error.issues.slice(0, 3), `${name}: ${res.text.slice(0, 300)}`).toEqual([]);
    }
    const thread = await rpc(MANAGER, "conversation_thread", { conversation_id: c.id });
    expect((thread.body as { messages: unknown[] }).messages.length).toBeGreaterThan(0);
  });

  it("salespeople read their own and the unassigned conversations; managers read all", async () => {
    const list = await ok(MANAGER, "conversation_list", {});
    const all = list.rows as Conv[];
    const other = all.find((c) => c.assignee_id === null) as Conv;
    await ok(MANAGER, "conversation_assign", { conversation_id: other.id, user_id: await userId(MANAGER) });
    const salesRows = ((await ok(SALES, "conversation_list", {})).rows as Conv[]).map((c) => c.id);
    expect(salesRows).not.toContain(other.id);
    const denied = await rpc(SALES, "conversation_thread", { conversation_id: other.id });
    expect(denied.status).toBe(403);
    expect(msg(denied)).toMatch(/has this conversation/);
    const restSales = await restFetch(SALES, `conversation?select=id&id=eq.${other.id}`);
    expect(restSales.status).toBe(200);
    expect(restSales.body).toEqual([]);
    const restMessages = await restFetch(SALES, `conversation_message?select=id&conversation_id=eq.${other.id}`);
    expect(restMessages.body).toEqual([]);
    expect(((await restFetch(MANAGER, `conversation?select=id&id=eq.${other.id}`)).body as unknown[]).length).toBe(1);
    const driver = await rpc(DRIVER, "conversation_list", {});
    expect(driver.status).toBe(403);
  });

  it("another workspace, a Pro workspace and anonymous callers reach none of it", async () => {
    const [any] = await own.q<{ id: number }>(sql`select id from conversation order by id limit 1`);
    const orchard = await ok(ORCHARD, "conversation_list", {});
    expect(orchard.rows).toEqual([]);
    expect((await rpc(ORCHARD, "conversation_thread", { conversation_id: any.id })).status).toBe(404);
    expect((await rpc(ORCHARD, "conversation_reply", { conversation_id: any.id, body: "x" })).status).toBe(404);
    expect((await rpc(ORCHARD, "conversation_assign", { conversation_id: any.id, user_id: null })).status).toBe(404);
    expect((await rpc(ORCHARD, "channel_disconnect", { id: accountId })).status).toBe(404);
    expect((await restFetch(ORCHARD, "conversation?select=id")).body).toEqual([]);
    expect((await restFetch(ORCHARD, "conversation_message?select=id")).body).toEqual([]);
    const pro = await rpc(PRO, "conversation_list", {});
    expect(pro.status).toBe(403);
    expect(msg(pro)).toMatch(/Premium/);
    expect((await restFetch(PRO, "conversation?select=id")).status).toBe(403);
    expect((await restFetch(null, "conversation?select=id")).status).toBeGreaterThanOrEqual(401);
    expect((await restFetch(null, "rpc/conversation_list", { method: "POST", body: "{}" })).status).toBe(401);
  });

  it("realtime tells a salesperson of a new message in their workspace; never another workspace or a Pro member", async () => {
    const box: Array<Record<string, unknown>> = [];
    const sales = await realtimeMember(SALES);
    await joined(
      sales
        .channel(`inbox-${uniq()}`)
        .on("postgres_changes", { event: "INSERT", schema: "public", table: "conversation_message" }, (p) =>
          box.push(p as never),
        ),
    );
    const otherBox: unknown[] = [];
    const orchard = await realtimeMember(ORCHARD);
    await joined(
      orchard
        .channel(`inbox-${uniq()}`)
        .on("postgres_changes", { event: "*", schema: "public", table: "conversation_message" }, (p) =>
          otherBox.push(p),
        ),
    );
    const pro = await realtimeMember(PRO);
    const proChan = pro
      .channel(`inbox-${uniq()}`)
      .on("postgres_changes", { event: "*", schema: "public", table: "conversation" }, () => undefined);
    await expect(joined(proChan)).rejects.toThrow(/Premium/);
    // A message in a conversation the manager has: the salesperson does not read it, so hears nothing of it.
    const [stranger] = await own.q<{ id: number; external_thread_id: string }>(
      sql`select id, external_thread_id from conversation where title like 'Stranger %' order by id limit 1`,
    );
    await own.q(sql`update conversation set assignee_id = ${await userId(MANAGER)}::uuid where id = ${stranger.id}`);
    const hidden = `wamid.hidden${uniq()}`;
    await post(
      waWebhook([{ phoneNumberId: PHONE_ID, messages: [text(stranger.external_thread_id, hidden, "not yours")] }]),
    );
    const wamid = `wamid.rt${uniq()}`;
    await post(waWebhook([{ phoneNumberId: PHONE_ID, messages: [text(known.number, wamid, "live?")] }]));
    await drained();
    const feed = realtimeOf(own.server.running.database)?.feed;
    await feed?.idle();
    for (let i = 0; i < 50 && !box.some((p) => (p.new as { external_id?: string })?.external_id === wamid); i++) {
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(box.some((p) => (p.new as { body?: string }).body === "live?")).toBe(true);
    expect(await stored(hidden)).toHaveLength(1);
    expect(box.some((p) => (p.new as { body?: string }).body === "not yours")).toBe(false);
    expect(otherBox).toEqual([]);
  });

  it("disconnecting deletes the token; the number's webhooks then store nothing", async () => {
    const gone = await ok(ADMIN, "channel_disconnect", { id: accountId });
    expect(gone).toMatchObject({ status: "disconnected", has_token: false });
    const [row] = await own.q<{ access_token: string | null }>(
      sql`select access_token from channel_account where id = ${accountId}`,
    );
    expect(row.access_token).toBeNull();
    const wamid = `wamid.x${uniq()}`;
    expect(
      (await post(waWebhook([{ phoneNumberId: PHONE_ID, messages: [text(known.number, wamid, "anyone?")] }]))).status,
    ).toBe(200);
    await drained();
    expect(await stored(wamid)).toEqual([]);
    const [c] = await own.q<{ id: number }>(
      sql`select id from conversation where channel_account_id = ${accountId} limit 1`,
    );
    const reply = await rpc(MANAGER, "conversation_reply", { conversation_id: c.id, body: "hello?" });
    expect(reply.status).toBe(422);
    expect(msg(reply)).toMatch(/disconnected/);
    expect((await ok(MANAGER, "conversation_thread", { conversation_id: c.id })).channel_status).toBe("disconnected");
  });
});
