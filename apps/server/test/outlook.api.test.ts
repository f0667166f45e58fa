import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { uploadToDrive } from "../src/modules/inbox/microsoft.ts";
import { OUTLOOK_RENEW_JOB } from "../src/modules/inbox/outlook.ts";
import { ok, rpc } from "./documents-helpers.ts";
import { type FakeMicrosoft, type FakeSubscription, type FakeUser, startFakeMicrosoft } from "./fake-microsoft.ts";
import { ownServer } from "./own-server-helpers.ts";
import { restFetch } from "./rest-helpers.ts";

// Issue 24, the Outlook half of the inbox (DESIGN §2.3.2), against a local fake of Microsoft's login and Graph v1.0
// (fake-microsoft.ts): connecting a mailbox through the OAuth code flow (signed state, PKCE) keeps it as channel 4
// with sealed tokens and subscribes to its inbox (Graph really calls /webhooks/outlook back with a validationToken);
// a notification with a wrong clientState stores nothing; a notified mail becomes one message however often it is
// notified, threaded by its conversation, its sender matched to a contact; a reply goes out through Graph; the
// tokens are refreshed with rotation (a refused refresh asks for re-authorising); subscriptions are renewed before
// they lapse and recreated after a 404; other workspaces and salespeople see what the inbox rules let them.

const ADMIN = "admin@demo.test";
const MANAGER = "manager@demo.test";
const SALES = "sales@demo.test";
const PRO = "admin@pro.test";
const ORCHARD = "owner@orchard.test";
const MAILBOX: FakeUser = {
  id: "7f3c0e2a-0b1d-4c55-9a10-outlook00001",
  mail: "sales@demotrading.sg",
  displayName: "Sales",
};

const env: Record<string, string> = {};
let fake: FakeMicrosoft;
beforeAll(async () => {
  fake = await startFakeMicrosoft();
  Object.assign(env, {
    MS_LOGIN_URL: fake.url,
    MS_GRAPH_URL: fake.url,
    MS_CLIENT_ID: fake.clientId,
    MS_CLIENT_SECRET: fake.clientSecret,
  });
  fake.signIn(MAILBOX);
});
const own = ownServer(env, 600_000);
afterAll(async () => {
  await fake?.close();
});

