import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { INSTAGRAM_REFRESH_JOB } from "../src/modules/inbox/instagram.ts";
import { ok, rpc } from "./documents-helpers.ts";
import { type FakeIgAccount, type FakeInstagram, startFakeInstagram } from "./fake-instagram.ts";
import { sign } from "./fake-meta-graph.ts";
import { ownServer } from "./own-server-helpers.ts";

// Issue 24, Instagram's business login (the Instagram API with Instagram Login) against a local fake of Instagram's
// login and Graph API (fake-instagram.ts): instagram_connect gives Instagram's sign-in address with a signed state;
// the return to /instagram/callback exchanges the code (short-lived, then long-lived token), keeps the account as
// channel 3 with its token sealed and its expiry, and subscribes it to its messages. A declined sign-in or a forged
// state keeps nothing; a message to the account arrives through /webhooks/meta and the reply goes out through
// Instagram's Graph API with the account's token; the daily job refreshes a token near its end; an account live in
// another workspace is not taken over.

const ADMIN = "admin@demo.test";
const SALES = "sales@demo.test";
const PRO = "admin@pro.test";
const ORCHARD = "owner@orchard.test";
const SECRET = "test-meta-app-secret";
const SHOP: FakeIgAccount = { userId: "17841400000000001", username: "demotrading.sg", name: "Demo Trading" };

const env: Record<string, string> = { META_APP_SECRET: SECRET, META_VERIFY_TOKEN: "verify" };
let fake: FakeInstagram;
beforeAll(async () => {
  fake = await startFakeInstagram();
  Object.assign(env, {
    IG_APP_ID: fake.appId,
    IG_APP_SECRET: fake.appSecret,
    IG_LOGIN_URL: fake.url,
    IG_API_URL: fake.url,
    IG_GRAPH_URL: fake.url,
  });
  fake.signIn(SHOP);
});
const own = ownServer(env);
afterAll(async () => {
  await fake?.close();
});

type Account = {
  id: number;
  workspace_id: string;
  status: string;
  display_name: string;
  access_token: string | null;
  token_expires_at: string | null;
  last_error: string | null;
};
const accounts = async () =>
  (
    await own.db.execute(sql`select id, workspace_id::text, status, display_name, access_token,
      token_expires_at::text, last_error from channel_account where channel_id = 3 and external_id = ${SHOP.userId}
      order by id`)
  ).rows as Account[];
const drained = () => own.server.running.app.jobs.drained(20_000);

// The browser's trip: our sign-in address → Instagram (which consents and sends back a code) → /instagram/callback.
async function connect(email: string): Promise<string> {
  const { url } = (await ok(email, "instagram_connect", {})) as unknown as { url: string };
  const at = new URL(url);
  expect(`${at.origin}${at.pathname}`).toBe(`${fake.url}/oauth/authorize`);
  expect(at.searchParams.get("scope")).toBe("instagram_business_basic,instagram_business_manage_messages");
  expect(at.searchParams.get("redirect_uri")).toBe(`${own.server.url}/instagram/callback`);
  const atInstagram = await fetch(url, { redirect: "manual" });
  expect(atInstagram.status).toBe(302);
  const callback = atInstagram.headers.get("location") as string;
  expect(callback.startsWith(`${own.server.url}/instagram/callback?`)).toBe(true);
  const back = await fetch(callback, { redirect: "manual" });
  expect(back.status).toBe(302);
  return decodeURIComponent((back.headers.get("location") as string).replace(/\+/g, " "));
}

describe("Instagram's business login", () => {
  it("a salesperson cannot start it, a Pro workspace has no channels", async () => {
    expect((await rpc(SALES, "instagram_connect", {})).status).toBe(403);
    expect((await rpc(PRO, "instagram_connect", {})).status).toBe(403);
  });

  it("says which sign-ins this server is set up for (Instagram here, not Outlook), to who may connect", async () => {
    expect(await ok(ADMIN, "channel_sign_ins", {})).toEqual({ outlook: false, instagram: true });
    expect((await rpc(SALES, "channel_sign_ins", {})).status).toBe(403);
  });

  it("a declined sign-in and a forged state keep nothing, and say why", async () => {
    fake.declineNext = true;
    expect(await connect(ADMIN)).toMatch(/^\/dashboard\/cca\?instagram=refused&detail=The user denied your request/);
    const { url } = (await ok(ADMIN, "instagram_connect", {})) as unknown as { url: string };
    const state = new URL(url).searchParams.get("state") as string;
    const forged = `${state.split(".")[0]}x.${state.split(".")[1]}`;
    const back = await fetch(`${own.server.url}/instagram/callback?code=abc&state=${encodeURIComponent(forged)}`, {
      redirect: "manual",
    });
    expect(back.headers.get("location")).toMatch(/instagram=failed/);
    expect(await accounts()).toEqual([]);
  });

  it("the code comes back: the account is kept as channel 3, its long-lived token sealed, subscribed to messages", async () => {
    expect(await connect(ADMIN)).toBe("/dashboard/cca?instagram=connected");
    const [a] = await accounts();
    expect(a).toMatchObject({ status: "connected", display_name: "@demotrading.sg", last_error: null });
    expect(a.workspace_id).toBe(own.ws);
    const days = (Date.parse(a.token_expires_at as string) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(59);
    // Sealed: no token Instagram handed out is in the row.
    for (const t of fake.issued) expect(a.access_token).not.toContain(t);
    expect(fake.subscribed.get(SHOP.userId)).toBe("messages");
    const listed = (await ok(ADMIN, "channel_accounts", {})) as unknown as Array<Record<string, unknown>>;
    const mine = listed.find((x) => x.channel_id === 3) as Record<string, unknown>;
    expect(mine).toMatchObject({ display_name: "@demotrading.sg", status: "connected", has_token: true });
    expect(JSON.stringify(listed)).not.toContain("IGAA");
    // Connecting again keeps one account (a reconnect), with a new token.
    expect(await connect(ADMIN)).toBe("/dashboard/cca?instagram=connected");
    expect(await accounts()).toHaveLength(1);
  });

  it("a message to the account arrives; the reply goes out through Instagram's Graph API with its token", async () => {
    const igsid = `55${Date.now()}`;
    const mid = `aWdfZAG1${Date.now()}`;
    const raw = JSON.stringify({
      object: "instagram",
      entry: [
        {
          id: SHOP.userId,
          time: Date.now(),
          messaging: [
            {
              sender: { id: igsid },
              recipient: { id: SHOP.userId },
              timestamp: Date.now(),
              message: { mid, text: "Is the blue one in stock?" },
            },
          ],
        },
      ],
    });
    const posted = await fetch(`${own.server.url}/webhooks/meta`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-hub-signature-256": sign(SECRET, raw) },
      body: raw,
    });
    expect(posted.status).toBe(200);
    await drained();
    const [m] = (await own.db.execute(sql`select conversation_id from conversation_message where external_id = ${mid}`))
      .rows as Array<{ conversation_id: number }>;
    expect(m).toBeDefined();
    await ok(ADMIN, "conversation_reply", { conversation_id: Number(m.conversation_id), body: "Yes — 12 left." });
    await drained();
    const out = fake.sent.at(-1);
    expect(out?.igUserId).toBe(SHOP.userId);
    expect(out?.body).toEqual({ recipient: { id: igsid }, message: { text: "Yes — 12 left." } });
    expect(fake.issued).toContain(out?.token);
    const [reply] = (
      await own.db.execute(sql`select status, external_id from conversation_message
        where conversation_id = ${m.conversation_id} and direction = 'out' order by id desc limit 1`)
    ).rows as Array<{ status: string; external_id: string }>;
    expect(reply.status).toBe("sent");
    expect(reply.external_id).toMatch(/^aWdfZAG1faWQ/);
  });

  it("the daily job refreshes a token near its end; a refused refresh asks for re-authorising", async () => {
    await own.db.execute(sql`update channel_account set token_expires_at = now() + interval '2 days'
      where channel_id = 3 and external_id = ${SHOP.userId}`);
    const before = fake.refreshes;
    await own.server.running.app.jobs.enqueue(own.db, { name: INSTAGRAM_REFRESH_JOB, payload: {} });
    await drained();
    expect(fake.refreshes).toBe(before + 1);
    let [a] = await accounts();
    expect((Date.parse(a.token_expires_at as string) - Date.now()) / 86_400_000).toBeGreaterThan(59);
    expect(a.status).toBe("connected");
    // Revoked at Instagram: the next refresh is refused.
    for (const t of fake.issued) fake.revoke(t);
    await own.db.execute(sql`update channel_account set token_expires_at = now() + interval '1 day'
      where channel_id = 3 and external_id = ${SHOP.userId}`);
    await own.server.running.app.jobs.enqueue(own.db, { name: INSTAGRAM_REFRESH_JOB, payload: {} });
    await drained();
    [a] = await accounts();
    expect(a.status).toBe("needs_reauth");
    expect(a.last_error).toMatch(/could not be refreshed/);
  });

  it("an account live in another workspace is not taken over", async () => {
    await connect(ADMIN); // live again in demo
    const landed = await connect(ORCHARD);
    expect(landed).toMatch(/instagram=failed&detail=This Instagram account is already connected to another workspace/);
    const rows = await accounts();
    expect(rows).toHaveLength(1);
    expect(rows[0].workspace_id).toBe(own.ws);
  });
});