const drained = () => own.server.running.app.jobs.drained(30_000);
const uniq = () => `${Date.now()}${Math.floor(Math.random() * 1000)}`;
const notify = (body: unknown) =>
  fetch(`${own.server.url}/webhooks/outlook`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
type Account = {
  id: number;
  status: string;
  access_token: string | null;
  refresh_token: string | null;
  token_expires_at: string;
  last_error: string | null;
};
const account = async () =>
  (
    await own.q<Account>(sql`select id, status, access_token, refresh_token, token_expires_at::text, last_error
      from channel_account where channel_id = 4 and external_id = ${MAILBOX.id}`)
  )[0];
const subscriptions = () =>
  own.q<{ original_subscription_id: string; expires_at: string }>(sql`select original_subscription_id,
    expires_at::text from outlook_subscription order by created_at desc, id desc`);
const currentSub = async (): Promise<FakeSubscription> =>
  fake.subscriptions.get((await subscriptions())[0].original_subscription_id) as FakeSubscription;
const messages = (mailId: string) =>
  own.q<{ id: number; conversation_id: number; body: string }>(sql`select id, conversation_id, body
    from conversation_message where external_id = ${mailId}`);
const runRenewal = async () => {
  await own.server.running.app.jobs.enqueue(own.db, { name: OUTLOOK_RENEW_JOB, payload: {} });
  await drained();
};

// The browser's trip: our sign-in address → Microsoft (which consents and sends back a code) → /outlook/callback.
async function connect(email: string): Promise<string> {
  const { url } = (await ok(email, "outlook_connect", {})) as unknown as { url: string };
  expect(url.startsWith(`${fake.url}/common/oauth2/v2.0/authorize?`)).toBe(true);
  const atMicrosoft = await fetch(url, { redirect: "manual" });
  expect(atMicrosoft.status).toBe(302);
  const callback = atMicrosoft.headers.get("location") as string;
  expect(callback.startsWith(`${own.server.url}/outlook/callback?`)).toBe(true);
  const back = await fetch(callback, { redirect: "manual" });
  expect(back.status).toBe(302);
  return back.headers.get("location") as string;
}

describe("connecting Outlook", () => {
  it("a salesperson cannot start it, a Pro workspace has no channels", async () => {
    expect((await rpc(SALES, "outlook_connect", {})).status).toBe(403);
    expect((await rpc(PRO, "outlook_connect", {})).status).toBe(403);
  });

  it("a forged or altered state is refused and keeps nothing", async () => {
    const { url } = (await ok(ADMIN, "outlook_connect", {})) as unknown as { url: string };
    const state = new URL(url).searchParams.get("state") as string;
    const forged = `${state.split(".")[0]}x.${state.split(".")[1]}`;
    const back = await fetch(`${own.server.url}/outlook/callback?code=abc&state=${encodeURIComponent(forged)}`, {
      redirect: "manual",
    });
    expect(back.status).toBe(302);
    expect(back.headers.get("location")).toMatch(/outlook=failed/);
    expect(await account()).toBeUndefined();
  });

  it("the code comes back to /outlook/callback: the mailbox is kept sealed and subscribed to", async () => {
    const landed = await connect(ADMIN);
    expect(landed).toMatch(/^\/dashboard\/cca\?outlook=connected/);
    const a = await account();
    expect(a).toMatchObject({ status: "connected" });
    expect(new Date(a.token_expires_at).getTime()).toBeGreaterThan(Date.now() + 30 * 60_000);
    // Graph called our webhook with a validationToken and got it back as text/plain.
    expect(fake.validations.length).toBeGreaterThanOrEqual(1);
    expect(fake.validations.every((v) => v.ok)).toBe(true);
    const subs = await subscriptions();
    expect(subs).toHaveLength(1);
    const sub = fake.subscriptions.get(subs[0].original_subscription_id) as FakeSubscription;
    expect(sub.resource).toBe("me/mailFolders('Inbox')/messages");
    expect(sub.notificationUrl).toBe(`${own.server.url}/webhooks/outlook`);
    expect(Date.parse(sub.expirationDateTime)).toBeLessThanOrEqual(Date.now() + 4230 * 60_000);
    expect(sub.clientState?.length).toBeGreaterThan(20);
    // The accounts list shows it, without any token.
    const listed = (await ok(ADMIN, "channel_accounts", {})) as unknown as Array<Record<string, unknown>>;
    const mine = listed.find((x) => x.channel_id === 4) as Record<string, unknown>;
    expect(mine).toMatchObject({ display_name: MAILBOX.mail, status: "connected", has_token: true });
    expect(JSON.stringify(listed)).not.toMatch(/fake-refresh|eyJ0eXAi/);
  });

  it("the database holds no token in clear", async () => {
    const rows = await own.q<Record<string, unknown>>(sql`select * from channel_account where channel_id = 4`);
    const dump = JSON.stringify(rows);
    for (const t of fake.issued) expect(dump).not.toContain(t);
    expect(rows[0].access_token).toMatch(/^v1\./);
    expect(rows[0].refresh_token).toMatch(/^v1\./);
  });

  it("answers Graph's validationToken handshake with the token as plain text", async () => {
    const token = "Validation: Testing client application reachability for subscription Request-Id: 1a2b";
    const res = await fetch(`${own.server.url}/webhooks/outlook?validationToken=${encodeURIComponent(token)}`, {
      method: "POST",
      headers: { "content-type": "text/plain" },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/plain/);
    expect(await res.text()).toBe(token);
  });
});

describe("mail arriving", () => {
  let known: { id: number; company_id: number; email: string };
  let conversationId = 0;

  beforeAll(async () => {
    [known] = await own.q<{ id: number; company_id: number; email: string }>(sql`select id, company_id, email
      from contact where email like '%@%' and company_id is not null order by id limit 1`);
  });

  it("a wrong clientState is refused and nothing is stored", async () => {
    const mail = fake.deliver(MAILBOX.id, { from: known.email, subject: "Forged", text: "should not land" });
    const res = await notify(fake.notification(await currentSub(), mail.id, "not-our-client-state"));
    expect(res.status).toBe(403);
    const unknownSub = await notify(
      fake.notification({ ...(await currentSub()), id: "00000000-0000-0000-0000-000000000000" }, mail.id),
    );
    expect(unknownSub.status).toBe(403);
    await drained();
    expect(await messages(mail.id)).toHaveLength(0);
  });

  it("a notified mail becomes one message, even redelivered; its sender is the contact with that address", async () => {
    const pdf = Buffer.from("%PDF-1.4 purchase order");
    const mail = fake.deliver(MAILBOX.id, {
      from: known.email,
      subject: `PO ${uniq()} for next week`,
      text: "Please find our purchase order attached.",
      attachments: [
        {
          id: "att1",
          name: "PO.pdf",
          contentType: "application/pdf",
          size: pdf.length,
          contentBytes: pdf.toString("base64"),
        },
      ],
    });
    const body = fake.notification(await currentSub(), mail.id);
    const [first, again] = [await notify(body), await notify(body)];
    expect(first.status).toBe(202);
    expect(again.status).toBe(202);
    await drained();
    await notify(body);
    await drained();
    const stored = await messages(mail.id);
    expect(stored).toHaveLength(1);
    expect(stored[0].body).toContain("Please find our purchase order attached.");
    conversationId = stored[0].conversation_id;
    const [conv] = await own.q<{ title: string; contact_id: number; company_id: number; external_thread_id: string }>(
      sql`select title, contact_id, company_id, external_thread_id from conversation where id = ${conversationId}`,
    );
    expect(conv).toMatchObject({ title: mail.subject, contact_id: known.id, company_id: known.company_id });
    expect(conv.external_thread_id).toBe(mail.conversationId);
    const files = await own.q<{ file_name: string; size: number }>(sql`select file_name, size
      from conversation_attachment where message_id = ${stored[0].id}`);
    expect(files).toEqual([{ file_name: "PO.pdf", size: pdf.length }]);
    // A follow-up in the same Graph conversation joins the thread.
    const next = fake.deliver(MAILBOX.id, {
      from: known.email,
      subject: `RE: ${mail.subject}`,
      text: "And one more thing.",
      conversationId: mail.conversationId,
    });
    expect((await notify(fake.notification(await currentSub(), next.id))).status).toBe(202);
    await drained();
    expect((await messages(next.id))[0].conversation_id).toBe(conversationId);
  });

  it("an unknown sender becomes a new contact; a known domain finds its company", async () => {
    const stranger = `buyer${uniq()}@gmail.com`;
    const m1 = fake.deliver(MAILBOX.id, { from: stranger, subject: "Price list?", text: "Hi" });
    const domain = known.email.split("@")[1];
    const colleague = `colleague${uniq()}@${domain}`;
    const m2 = fake.deliver(MAILBOX.id, { from: colleague, subject: "Also me", text: "Hello" });
    await notify(fake.notification(await currentSub(), m1.id));
    await notify(fake.notification(await currentSub(), m2.id));
    await drained();
    const [c1] = await own.q<{ contact_email: string; company_id: number }>(sql`select k.email as contact_email,
      c.company_id from conversation c join contact k on k.id = c.contact_id and k.workspace_id = c.workspace_id
      where c.external_thread_id = ${m1.conversationId}`);
    expect(c1.contact_email).toBe(stranger);
    expect(c1.company_id).not.toBe(known.company_id);
    const [c2] = await own.q<{ contact_email: string; company_id: number }>(sql`select k.email as contact_email,
      c.company_id from conversation c join contact k on k.id = c.contact_id and k.workspace_id = c.workspace_id
      where c.external_thread_id = ${m2.conversationId}`);
    expect(c2).toEqual({ contact_email: colleague, company_id: known.company_id });
  });

  it("a reply goes out through Graph as a reply to the customer's last mail, a document's PDF attached", async () => {
    const sent = await ok(MANAGER, "conversation_reply", {
      conversation_id: conversationId,
      body: "Thank you, noted.",
    });
    expect(sent).toMatchObject({ status: "queued" });
    await drained();
    const last = fake.replies.at(-1);
    expect(last?.body).toMatchObject({ comment: "Thank you, noted." });
    const lastIn = (
      await own.q<{ external_id: string }>(sql`select external_id from conversation_message
      where conversation_id = ${conversationId} and direction = 'in' order by created_at desc, id desc limit 1`)
    )[0];
    expect(last?.messageId).toBe(lastIn.external_id);
    const [out] = await own.q<{ status: string }>(sql`select status from conversation_message where id = ${sent.id}`);
    expect(out.status).toBe("sent");

    const q = await ok(MANAGER, "document_save", {
      type: "quotation",
      header: { company_id: known.company_id },
      lines: [],
    });
    await ok(MANAGER, "conversation_reply", {
      conversation_id: conversationId,
      document: { type: "quotation", id: q.id },
    });
    await drained();
    const withPdf = fake.replies.at(-1)?.body as { message?: { attachments?: Array<Record<string, string>> } };
    expect(withPdf.message?.attachments?.[0]).toMatchObject({
      "@odata.type": "#microsoft.graph.fileAttachment",
      contentType: "application/pdf",
    });
    expect(
      Buffer.from(withPdf.message?.attachments?.[0].contentBytes ?? "", "base64")
        .subarray(0, 5)
        .toString(),
    ).toBe("%PDF-");
  });

  it("salespeople read their own and unassigned conversations; other workspaces read none", async () => {
    const sales = (await ok(SALES, "conversation_list", { channel_id: 4 })) as unknown as {
      rows: Array<{ id: number }>;
    };
    expect(sales.rows.map((r) => r.id)).toContain(conversationId);
    const managerId = (await own.q<{ id: string }>(sql`select id::text from "user" where email = ${MANAGER}`))[0].id;
    await ok(MANAGER, "conversation_assign", { conversation_id: conversationId, user_id: managerId });
    const after = (await ok(SALES, "conversation_list", { channel_id: 4 })) as unknown as {
      rows: Array<{ id: number }>;
    };
    expect(after.rows.map((r) => r.id)).not.toContain(conversationId);
    expect(
      (await rpc(SALES, "conversation_thread", { conversation_id: conversationId })).status,
    ).toBeGreaterThanOrEqual(403);
    for (const other of [ORCHARD]) {
      const list = await rpc(other, "conversation_list", { channel_id: 4 });
      expect(JSON.stringify(list.body)).not.toContain(MAILBOX.mail);
      const rest = await restFetch(other, "channel_account?select=id,display_name");
      expect(JSON.stringify(rest.body)).not.toContain(MAILBOX.mail);
      const thread = await rpc(other, "conversation_thread", { conversation_id: conversationId });
      expect(thread.status).toBeGreaterThanOrEqual(400);
    }
  });
});

describe("keeping the connection alive", () => {
  it("an expiring access token is refreshed once, and the rotated refresh token kept", async () => {
    const before = await account();
    await own.q(sql`update channel_account set token_expires_at = now() - interval '1 minute' where id = ${before.id}`);
    const refreshes = fake.refreshes;
    const mail = fake.deliver(MAILBOX.id, { from: "someone@example.com", subject: "After expiry", text: "x" });
    await notify(fake.notification(await currentSub(), mail.id));
    await notify(fake.notification(await currentSub(), mail.id));
    await drained();
    expect(await messages(mail.id)).toHaveLength(1);
    expect(fake.refreshes).toBe(refreshes + 1);
    const after = await account();
    expect(after.status).toBe("connected");
    expect(after.refresh_token).not.toBe(before.refresh_token);
    expect(after.access_token).not.toBe(before.access_token);
    expect(new Date(after.token_expires_at).getTime()).toBeGreaterThan(Date.now() + 30 * 60_000);
  });

  it("the scheduled job renews a subscription about to lapse", async () => {
    const [sub] = await subscriptions();
    await own.q(sql`update outlook_subscription set expires_at = now() + interval '2 hours'
      where original_subscription_id = ${sub.original_subscription_id}`);
    fake.subscriptions.get(sub.original_subscription_id)!.expirationDateTime = new Date(
      Date.now() + 2 * 3600_000,
    ).toISOString();
    await runRenewal();
    const [renewed] = await subscriptions();
    expect(renewed.original_subscription_id).toBe(sub.original_subscription_id);
    expect(new Date(renewed.expires_at).getTime()).toBeGreaterThan(Date.now() + 60 * 3600_000);
    expect(Date.parse(fake.subscriptions.get(sub.original_subscription_id)!.expirationDateTime)).toBeGreaterThan(
      Date.now() + 60 * 3600_000,
    );
  });

  it("a lapsed subscription (Graph answers 404) is recreated, and mail flows through the new one", async () => {
    const [old] = await subscriptions();
    fake.lapse(old.original_subscription_id);
    const validations = fake.validations.length;
    await runRenewal();
    const subs = await subscriptions();
    expect(subs[0].original_subscription_id).not.toBe(old.original_subscription_id);
    expect(fake.validations.length).toBeGreaterThan(validations);
    const mail = fake.deliver(MAILBOX.id, { from: "after@example.com", subject: "Via the new one", text: "y" });
    expect((await notify(fake.notification(await currentSub(), mail.id))).status).toBe(202);
    await drained();
    expect(await messages(mail.id)).toHaveLength(1);
  });

  it("lifecycle events: subscriptionRemoved recreates, missed catches up by delta", async () => {
    const [before] = await subscriptions();
    expect((await notify(fake.lifecycle(await currentSub(), "subscriptionRemoved"))).status).toBe(202);
    await drained();
    const [after] = await subscriptions();
    expect(after.original_subscription_id).not.toBe(before.original_subscription_id);
    const unseen = fake.deliver(MAILBOX.id, { from: "quiet@example.com", subject: "Never notified", text: "z" });
    expect((await notify(fake.lifecycle(await currentSub(), "missed"))).status).toBe(202);
    await drained();
    expect(await messages(unseen.id)).toHaveLength(1);
    const count = await own.q<{ n: number }>(sql`select count(*)::int as n from conversation_message m
      join conversation c on c.id = m.conversation_id and c.workspace_id = m.workspace_id
      join channel_account a on a.id = c.channel_account_id and a.workspace_id = c.workspace_id
      where a.channel_id = 4 and m.direction = 'in'
      group by m.external_id having count(*) > 1`);
    expect(count).toEqual([]);
  });

  it("a refused refresh marks the account as needing re-authorising", async () => {
    const a = await account();
    fake.revokeRefreshTokens();
    await own.q(sql`update channel_account set token_expires_at = now() - interval '1 minute' where id = ${a.id}`);
    await runRenewal();
    const after = await account();
    expect(after.status).toBe("needs_reauth");
    expect(after.last_error).toMatch(/refresh token/i);
    const listed = (await ok(ADMIN, "channel_accounts", {})) as unknown as Array<Record<string, unknown>>;
    expect(listed.find((x) => x.channel_id === 4)).toMatchObject({ status: "needs_reauth" });
    // Connecting again puts it right.
    expect(await connect(ADMIN)).toMatch(/outlook=connected/);
    expect((await account()).status).toBe("connected");
  });
});

describe("OneDrive", () => {
  it("saves a document's PDF into the chosen folder and keeps the link in its history", async () => {
    const [company] = await own.q<{ id: number }>(sql`select id from company where is_customer order by id limit 1`);
    const q = await ok(MANAGER, "document_save", { type: "quotation", header: { company_id: company.id }, lines: [] });
    const res = (await ok(MANAGER, "onedrive_save", {
      document_type: "quotation",
      document_id: q.id,
      folder: "/Workmetrics/Quotations 2026/",
    })) as unknown as { queued: boolean; path: string };
    expect(res.queued).toBe(true);
    expect(res.path).toMatch(/^Workmetrics\/Quotations 2026\/.+\.pdf$/);
    await drained();
    const file = fake.files.get(res.path);
    expect(file?.via).toBe("simple");
    expect(file?.bytes.subarray(0, 5).toString()).toBe("%PDF-");
    const [event] = await own.q<{ reason: string; changes: { upload: string } }>(sql`select reason, changes
      from document_event where doc_type = 'quotation' and doc_id = ${q.id} and action = 'onedrive'`);
    expect(event.reason).toBe(file?.webUrl);
    expect(event.changes.upload).toBe("simple");
  });

  it("refuses a folder with .. (naming the field) and a workspace without the feature", async () => {
    const bad = await rpc(MANAGER, "onedrive_save", { document_type: "quotation", document_id: 1, folder: "a/../b" });
    expect(bad.status).toBe(422);
    expect(JSON.stringify(bad.body)).toMatch(/folder/);
    const pro = await rpc(PRO, "onedrive_save", { document_type: "quotation", document_id: 1, folder: "Docs" });
    expect(pro.status).toBe(403);
  });

  it("a file of 4 MB or more goes up through an upload session in 320 KiB-multiple chunks", async () => {
    const token = fake.issued.filter((t) => t.startsWith("eyJ")).at(-1) as string;
    const big = Buffer.alloc(5 * 1024 * 1024 + 123, 7);
    const item = await uploadToDrive(fake.url, token, "Workmetrics/Big/statement.pdf", big, "application/pdf");
    expect(item.via).toBe("session");
    const file = fake.files.get("Workmetrics/Big/statement.pdf");
    expect(file?.via).toBe("session");
    expect(file?.chunks).toBe(2);
    expect(file?.bytes.equals(big)).toBe(true);
    expect(item.webUrl).toBe(file?.webUrl);
  });
});

describe("disconnecting Outlook", () => {
  it("deletes the Graph subscription and forgets the tokens; a notification for it is then refused", async () => {
    const a = await account();
    const sub = await currentSub();
    expect(sub.deleted).toBeFalsy();
    const gone = (await ok(ADMIN, "channel_disconnect", { id: a.id })) as unknown as Record<string, unknown>;
    expect(gone).toMatchObject({ status: "disconnected", has_token: false });
    expect(fake.subscriptions.get(sub.id)?.deleted).toBe(true);
    expect(fake.calls.some((c) => c.method === "DELETE" && c.path.endsWith(`/subscriptions/${sub.id}`))).toBe(true);
    const after = await account();
    expect(after).toMatchObject({ status: "disconnected", access_token: null, refresh_token: null });
    const [row] = await own.q<{ ended: boolean }>(sql`select expires_at <= now() as ended from outlook_subscription
      where original_subscription_id = ${sub.id}`);
    expect(row.ended).toBe(true);
    const mail = fake.deliver(MAILBOX.id, { from: "late@example.com", subject: "After disconnect", text: "no" });
    expect((await notify(fake.notification(sub, mail.id))).status).toBe(403);
    await drained();
    expect(await messages(mail.id)).toHaveLength(0);
  });

  it("a Graph that refuses does not block the disconnect: the subscription is left to lapse", async () => {
    expect(await connect(ADMIN)).toMatch(/outlook=connected/);
    const a = await account();
    const sub = await currentSub();
    // The access token has expired and Microsoft refuses the refresh: no token to delete the subscription with.
    fake.revokeRefreshTokens();
    await own.q(sql`update channel_account set token_expires_at = now() - interval '1 minute' where id = ${a.id}`);
    const gone = (await ok(ADMIN, "channel_disconnect", { id: a.id })) as unknown as Record<string, unknown>;
    expect(gone).toMatchObject({ status: "disconnected", has_token: false });
    expect(fake.subscriptions.get(sub.id)?.deleted).toBeFalsy();
    expect(await account()).toMatchObject({ status: "disconnected", access_token: null, refresh_token: null });
    const mail = fake.deliver(MAILBOX.id, { from: "late@example.com", subject: "Still subscribed", text: "no" });
    expect((await notify(fake.notification(sub, mail.id))).status).toBe(403);
    await drained();
    expect(await messages(mail.id)).toHaveLength(0);
  });
});
